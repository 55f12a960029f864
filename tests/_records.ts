/**
 * One builder for the records tests rank, gate, look up and serve: a typed Claude Code prompt
 * with every field filled, then each layer of overrides in turn (a test file's own defaults, then
 * what one case says). A field a layer leaves undefined keeps the value beneath it, so a case may
 * pass `{ session: maybe }` and get the file's default when `maybe` is undefined.
 */
import { recordId, type VerdictRecord } from "../src/record/record.ts";

export type RecordOverrides = Partial<Omit<VerdictRecord, "text">>;

export function record(text: string, ...layers: readonly RecordOverrides[]): VerdictRecord {
  const out: Record<string, unknown> = {
    id: recordId("prompt", text),
    kind: "prompt",
    origin: "claude",
    text,
    time: "2026-01-01T00:00:00.000Z",
    project: "/p",
    session: "s",
    source_file: "/f.jsonl",
    source_line: 1,
    commit: null,
  };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) out[key] = value;
  }
  return out as unknown as VerdictRecord;
}
