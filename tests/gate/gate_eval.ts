/**
 * Runs the labelled gate fixtures (tests/fixtures/gate/) through the real ranking and gate and
 * scores them. Shared by the quality test and `deno task eval:gate`.
 */
import { asRecord, type VerdictRecord } from "../../src/record/record.ts";
import { RECORD_ORIGINS } from "../../src/agents/registry.ts";
import { hintFor } from "../../src/gate/hint.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { taskArgs } from "../../scripts/task_args.ts";

export const GATE_AS_OF = Date.parse("2026-11-29T12:00:00Z");

export interface Probe {
  readonly id: string;
  readonly prompt: string;
  readonly cwd: string;
  readonly session: string;
  readonly expect: string | null;
  readonly also_ok: readonly string[];
  readonly why: string;
}

export interface ProbeOutcome {
  readonly probe: Probe;
  /** The record the hint quoted first, or null when silent. */
  readonly quoted: string | null;
  readonly rule: string;
  readonly correct: boolean;
}

export interface GateScore {
  readonly outcomes: readonly ProbeOutcome[];
  /** Quotes that were right / quotes shown. */
  readonly precision: number;
  /** Probes expecting a quote that got a right one / probes expecting a quote. */
  readonly recall: number;
  readonly silentRight: number;
  readonly silentProbes: number;
}

const FIXTURES = new URL("../fixtures/gate/", import.meta.url);

function jsonl<T>(name: string): T[] {
  return Deno.readTextFileSync(new URL(name, FIXTURES)).split("\n").filter((l) => l).map((l) =>
    JSON.parse(l)
  );
}

export function loadFixtures(): { records: VerdictRecord[]; probes: Probe[] } {
  return {
    records: jsonl<unknown>("corpus.jsonl").map((r) => asRecord(r, RECORD_ORIGINS)!),
    probes: jsonl<Probe>("probes.jsonl"),
  };
}

export function scoreGate(): GateScore {
  const { records, probes } = loadFixtures();
  const index = buildMemoryIndex(records);
  const outcomes = probes.map((probe): ProbeOutcome => {
    // One quote, the first: a probe is right when the hint's first quote is.
    const { verdict } = hintFor(index, {
      prompt: probe.prompt,
      session: probe.session,
      cwd: probe.cwd,
      nowMs: GATE_AS_OF,
      shown: new Set(),
      entities: [],
      personas: [],
      top: 1,
      textOf: (doc) => records[doc]!.text,
    });
    const rule: string = verdict.rule;
    const quoted = verdict.speak ? verdict.hits[0]!.id : null;
    const ok = probe.expect === null
      ? quoted === null
      : quoted !== null && (quoted === probe.expect || probe.also_ok.includes(quoted));
    return { probe, quoted, rule, correct: ok };
  });
  const spoke = outcomes.filter((o) => o.quoted !== null);
  const expecting = outcomes.filter((o) => o.probe.expect !== null);
  const silent = outcomes.filter((o) => o.probe.expect === null);
  return {
    outcomes,
    precision: spoke.length === 0 ? 1 : spoke.filter((o) => o.correct).length / spoke.length,
    recall: expecting.filter((o) => o.correct).length / expecting.length,
    silentRight: silent.filter((o) => o.correct).length,
    silentProbes: silent.length,
  };
}

if (import.meta.main) {
  taskArgs("eval:gate", import.meta.url, Deno.args, {});
  const s = scoreGate();
  for (const o of s.outcomes.filter((x) => !x.correct)) {
    console.log(
      `${o.probe.id} ${o.probe.expect ? "MISS " : "NOISE"} quoted=${
        o.quoted ?? "-"
      } rule=${o.rule} :: ${o.probe.prompt}`,
    );
  }
  console.log(
    `gate on ${s.outcomes.length} probes: precision ${(s.precision * 100).toFixed(1)}%, recall ${
      (s.recall * 100).toFixed(1)
    }%, ` +
      `silent where it should be ${s.silentRight}/${s.silentProbes}`,
  );
}
