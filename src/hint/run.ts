/**
 * The hint path, shared by `verdict hint` and the hook entry `verdict hook user-prompt`.
 *
 * Order matters for confinement: read stdin (no permission needed), open the records, index,
 * entity list and cooldown ledger, then revoke every permission class. Ranking and gating run
 * with no permissions at all; the only writes left are through the ledger's open handle.
 *
 * In hook mode nothing ever fails loudly: any error, missing records, or a run past the deadline
 * prints nothing and exits 0, so a broken install never blocks or delays a prompt.
 */
import type { HookDialect } from "../agents/agent.ts";
import { AGENTS, DEFAULT_HOOK_AGENT, hookDialectOf } from "../agents/registry.ts";
import type { GateVerdict } from "../gate/gate.ts";
import { hintFor, HOOK_TOP, refuseEarly } from "../gate/hint.ts";
import { explainRanking, renderHint, type ShownQuote, shownQuote } from "../gate/render.ts";
import { changedFor, excludedIds, replacedBy, triggeredPins } from "./states.ts";
import { compileCredentialRules, holdsCredential } from "../record/secrets.ts";
import type { VerdictRecord } from "../record/record.ts";
import { chooseLedger, openLedger } from "../gate/seen.ts";
import {
  HOOK_DEADLINE_ENV,
  NO_TROUBLE_LEDGER,
  openTroubleLedger,
  probeAnswer,
  probeNonce,
  recordTrouble,
  type TroubleLedger,
  troubleNotice,
} from "../gate/health.ts";
import { loadCorpus, type LoadedCorpus, loadEntities } from "../lookup/recall.ts";
import type { Entity } from "../rank/entities.ts";
import type { SearchResult } from "../rank/score.ts";
import { revokeAll } from "../sandbox/revoke.ts";
import { HINT_MAX_STDIN } from "./hook_limits.ts";
import { booleanOption, intOption, stringOption } from "../plan/args.ts";
import { nowMs } from "../plan/clock.ts";
import { EXIT, InputError } from "../errors.ts";
import type { CommandIO, CommandPlan } from "../plan/plan.ts";

/**
 * The hook's own hard deadline, from process start: past it the hook prints nothing. Claude
 * Code waits up to 30 s for a UserPromptSubmit hook; a hint is only worth a short pause.
 */
export const HOOK_DEADLINE_MS = 400;

export { HOOK_DEADLINE_ENV };

/** The deadline of a hook run in `env` (HOOK_DEADLINE_ENV, else HOOK_DEADLINE_MS). */
export function hookDeadlineMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[HOOK_DEADLINE_ENV];
  const v = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(v) && v >= 1 && v <= 60_000 ? v : HOOK_DEADLINE_MS;
}

/**
 * Without a usable index (built by another version, until the next collect rebuilds it), rank
 * the records in memory only when there are this few: building an index of them fits the deadline.
 */
export const HINT_FALLBACK_RECORDS = 10_000;
/** Before the first collect migrated an older verdict's records file, rank it only when this small. */
export const HINT_LEGACY_FALLBACK_BYTES = 8 * 1024 * 1024;

interface HintInput {
  readonly prompt: string;
  readonly session: string | null;
  readonly cwd: string | null;
}

/**
 * The hook dialect of `--agent` (default Claude Code's); an input error for an agent verdict
 * wires no hook into (or no agent at all).
 */
async function hintDialect(agent: string | undefined): Promise<HookDialect> {
  const dialect = await hookDialectOf(agent);
  if (dialect === null) {
    const known = AGENTS.filter((a) => a.hookDialect !== null).map((a) => a.id).join(", ");
    throw new InputError(
      `Cannot print a hint for agent "${agent ?? DEFAULT_HOOK_AGENT}": it has no prompt hook`,
      `--agent takes ${known}`,
    );
  }
  return dialect;
}

function parseInput(bytes: Uint8Array, plain: boolean, cwd: string, dialect: HookDialect): HintInput {
  const text = new TextDecoder().decode(bytes);
  if (plain) return { prompt: text, session: null, cwd };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new InputError(
      "stdin is not the UserPromptSubmit hook JSON",
      'pass the hook JSON ({"session_id", "cwd", "prompt"}), or use --plain for a plain prompt',
    );
  }
  const input = dialect.read((typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>);
  if (input.prompt === null) {
    throw new InputError('the hook JSON has no "prompt" string', "is this the UserPromptSubmit event?");
  }
  return { prompt: input.prompt, session: input.session, cwd: input.cwd };
}

