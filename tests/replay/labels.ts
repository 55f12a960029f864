/**
 * The replay labels: keys and verdicts only, one JSON line each, filed per history, never the
 * texts. `fnv1a64(prompt, NUL, quoted text)` is the key; the texts stay in the shared data.
 *
 * A line is `{"key", "label", "reason"}` plus, for a label that came through the blind protocol
 * (`eval:replay --export-pairs` → a reader → `--import-labels`), `"labeller"`: the reader's name.
 * A line without a labeller was written by the people who wrote the gate's rules; `--blind-only`
 * leaves such lines out. A correction never rewrites a line: it is a later line for the same key
 * with `"was"` (the label it corrects), so the old label stays beside the new one.
 *
 * The first reading of a pair is in `<labels>/<history>.jsonl`; a second, independent reading (for
 * the agreement figure) in `<labels>/second/<history>.jsonl`, same format.
 */
import { fnv1a64 } from "../../src/record/record.ts";

export const LABELS_DIR = new URL("../fixtures/replay/", import.meta.url);

/** The labels a pair can get (the rubric of the evaluation protocol). */
export const LABELS = ["relevant", "not-decision", "off-topic", "paste", "repeat", "other"] as const;
export type Label = typeof LABELS[number];

/** How a line without a labeller is named in figures: the rules' authors (not blind). */
export const AUTHORS = "authors";

/** A labeller's name: a short word, never the reserved AUTHORS. */
const LABELLER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** A reason is one short line in the labeller's own words, never a copied text. */
export const MAX_REASON = 140;

export interface LabelEntry {
  readonly key: string;
  readonly label: Label;
  readonly reason: string;
  /** Who labelled it through the blind protocol; absent: the rules' authors. */
  readonly labeller?: string;
  /** On a correction: the label it replaces (which stays in the file, on its own line). */
  readonly was?: Label;
}

/** The key of a (prompt, quoted text) pair. */
export function pairKey(prompt: string, quote: string): string {
  return fnv1a64(`${prompt}\u0000${quote}`);
}

/** Whether a label came through the blind protocol. */
export function isBlind(entry: LabelEntry): boolean {
  return entry.labeller !== undefined;
}

/** The name of whoever gave a label. */
export function labellerOf(entry: LabelEntry): string {
  return entry.labeller ?? AUTHORS;
}

/** Checks a labeller's name; returns the problem or null. */
export function labellerProblem(name: string): string | null {
  if (name === AUTHORS) return `"${AUTHORS}" is reserved for the labels the rules' authors wrote`;
  if (!LABELLER.test(name)) return `"${name}" is not a labeller name (letters, digits, . _ -; at most 40)`;
  return null;
}

const FIELDS = new Set(["key", "label", "reason", "labeller", "was"]);

/**
 * The current label of each key in a label file's text (a correction replaces the label it names
 * in `was`). Throws, naming the line, on a malformed line, an unknown label or field, a key given
 * twice without `was`, or a `was` that is not the key's current label.
 */
export function parseLabels(text: string, where: string): Map<string, LabelEntry> {
  const labels = new Map<string, LabelEntry>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const at = `${where}:${i + 1}`;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`${at}: not a JSON line`);
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`${at}: not a JSON object`);
    for (const k of Object.keys(v)) if (!FIELDS.has(k)) throw new Error(`${at}: unknown field "${k}"`);
    if (typeof v.key !== "string" || !/^[0-9a-f]{16}$/.test(v.key)) throw new Error(`${at}: bad key`);
    if (!LABELS.includes(v.label as Label)) throw new Error(`${at}: unknown label "${v.label}"`);
    if (typeof v.reason !== "string" || v.reason.trim() === "") throw new Error(`${at}: no reason`);
    if (v.labeller !== undefined) {
      const problem = typeof v.labeller === "string" ? labellerProblem(v.labeller) : "not a string";
      if (problem !== null) throw new Error(`${at}: labeller ${problem}`);
    }
    const entry = v as unknown as LabelEntry;
    const known = labels.get(entry.key);
    if (entry.was !== undefined) {
      if (!LABELS.includes(entry.was)) throw new Error(`${at}: unknown label "${entry.was}" in was`);
      if (known === undefined) {
        throw new Error(`${at}: corrects key ${entry.key}, which has no label before it`);
      }
      if (known.label !== entry.was) {
        throw new Error(`${at}: corrects "${entry.was}" but key ${entry.key} is labelled "${known.label}"`);
      }
    } else if (known !== undefined) {
      throw new Error(`${at}: key ${entry.key} labelled twice (a correction names the old label in "was")`);
    }
    labels.set(entry.key, entry);
  });
  return labels;
}

