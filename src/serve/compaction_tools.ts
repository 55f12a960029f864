/**
 * The compaction tools (context_verdict_build, context_verdict_judge, context_verdict_verify):
 * handlers over src/judge/tools.ts, answering with the judge's JSON. Every input is first
 * checked for forbidden keys by the judge's own guard, before schema validation, so a
 * per-block key is refused with its JSON path, never stripped.
 */
import { callCompactionTool, COMPACTION_TOOLS, type ToolContext } from "../judge/tools.ts";
import { assertNoForbiddenKeys } from "../judge/forbidden.ts";
import type { JsonFormat } from "./contract.ts";
import { formatJson } from "./format.ts";
import type { ToolHandler } from "./tools.ts";

export interface CompactionTools {
  readonly handlers: Readonly<Record<string, ToolHandler>>;
  readonly guards: Readonly<Record<string, (args: unknown) => void>>;
}

export function compactionTools(ctx: ToolContext, format: JsonFormat): CompactionTools {
  const handlers: Record<string, ToolHandler> = {};
  const guards: Record<string, (args: unknown) => void> = {};
  for (const { name } of COMPACTION_TOOLS) {
    handlers[name] = async (args) => ({
      text: formatJson(await callCompactionTool(name, args, ctx), format),
      isError: false,
      results: 1,
      outcome: "ok",
    });
    guards[name] = (args) => assertNoForbiddenKeys(args, `${name} input`);
  }
  return { handlers, guards };
}
