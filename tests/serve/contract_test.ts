/**
 * The contract (contract/verdict-mcp.v1.json) is the truth: the served tool list must be its
 * `tools` array, and every served result must be written as its `results` and `examples` say.
 */
import { compileCredentialRules } from "../../src/record/secrets.ts";
import assert from "node:assert/strict";
import contractFile from "../../contract/verdict-mcp.v1.json" with { type: "json" };
import { tempHome } from "../cli_helper.ts";
import { httpClient, startServe, stdioClient, textOf } from "./serve_helper.ts";
import { Client, InMemoryTransport, McpError } from "../../src/serve/mcp_client_deps.ts";
import { CONTRACT, type Contract, parseContract } from "../../src/serve/contract.ts";
import { createMcpServer } from "../../src/serve/server.ts";
import { buildToolSet } from "../../src/serve/setup.ts";
import { createToolSet } from "../../src/serve/tools.ts";
import { NO_CALL_LOG } from "../../src/serve/call_log.ts";
import { COMPACTION_TOOLS } from "../../src/judge/tools.ts";
import { DEFAULT_CONFIG } from "../../src/config/config.ts";
import type { RecallAnswer, Recaller, RecallOptions } from "../../src/lookup/recall.ts";

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A Recaller that answers `answer` and remembers what it was asked. */
function fakeRecaller(
  answer: RecallAnswer,
  asked: { query: string; options: RecallOptions }[] = [],
): Recaller {
  return {
    recall(query, options) {
      asked.push({ query, options });
      return Promise.resolve(answer);
    },
    close() {},
  };
}

/** An in-process server over the tool set, and an SDK client linked to it. */
async function linkedClient(answer: RecallAnswer, asked: { query: string; options: RecallOptions }[] = []) {
  const { tools } = buildToolSet({
    transport: "stdio",
    recordsPath: "/nonexistent/records.jsonl",
    quoteRoots: [],
    transcriptRoots: [],
    entitiesPath: null,
    credentialRules: compileCredentialRules([]),
    judge: DEFAULT_CONFIG.judge,
    project: "/src/app",
    asOfMs: Date.parse("2026-11-29T12:00:00Z"),
    callLog: NO_CALL_LOG,
    log: () => {},
    openRecaller: () => fakeRecaller(answer, asked),
  });
  const server = createMcpServer(tools, { version: "test" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "contract-test", version: "0" });
  await client.connect(b);
  return { client, close: async () => (await client.close(), await server.close()) };
}

