/**
 * `verdict serve`: each rule of the HTTP server, proven against the real process on a real
 * loopback port by injecting the violation it guards against.
 */
import assert from "node:assert/strict";
import { BODY_TIMEOUT_MS, HEADER_TIMEOUT_MS, IDLE_TIMEOUT_MS } from "../../src/serve/http1.ts";
import { runCli, tempHome } from "../cli_helper.ts";
import { childEnv, freePort, httpClient, rawHttp, spawnCli, startServe, textOf } from "./serve_helper.ts";
import { MAX_BODY_BYTES } from "../../src/serve/http.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function tokenFile(home: string, mode: number, token = "test-token-0123456789abcdef"): Promise<string> {
  const path = `${home}/token`;
  await Deno.writeTextFile(path, token + "\n");
  await Deno.chmod(path, mode);
  return path;
}

async function post(url: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body });
}

Deno.test("serve refuses a bind outside the loopback names, token file or not: exit 3, 'refusing to …' and a hint", async () => {
  const home = await tempHome();
  const port = String(freePort());
  const token = await tokenFile(home, 0o600);
  for (
    const [args, env] of [
      [["serve", "--bind", "0.0.0.0", "--port", port], {}],
      [["serve", "--port", port], { VERDICT_MCP_BIND: "0.0.0.0" }],
      [["serve", "--bind", "::", "--port", port], {}],
      [["serve", "--bind", "0.0.0.0", "--port", port, "--token-file", token], {}],
      [["serve", "--bind", "127.0.0.2", "--port", port], {}],
    ] as const
  ) {
    const r = await runCli(args, { env: { HOME: home, ...env } });
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /^verdict: refusing to listen on (0\.0\.0\.0|\[::\]|127\.0\.0\.2):\d+: verdict reaches the network on 127\.0\.0\.1, localhost and ::1 alone/m,
    );
    assert.match(r.stderr, /^hint: bind to 127\.0\.0\.1 \(the default\)/m);
    assert.equal(r.stdout, "");
  }
});

Deno.test("serve refuses a token file readable or writable by group or others", async () => {
  const home = await tempHome();
  for (const mode of [0o640, 0o604, 0o620, 0o666]) {
    const file = await tokenFile(home, mode);
    const r = await runCli(["serve", "--port", String(freePort()), "--token-file", file], {
      env: { HOME: home },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`refusing to serve: token file ".*" has mode ${mode.toString(8).padStart(4, "0")}`),
    );
    assert.match(r.stderr, /^hint: run: chmod 600/m);
  }
});

Deno.test("serve refuses a missing, empty or short token file", async () => {
  const home = await tempHome();
  const missing = await runCli(["serve", "--token-file", `${home}/nope`], { env: { HOME: home } });
  assert.equal(missing.code, 3, missing.stderr);
  assert.match(missing.stderr, /refusing to serve: token file ".*nope" does not exist/);
  for (const token of ["", "short", "two words here and more"]) {
    const file = await tokenFile(home, 0o600, token);
    const r = await runCli(["serve", "--token-file", file], { env: { HOME: home } });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /must hold one word of at least 16 printable ASCII characters/);
  }
});

Deno.test("serve refuses a malformed port or bind address with a usage error", async () => {
  const home = await tempHome();
  for (
    const args of [["--port", "abc"], ["--port", "0"], ["--port", "70000"], ["--bind", "example.invalid"]]
  ) {
    const r = await runCli(["serve", ...args], { env: { HOME: home } });
    assert.equal(r.code, 3, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /^verdict: refusing to listen on /m);
  }
});

