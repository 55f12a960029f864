/**
 * The MCP contract, contract/verdict-mcp.v1.json, embedded through a JSON import. tools/list
 * serves its `tools` array verbatim; the result formats and examples in it are what the
 * formatters must produce. `parseContract` checks the file's shape once at start-up (a broken
 * contract is a build error, reported with the JSON path of the problem).
 */
import contractJson from "../../contract/verdict-mcp.v1.json" with { type: "json" };
import { checkSchema, type JsonSchema } from "./validate.ts";

export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One tool as tools/list serves it. */
export interface ContractTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations: ToolAnnotations;
}

/** How a verdict_recall result is written (see the contract's `results.verdict_recall`). */
export interface RecallFormat {
  readonly header: string;
  readonly hit: string;
  /** Appended to `hit` for a text the ranked matches hold more than once: "{count}, {first} to {last}". */
  readonly copies: string;
  /** `{count}` of `copies` when not every match was ranked (a lower bound). */
  readonly copies_lower_bound: string;
  /** Appended to `hit` (after `copies`): the record's id, for `verdict show` and the commands that take one. */
  readonly id: string;
  /** Appended to `hit` (after `id`) for a record the person marked: "{state}". */
  readonly state: string;
  readonly quote_line: string;
  readonly quote_blank_line: string;
  readonly between_hits: string;
  readonly no_match: string;
  readonly no_match_reason: string;
  readonly no_project: string;
  readonly no_terms: string;
  readonly score_decimals: number;
  readonly quote_max_chars: number;
  readonly quote_cut_mark: string;
}

/** How the compaction tools' JSON answers are written. */
export interface JsonFormat {
  readonly json_indent: number;
}

export interface ResultFormats {
  readonly verdict_recall: RecallFormat;
  readonly context_verdict: JsonFormat;
  /** "Invalid arguments for {tool}: {problems}" */
  readonly invalid_arguments: string;
  /** "Error: {message}" */
  readonly error: string;
  /** "Hint: {hint}", a second line when the error carries a way out. */
  readonly error_hint: string;
}

/** A worked example: the backend's answer for `arguments`, and the exact text served for it. */
export interface ContractExample {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly answer: unknown;
  readonly text: string;
}

export interface Contract {
  readonly contract: string;
  readonly version: number;
  readonly server: { readonly name: string; readonly instructions: string };
  readonly tools: readonly ContractTool[];
  readonly results: ResultFormats;
  readonly examples: readonly ContractExample[];
}

/**
 * The contract's version. 2 adds, compatibly, each recall hit's record id and its state (what the
 * person marked it) at the end of its header line, and verdict_recall's optional filters
 * (project, since, until, kind); tools and arguments of version 1 stand as they were.
 */
export const CONTRACT_VERSION = 2;

const RECALL_STRING_KEYS = [
  "header",
  "hit",
  "copies",
  "copies_lower_bound",
  "id",
  "state",
  "quote_line",
  "quote_blank_line",
  "between_hits",
  "no_match",
  "no_match_reason",
  "no_project",
  "no_terms",
  "quote_cut_mark",
] as const;

