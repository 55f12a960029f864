/**
 * Session bookkeeping of the HTTP handler (no socket: the handler is called with Requests), and
 * the launcher's module graph: the hint path never loads the MCP SDK.
 */
import assert from "node:assert/strict";
import { createHttpHandler, MAX_SESSIONS, SESSION_IDLE_MS } from "../../src/serve/http.ts";
import { resolveListen } from "../../src/serve/listen.ts";
import { createToolSet } from "../../src/serve/tools.ts";
import { CONTRACT } from "../../src/serve/contract.ts";
import { NO_CALL_LOG } from "../../src/serve/call_log.ts";

const URL_ = "http://127.0.0.1:8933/mcp";
const HEADERS = {
  host: "127.0.0.1:8933",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

function handler(now: () => number) {
  const noop = () => Promise.resolve({ text: "ok", isError: false, results: 0, outcome: "ok" as const });
  const tools = createToolSet({
    contract: CONTRACT,
    handlers: Object.fromEntries(CONTRACT.tools.map((t) => [t.name, noop])),
    log: NO_CALL_LOG,
    transport: "http",
    now: Date.now,
  });
  const listen = resolveListen({
    bind: undefined,
    port: undefined,
    tokenFile: undefined,
    env: {},
    cwd: "/",
    home: "/",
  });
  return createHttpHandler({
    tools,
    identity: { version: "test" },
    listen,
    tokenDigest: null,
    log: () => {},
    now,
  });
}

async function initialize(h: ReturnType<typeof handler>): Promise<string> {
  const res = await h.handle(
    new Request(URL_, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      }),
    }),
  );
  assert.equal(res.status, 200);
  await res.body?.cancel();
  return res.headers.get("mcp-session-id")!;
}

async function ping(h: ReturnType<typeof handler>, session: string): Promise<number> {
  const res = await h.handle(
    new Request(URL_, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    }),
  );
  await res.body?.cancel();
  return res.status;
}

Deno.test("past MAX_SESSIONS the least recently used session is closed, not the busy ones", async () => {
  let t = 0;
  const h = handler(() => t);
  const first = await initialize(h);
  const second = await initialize(h);
  for (let i = 2; i < MAX_SESSIONS; i++) await initialize(h);
  assert.equal(h.sessionCount(), MAX_SESSIONS);
  t = 1;
  assert.equal(await ping(h, first), 200); // `first` is now the most recently used
  await initialize(h);
  assert.equal(h.sessionCount(), MAX_SESSIONS);
  assert.equal(await ping(h, second), 404);
  assert.equal(await ping(h, first), 200);
  await h.closeAll();
  assert.equal(h.sessionCount(), 0);
});

Deno.test("a session unused for SESSION_IDLE_MS is closed when the next one opens; DELETE ends one", async () => {
  let t = 0;
  const h = handler(() => t);
  const idle = await initialize(h);
  const busy = await initialize(h);
  t = SESSION_IDLE_MS;
  assert.equal(await ping(h, busy), 200);
  t = SESSION_IDLE_MS + 1;
  await initialize(h);
  assert.equal(await ping(h, idle), 404);
  assert.equal(await ping(h, busy), 200);
  const del = await h.handle(
    new Request(URL_, {
      method: "DELETE",
      headers: { ...HEADERS, "mcp-session-id": busy, "mcp-protocol-version": "2025-11-25" },
    }),
  );
  assert.equal(del.status, 200);
  assert.equal(await ping(h, busy), 404);
  await h.closeAll();
});

Deno.test("the launcher's static module graph holds no MCP SDK: hint never pays for it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("../../main.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { isDynamic?: boolean; code?: { specifier: string } }[] }[];
  };
  const bySpec = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const dep of bySpec.get(s)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code) stack.push(dep.code.specifier);
    }
  }
  const sdk = [...seen].filter((s) =>
    s.startsWith("npm:") || /\/src\/serve\/(mcp_deps|server|http|stdio)\.ts$/.test(s)
  );
  assert.deepEqual(sdk, []);
});
