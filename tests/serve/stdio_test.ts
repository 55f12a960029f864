/**
 * `verdict mcp`: MCP over stdio. stdout carries nothing but the protocol; the process stops
 * cleanly when stdin closes and on SIGTERM.
 */
import { lockFlags } from "../../src/task_flags.ts";
import assert from "node:assert/strict";
import { tempHome } from "../cli_helper.ts";
import { childEnv, cliArgs, stdioClient, textOf } from "./serve_helper.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

function lines(messages: readonly unknown[]): Uint8Array {
  return new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join(""));
}

Deno.test("verdict mcp writes nothing but JSON-RPC on stdout, whatever the calls do, and exits 0 when stdin closes", async () => {
  const home = await tempHome();
  const child = new Deno.Command(Deno.execPath(), {
    args: cliArgs(["mcp"]),
    env: childEnv(home),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(lines([
    INIT,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "verdict_recall", arguments: { query: "x" } },
    },
    {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "verdict_recall", arguments: { top: 0 } },
    },
    { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "nope", arguments: {} } },
    { jsonrpc: "2.0", id: 6, method: "no/such/method" },
    {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "context_verdict_judge",
        arguments: { snapshot: { summary: {}, state: "", digest: "0" } },
      },
    },
  ]));
  await writer.write(new TextEncoder().encode("this line is not JSON\n"));
  await writer.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const messages = stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  for (const m of messages) assert.equal(m.jsonrpc, "2.0");
  const byId = new Map(messages.map((m) => [m.id, m]));
  assert.deepEqual([...byId.keys()].sort(), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(byId.get(4).result.isError, true);
  assert.equal(byId.get(5).error.code, -32602);
  assert.equal(byId.get(6).error.code, -32601);
  assert.equal(byId.get(7).result.isError, true);
});

Deno.test("console.log inside the server goes to stderr, never into the protocol stream", async () => {
  // The injected violation: a module that prints with console.log after the guard is set.
  const script = `
    import { routeConsoleToStderr } from ${
    JSON.stringify(new URL("../../src/cli/cmd/mcp.ts", import.meta.url).href)
  };
    routeConsoleToStderr();
    console.log("debug: polluting stdout");
    console.info("info: polluting stdout");
    console.debug("debug: polluting stdout");
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", ...lockFlags(), "--ext=ts", script],
    env: childEnv(await tempHome()),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout), "");
  assert.match(new TextDecoder().decode(out.stderr), /debug: polluting stdout[\s\S]*info: polluting/);
});

Deno.test("verdict mcp stops on SIGTERM with exit 0 while a client is connected", async () => {
  const home = await tempHome();
  const child = new Deno.Command(Deno.execPath(), {
    args: cliArgs(["mcp"]),
    env: childEnv(home),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(lines([INIT]));
  // Wait for the initialize answer: the server is up and serving.
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  assert.equal(JSON.parse(seen.split("\n")[0]!).id, 1);
  child.kill("SIGTERM");
  const status = await child.status;
  reader.releaseLock();
  await child.stdout.cancel();
  await child.stderr.cancel();
  await writer.close().catch(() => {});
  assert.equal(status.code, 0);
});

Deno.test("the SDK's stdio client calls the compaction tools and gets recall errors as results, not crashes", async () => {
  const home = await tempHome();
  const { client } = await stdioClient(home, [], { VERDICT_RECORDS: `${home}/none/records.jsonl` });
  try {
    const r = await client.callTool({ name: "verdict_recall", arguments: { query: "backups" } });
    // No records yet: a "No match" line or an error result, never a protocol failure.
    assert.match(textOf(r), /^(No match: |Error: )/);
    const verify = await client.callTool({
      name: "context_verdict_verify",
      arguments: { cases: [{ id: "a", label: "lost", summary: { session: "x" } }] },
    });
    assert.equal(verify.isError, true);
    assert.match(textOf(verify), /^Invalid arguments for context_verdict_verify: /);
  } finally {
    await client.close();
  }
});
