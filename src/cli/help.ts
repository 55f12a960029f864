/**
 * Help as `verdict --help` and `verdict <command> --help` print it, rendered from the command
 * table's rows (./commands.ts). The launcher loads it only to print help, so it is not on the
 * per-prompt hint path.
 */
import { AGENTS, andList } from "../agents/registry.ts";
import type { OptionSpecs } from "../plan/args.ts";
import { COMMANDS, type CommandSpec, wrap } from "./commands.ts";

const AGENT_LABELS = AGENTS.map((a) => a.label);

export function renderOptions(specs: OptionSpecs): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const left = `  --${name}${spec.kind === "boolean" ? "" : ` ${spec.value ?? "VALUE"}`}${
      spec.kind === "strings" ? "..." : ""
    }`;
    return [left, spec.description] as const;
  });
  const width = Math.max(0, ...rows.map(([l]) => l.length)) + 2;
  return rows.map(([l, d]) => l.padEnd(width) + d).join("\n");
}

export function commandHelp(spec: CommandSpec): string {
  const parts = [`verdict ${spec.name} — ${spec.summary}`, "", `Usage: ${spec.usage}`];
  if (Object.keys(spec.options).length > 0) parts.push("", "Options:", renderOptions(spec.options));
  if (spec.help) parts.push("", spec.help);
  return parts.join("\n") + "\n";
}

export function mainHelp(version: string): string {
  const listed = COMMANDS.filter((c) => c.listed);
  const width = Math.max(...listed.map((c) => c.name.length)) + 4;
  return `verdict ${version} — local memory for coding agents

${
    wrap(
      `Recalls what you already decided in earlier ${
        andList(AGENT_LABELS)
      } sessions (BM25, weights and a gate; no model; nothing leaves the machine), and judges ` +
        "before a context compaction whether the session holds unlanded work.",
    )
  }

Usage: verdict <command> [options]

Commands:
${listed.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join("\n")}

First run:
  verdict collect && verdict recall "what did we decide about backups"

Run "verdict <command> --help" for a command's options. Exit status: 0 ok, 1 a finding
(verify let a lost case through; doctor found a problem), 2 compaction state over budget,
3 usage, configuration or input error, 4 a file or permission failure.
`;
}
