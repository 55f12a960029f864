/** Small helpers shared by tests. */

/** Runs `fn` and returns what it threw; fails when it does not throw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected the function to throw");
}

/** Awaits `p` and returns what it rejected with; fails when it resolves. */
export async function rejected(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject");
}
