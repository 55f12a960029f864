/**
 * A unified diff of two texts, for `--dry-run`: common leading and trailing lines are set aside,
 * the rest is compared with Myers' O(ND) algorithm (install's edits are small, so D is too),
 * and changes are shown in hunks with three lines of context.
 */

/** Lines of context around each change. */
const CONTEXT = 3;

/** Above this many differing lines in the middle, show it as one replace (still a correct diff). */
const MYERS_MAX = 20_000;

type Op = { readonly kind: " " | "-" | "+"; readonly line: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max > MYERS_MAX) {
    return [
      ...a.map((line) => ({ kind: "-" as const, line })),
      ...b.map((line) => ({ kind: "+" as const, line })),
    ];
  }
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
        ? v[offset + k + 1]!
        : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  // Walk back through the trace.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: " ", line: a[--x]! }), y--;
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: "+", line: b[--y]! });
    else ops.push({ kind: "-", line: a[--x]! });
  }
  while (x > 0 && y > 0) ops.push({ kind: " ", line: a[--x]! }), y--;
  return ops.reverse();
}

/**
 * The unified diff from `before` to `after` with `---`/`+++` headers naming `fromName` and
 * `toName`; "" when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, fromName: string, toName: string): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const ops: Op[] = [
    ...a.slice(0, head).map((line) => ({ kind: " " as const, line })),
    ...myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ kind: " " as const, line })),
  ];
  const out = [`--- ${fromName}`, `+++ ${toName}`];
  // Group changes into hunks separated by more than 2 * CONTEXT unchanged lines.
  let i = 0;
  let aLine = 0;
  let bLine = 0;
  const posA: number[] = [];
  const posB: number[] = [];
  for (const op of ops) {
    posA.push(aLine);
    posB.push(bLine);
    if (op.kind !== "+") aLine++;
    if (op.kind !== "-") bLine++;
  }
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === " ") i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== " ") end++;
      let gap = end;
      while (gap < ops.length && ops[gap]!.kind === " ") gap++;
      if (gap < ops.length && gap - end <= 2 * CONTEXT) {
        end = gap;
        continue;
      }
      end = Math.min(ops.length, end + CONTEXT);
      break;
    }
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((o) => o.kind !== "+").length;
    const bCount = hunk.filter((o) => o.kind !== "-").length;
    const aStart = aCount === 0 ? posA[start]! : posA[start]! + 1;
    const bStart = bCount === 0 ? posB[start]! : posB[start]! + 1;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const op of hunk) out.push(op.kind + op.line);
    i = end;
  }
  const noEol = (t: string) => t !== "" && !t.endsWith("\n");
  if (noEol(before) || noEol(after)) out.push("\\ No newline at end of file");
  return out.join("\n") + "\n";
}
