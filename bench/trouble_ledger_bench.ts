/**
 * What the hook's trouble ledger (src/gate/health.ts) costs each prompt: opening, reading and
 * closing it as the hook does, empty (a good day) and at its bound (the 256 newest lines a
 * rewrite keeps). `deno bench --allow-read --allow-write bench/trouble_ledger_bench.ts`
 */
import { openTroubleLedger, TROUBLE_KEEP_LINES, troublePath } from "../src/gate/health.ts";

const empty = Deno.makeTempDirSync({ prefix: "verdict-trouble-bench-" });
const full = Deno.makeTempDirSync({ prefix: "verdict-trouble-bench-" });
const now = Date.now();
Deno.writeTextFileSync(
  troublePath(full),
  Array.from({ length: TROUBLE_KEEP_LINES }, (_, i) => JSON.stringify({ t: now - i, k: "late" })).join("\n") +
    "\n",
);

Deno.bench("trouble ledger: open, read, close (empty)", { group: "ledger", baseline: true }, () => {
  openTroubleLedger(empty, now).close();
});

Deno.bench(`trouble ledger: open, read, close (${TROUBLE_KEEP_LINES} lines)`, { group: "ledger" }, () => {
  openTroubleLedger(full, now).close();
});
