import { compileCredentialRules } from "../../src/record/secrets.ts";
import assert from "node:assert/strict";
import { buildToolSet } from "../../src/serve/setup.ts";
import { NO_CALL_LOG } from "../../src/serve/call_log.ts";
import { DEFAULT_CONFIG } from "../../src/config/config.ts";
import type { Recaller } from "../../src/lookup/recall.ts";

function setup(openRecaller: () => Recaller) {
  return buildToolSet({
    transport: "http",
    recordsPath: "/nonexistent/records.jsonl",
    quoteRoots: [],
    transcriptRoots: [],
    entitiesPath: null,
    credentialRules: compileCredentialRules([]),
    judge: DEFAULT_CONFIG.judge,
    project: null,
    asOfMs: null,
    callLog: NO_CALL_LOG,
    log: () => {},
    openRecaller,
  });
}

Deno.test("concurrent calls reach the Recaller one at a time (a (re)load is never raced)", async () => {
  let inFlight = 0;
  let opened = 0;
  const recaller: Recaller = {
    async recall() {
      inFlight++;
      try {
        if (inFlight > 1) throw new Error("Bad resource ID: raced with another call");
        await new Promise((r) => setTimeout(r, 0)); // the async part of a (re)load
        return { hits: [], reason: "nothing", explain: null };
      } finally {
        inFlight--;
      }
    },
    close() {},
  };
  const { tools, close } = setup(() => (opened++, recaller));
  const results = await Promise.all(
    Array.from({ length: 32 }, (_, i) => tools.call("verdict_recall", { query: `q${i}` })),
  );
  for (const r of results) assert.deepEqual(r, { text: "No match: nothing", isError: false });
  assert.equal(opened, 1);
  close();
});

Deno.test("a Recaller that cannot open reports an error per call, and the next call tries again", async () => {
  let attempts = 0;
  const { tools } = setup(() => {
    attempts++;
    if (attempts === 1) throw new Error("Cannot open records: busy");
    return { recall: () => Promise.resolve({ hits: [], reason: "empty", explain: null }), close() {} };
  });
  const first = await tools.call("verdict_recall", { query: "x" });
  assert.deepEqual(first, { text: "Error: Cannot open records: busy", isError: true });
  const second = await tools.call("verdict_recall", { query: "x" });
  assert.deepEqual(second, { text: "No match: empty", isError: false });
});
