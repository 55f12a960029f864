/**
 * The decision statements of a record, as the gate reads them (pure): its typed sentences
 * (statements.ts: pasted material set aside) that carry a live decision marker, not in a question
 * (src/rank/markers.ts). A record that is mostly pasted has none. `verdict show` prints them as
 * the text the hint would quote; `verdict decisions` lists the records that have some.
 */
import { statementDecision } from "../rank/markers.ts";
import { PASTED_SHARE, statementsOf } from "./statements.ts";

export function decisionStatements(text: string): string[] {
  const { statements, pastedShare } = statementsOf(text);
  if (pastedShare > PASTED_SHARE) return [];
  return statements.filter((s) => statementDecision(s.text) !== null).map((s) => s.text);
}