function explainText(
  input: HintInput,
  result: SearchResult | null,
  verdict: GateVerdict,
  ledgerWhy: string,
): string {
  const lines = [`hint: ${verdict.speak ? "spoke" : `silent (${verdict.rule})`}: ${verdict.detail}`];
  lines.push(`session: ${input.session ?? "-"}; project: ${input.cwd ?? "-"}; cooldown: ${ledgerWhy}`);
  lines.push(...explainRanking(result, verdict));
  return lines.join("\n") + "\n";
}

/** A record the index names was removed by a collect that ran since the index was read. */
class RecordRemoved extends Error {}

/**
 * Where a hint runs. The hook process: its deadline counts from process start and it revokes
 * every permission once its files are open. The warm helper (src/warm/serve.ts) runs the same
 * path for each request: the deadline counts from the client's own start (the client says how
 * long it has run), and the helper's Worker is already confined to its few files, which it must
 * keep for the next request, so it revokes nothing.
 */
export interface HintHost {
  /** Milliseconds of the hook's deadline already spent. */
  readonly elapsedMs: () => number;
  /** Drops what the run no longer needs once its files are open. */
  readonly confine: () => Promise<void>;
  /** Where the archive and the entity list come from (default: opened for this run, closed after it). */
  readonly archive?: ArchiveSource;
}

/**
 * Where a run gets the archive and the entity list, as they are now. The hook process opens them
 * for its one run; the warm helper keeps them open between requests (src/warm/kept_archive.ts)
 * and must hand out exactly what a fresh open would give.
 */
export interface ArchiveSource {
  /** The corpus of the archive at `recordsPath` (null: none yet); the run releases it when done. */
  open(recordsPath: string): Promise<HeldCorpus | null>;
  /** The entity list at `path` (none: []); an error names the file and line. */
  entities(path: string | null): Promise<Entity[]>;
}

export interface HeldCorpus {
  readonly loaded: LoadedCorpus;
  /**
   * The run is done with it. `trusted` is false when the run failed or found a record the index
   * names removed: a keeper then opens the archive afresh for the next run.
   */
  release(trusted: boolean): void;
}

/** Each run opens the archive and closes it after (the hook process, `verdict hint`). */
export const OPEN_PER_RUN: ArchiveSource = {
  async open(recordsPath) {
    const loaded = await loadCorpus(recordsPath, HINT_FALLBACK_RECORDS, HINT_LEGACY_FALLBACK_BYTES);
    return loaded === null ? null : { loaded, release: () => loaded.close() };
  },
  entities: loadEntities,
};

export const HOOK_PROCESS: HintHost = { elapsedMs: () => performance.now(), confine: revokeAll };

/** The hook's trouble ledger, once hintOnce has opened it (before it drops its permissions). */
interface TroubleSlot {
  ledger: TroubleLedger | null;
  /** This prompt's missed deadline is counted already (the timer and the last check both see it). */
  late: boolean;
}

/** Counts a missed deadline: through the open ledger, else by opening it (permissions still held). */
function countLate(plan: CommandPlan, slot: TroubleSlot): void {
  if (slot.late) return;
  slot.late = true;
  const now = nowMs(plan.asOf);
  if (slot.ledger) slot.ledger.record("late", now);
  else recordTrouble(plan.paths.stateDir, "late", now);
}

/** Runs the hint. `hook` selects hook mode (silent on any failure, deadline). */
export async function runHint(
  plan: CommandPlan,
  io: CommandIO,
  hook: boolean,
  host: HintHost = HOOK_PROCESS,
): Promise<number> {
  if (!hook) return await hintOnce(plan, io, false, host, { ledger: null, late: false });
  // AbortSignal.timeout, not setTimeout: the first setTimeout loads Deno's timer module (~3 ms
  // here, a tenth of the hook). The timer needs no unref: main.ts exits as soon as we return.
  const left = Math.max(0, hookDeadlineMs(plan.env) - host.elapsedMs());
  const slot: TroubleSlot = { ledger: null, late: false };
  let settled = false;
  const deadline = new Promise<number>((resolve) =>
    AbortSignal.timeout(left).addEventListener("abort", () => {
      // Past the deadline the prompt goes on without a hint: counted, never waited for.
      if (!settled) countLate(plan, slot);
      resolve(EXIT.ok);
    })
  );
  try {
    return await Promise.race([hintOnce(plan, io, true, host, slot), deadline]);
  } catch {
    return EXIT.ok;
  } finally {
    settled = true;
  }
}