const ROOT_COMPOSITION = ["oneOf", "anyOf", "allOf", "not", "if", "then", "else"];
const ANNOTATION_KEYS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];
const TOOL_KEYS = ["name", "title", "description", "inputSchema", "annotations"];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks `value` is a usable contract and returns it typed; throws TypeError naming each problem. */
export function parseContract(value: unknown): Contract {
  const problems: string[] = [];
  const need = (cond: boolean, message: string) => {
    if (!cond) problems.push(message);
  };
  if (!isObject(value)) throw new TypeError("Cannot use the MCP contract: it is not a JSON object");
  need(value.contract === "verdict-mcp", '$.contract: must be "verdict-mcp"');
  need(value.version === CONTRACT_VERSION, `$.version: must be ${CONTRACT_VERSION}`);
  const server = value.server;
  need(
    isObject(server) && typeof server.name === "string" && typeof server.instructions === "string",
    "$.server: needs a name and instructions",
  );
  const tools = value.tools;
  if (!Array.isArray(tools) || tools.length === 0) problems.push("$.tools: must be a non-empty array");
  else {
    const seen = new Set<string>();
    tools.forEach((tool, i) => {
      const at = `$.tools[${i}]`;
      if (!isObject(tool)) return problems.push(`${at}: must be an object`);
      for (const key of Object.keys(tool)) need(TOOL_KEYS.includes(key), `${at}.${key}: unknown key`);
      const name = tool.name;
      need(typeof name === "string" && /^[a-z][a-z0-9_]{0,63}$/.test(name), `${at}.name: must be snake_case`);
      need(typeof name !== "string" || !seen.has(name), `${at}.name: "${String(name)}" is listed twice`);
      if (typeof name === "string") seen.add(name);
      need(typeof tool.description === "string" && tool.description !== "", `${at}.description: missing`);
      need(tool.title === undefined || typeof tool.title === "string", `${at}.title: must be a string`);
      const schema = tool.inputSchema;
      if (!isObject(schema) || schema.type !== "object") {
        problems.push(`${at}.inputSchema: must be an object schema`);
      } else {
        problems.push(...checkSchema(schema, `${at}.inputSchema`));
        // Anthropic's API refuses a tool whose input schema composes at the top level, and Claude
        // Code then drops the tool or fails the session: such rules live in the handler instead.
        for (const key of ROOT_COMPOSITION) {
          need(
            !(key in schema),
            `${at}.inputSchema.${key}: not allowed at the top level (clients refuse it)`,
          );
        }
      }
      const ann = tool.annotations;
      if (!isObject(ann)) problems.push(`${at}.annotations: must be an object`);
      else {
        for (const [k, v] of Object.entries(ann)) {
          need(
            ANNOTATION_KEYS.includes(k) && typeof v === "boolean",
            `${at}.annotations.${k}: unknown or not a boolean`,
          );
        }
        need(typeof ann.readOnlyHint === "boolean", `${at}.annotations.readOnlyHint: must be stated`);
      }
    });
  }
  const results = value.results;
  if (!isObject(results)) problems.push("$.results: must be an object");
  else {
    need(typeof results.invalid_arguments === "string", "$.results.invalid_arguments: must be a string");
    need(typeof results.error === "string", "$.results.error: must be a string");
    need(typeof results.error_hint === "string", "$.results.error_hint: must be a string");
    const json = results.context_verdict;
    need(
      isObject(json) && typeof json.json_indent === "number" && Number.isInteger(json.json_indent),
      "$.results.context_verdict.json_indent: must be a count",
    );
    const recall = results.verdict_recall;
    if (!isObject(recall)) problems.push("$.results.verdict_recall: must be an object");
    else {
      for (const key of RECALL_STRING_KEYS) {
        need(typeof recall[key] === "string", `$.results.verdict_recall.${key}: must be a string`);
      }
      for (const key of ["score_decimals", "quote_max_chars"]) {
        const n = recall[key];
        need(
          typeof n === "number" && Number.isInteger(n) && n >= 0,
          `$.results.verdict_recall.${key}: must be a count`,
        );
      }
    }
  }
  const examples = value.examples;
  if (!Array.isArray(examples)) problems.push("$.examples: must be an array");
  else {
    examples.forEach((ex, i) => {
      const ok = isObject(ex) && typeof ex.tool === "string" && isObject(ex.arguments) &&
        typeof ex.text === "string" && "answer" in ex;
      need(ok, `$.examples[${i}]: needs tool, arguments, answer and text`);
    });
  }
  if (problems.length > 0) {
    throw new TypeError(`Cannot use the MCP contract: ${problems.join("; ")}`);
  }
  return value as unknown as Contract;
}

/** The embedded contract, checked. */
export const CONTRACT: Contract = parseContract(contractJson);

/** The tool named `name` in `contract`, or undefined. */
export function contractTool(contract: Contract, name: string): ContractTool | undefined {
  return contract.tools.find((t) => t.name === name);
}

/** Fills `{name}` placeholders of a contract template; an unknown placeholder is a bug and throws. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, key: string) => {
    if (!Object.hasOwn(values, key)) throw new RangeError(`Cannot fill "{${key}}" in "${template}"`);
    return String(values[key]);
  });
}
