/**
 * What a person's marks do to a hint, applied around the gate and never inside its ranking rules
 * (pure): a muted record is left out of the search (everywhere, or in the project it was muted
 * in); a retracted decision the gate picks is never shown as current, but as changed: what
 * replaced it, or that it no longer holds; a pinned record is shown when the prompt names one of
 * its trigger words, even where the gate stays silent (the cooldown still applies).
 */
import type { Marks, Retraction } from "../store/marks.ts";

/** Whether `cwd` is `scope` or below it ("" is everywhere). */
export function inScope(scope: string, cwd: string | null): boolean {
  if (scope === "") return true;
  if (cwd === null) return false;
  const s = scope.endsWith("/") ? scope.slice(0, -1) : scope;
  return cwd === s || cwd.startsWith(`${s}/`);
}

/** Whether a record muted in `scopes` is muted for a prompt typed in `cwd`. */
export function mutedIn(scopes: readonly string[] | undefined, cwd: string | null): boolean {
  return scopes !== undefined && scopes.some((s) => inScope(s, cwd));
}

/**
 * The ids the search must not hand the gate: the cooldown's, and the records muted here. The
 * cooldown set is returned as it is when nothing is muted (the common case costs nothing).
 */
export function excludedIds(
  shown: ReadonlySet<string>,
  marks: Marks,
  cwd: string | null,
): ReadonlySet<string> {
  if (marks.muted.size === 0) return shown;
  const out = new Set(shown);
  for (const [id, scopes] of marks.muted) if (mutedIn(scopes, cwd)) out.add(id);
  return out;
}

/** The words of a prompt a trigger word is matched against: lower-case runs of letters, digits, `_.-`. */
export function promptWords(prompt: string): Set<string> {
  return new Set(prompt.toLowerCase().match(/[\p{L}\p{N}_.-]+/gu) ?? []);
}

/** Whether a trigger word is named in a prompt (CJK words, which have no spaces, as a substring). */
function names(prompt: string, words: ReadonlySet<string>, trigger: string): boolean {
  if (words.has(trigger)) return true;
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(trigger) &&
    prompt.toLowerCase().includes(trigger);
}

/**
 * The pinned records a prompt triggers, in id order: one of its words named, not shown in this
 * session yet, not muted here, not retracted.
 */
export function triggeredPins(
  marks: Marks,
  prompt: string,
  cwd: string | null,
  shown: ReadonlySet<string>,
): string[] {
  if (marks.pinned.size === 0) return [];
  const words = promptWords(prompt);
  const out: string[] = [];
  for (const [id, pin] of marks.pinned) {
    if (shown.has(id) || mutedIn(marks.muted.get(id), cwd) || marks.retracted.has(id)) continue;
    if (pin.words.some((w) => names(prompt, words, w))) out.push(id);
  }
  return out.sort();
}

/** A retracted record the gate picked: what it becomes in the hint. */
export interface Changed {
  readonly retraction: Retraction;
  /** The replacing record's id when it is there and may be shown here, else null. */
  readonly by: string | null;
}

/**
 * What a picked record's retraction means for this prompt, or null when it is not retracted. The
 * replacement is shown only when it exists, is not muted here and is not retracted itself.
 */
export function changedFor(
  marks: Marks,
  id: string,
  cwd: string | null,
  exists: (id: string) => boolean,
): Changed | null {
  const retraction = marks.retracted.get(id);
  if (retraction === undefined) return null;
  const by = retraction.by;
  const usable = by !== null && exists(by) && !mutedIn(marks.muted.get(by), cwd) &&
    !marks.retracted.has(by);
  return { retraction, by: usable ? by : null };
}

/** The retracted record `id` replaces (`retract --by id`; the earliest id when several), or null. */
export function replacedBy(marks: Marks, id: string): { id: string; retraction: Retraction } | null {
  let found: { id: string; retraction: Retraction } | null = null;
  for (const [old, retraction] of marks.retracted) {
    if (retraction.by === id && (found === null || old < found.id)) found = { id: old, retraction };
  }
  return found;
}
