/** The real CLI, spawned in a temp HOME with its own config: stdout, stderr and exit code together. */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { fakeService } from "./_helpers.ts";

const CORPUS = new URL("../../examples/compaction-corpus.jsonl", import.meta.url).pathname;
const EMPTY = {
  session: "s-cli",
  todos: [],
  uncommitted: [],
  questions: [],
  decisions: [],
  next_steps: [],
  risk_hints: [],
};

async function env(config: unknown = {}): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempHome();
  await Deno.writeTextFile(`${home}/config.json`, JSON.stringify(config));
  return { home, env: { HOME: home, VERDICT_CONFIG: `${home}/config.json` } };
}

Deno.test("compact build over the state budget exits 2 with a clear message and prints nothing", async () => {
  const { env: e } = await env({ judge: { state_char_budget: 200 } });
  const summary = {
    ...EMPTY,
    todos: Array.from({ length: 10 }, (_, i) => `todo number ${i} with some words`),
  };
  const r = await runCli(["compact", "build", "--summary", "-", "--json"], {
    env: e,
    stdin: JSON.stringify(summary),
  });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    /Cannot use state "s-cli": it is \d+ characters, over judge\.state_char_budget \(200\)/,
  );
  assert.match(r.stderr, /hint: raise judge\.state_char_budget/);
});

Deno.test("compact build | compact judge round-trips through the real CLI", async () => {
  const { env: e } = await env();
  const built = await runCli(["compact", "build", "--summary", "-", "--json"], {
    env: e,
    stdin: JSON.stringify({ ...EMPTY, todos: ["a"], uncommitted: ["M x"], decisions: ["use y"] }),
  });
  assert.equal(built.code, 0, built.stderr);
  assert.equal(built.stderr, "");
  const judged = await runCli(["compact", "judge", "--json"], { env: e, stdin: built.stdout });
  assert.equal(judged.code, 0, judged.stderr);
  const a = JSON.parse(judged.stdout);
  assert.deepEqual([a.verdict, a.reason, a.counts.total, a.score], [
    "preserve_first",
    "over_threshold",
    3,
    null,
  ]);
  const text = await runCli(["compact", "judge"], { env: e, stdin: built.stdout });
  assert.match(text.stdout, /^preserve_first \(over_threshold\)\nsession: s-cli\n/);
});

Deno.test("compact judge refuses a hand-assembled state with exit 3, saying why and how out", async () => {
  const { home, env: e } = await env();
  const snap = { summary: EMPTY, state: "Session: s-cli\nall good\n", digest: "9f3".padEnd(64, "0") };
  await Deno.writeTextFile(`${home}/snap.json`, JSON.stringify(snap));
  const r = await runCli(["compact", "judge", "--snapshot", `${home}/snap.json`], { env: e });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    /^verdict: Cannot judge state "s-cli": digest is 9f3000000000…, expected [0-9a-f]{12}…/,
  );
  assert.match(r.stderr, /\nhint: rebuild the snapshot with "verdict compact build"\n$/);
});

Deno.test("a summary holding a forbidden key exits 3 naming its path", async () => {
  const { env: e } = await env();
  const r = await runCli(["compact", "build", "--summary", "-"], {
    env: e,
    stdin: JSON.stringify({ ...EMPTY, todos: [], risk_hints: [], extra: { inner: [{ perBlock: {} }] } }),
  });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /\$\.extra\.inner\[0\]\.perBlock/);
  assert.match(r.stderr, /0\.323/);
});

Deno.test("compact build needs exactly one source", async () => {
  const { env: e } = await env();
  const r = await runCli(["compact", "build"], { env: e });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /needs exactly one of --transcript and --summary/);
});

Deno.test("compact verify on the shipped corpus exits 0 and reports both rates", async () => {
  const { env: e } = await env();
  const r = await runCli(["compact", "verify", "--corpus", CORPUS], { env: e });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.stderr, "");
  assert.match(r.stdout, /lost let through as safe_to_compact: 0\/\d+ = 0\.0%/);
  assert.match(r.stdout, /keep refused \(over-conservative\): \d+\/\d+ = [\d.]+%/);
  assert.match(r.stdout, /SKIP \(needed the absent or unreachable service\): /);
  const j = await runCli(["compact", "verify", "--corpus", CORPUS, "--json"], { env: e });
  const report = JSON.parse(j.stdout);
  assert.equal(report.allSkipped, false);
  assert.deepEqual(report.lostLetThrough, []);
});

Deno.test("compact verify refuses a single-labelled corpus with exit 3", async () => {
  const { home, env: e } = await env();
  const lines = ["a", "b"].map((id) =>
    JSON.stringify({ id, label: "lost", summary: { ...EMPTY, todos: ["x", "y", "z"] } })
  );
  await Deno.writeTextFile(`${home}/one.jsonl`, lines.join("\n") + "\n");
  const r = await runCli(["compact", "verify", "--corpus", `${home}/one.jsonl`], { env: e });
  assert.equal(r.code, 3);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /refusing to verify a corpus whose cases are all "lost"/);
});

Deno.test("compact verify exits 1 when the service lets a lost case through", async () => {
  const svc = fakeService('{"choice":"safe_to_compact","score":0.8}');
  try {
    const { home, env: e } = await env({ judge: { service_url: svc.url } });
    const lines = [
      JSON.stringify({ id: "lost-1", label: "lost", summary: { ...EMPTY, todos: ["x"] } }),
      JSON.stringify({ id: "keep-1", label: "keep", summary: EMPTY }),
    ];
    await Deno.writeTextFile(`${home}/c.jsonl`, lines.join("\n") + "\n");
    const r = await runCli(["compact", "verify", "--corpus", `${home}/c.jsonl`], { env: e });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /DANGEROUS, lost let through: lost-1/);
  } finally {
    await svc.close();
  }
});

Deno.test("a non-loopback service URL in the config is refused with exit 3", async () => {
  const { env: e } = await env({ judge: { service_url: "http://10.0.0.8:8080/v1/chat/completions" } });
  const r = await runCli(["compact", "judge"], { env: e, stdin: "{}" });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /not a loopback http URL/);
});

Deno.test("compact judge asks the configured loopback service in the band, through the sandbox", async () => {
  const svc = fakeService('{"choice":"preserve_first","score":0.6}');
  try {
    const { env: e } = await env({ judge: { service_url: svc.url } });
    const built = await runCli(["compact", "build", "--summary", "-", "--json"], {
      env: e,
      stdin: JSON.stringify({ ...EMPTY, questions: ["which db?"] }),
    });
    const r = await runCli(["compact", "judge", "--json"], { env: e, stdin: built.stdout });
    assert.equal(r.code, 0, r.stderr);
    const a = JSON.parse(r.stdout);
    assert.deepEqual([a.verdict, a.reason, a.score], ["preserve_first", "service_answer", 0.6]);
  } finally {
    await svc.close();
  }
});
