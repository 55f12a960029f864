/**
 * The three compaction tools (gate G4: no per-block API surface) as plain JSON in, plain JSON
 * out, for the MCP server: context_verdict_build, context_verdict_judge, context_verdict_verify.
 * There is no screen, filter or pick tool, and no input that could name a block: every tool
 * input is checked for forbidden keys first, and refused (never stripped) when it holds one.
 */
import type { CredentialRule } from "../record/secrets.ts";
import { InputError } from "../errors.ts";
import type { JudgeConfig } from "../config/config.ts";
import { buildSnapshot } from "./build.ts";
import { assertNoForbiddenKeys } from "./forbidden.ts";
import { judgeSnapshot } from "./judge.ts";
import { verifyCorpus } from "./verify.ts";

/** A JSON Schema (draft 2020-12 subset), as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

export interface CompactionToolSpec {
  readonly name: "context_verdict_build" | "context_verdict_judge" | "context_verdict_verify";
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** One summary field: a list of non-empty plain strings (nothing in it can name a block). */
function itemList(description: string) {
  return { type: "array", items: { type: "string", minLength: 1 }, description };
}

const SUMMARY_SCHEMA: JsonSchema = {
  type: "object",
  description: "A session summary over the closed field set; every item is a plain string.",
  properties: {
    session: { type: "string", minLength: 1, description: "session id or name (not counted)" },
    todos: itemList("todos not done"),
    uncommitted: itemList("files changed, not committed"),
    questions: itemList("questions not answered"),
    decisions: itemList("decisions not written down"),
    next_steps: itemList("planned steps not landed"),
    risk_hints: itemList("derived hints (not counted)"),
  },
  required: ["session", "todos", "uncommitted", "questions", "decisions", "next_steps", "risk_hints"],
  additionalProperties: false,
};

const SNAPSHOT_SCHEMA: JsonSchema = {
  type: "object",
  description: "A snapshot exactly as context_verdict_build returned it.",
  properties: {
    summary: SUMMARY_SCHEMA,
    state: { type: "string", description: "the one renderer's text for the summary" },
    digest: { type: "string", pattern: "^[0-9a-f]{64}$", description: "SHA-256 binding summary and state" },
  },
  required: ["summary", "state", "digest"],
  additionalProperties: false,
};

/** The tools' names, descriptions and input schemas. */
export const COMPACTION_TOOLS: readonly CompactionToolSpec[] = [
  {
    name: "context_verdict_build",
    description: "Build a snapshot of a whole session's unlanded work (todos not done, uncommitted files, " +
      "unanswered questions, decisions not written down, next steps not landed) from a Claude Code transcript " +
      "(under the transcript roots) or from a summary object. Returns {summary, state, digest}. It never says " +
      "which parts of a context matter.",
    inputSchema: {
      type: "object",
      properties: {
        summary: SUMMARY_SCHEMA,
        transcript_path: {
          type: "string",
          description: "absolute path of a transcript under the transcript roots (give this or summary); " +
            "git status runs in the working directory the transcript records, never one a caller names",
        },
      },
      additionalProperties: false,
    },
  },
  {
    name: "context_verdict_judge",
    description:
      "One verdict for a whole session before compaction: safe_to_compact, wait or preserve_first, " +
      "with a reason code and the unlanded counts. Accepts only a snapshot from context_verdict_build (digest " +
      "and renderer checked). wait is never permission to compact.",
    inputSchema: {
      type: "object",
      properties: {
        snapshot: SNAPSHOT_SCHEMA,
        local_only: { type: "boolean", description: "decide by the local rules only; the band answers wait" },
      },
      required: ["snapshot"],
      additionalProperties: false,
    },
  },
  {
    name: "context_verdict_verify",
    description:
      "Run a labelled corpus (each case lost or keep) and report both error rates: lost cases let " +
      "through as safe_to_compact (dangerous) and keep cases refused (over-conservative), plus SKIP cases that " +
      "needed the absent service. A corpus with one label only is refused.",
    inputSchema: {
      type: "object",
      properties: {
        cases: {
          type: "array",
          minItems: 2,
          items: {
            type: "object",
            properties: {
              id: { type: "string", minLength: 1 },
              label: { type: "string", enum: ["lost", "keep"] },
              summary: SUMMARY_SCHEMA,
              transcript: { type: "string", description: "absolute path under the transcript roots" },
              note: { type: "string" },
            },
            required: ["id", "label"],
            oneOf: [{ required: ["summary"] }, { required: ["transcript"] }],
            additionalProperties: false,
          },
        },
      },
      required: ["cases"],
      additionalProperties: false,
    },
  },
];

export interface ToolContext {
  readonly config: JudgeConfig;
  /** The credential rules in force (a built snapshot never holds a credential). */
  readonly credentialRules: readonly CredentialRule[];
  /** Real directories transcripts may be read from (e.g. ~/.claude/projects). */
  readonly transcriptRoots: readonly string[];
}

/** A JSON value (what the tools return). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function inputObject(args: unknown, tool: string): Record<string, unknown> {
  assertNoForbiddenKeys(args, `${tool} input`);
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new InputError(`Cannot run ${tool}: the input must be an object`);
  }
  return args as Record<string, unknown>;
}

function onlyKeys(obj: Record<string, unknown>, keys: readonly string[], tool: string): void {
  for (const k of Object.keys(obj)) {
    if (!keys.includes(k)) {
      throw new InputError(`Cannot run ${tool}: unknown input "${k}"`, `inputs: ${keys.join(", ")}`);
    }
  }
}

/**
 * Runs one compaction tool on plain JSON input and returns plain JSON. Throws InputError (a bad
 * or forbidden input, a refused snapshot) or StateBudgetError (over judge.state_char_budget).
 */
export async function callCompactionTool(name: string, args: unknown, ctx: ToolContext): Promise<JsonValue> {
  switch (name) {
    case "context_verdict_build": {
      const input = inputObject(args, name);
      // No caller-chosen cwd: git would run there, outside every sandbox root.
      onlyKeys(input, ["summary", "transcript_path"], name);
      const hasSummary = input.summary !== undefined;
      if (hasSummary === (input.transcript_path !== undefined)) {
        throw new InputError(`Cannot run ${name}: give exactly one of "summary" and "transcript_path"`);
      }
      const built = hasSummary
        ? await buildSnapshot({ summary: input.summary }, {
          config: ctx.config,
          credentialRules: ctx.credentialRules,
        })
        : await buildSnapshot(
          { transcript_path: String(input.transcript_path), cwd: null },
          { config: ctx.config, credentialRules: ctx.credentialRules, transcriptRoots: ctx.transcriptRoots },
        );
      return toJson(built.snapshot);
    }
    case "context_verdict_judge": {
      const input = inputObject(args, name);
      onlyKeys(input, ["snapshot", "local_only"], name);
      return toJson(
        await judgeSnapshot(input.snapshot, { config: ctx.config, localOnly: input.local_only === true }),
      );
    }
    case "context_verdict_verify": {
      const input = inputObject(args, name);
      onlyKeys(input, ["cases"], name);
      if (!Array.isArray(input.cases)) throw new InputError(`Cannot run ${name}: "cases" must be a list`);
      return toJson(
        await verifyCorpus(input.cases, {
          config: ctx.config,
          credentialRules: ctx.credentialRules,
          baseDir: null,
          transcriptRoots: ctx.transcriptRoots,
        }),
      );
    }
    default:
      throw new InputError(
        `Unknown compaction tool "${name}"`,
        COMPACTION_TOOLS.map((t) => t.name).join(", "),
      );
  }
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
