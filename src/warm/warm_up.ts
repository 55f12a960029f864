/**
 * The helper's warm-up: once listening, it asks itself the archive's newest typed prompts through
 * the hint's own search and gate and throws the answers away.
 *
 * Why: a helper's first prompts pay what later ones do not — V8 compiling the search and the
 * gate, and the archive's common words' lists and document rows read for the first time. At 10⁶
 * records, in one process, the first 20 distinct prompts took p50 3.1–5.5 ms and prompts 100–400
 * 0.4–2.6 ms; a fresh reader in a process that had already compiled the code 2.2 ms for its first
 * 20, 0.41 ms after 10 other prompts (docs/hook_startup.md, "Warm-up"). The user's newest prompts
 * are the words the next ones most likely share.
 *
 * It runs before the helper listens: a prompt meanwhile finds no helper and runs in-process, as
 * it would before any helper started, instead of waiting behind a cold search (a warm-up that ran
 * beside the first prompts made them slower: 45–70 ms against 27–44 ms, 10⁶ records). Bounded by
 * WARM_UP_MAX_MS. Nothing of it reaches anyone: no ledger is read or written, nothing is printed,
 * the answers are dropped; what stays is what any request leaves (the kept archive's lists and
 * rows, the gate's bounded memo), which the kept-archive tests hold to give the in-process bytes.
 */
import type { ArchiveSource } from "../hint/run.ts";
import { hintFor, HOOK_TOP } from "../gate/hint.ts";

/** Prompts asked at most: the measured first-prompt cost was gone after about ten. */
export const WARM_UP_PROMPTS = 24;

/** Newest documents looked at for typed prompts: a bound on the records read. */
export const WARM_UP_SCAN = 400;

/** A prompt longer than this is not asked (a pasted log would cost more than it warms). */
export const WARM_UP_MAX_CHARS = 2000;

/**
 * The warm-up ends after this long (it delays the helper's listening): 24 cold prompts at 10⁶
 * records took about 200 ms on two cores.
 */
export const WARM_UP_MAX_MS = 500;

export interface WarmUpInput {
  readonly source: ArchiveSource;
  readonly recordsPath: string;
  readonly entitiesPath: string | null;
  readonly personas: readonly string[];
  /** True once the helper is stopping: the warm-up ends (it also ends after WARM_UP_MAX_MS). */
  readonly stopped: () => boolean;
}

/** Asks up to WARM_UP_PROMPTS of the archive's newest prompts; the number asked. Never throws. */
export async function warmUp(input: WarmUpInput): Promise<number> {
  let asked = 0;
  const until = performance.now() + WARM_UP_MAX_MS;
  const over = () => input.stopped() || performance.now() > until;
  try {
    const held = await input.source.open(input.recordsPath);
    if (held === null) return 0;
    let trusted = true;
    try {
      const entities = await input.source.entities(input.entitiesPath);
      const { corpus, record } = held.loaded;
      const textOf = (doc: number) => {
        const r = record(doc);
        if (r === null) throw new Error("a record the index names was removed");
        return r.text;
      };
      const nowMs = Date.now();
      const last = corpus.docSlots - 1;
      for (let doc = last; doc >= 0 && doc > last - WARM_UP_SCAN && asked < WARM_UP_PROMPTS; doc--) {
        if (over()) break;
        const r = record(doc);
        if (r === null || r.kind !== "prompt" || r.text.length > WARM_UP_MAX_CHARS) continue;
        hintFor(corpus, {
          prompt: r.text,
          session: null,
          cwd: null,
          nowMs,
          shown: new Set(),
          entities,
          personas: input.personas,
          top: HOOK_TOP,
          textOf,
        });
        asked++;
      }
    } catch {
      trusted = false;
    } finally {
      held.release(trusted);
    }
  } catch {
    // An archive that cannot be opened now is the first request's to report (it answers in-process).
  }
  return asked;
}
