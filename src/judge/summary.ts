/**
 * The summary: a session's unlanded work over a closed field set. Every item is a plain string,
 * so the type cannot express a block, a message id or a span (gate G1); provenance (which
 * transcript line an item came from) lives beside the summary, in the build result, and never
 * reaches the state or the service.
 */
import { InputError } from "../errors.ts";
import { assertNoForbiddenKeys } from "./forbidden.ts";

export interface Summary {
  /** Identity, not work: the session id (or a name the caller chose). Not counted. */
  readonly session: string;
  /** Todos not marked done in the session's own record. */
  readonly todos: readonly string[];
  /** Files changed and not committed (or written outside any repository). */
  readonly uncommitted: readonly string[];
  /** Questions put to the user and not answered. */
  readonly questions: readonly string[];
  /** Decisions the user stated and that were not written down durably. */
  readonly decisions: readonly string[];
  /** Steps the agent announced and did not carry out. */
  readonly next_steps: readonly string[];
  /** Derived from the counts and facts above; not items, not counted. */
  readonly risk_hints: readonly string[];
}

/** The closed field set, in render order. */
export const SUMMARY_FIELDS = [
  "session",
  "todos",
  "uncommitted",
  "questions",
  "decisions",
  "next_steps",
  "risk_hints",
] as const;

export type SummaryField = (typeof SUMMARY_FIELDS)[number];

/** The fields whose items are unlanded work; their item count is what the rules compare. */
export const COUNTED_FIELDS = ["todos", "uncommitted", "questions", "decisions", "next_steps"] as const;

export type CountedField = (typeof COUNTED_FIELDS)[number];

/** Longest accepted item or session text; longer input is refused (the state budget is separate). */
export const MAX_ITEM_CHARS = 2000;

/**
 * Validates a summary given as JSON: no forbidden key at any depth, exactly the closed field
 * set, a non-empty session string and lists of non-empty strings. Throws InputError naming the
 * problem (`what` names the payload, `path` its JSON path).
 */
export function parseSummary(value: unknown, what = "summary", path = "$"): Summary {
  assertNoForbiddenKeys(value, what, path);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InputError(
      `Cannot read ${what}: ${path} must be an object with the fields ${SUMMARY_FIELDS.join(", ")}`,
    );
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(SUMMARY_FIELDS as readonly string[]).includes(key)) {
      throw new InputError(
        `Cannot read ${what}: unknown field "${key}" at ${path}`,
        `a summary has exactly these fields: ${SUMMARY_FIELDS.join(", ")}`,
      );
    }
  }
  for (const key of SUMMARY_FIELDS) {
    if (!(key in obj)) {
      throw new InputError(
        `Cannot read ${what}: field "${key}" is missing at ${path}`,
        `a summary has exactly these fields: ${SUMMARY_FIELDS.join(", ")} (use [] for none)`,
      );
    }
  }
  const session = obj.session;
  if (typeof session !== "string" || session.trim() === "" || session.length > MAX_ITEM_CHARS) {
    throw new InputError(`Cannot read ${what}: ${path}.session must be a non-empty string`);
  }
  const list = (key: Exclude<SummaryField, "session">): string[] => {
    const v = obj[key];
    if (!Array.isArray(v)) {
      throw new InputError(`Cannot read ${what}: ${path}.${key} must be a list of strings`);
    }
    return v.map((item, i) => {
      if (typeof item !== "string" || item.trim() === "") {
        throw new InputError(`Cannot read ${what}: ${path}.${key}[${i}] must be a non-empty string`);
      }
      if (item.length > MAX_ITEM_CHARS) {
        throw new InputError(
          `Cannot read ${what}: ${path}.${key}[${i}] is longer than ${MAX_ITEM_CHARS} characters`,
        );
      }
      return item;
    });
  };
  return {
    session,
    todos: list("todos"),
    uncommitted: list("uncommitted"),
    questions: list("questions"),
    decisions: list("decisions"),
    next_steps: list("next_steps"),
    risk_hints: list("risk_hints"),
  };
}

/** An empty summary for `session`. */
export function emptySummary(session: string): Summary {
  return {
    session,
    todos: [],
    uncommitted: [],
    questions: [],
    decisions: [],
    next_steps: [],
    risk_hints: [],
  };
}
