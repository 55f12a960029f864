/**
 * The one renderer (gate G1): the state text is made here, from the summary, and nowhere else.
 * judge accepts a state only when it equals `renderState(summary)` and the digest matches, so a
 * model is never shown text the renderer did not produce. Pure and deterministic.
 */
import { countUnlanded, describeCounts } from "./rules.ts";
import type { Summary } from "./summary.ts";

/** Field headings, in render order. */
const SECTIONS = [
  ["todos", "Todos not done"],
  ["uncommitted", "Uncommitted files"],
  ["questions", "Unanswered questions"],
  ["decisions", "Decisions not written down"],
  ["next_steps", "Announced next steps not carried out"],
  ["risk_hints", "Risk hints (not counted)"],
] as const;

/** One line per item: control characters and runs of white space become one space. */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029\s]+/g, " ").trim();
}

/** Renders the state text of a summary. */
export function renderState(summary: Summary): string {
  const lines = [
    `Session: ${oneLine(summary.session)}`,
    `Counts: ${describeCounts(countUnlanded(summary))}`,
  ];
  for (const [field, heading] of SECTIONS) {
    const items = summary[field];
    if (items.length === 0) {
      lines.push(`${heading} (0): none`);
      continue;
    }
    lines.push(`${heading} (${items.length}):`);
    for (const item of items) lines.push(`- ${oneLine(item)}`);
  }
  return lines.join("\n") + "\n";
}
