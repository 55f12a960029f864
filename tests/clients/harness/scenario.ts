/**
 * Small pieces every client test file uses: one scenario run shared by the file's tests, and
 * reading the JSONL files agents write.
 */

/**
 * `run` once, the first time the result is asked for; every later call gets the same promise.
 * A client scenario drives the agent through a whole story once (minutes of real CLI time) and
 * each test asserts one claim on what was recorded.
 */
export function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | null = null;
  return () => (result ??= run());
}

/** The JSON lines of `path` (lines that do not parse are skipped: a live file may end mid-line). */
export async function readJsonl(path: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const line of (await Deno.readTextFile(path)).split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) out.push(v);
    } catch {
      // a torn last line
    }
  }
  return out;
}

/** Options for a client test: one scenario spans several tests, so its resources outlive none. */
export const CLIENT_TEST = { sanitizeOps: false, sanitizeResources: false } as const;

/** Fails (showing the end of `text`) unless `text` contains `part`. */
export function assertIncludes(text: string, part: string, what = "the text"): void {
  if (!text.includes(part)) {
    throw new Error(`${what} does not contain ${JSON.stringify(part)}; it ends:\n${text.slice(-1500)}`);
  }
}
