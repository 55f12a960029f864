/**
 * A seeded generator of uniform numbers in [0, 1) (mulberry32): the benchmarks' synthetic data,
 * the tests' random sequences and the evaluation's resampling draw the same numbers on every run,
 * whatever the clock or the run order, and a failing sequence is replayed from its seed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
