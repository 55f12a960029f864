/**
 * The snapshot: `{summary, state, digest}`. `makeSnapshot` is the only way one is made (render,
 * budget check, digest); `checkSnapshot` is the only way one is accepted (no forbidden key, a
 * valid summary, a matching digest, and a state equal to the renderer's output).
 */
import { EXIT, InputError, VerdictError } from "../errors.ts";
import type { JudgeConfig } from "../config/config.ts";
import { digestOf, shortDigest } from "./digest.ts";
import { assertNoForbiddenKeys } from "./forbidden.ts";
import { renderState } from "./render.ts";
import { parseSummary, type Summary } from "./summary.ts";

export interface Snapshot {
  readonly summary: Summary;
  readonly state: string;
  /** SHA-256 hex of the canonical JSON of {state, summary}. */
  readonly digest: string;
}

const SNAPSHOT_KEYS = ["summary", "state", "digest"];
const REBUILD_HINT = 'rebuild the snapshot with "verdict compact build"';

/** The state is longer than judge.state_char_budget: exit 2, a configuration problem, not a verdict. */
export class StateBudgetError extends VerdictError {
  readonly chars: number;
  readonly budget: number;
  constructor(session: string, chars: number, budget: number) {
    super(
      `Cannot use state "${session}": it is ${chars} characters, over judge.state_char_budget (${budget})`,
      EXIT.overBudget,
      "raise judge.state_char_budget in the config, or land some work first (commit, close todos, answer questions)",
    );
    this.name = "StateBudgetError";
    this.chars = chars;
    this.budget = budget;
  }
}

export function checkBudget(session: string, state: string, budget: number): void {
  if (state.length > budget) throw new StateBudgetError(session, state.length, budget);
}

/** Renders, checks the budget and binds summary and state with the digest. */
export async function makeSnapshot(
  summary: Summary,
  config: Pick<JudgeConfig, "state_char_budget">,
): Promise<Snapshot> {
  assertNoForbiddenKeys(summary, "summary");
  const state = renderState(summary);
  checkBudget(summary.session, state, config.state_char_budget);
  return { summary, state, digest: await digestOf(summary, state) };
}

/**
 * Accepts a snapshot given as JSON, or throws InputError saying why (exit 3):
 * a forbidden key, a bad shape, a digest that does not match, or a state the renderer did not make.
 */
export async function checkSnapshot(value: unknown, what = "snapshot"): Promise<Snapshot> {
  assertNoForbiddenKeys(value, what);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InputError(`Cannot read ${what}: it must be an object {summary, state, digest}`, REBUILD_HINT);
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!SNAPSHOT_KEYS.includes(key)) {
      throw new InputError(
        `Cannot read ${what}: unknown field "${key}"`,
        "a snapshot has exactly summary, state and digest",
      );
    }
  }
  const summary = parseSummary(obj.summary, what, "$.summary");
  const { state, digest } = obj;
  if (typeof state !== "string") {
    throw new InputError(
      `Cannot judge state "${summary.session}": $.state is missing or not a string`,
      REBUILD_HINT,
    );
  }
  if (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest)) {
    throw new InputError(
      `Cannot judge state "${summary.session}": $.digest is missing or not a SHA-256 hex digest`,
      REBUILD_HINT,
    );
  }
  const expected = await digestOf(summary, state);
  if (digest !== expected) {
    throw new InputError(
      `Cannot judge state "${summary.session}": digest is ${shortDigest(digest)}, expected ${
        shortDigest(expected)
      } (the state or summary changed after build)`,
      REBUILD_HINT,
    );
  }
  if (state !== renderState(summary)) {
    throw new InputError(
      `Cannot judge state "${summary.session}": the state is not the renderer's output for its summary ` +
        "(hand-assembled or edited); only a state made by the one renderer is judged",
      REBUILD_HINT,
    );
  }
  return { summary, state, digest };
}
