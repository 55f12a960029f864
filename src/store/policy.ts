/**
 * When index segments merge (pure). Segments are kept in row-id order and only neighbours merge,
 * so every segment covers its own range of row ids (a deleted record's segment is found from its
 * row id alone). Three rules, in this order:
 *
 * 1. A segment with more than MAX_DELETED_SHARE of its documents deleted is rewritten without
 *    them (deleted documents cost space and their df corrections cost a look-up per term).
 * 2. The newest segments smaller than SMALL_SEGMENT_DOCS merge into one: a collect that adds a
 *    prompt rewrites at most that many documents, and a query never opens a long tail of tiny files.
 * 3. MERGE_FACTOR neighbouring segments of the same size class (a power of MERGE_FACTOR above the
 *    small size) merge into one of the next class: each document is rewritten about
 *    log_F(N / SMALL_SEGMENT_DOCS) times in its life, and an archive keeps at most F − 1
 *    segments per class.
 */

/** What the policy reads of a segment. */
export interface SegmentSize {
  readonly docs: number;
  readonly deleted: number;
}

/** Rewrite a segment once this share of it is deleted documents. */
export const MAX_DELETED_SHARE = 0.3;
/** Segments this small (live documents) merge as soon as there are two: rewriting them is cheap. */
export const SMALL_SEGMENT_DOCS = 2048;
/** Segments of one size class that merge into one. */
export const MERGE_FACTOR = 8;

function sizeClass(live: number): number {
  return Math.floor(Math.log(Math.max(1, live / SMALL_SEGMENT_DOCS)) / Math.log(MERGE_FACTOR));
}

/**
 * The next merges to run, as groups of neighbouring indices into `segments` (in row-id order);
 * empty when none is due. The caller runs them and asks again.
 */
export function planMerges(segments: readonly SegmentSize[]): number[][] {
  const live = segments.map((s) => s.docs - s.deleted);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.deleted > 0 && s.deleted > MAX_DELETED_SHARE * s.docs) return [[i]];
  }
  let tail = segments.length;
  while (tail > 0 && live[tail - 1]! < SMALL_SEGMENT_DOCS) tail--;
  if (segments.length - tail >= 2) {
    return [Array.from({ length: segments.length - tail }, (_, k) => tail + k)];
  }
  // Runs of one size class, newest first.
  let end = segments.length;
  while (end > 0) {
    const cls = sizeClass(live[end - 1]!);
    let start = end - 1;
    while (start > 0 && sizeClass(live[start - 1]!) === cls && live[start - 1]! >= SMALL_SEGMENT_DOCS) {
      start--;
    }
    if (live[end - 1]! >= SMALL_SEGMENT_DOCS && end - start >= MERGE_FACTOR) {
      return [Array.from({ length: MERGE_FACTOR }, (_, k) => end - MERGE_FACTOR + k)];
    }
    end = start;
  }
  return [];
}