/** Where a history's labels are: the first reading, or the second (`second/`). */
export function labelFile(dir: URL, history: string, second = false): URL {
  return new URL(`${second ? "second/" : ""}${history}.jsonl`, dir);
}

function readOrEmpty(file: URL): string {
  try {
    return Deno.readTextFileSync(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  }
}

/** A history's current labels (first reading, or the second). A missing file is no labels. */
export function loadLabels(history: string, dir: URL = LABELS_DIR, second = false): Map<string, LabelEntry> {
  const file = labelFile(dir, history, second);
  return parseLabels(readOrEmpty(file), `${second ? "second/" : ""}${history}.jsonl`);
}

/** Whether a history has a label file of its first reading (its pairs are then all checked). */
export function hasLabelFile(history: string, dir: URL = LABELS_DIR): boolean {
  try {
    Deno.statSync(labelFile(dir, history));
    return true;
  } catch {
    return false;
  }
}

/**
 * Which readings figures count: "first", the first reading (the rules' authors' too); "blind", per
 * key the first reading when it is blind, else the second when that is blind, else none;
 * "blind-second", the same with the readings' order turned round, so a figure can be read again
 * through the other reader's eyes where a pair was read twice.
 */
export type Reading = "first" | "blind" | "blind-second";

/** The labels figures are computed from, by `reading`. */
export function figureLabels(
  history: string,
  dir: URL = LABELS_DIR,
  reading: Reading = "first",
): Map<string, LabelEntry> {
  const first = loadLabels(history, dir);
  if (reading === "first") return first;
  const second = loadLabels(history, dir, true);
  const out = new Map<string, LabelEntry>();
  for (const readings of reading === "blind-second" ? [second, first] : [first, second]) {
    for (const [k, l] of readings) if (!out.has(k) && isBlind(l)) out.set(k, l);
  }
  return out;
}

// --- the blind reader's hand-off ------------------------------------------------------------

/** One pair handed to a blind reader: the two texts and where to file the answer, nothing else. */
export interface ExportPair {
  readonly key: string;
  readonly history: string;
  readonly prompt: string;
  readonly quote: string;
}

/**
 * The pairs as JSONL for a reader: each (history, key) once, ordered by history then key (a
 * hash, so the order is stable and says nothing of whether the hint showed a pair or recall
 * pooled it). Exactly the fields of ExportPair: never a rule, a score, a reason or a rank.
 */
export function exportJsonl(pairs: readonly ExportPair[]): string {
  const unique = new Map<string, ExportPair>();
  for (const p of pairs) {
    const id = `${p.history}\u0000${p.key}`;
    if (!unique.has(id)) unique.set(id, p);
  }
  return [...unique.values()]
    .sort((a, b) => (a.history < b.history ? -1 : a.history > b.history ? 1 : a.key < b.key ? -1 : 1))
    .map((p) => JSON.stringify({ key: p.key, history: p.history, prompt: p.prompt, quote: p.quote }) + "\n")
    .join("");
}

/** A reader's answer for one pair. */
export interface ReaderLabel {
  readonly key: string;
  readonly label: Label;
  readonly reason: string;
  /** The history the export named (optional: resolved from the key when absent). */
  readonly history?: string;
}

const READER_FIELDS = new Set(["key", "label", "reason", "history"]);

/**
 * A reader's JSONL: `{key, label, reason}` (and the export's `history`), nothing else — a line
 * that carries a text (a prompt, a quote) or any other field is refused, so no text reaches the
 * label files. Every problem is collected and thrown at once, naming its line.
 */
export function parseReaderLabels(text: string, where: string): ReaderLabel[] {
  const out: ReaderLabel[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const at = `${where}:${i + 1}`;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line);
    } catch {
      problems.push(`${at}: not a JSON line`);
      return;
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      problems.push(`${at}: not a JSON object`);
      return;
    }
    const extra = Object.keys(v).filter((k) => !READER_FIELDS.has(k));
    if (extra.length > 0) {
      problems.push(
        `${at}: field(s) ${
          extra.map((k) => `"${k}"`).join(", ")
        } not allowed (only key, label, reason, history)`,
      );
      return;
    }
    // The same two texts can meet in two people's histories (a "yes" answered with a "yes"): a
    // key is given twice only when it is given twice for one history.
    const pairId = typeof v.history === "string" ? `${v.history}\u0000${v.key}` : `${v.key}`;
    if (typeof v.key !== "string" || !/^[0-9a-f]{16}$/.test(v.key)) problems.push(`${at}: bad key`);
    else if (seen.has(pairId)) problems.push(`${at}: key ${v.key} given twice`);
    else seen.add(pairId);
    if (!LABELS.includes(v.label as Label)) {
      problems.push(`${at}: unknown label "${v.label}" (one of ${LABELS.join(", ")})`);
    }
    if (typeof v.reason !== "string" || v.reason.trim() === "") problems.push(`${at}: no reason`);
    else if (v.reason.includes("\n") || v.reason.length > MAX_REASON) {
      problems.push(`${at}: the reason is one line of at most ${MAX_REASON} characters`);
    }
    if (
      v.history !== undefined &&
      (typeof v.history !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v.history))
    ) {
      problems.push(`${at}: bad history name`);
    }
    out.push(v as unknown as ReaderLabel);
  });
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return out;
}