Deno.test("the contract file is a usable contract, and the embedded one is that file", () => {
  assert.deepEqual(parseContract(structuredClone(contractFile)), CONTRACT);
  assert.deepEqual(CONTRACT, contractFile);
  assert.deepEqual(CONTRACT.tools.map((t) => t.name), [
    "verdict_recall",
    "context_verdict_build",
    "context_verdict_judge",
    "context_verdict_verify",
  ]);
  for (const tool of CONTRACT.tools) {
    assert.equal(tool.annotations.readOnlyHint, true, `${tool.name} is read-only`);
    assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name} takes no unknown argument`);
  }
});

Deno.test("verdict mcp serves the contract's tool list verbatim to the SDK's stdio client", async () => {
  const home = await tempHome();
  const { client } = await stdioClient(home);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools, contractFile.tools);
    const info = client.getServerVersion();
    assert.equal(info?.name, "verdict");
    assert.equal(client.getInstructions(), contractFile.server.instructions);
    assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false } });
  } finally {
    await client.close();
  }
});

Deno.test("verdict serve answers tools/list with the contract's list, byte for byte on the wire", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  try {
    const init = await fetch(serve.url, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      }),
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const headers = { ...MCP_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const note = await fetch(serve.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    assert.equal(note.status, 202);
    await note.body?.cancel();
    const list = await fetch(serve.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    const sse = await list.text();
    const data = sse.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
    const message = JSON.parse(data);
    assert.deepEqual(message, { jsonrpc: "2.0", id: 2, result: { tools: contractFile.tools } });
    // The tools are the file's objects in the file's order, key order included.
    assert.equal(JSON.stringify(message.result.tools), JSON.stringify(contractFile.tools));
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("every verdict_recall example in the contract is served exactly as written", async () => {
  const examples = CONTRACT.examples.filter((e) => e.tool === "verdict_recall");
  assert.ok(examples.length >= 3);
  for (const example of examples) {
    const asked: { query: string; options: RecallOptions }[] = [];
    const { client, close } = await linkedClient(example.answer as RecallAnswer, asked);
    try {
      const result = await client.callTool({ name: example.tool, arguments: { ...example.arguments } });
      assert.equal(result.isError, undefined);
      assert.equal(textOf(result), example.text);
      assert.equal(asked[0]!.query, example.arguments.query);
      assert.equal(asked[0]!.options.top, example.arguments.top ?? 5);
      assert.equal(asked[0]!.options.project, "/src/app");
      assert.equal(asked[0]!.options.asOfMs, Date.parse("2026-11-29T12:00:00Z"));
    } finally {
      await close();
    }
  }
});

Deno.test("the compaction tools answer with their JSON written as the contract says", async () => {
  const f = CONTRACT.results.context_verdict;
  const example = CONTRACT.examples.find((e) => e.tool === "context_verdict_judge")!;
  assert.equal(JSON.stringify(example.answer, null, f.json_indent), example.text);
  // Real tools through the real server: build a snapshot from a summary, then judge it.
  const home = await tempHome();
  const { client } = await stdioClient(home);
  try {
    const summary = {
      session: "s-contract",
      todos: [],
      uncommitted: [],
      questions: [],
      decisions: [],
      next_steps: [],
      risk_hints: [],
    };
    const built = await client.callTool({ name: "context_verdict_build", arguments: { summary } });
    assert.equal(built.isError, undefined, textOf(built));
    const snapshot = JSON.parse(textOf(built));
    assert.equal(textOf(built), JSON.stringify(snapshot, null, f.json_indent));
    assert.deepEqual(Object.keys(snapshot).sort(), ["digest", "state", "summary"]);
    const judged = await client.callTool({ name: "context_verdict_judge", arguments: { snapshot } });
    assert.equal(judged.isError, undefined, textOf(judged));
    assert.equal(JSON.parse(textOf(judged)).verdict, "safe_to_compact");
    // A drifted snapshot is refused, as an error result with the judge's message.
    const drifted = { ...snapshot, state: snapshot.state + " " };
    const refused = await client.callTool({
      name: "context_verdict_judge",
      arguments: { snapshot: drifted },
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^Error: /);
    // A forbidden per-block key is refused with its JSON path, before schema validation.
    const forbidden = await client.callTool({
      name: "context_verdict_build",
      arguments: { summary: { ...summary, todos: [] }, perBlock: [1] },
    });
    assert.equal(forbidden.isError, true);
    assert.match(textOf(forbidden), /\$\.perBlock/);
    // Exactly one of summary and transcript_path (the rule the contract keeps out of the schema root).
    const neither = await client.callTool({ name: "context_verdict_build", arguments: {} });
    assert.equal(neither.isError, true);
    assert.match(textOf(neither), /exactly one of "summary" and "transcript_path"/);
  } finally {
    await client.close();
  }
});

Deno.test("the compaction tools' input schemas are the judge's own (src/judge/tools.ts)", () => {
  for (const spec of COMPACTION_TOOLS) {
    const served = CONTRACT.tools.find((t) => t.name === spec.name);
    assert.ok(served, `${spec.name} is in the contract`);
    // No root-level oneOf anywhere (Anthropic's API refuses it; the handler enforces "exactly one").
    assert.ok(!("oneOf" in (spec.inputSchema as Record<string, unknown>)), spec.name);
    assert.deepEqual(served.inputSchema, spec.inputSchema, spec.name);
    assert.ok(served.description.startsWith(spec.description), `${spec.name}: description`);
  }
});

Deno.test("an unknown tool is a JSON-RPC error; bad arguments are an error result naming the JSON path", async () => {
  const { client, close } = await linkedClient({ hits: [], reason: null, explain: null });
  try {
    const err = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof McpError);
    assert.equal(err.code, -32602);
    // Said once: the server sends the bare message, and the client adds its one prefix.
    assert.equal(err.message, "MCP error -32602: Unknown tool: no_such_tool");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /\$\.query: is required/],
      [{ query: "x", top: 51 }, /\$\.top: must be between 1 and 50, got 51/],
      [{ query: "x", top: 2.5 }, /\$\.top: expected an integer, got 2\.5/],
      [{ query: 7 }, /\$\.query: expected a string, got an integer/],
      [{ query: "x", extra: true }, /\$\.extra: is not a known property/],
      [{ query: "x".repeat(2001) }, /\$\.query: must be at most 2000 characters, got 2001/],
    ];
    for (const [args, pattern] of cases) {
      const r = await client.callTool({ name: "verdict_recall", arguments: args });
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(textOf(r), /^Invalid arguments for verdict_recall: /);
      assert.match(textOf(r), pattern);
    }
  } finally {
    await close();
  }
});

Deno.test("parseContract refuses a contract the server could not honour, naming the place", () => {
  const broken = (edit: (c: Record<string, unknown>) => void) => {
    const c = structuredClone(contractFile) as unknown as Record<string, unknown>;
    edit(c);
    return () => parseContract(c);
  };
  const tools = (c: Record<string, unknown>) => c.tools as Record<string, unknown>[];
  const schema = (c: Record<string, unknown>) => tools(c)[0]!.inputSchema as Record<string, unknown>;
  assert.throws(
    broken((
      c,
    ) => ((schema(c).properties as Record<string, Record<string, unknown>>).query!.format = "email")),
    /\$\.tools\[0\]\.inputSchema\.properties\.query: unsupported keyword "format"/,
  );
  assert.throws(
    broken((c) => (schema(c).oneOf = [{ required: ["query"] }, { required: ["top"] }])),
    /inputSchema\.oneOf: not allowed at the top level/,
  );
  assert.throws(broken((c) => (tools(c)[1]!.name = "verdict_recall")), /listed twice/);
  assert.throws(broken((c) => delete (c.results as Record<string, unknown>).error), /\$\.results\.error/);
  assert.throws(
    broken((c) =>
      delete ((c.results as Record<string, unknown>).verdict_recall as Record<string, unknown>).hit
    ),
    /\$\.results\.verdict_recall\.hit/,
  );
  assert.throws(broken((c) => delete tools(c)[0]!.annotations), /annotations: must be an object/);
});

Deno.test("a contract tool without a handler, or a handler without a contract entry, stops start-up", () => {
  const base = {
    contract: CONTRACT as Contract,
    log: NO_CALL_LOG,
    transport: "stdio" as const,
    now: Date.now,
  };
  const noop = () => Promise.resolve({ text: "", isError: false, results: 0, outcome: "ok" as const });
  assert.throws(
    () => createToolSet({ ...base, handlers: { verdict_recall: noop } }),
    /no handler for context_verdict_build/,
  );
  const all = Object.fromEntries(CONTRACT.tools.map((t) => [t.name, noop]));
  assert.throws(
    () => createToolSet({ ...base, handlers: { ...all, extra_tool: noop } }),
    /not in the contract: extra_tool/,
  );
  assert.doesNotThrow(() => createToolSet({ ...base, handlers: all }));
});

Deno.test("the served tool list over HTTP equals the one over stdio", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  const { client: viaStdio } = await stdioClient(home);
  try {
    const viaHttp = await httpClient(serve.url);
    assert.deepEqual((await viaHttp.listTools()).tools, (await viaStdio.listTools()).tools);
    await viaHttp.close();
  } finally {
    await viaStdio.close();
    assert.equal((await serve.stop()).code, 0);
  }
});
