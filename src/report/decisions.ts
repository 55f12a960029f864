/**
 * Your decisions at a glance (pure): from the archive's records and the person's marks, per
 * project, newest first, the statements verdict treats as decisions (src/gate/decisions.ts: typed
 * sentences with a live decision marker) and the decisions added by hand, each with its date, id
 * and state. A text sent again is one entry, its newest copy, with the number of copies.
 */
import type { VerdictRecord } from "../record/record.ts";
import { sourcePosition } from "../record/record.ts";
import { decisionStatements } from "../gate/decisions.ts";
import { sameTextKey } from "../gate/statements.ts";
import type { Marks } from "../store/marks.ts";

export interface DecisionEntry {
  readonly id: string;
  readonly time: string;
  readonly kind: VerdictRecord["kind"];
  readonly origin: string;
  readonly project: string;
  readonly source: string;
  readonly statements: readonly string[];
  /** "live", or each of "retracted on DATE (why)", "superseded by ID on DATE (why)", "replaces ID", "muted", "muted in DIR", "pinned on WORDS". */
  readonly state: readonly string[];
  /** Copies of this text in the archive (1: said once). */
  readonly copies: number;
}

export interface ProjectDecisions {
  /** The project folder ("" when the records name none). */
  readonly project: string;
  /** Newest first. */
  readonly decisions: readonly DecisionEntry[];
}

/** The states of a record as the decisions list says them. */
export function decisionState(marks: Marks, replaces: ReadonlyMap<string, string[]>, id: string): string[] {
  const out: string[] = [];
  const r = marks.retracted.get(id);
  if (r) {
    const why = r.why ? ` (${r.why})` : "";
    out.push(
      r.by
        ? `superseded by ${r.by} on ${r.at.slice(0, 10)}${why}`
        : `retracted on ${r.at.slice(0, 10)}${why}`,
    );
  }
  for (const old of replaces.get(id) ?? []) out.push(`replaces ${old}`);
  for (const scope of marks.muted.get(id) ?? []) out.push(scope === "" ? "muted" : `muted in ${scope}`);
  const pin = marks.pinned.get(id);
  if (pin) out.push(`pinned on ${pin.words.join(", ")}`);
  return out.length === 0 ? ["live"] : out;
}

/**
 * The decisions of `records` (any order) that `keep` lets through, grouped by project (the
 * project with the newest decision first; then by name), each project's newest first.
 * `byHand(r)`: a decision added by hand, listed whole.
 */
export function decisionsOf(
  records: Iterable<VerdictRecord>,
  marks: Marks,
  keep: (r: VerdictRecord) => boolean,
  byHand: (r: VerdictRecord) => boolean,
): ProjectDecisions[] {
  const replaces = new Map<string, string[]>();
  for (const [id, r] of marks.retracted) {
    if (r.by) replaces.set(r.by, [...(replaces.get(r.by) ?? []), id].sort());
  }
  // Per project, per text: the newest copy and how many there are.
  const projects = new Map<
    string,
    Map<string, { entry: VerdictRecord; statements: string[]; copies: number }>
  >();
  for (const r of records) {
    if (!keep(r)) continue;
    const statements = byHand(r) || marks.pinned.has(r.id) ? [r.text.trim()] : decisionStatements(r.text);
    if (statements.length === 0) continue;
    const key = sameTextKey(statements.join("\n"));
    let texts = projects.get(r.project);
    if (!texts) projects.set(r.project, texts = new Map());
    const known = texts.get(key);
    if (known === undefined) texts.set(key, { entry: r, statements, copies: 1 });
    else {
      known.copies++;
      if (newer(r, known.entry)) {
        known.entry = r;
        known.statements = statements;
      }
    }
  }
  const out: ProjectDecisions[] = [];
  for (const [project, texts] of projects) {
    const decisions = [...texts.values()]
      .sort((a, b) => (newer(a.entry, b.entry) ? -1 : 1))
      .map(({ entry: r, statements, copies }) => ({
        id: r.id,
        time: r.time,
        kind: r.kind,
        origin: r.origin,
        project: r.project,
        source: sourcePosition(r),
        statements,
        state: decisionState(marks, replaces, r.id),
        copies,
      }));
    out.push({ project, decisions });
  }
  return out.sort((a, b) => {
    const ta = a.decisions[0]!.time;
    const tb = b.decisions[0]!.time;
    if (ta !== tb) return ta > tb ? -1 : 1;
    return a.project < b.project ? -1 : a.project > b.project ? 1 : 0;
  });
}

function newer(a: VerdictRecord, b: VerdictRecord): boolean {
  if (a.time !== b.time) return a.time > b.time;
  return a.id > b.id;
}