export interface ImportOptions {
  readonly labeller: string;
  /** File as the second reading (`second/`), for the agreement figure. */
  readonly second: boolean;
  /** Correct existing labels (a mistake of reading, said in the reason): the old label stays. */
  readonly fix: boolean;
  /** The people there are: a history outside it is refused (no label file for a typo). */
  readonly histories?: ReadonlySet<string>;
}

/**
 * The lines to append per history, or every reason to refuse (thrown, nothing written). Refused:
 * a key that already has a label in the target reading (without `fix`), a "correction" to the
 * same label, a key with no history, and a second reading by the labeller of the first (it
 * would not be independent) — or the reverse.
 */
export function planImport(
  labels: readonly ReaderLabel[],
  historyOf: (key: string) => string | undefined,
  dir: URL,
  options: ImportOptions,
): Map<string, LabelEntry[]> {
  const problem = labellerProblem(options.labeller);
  if (problem !== null) throw new Error(`Cannot import: labeller ${problem}`);
  const problems: string[] = [];
  const plan = new Map<string, LabelEntry[]>();
  const cache = new Map<string, { target: Map<string, LabelEntry>; other: Map<string, LabelEntry> }>();
  for (const l of labels) {
    const history = l.history ?? historyOf(l.key);
    if (history === undefined) {
      problems.push(`key ${l.key}: no history names it (keep the export's "history" field)`);
      continue;
    }
    if (options.histories !== undefined && !options.histories.has(history)) {
      problems.push(`key ${l.key}: no person is named "${history}"`);
      continue;
    }
    let files = cache.get(history);
    if (files === undefined) {
      files = {
        target: loadLabels(history, dir, options.second),
        other: loadLabels(history, dir, !options.second),
      };
      cache.set(history, files);
    }
    const known = files.target.get(l.key);
    const other = files.other.get(l.key);
    if (other !== undefined && labellerOf(other) === options.labeller) {
      problems.push(
        `${history} ${l.key}: ${options.labeller} gave its ${
          options.second ? "first" : "second"
        } reading; two readings must be by two labellers`,
      );
      continue;
    }
    if (known !== undefined && !options.fix) {
      problems.push(
        `${history} ${l.key}: already labelled "${known.label}" by ${
          labellerOf(known)
        }; a label is not overwritten (--fix records a correction beside it)`,
      );
      continue;
    }
    if (known !== undefined && known.label === l.label) {
      problems.push(`${history} ${l.key}: already labelled "${known.label}"; nothing to correct`);
      continue;
    }
    const entry: LabelEntry = {
      key: l.key,
      label: l.label,
      reason: l.reason.trim(),
      labeller: options.labeller,
      ...(known !== undefined ? { was: known.label } : {}),
    };
    plan.set(history, [...(plan.get(history) ?? []), entry]);
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return plan;
}

/**
 * Appends the planned lines to each history's file: the whole new file is written beside it and
 * renamed over it, and it is parsed before the rename, so a failure leaves every file as it was.
 */
export function applyImport(
  plan: ReadonlyMap<string, readonly LabelEntry[]>,
  dir: URL,
  second: boolean,
): void {
  const staged: { file: URL; tmp: URL }[] = [];
  try {
    for (const [history, entries] of [...plan].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const file = labelFile(dir, history, second);
      let text = readOrEmpty(file);
      if (text !== "" && !text.endsWith("\n")) text += "\n";
      text += entries.map((e) => JSON.stringify(e) + "\n").join("");
      parseLabels(text, `${second ? "second/" : ""}${history}.jsonl`);
      Deno.mkdirSync(new URL(".", file), { recursive: true });
      const tmp = new URL(`${file.pathname.split("/").at(-1)}.tmp`, file);
      Deno.writeTextFileSync(tmp, text);
      staged.push({ file, tmp });
    }
  } catch (err) {
    for (const s of staged) Deno.removeSync(s.tmp);
    throw err;
  }
  for (const s of staged) Deno.renameSync(s.tmp, s.file);
}

// --- agreement ------------------------------------------------------------------------------

export interface Agreement {
  readonly n: number;
  readonly agree: number;
  /** Cohen's kappa: (observed − chance agreement) / (1 − chance); NaN when chance is 1. */
  readonly kappa: number;
}

/** Observed agreement and Cohen's kappa of two readings of the same items. */
export function cohen(pairs: readonly (readonly [string, string])[]): Agreement {
  const n = pairs.length;
  if (n === 0) return { n, agree: 0, kappa: NaN };
  const agree = pairs.filter(([a, b]) => a === b).length;
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  for (const [a, b] of pairs) {
    first.set(a, (first.get(a) ?? 0) + 1);
    second.set(b, (second.get(b) ?? 0) + 1);
  }
  let chance = 0;
  for (const [c, k] of first) chance += (k / n) * ((second.get(c) ?? 0) / n);
  const observed = agree / n;
  return { n, agree, kappa: chance === 1 ? NaN : (observed - chance) / (1 - chance) };
}

/** The double-labelled pairs of the histories: each key's first and second current labels. */
export interface DoubleReading {
  readonly history: string;
  readonly key: string;
  readonly first: LabelEntry;
  readonly second: LabelEntry;
}

export function doubleReadings(histories: readonly string[], dir: URL = LABELS_DIR): DoubleReading[] {
  const out: DoubleReading[] = [];
  for (const history of histories) {
    const first = loadLabels(history, dir);
    for (const [key, second] of loadLabels(history, dir, true)) {
      const f = first.get(key);
      if (f !== undefined) out.push({ history, key, first: f, second });
    }
  }
  return out;
}

/** Agreement of the double readings: on the six labels, and on relevant / not relevant. */
export function agreementReport(readings: readonly DoubleReading[]): string {
  const fmt = (a: Agreement) =>
    a.n === 0
      ? "no pairs"
      : `${a.agree}/${a.n} agree (${(100 * a.agree / a.n).toFixed(1)}%), Cohen's kappa ${
        Number.isNaN(a.kappa) ? "-" : a.kappa.toFixed(2)
      }`;
  const rel = (l: LabelEntry) => (l.label === "relevant" ? "relevant" : "not");
  const lines = ["agreement of the double-labelled pairs (first reading vs. second)"];
  const groups = new Map<string, DoubleReading[]>();
  for (const r of readings) {
    const g = `${labellerOf(r.first)} vs. ${labellerOf(r.second)}`;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  const rows: [string, readonly DoubleReading[]][] = [
    ...[...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    ["all", readings],
  ];
  for (const [name, rs] of rows) {
    lines.push(
      `  ${name}: six labels: ${fmt(cohen(rs.map((r) => [r.first.label, r.second.label])))}; ` +
        `relevant or not: ${fmt(cohen(rs.map((r) => [rel(r.first), rel(r.second)])))}`,
    );
  }
  if (readings.length > 0) {
    // Where the readings part, by kind: the rubric is sharpened where one cell dominates.
    const cell = new Map<string, number>();
    for (const r of readings) {
      cell.set(
        `${r.first.label}\u0000${r.second.label}`,
        (cell.get(`${r.first.label}\u0000${r.second.label}`) ?? 0) + 1,
      );
    }
    const width = Math.max(...LABELS.map((l) => l.length)) + 2;
    lines.push(`  first reading (rows) × second reading (columns):`);
    lines.push(`    ${"".padEnd(width)}${LABELS.map((l) => l.padStart(width)).join("")}`);
    for (const a of LABELS) {
      lines.push(
        `    ${a.padEnd(width)}${
          LABELS.map((b) => String(cell.get(`${a}\u0000${b}`) ?? 0).padStart(width)).join("")
        }`,
      );
    }
  }
  const byHistory = new Map<string, number>();
  for (const r of readings) byHistory.set(r.history, (byHistory.get(r.history) ?? 0) + 1);
  lines.push(
    `  pairs per history: ${
      [...byHistory].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([h, n]) => `${h} ${n}`).join(", ") || "-"
    }`,
  );
  return lines.join("\n") + "\n";
}