Deno.test("with a token, a request without it or with a wrong one gets 401; the right one is served", async () => {
  const home = await tempHome();
  const token = "s3cret-token-for-tests-0001";
  const file = await tokenFile(home, 0o600, token);
  const serve = await startServe(home, ["--token-file", file]);
  try {
    assert.match(serve.stderr(), /\(bearer token required\)/);
    const health = serve.url.replace(/\/mcp$/, "/healthz");
    const none = await fetch(health);
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    await none.body?.cancel();
    for (
      const bad of [
        "Bearer wrong-token-for-tests-01",
        `Bearer ${token}x`,
        `Bearer ${token.slice(0, -1)}`,
        token,
      ]
    ) {
      const r = await fetch(health, { headers: { authorization: bad } });
      assert.equal(r.status, 401, bad);
      await r.body?.cancel();
    }
    const noAuthInit = await post(serve.url, JSON.stringify(INIT));
    assert.equal(noAuthInit.status, 401);
    assert.equal((await noAuthInit.json()).error.code, -32000);
    const ok = await fetch(health, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { status: "ok", name: "verdict" });
    const client = await httpClient(serve.url, { authorization: `bearer ${token}` });
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "verdict_recall"));
    await client.close();
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("any request carrying an Origin header gets 403, before any other check or work", async () => {
  const home = await tempHome();
  const file = await tokenFile(home, 0o600);
  const serve = await startServe(home, ["--token-file", file]);
  try {
    const health = serve.url.replace(/\/mcp$/, "/healthz");
    for (const origin of ["http://evil.example", `http://127.0.0.1:${serve.port}`, "null"]) {
      // No token: 403 (Origin), not 401 — the Origin check comes first.
      const r = await fetch(health, { headers: { origin } });
      assert.equal(r.status, 403, origin);
      assert.match((await r.json()).error.message, /Origin/);
    }
    // An oversized body with an Origin is refused as 403 without the body being read (not 413).
    const big = await post(serve.url, "x".repeat(MAX_BODY_BYTES + 10), { origin: "http://evil.example" });
    assert.equal(big.status, 403);
    await big.body?.cancel();
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("a Host header that is not the listen address gets 403 (DNS rebinding)", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  try {
    const ask = (host: string) =>
      rawHttp(serve.port, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, null);
    for (
      const host of [`evil.example:${serve.port}`, `127.0.0.1:${serve.port + 1}`, "evil.example", "127.0.0.1"]
    ) {
      assert.match(await ask(host), /^HTTP\/1\.1 403 /, host);
    }
    for (const host of [`127.0.0.1:${serve.port}`, `localhost:${serve.port}`, `LOCALHOST:${serve.port}`]) {
      assert.match(await ask(host), /^HTTP\/1\.1 200 /, host);
    }
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("a body over 1 MiB gets 413, by its Content-Length and by the bytes actually streamed", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  try {
    const declared = await post(serve.url, "x".repeat(MAX_BODY_BYTES + 1));
    assert.equal(declared.status, 413);
    assert.equal((await declared.json()).error.code, -32000);
    // Chunked: no Content-Length, so only counting the streamed bytes can catch it.
    const chunk = "y".repeat(64 * 1024);
    const chunks = Math.ceil((MAX_BODY_BYTES + 1) / chunk.length) + 1;
    const body = new TextEncoder().encode(
      Array.from({ length: chunks }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("") +
        "0\r\n\r\n",
    );
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serve.port}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const streamed = await rawHttp(serve.port, head, body);
    assert.match(streamed, /^HTTP\/1\.1 413 /);
    assert.doesNotMatch(streamed, /content-length: *\d+\r\n[\s\S]*content-length/i);
    // Exactly at the cap is accepted: an initialize padded with spaces to MAX_BODY_BYTES.
    const init = JSON.stringify(INIT);
    const atCap = await post(serve.url, init + " ".repeat(MAX_BODY_BYTES - init.length));
    assert.equal(atCap.status, 200);
    assert.ok(atCap.headers.get("mcp-session-id"));
    await atCap.body?.cancel();
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("malformed JSON-RPC gets a JSON-RPC error, and the server keeps serving", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  try {
    const cases: [string, number, number][] = [
      ["{not json", 400, -32700],
      ["\xff\xfe", 400, -32700],
      ["", 400, -32700],
      ['{"hello":1}', 400, -32600],
      ["[]", 400, -32600],
      ['[{"jsonrpc":"1.0","id":1,"method":"x"}]', 400, -32600],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', 400, -32000],
    ];
    for (const [body, status, code] of cases) {
      const r = await post(serve.url, body);
      assert.equal(r.status, status, body);
      const json = await r.json();
      assert.equal(json.jsonrpc, "2.0");
      assert.equal(json.error.code, code, body);
      assert.equal(json.id, null);
    }
    const wrongType = await post(serve.url, JSON.stringify(INIT), { "content-type": "text/plain" });
    assert.equal(wrongType.status, 415);
    await wrongType.body?.cancel();
    const unknown = await post(serve.url, JSON.stringify(INIT), { "mcp-session-id": "no-such-session" });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, -32001);
    const put = await fetch(serve.url, { method: "PUT", body: "{}" });
    assert.equal(put.status, 405);
    await put.body?.cancel();
    const nowhere = await fetch(serve.url.replace(/\/mcp$/, "/other"));
    assert.equal(nowhere.status, 404);
    await nowhere.body?.cancel();
    // Still serving: a real client connects and calls a tool.
    const client = await httpClient(serve.url);
    const bad = await client.callTool({ name: "verdict_recall", arguments: { query: "" } });
    assert.equal(bad.isError, true);
    assert.match(
      textOf(bad),
      /^Invalid arguments for verdict_recall: \$\.query: must be at least 1 character/,
    );
    await client.close();
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("serve holds net access to its own address only: a probe of another loopback port is refused by Deno", async () => {
  const home = await tempHome();
  const bait = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const baitPort = (bait.addr as Deno.NetAddr).port;
  try {
    const serve = await startServe(home, [], { VERDICT_SERVE_NET_PROBE: `127.0.0.1:${baitPort}` });
    const { code, stderr } = await serve.stop();
    assert.equal(code, 0);
    assert.match(
      stderr,
      new RegExp(
        `net probe: connecting to 127\\.0\\.0\\.1:${baitPort} was refused by the sandbox \\(Requires net access`,
      ),
    );
    // The violation injected: a config whose judge service sits on the bait port widens the
    // sandbox to it; the probe then gets through, and serve refuses to start.
    await Deno.mkdir(`${home}/.config/verdict`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/.config/verdict/config.json`,
      JSON.stringify({ judge: { service_url: `http://127.0.0.1:${baitPort}/v1/chat/completions` } }),
    );
    const accepted = bait.accept();
    const r = await runCli(["serve", "--port", String(freePort())], {
      env: { HOME: home, VERDICT_SERVE_NET_PROBE: `127.0.0.1:${baitPort}` },
    });
    (await accepted).close();
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /refusing to serve: the net probe reached past the sandbox: connecting to .* succeeded/,
    );
  } finally {
    bait.close();
  }
});

Deno.test("SIGTERM and SIGINT stop serve cleanly: exit 0, 'stopped', and the port is closed", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const home = await tempHome();
    const serve = await startServe(home);
    // An open session with its event stream must not keep the server from stopping.
    const client = await httpClient(serve.url);
    await client.listTools();
    const { code, stderr } = await serve.stop(signal);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /verdict serve: stopped/);
    await assert.rejects(
      Deno.connect({ hostname: "127.0.0.1", port: serve.port }),
      Deno.errors.ConnectionRefused,
    );
    await client.close().catch(() => {});
  }
});

Deno.test("a port already in use is a clear error, not a crash", async () => {
  const home = await tempHome();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const r = await runCli(["serve", "--port", String(port)], { env: { HOME: home } });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${port}: the address is in use`));
  } finally {
    taken.close();
  }
});

Deno.test("VERDICT_CALL_LOG gets one JSON line per tool call, never the query text unless opted in", async () => {
  for (const optIn of [false, true]) {
    const home = await tempHome();
    const log = `${home}/calls.jsonl`;
    const serve = await startServe(home, [], {
      VERDICT_CALL_LOG: log,
      ...(optIn ? { VERDICT_CALL_LOG_QUERIES: "1" } : {}),
    });
    const client = await httpClient(serve.url);
    await client.callTool({ name: "verdict_recall", arguments: { query: "secret pg_dump plan", top: 3 } });
    await client.callTool({ name: "verdict_recall", arguments: { query: "x", top: 0 } });
    await client.close();
    assert.equal((await serve.stop()).code, 0);
    const text = await Deno.readTextFile(log);
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.deepEqual(Object.keys(lines[0]).slice(0, 7), [
      "time",
      "transport",
      "tool",
      "query_chars",
      "results",
      "outcome",
      "duration_ms",
    ]);
    assert.equal(lines[0].tool, "verdict_recall");
    assert.equal(lines[0].transport, "http");
    assert.equal(lines[0].query_chars, "secret pg_dump plan".length);
    assert.equal(typeof lines[0].duration_ms, "number");
    assert.match(lines[0].time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(lines[1].outcome, "invalid");
    if (optIn) assert.equal(lines[0].query, "secret pg_dump plan");
    else assert.ok(!text.includes("secret"), "the query text must not be logged without the opt-in");
    assert.equal((await Deno.stat(log)).mode! & 0o077, 0);
  }
});

Deno.test("--print-addr prints where serve would listen, or JSON with --json", async () => {
  const home = await tempHome();
  const plain = await runCli(["serve", "--print-addr"], { env: { HOME: home } });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout, "http://127.0.0.1:8933/mcp\n");
  const v6 = await runCli(["serve", "--print-addr", "--json", "--port", "9000"], {
    env: { HOME: home, VERDICT_MCP_BIND: "[::1]" },
  });
  assert.equal(v6.code, 0, v6.stderr);
  assert.deepEqual(JSON.parse(v6.stdout), {
    url: "http://[::1]:9000/mcp",
    host: "::1",
    port: 9000,
    token: false,
  });
  const file = await tokenFile(home, 0o600);
  const withToken = await runCli(["serve", "--print-addr", "--json", "--bind", "0.0.0.0"], {
    env: { HOME: home, VERDICT_MCP_TOKEN_FILE: file },
  });
  assert.equal(withToken.code, 3, "a token does not widen the loopback names");
  const loopToken = await runCli(["serve", "--print-addr", "--json"], {
    env: { HOME: home, VERDICT_MCP_TOKEN_FILE: file },
  });
  assert.equal(loopToken.code, 0, loopToken.stderr);
  assert.deepEqual(JSON.parse(loopToken.stdout), {
    url: "http://127.0.0.1:8933/mcp",
    host: "127.0.0.1",
    port: 8933,
    token: true,
  });
  const refused = await runCli(["serve", "--print-addr", "--bind", "0.0.0.0"], { env: { HOME: home } });
  assert.equal(refused.code, 3);
  const jsonAlone = await runCli(["serve", "--json"], { env: { HOME: home } });
  assert.equal(jsonAlone.code, 3);
  assert.match(jsonAlone.stderr, /"--json" goes with "--print-addr"/);
});

Deno.test("GET /healthz answers while the MCP endpoint needs an initialize first", async () => {
  const home = await tempHome();
  const serve = await spawnCli(["serve", "--port", String(freePort())], childEnv(home));
  try {
    const err = await serve.waitFor(/listening on (\S+?);/);
    const url = /listening on (\S+?);/.exec(err)![1]!;
    const health = await fetch(url.replace(/\/mcp$/, "/healthz"));
    assert.equal(health.status, 200);
    assert.equal((await health.json()).status, "ok");
    const get = await fetch(url, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 400);
    await get.body?.cancel();
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("with VERDICT_CALL_LOG_QUERIES=1 a query holding a credential is logged as the placeholder", async () => {
  const home = await tempHome();
  const log = `${home}/calls.jsonl`;
  const serve = await startServe(home, [], { VERDICT_CALL_LOG: log, VERDICT_CALL_LOG_QUERIES: "1" });
  const client = await httpClient(serve.url);
  await client.callTool({
    name: "verdict_recall",
    arguments: { query: "why is the password: hunter2 here", top: 3 },
  });
  await client.callTool({
    name: "verdict_recall",
    arguments: { query: "xoxc-0000000000-0000000000-FAKEfakeFAKE", top: 3 },
  });
  await client.callTool({ name: "verdict_recall", arguments: { query: "pg_dump plan", top: 3 } });
  await client.close();
  assert.equal((await serve.stop()).code, 0);
  const lines = (await Deno.readTextFile(log)).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.query), [
    "[verdict: credential removed]",
    "[verdict: credential removed]",
    "pg_dump plan",
  ]);
  assert.equal(lines[0].query_chars, "why is the password: hunter2 here".length);
});

/** Reads `conn` until the server closes it; the time that took (ms) and what it sent. */
async function untilClosed(conn: Deno.Conn, limitMs: number): Promise<{ ms: number; text: string }> {
  const start = performance.now();
  const buf = new Uint8Array(4096);
  let text = "";
  const timer = setTimeout(() => conn.close(), limitMs);
  try {
    while (true) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the server or the timer
    }
  }
  return { ms: performance.now() - start, text };
}

Deno.test("serve closes half-open connections: no request, half a head, half a body, or idle between requests", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  try {
    const host = `Host: 127.0.0.1:${serve.port}\r\n`;
    const enc = new TextEncoder();
    const connect = () => Deno.connect({ hostname: "127.0.0.1", port: serve.port });
    const limit = IDLE_TIMEOUT_MS + 5000;
    // Many connections that send nothing at all, as a flood would hold them.
    const silent = await Promise.all(Array.from({ length: 100 }, connect));
    const halfHead = await connect();
    await halfHead.write(enc.encode(`POST /mcp HTTP/1.1\r\n${host}Content-Type: applic`));
    const halfBody = await connect();
    await halfBody.write(
      enc.encode(
        `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`,
      ),
    );
    const idle = await connect();
    await idle.write(enc.encode(`GET /healthz HTTP/1.1\r\n${host}\r\n`));
    const results = Promise.all([
      ...silent.map((c) => untilClosed(c, limit)),
      untilClosed(halfHead, limit),
      untilClosed(halfBody, limit),
      untilClosed(idle, limit),
    ]);
    // Meanwhile the server still answers a real request.
    const health = await fetch(`http://127.0.0.1:${serve.port}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const all = await results;
    const [silentOnes, [head, body, kept]] = [all.slice(0, 100), all.slice(100)] as const;
    for (const r of silentOnes) {
      assert.ok(r.ms < HEADER_TIMEOUT_MS + 3000, `a silent connection was held ${r.ms.toFixed(0)} ms`);
    }
    assert.ok(head!.ms < HEADER_TIMEOUT_MS + 3000, `half a head was held ${head!.ms.toFixed(0)} ms`);
    assert.match(head!.text, /^HTTP\/1\.1 408 /);
    assert.ok(body!.ms < BODY_TIMEOUT_MS + 3000, `half a body was held ${body!.ms.toFixed(0)} ms`);
    assert.match(body!.text, /^HTTP\/1\.1 408 /);
    assert.match(kept!.text, /^HTTP\/1\.1 200 /, "the kept-alive connection was served first");
    assert.ok(
      kept!.ms < IDLE_TIMEOUT_MS + 3000,
      `an idle kept-alive connection was held ${kept!.ms.toFixed(0)} ms`,
    );
    assert.ok(kept!.ms > IDLE_TIMEOUT_MS - 1000, "an idle connection is kept for IDLE_TIMEOUT_MS");
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});

Deno.test("serve refuses what could smuggle a request or swamp it: both body lengths, another coding, a huge head", async () => {
  const home = await tempHome();
  const serve = await startServe(home);
  try {
    const host = `Host: 127.0.0.1:${serve.port}\r\n`;
    const both = await rawHttp(
      serve.port,
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n`,
      new TextEncoder().encode("0\r\n\r\n"),
    );
    assert.match(both, /^HTTP\/1\.1 400 /);
    const gzip = await rawHttp(
      serve.port,
      `POST /mcp HTTP/1.1\r\n${host}Transfer-Encoding: gzip\r\n\r\n`,
      null,
    );
    assert.match(gzip, /^HTTP\/1\.1 501 /);
    const twoLengths = await rawHttp(
      serve.port,
      `POST /mcp HTTP/1.1\r\n${host}Content-Length: 2, 3\r\n\r\n`,
      null,
    );
    assert.match(twoLengths, /^HTTP\/1\.1 400 /);
    const huge = await rawHttp(
      serve.port,
      `GET /healthz HTTP/1.1\r\n${host}X-Pad: ${"a".repeat(64 * 1024)}\r\n\r\n`,
      null,
    );
    assert.match(huge, /^HTTP\/1\.1 431 /);
    // And a well-formed request on a fresh connection is still served.
    assert.match(
      await rawHttp(serve.port, `GET /healthz HTTP/1.1\r\n${host}Connection: close\r\n\r\n`, null),
      /^HTTP\/1\.1 200 /,
    );
  } finally {
    assert.equal((await serve.stop()).code, 0);
  }
});