async function hintOnce(
  plan: CommandPlan,
  io: CommandIO,
  hook: boolean,
  host: HintHost,
  slot: TroubleSlot,
): Promise<number> {
  const explain = !hook && booleanOption(plan.args, "explain");
  const plain = !hook && booleanOption(plan.args, "plain");
  const top = hook ? HOOK_TOP : intOption(plan.args, "top", HOOK_TOP, 1, 3);
  const dialect = await hintDialect(stringOption(plan.args, "agent"));
  const bytes = await io.readStdin(HINT_MAX_STDIN, !plain);
  if (bytes === null) {
    if (hook) return EXIT.ok;
    throw new InputError(`stdin is over ${HINT_MAX_STDIN / 1024 / 1024} MiB`, "a hook prompt is far smaller");
  }
  const input = parseInput(bytes, plain, plan.cwd, dialect);
  if (hook) {
    // `verdict doctor` running the installed command: answer at once, in the agent's shape.
    const nonce = probeNonce(input.prompt);
    if (nonce !== null) {
      const answer = probeAnswer(nonce);
      const shaped = dialect.render("user-prompt", { notice: answer, context: answer });
      if (shaped !== null) await io.stdout(JSON.stringify(shaped) + "\n");
      return EXIT.ok;
    }
  }
  const now = nowMs(plan.asOf);
  // Once a day at most, a prompt that gets no hint says in one line that the hook has had trouble.
  const tellTrouble = async (): Promise<number> => {
    const ledger = slot.ledger;
    if (!hook || ledger === null) return EXIT.ok;
    const line = troubleNotice(ledger.summary, now);
    if (line === null || host.elapsedMs() > hookDeadlineMs(plan.env)) return EXIT.ok;
    const shaped = dialect.render("user-prompt", { notice: line });
    if (shaped === null) return EXIT.ok;
    await io.stdout(JSON.stringify(shaped) + "\n");
    ledger.record("told", now);
    return EXIT.ok;
  };
  const silent = async (verdict: GateVerdict, result: SearchResult | null, why: string) => {
    if (explain) await io.stderr(explainText(input, result, verdict, why));
    return await tellTrouble();
  };
  const refused = refuseEarly({ prompt: input.prompt, cwd: input.cwd, personas: plan.config.hook_personas });
  if (refused) return await silent({ speak: false, ...refused, hits: [], quotes: [], checks: [] }, null, "-");

  const ledgerChoice = chooseLedger({
    seenOption: hook ? undefined : stringOption(plan.args, "seen"),
    envValue: plan.env.VERDICT_SEEN,
    stateDir: plan.paths.stateDir,
    session: input.session,
  });
  const ledger = await openLedger(ledgerChoice.path, input.session);
  if (hook) {
    try {
      slot.ledger = openTroubleLedger(plan.paths.stateDir, now);
    } catch {
      slot.ledger = NO_TROUBLE_LEDGER;
    }
  }
  const source = host.archive ?? OPEN_PER_RUN;
  let held: HeldCorpus | null = null;
  let trusted = true;
  let reading = true;
  try {
    const entities = await source.entities(plan.config.entities);
    held = await source.open(plan.paths.records);
    const corpus = held?.loaded ?? null;
    await host.confine();
    if (corpus === null && hook) slot.ledger?.record("no-archive", now);
    if (corpus === null || corpus.corpus.docCount === 0) {
      return await silent(
        { speak: false, rule: "no-candidates", detail: "no records yet", hits: [], quotes: [], checks: [] },
        null,
        ledgerChoice.why,
      );
    }
    const asOf = now;
    // The gate reads a few candidates' texts; the quotes read them again: one read each.
    const read = new Map<number, VerdictRecord>();
    const open = corpus;
    const recordOf = (doc: number): VerdictRecord => {
      let r = read.get(doc);
      if (r === undefined) {
        const found = open.record(doc);
        // A record a collect removed since the index was read: say nothing rather than guess.
        if (found === null) throw new RecordRemoved();
        read.set(doc, r = found);
      }
      return r;
    };
    // Marks are applied around the gate (src/hint/states.ts): muted records are not searched.
    const marks = open.marks();
    const { verdict, result } = hintFor(corpus.corpus, {
      prompt: input.prompt,
      session: input.session,
      cwd: input.cwd,
      nowMs: asOf,
      shown: excludedIds(ledger.shown, marks, input.cwd),
      entities,
      personas: plan.config.hook_personas,
      top,
      textOf: (doc) => recordOf(doc).text,
    });
    if (explain) await io.stderr(explainText(input, result, verdict, ledgerChoice.why));
    // The archive may predate a rule: a record holding a credential is never quoted.
    const rules = compileCredentialRules(plan.config.credential_patterns);
    const quotable = (r: VerdictRecord) => !holdsCredential(r.text, rules);
    const byId = new Map<string, VerdictRecord | null>();
    const recordWithId = (id: string) => {
      if (!byId.has(id)) byId.set(id, open.recordById(id));
      return byId.get(id) ?? null;
    };
    const quotes: ShownQuote[] = [];
    const cooled: string[] = [];
    if (verdict.speak) {
      for (const q of verdict.quotes) {
        const record = recordOf(q.hit.doc);
        if (!quotable(record)) continue;
        const shown = shownQuote(record, q);
        cooled.push(record.id, ...q.keys);
        const changed = changedFor(marks, record.id, input.cwd, (id) => recordWithId(id) !== null);
        if (changed === null) {
          if (quotes.some((x) => x.record.id === record.id)) continue;
          // A decision that replaced a retracted one says so (what it replaced, and since when).
          const replaced = replacedBy(marks, record.id);
          const was = replaced === null ? null : recordWithId(replaced.id);
          quotes.push(
            was === null || replaced === null ? shown : {
              ...shown,
              changed: {
                on: replaced.retraction.at.slice(0, 10),
                was,
                why: replaced.retraction.why,
                replaced: true,
              },
            },
          );
          continue;
        }
        // A retracted decision is never shown as current: what replaced it, or that it no longer holds.
        const on = changed.retraction.at.slice(0, 10);
        const why = changed.retraction.why;
        const by = changed.by === null ? null : recordWithId(changed.by);
        if (by !== null && quotable(by)) {
          if (ledger.shown.has(by.id) || quotes.some((x) => x.record.id === by.id)) continue;
          cooled.push(by.id);
          quotes.push({ record: by, text: by.text, changed: { on, was: record, why, replaced: true } });
        } else quotes.push({ ...shown, changed: { on, was: record, why, replaced: false } });
      }
    }
    // Pinned records the prompt names a trigger word of, even where the gate stayed silent.
    for (const id of triggeredPins(marks, input.prompt, input.cwd, ledger.shown)) {
      const record = recordWithId(id);
      if (record === null || !quotable(record) || quotes.some((q) => q.record.id === id)) continue;
      cooled.push(id);
      quotes.unshift({ record, text: record.text, pinned: true });
    }
    if (quotes.length === 0) return await tellTrouble();
    const shaped = dialect.render("user-prompt", renderHint(quotes));
    if (shaped === null) return EXIT.ok;
    const output = JSON.stringify(shaped) + "\n";
    if (hook && host.elapsedMs() > hookDeadlineMs(plan.env)) {
      countLate(plan, slot);
      return EXIT.ok;
    }
    // From here the archive has been read: a failure to deliver or record the answer (a warm
    // client that gave up) says nothing about the archive, so a kept one stays kept.
    reading = false;
    await io.stdout(output);
    // The cooldown holds the records and their quoted statements: the same words sent again elsewhere are not shown twice.
    await ledger.record(cooled, new Date(asOf).toISOString());
    return EXIT.ok;
  } catch (err) {
    if (reading) trusted = false;
    if (err instanceof RecordRemoved) return EXIT.ok;
    throw err;
  } finally {
    held?.release(trusted);
    ledger.close();
    slot.ledger?.close();
    slot.ledger = null;
  }
}
