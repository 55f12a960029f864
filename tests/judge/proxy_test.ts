/**
 * Nothing the judge sends goes through a proxy: with HTTP_PROXY, HTTPS_PROXY or ALL_PROXY (either
 * case) naming a real listener on 127.0.0.1, with and without a NO_PROXY that does not name the
 * service, `compact judge`, the PreCompact hook and the MCP judge tool still reach the loopback
 * service they are configured with, and the proxy receives not one connection.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";
import { type FakeService, fakeService, makeRepo, TranscriptBuilder } from "./_helpers.ts";
import { stdioClient, textOf } from "../serve/serve_helper.ts";

const PROXY_VARIABLES = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"];

/** A listener that answers any request as a proxy would, and remembers every connection it got. */
function proxyListener(): { url: string; connections: () => number; heads: string[]; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  let connections = 0;
  const heads: string[] = [];
  (async () => {
    try {
      for await (const conn of listener) {
        connections++;
        const reply = JSON.stringify({
          choices: [{ message: { content: '{"choice":"safe_to_compact","score":1}' } }],
        });
        const buf = new Uint8Array(64 * 1024);
        conn.read(buf).then((n) => {
          heads.push(new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0] ?? "");
          return conn.write(
            new TextEncoder().encode(
              `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${reply.length}\r\n` +
                `connection: close\r\n\r\n${reply}`,
            ),
          );
        }).catch(() => {}).finally(() => {
          try {
            conn.close();
          } catch { /* closed */ }
        });
      }
    } catch { /* closed */ }
  })();
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    heads,
    close: () => listener.close(),
  };
}

/**
 * Each proxy variable alone, then all of them with a NO_PROXY that does not cover the service.
 * DENO_NO_UPDATE_CHECK: these tests start verdict under `deno run`, whose own update check would
 * otherwise reach the proxy (CONNECT to Deno's release server); the compiled binary has none, and
 * the processes verdict itself starts set it (tests/warm/deno_env_test.ts).
 */
function proxyEnvs(proxy: string): Record<string, string>[] {
  return [
    ...PROXY_VARIABLES.map((name) => ({ DENO_NO_UPDATE_CHECK: "1", [name]: proxy })),
    {
      DENO_NO_UPDATE_CHECK: "1",
      ...Object.fromEntries(PROXY_VARIABLES.map((name) => [name, proxy])),
      NO_PROXY: ".example.invalid",
      no_proxy: ".example.invalid",
    },
  ];
}

const BAND_SUMMARY = {
  session: "s-proxy",
  todos: [],
  uncommitted: [],
  questions: ["which db?"],
  decisions: [],
  next_steps: [],
  risk_hints: [],
};

async function withService(fn: (svc: FakeService, proxy: ReturnType<typeof proxyListener>) => Promise<void>) {
  const svc = fakeService('{"choice":"preserve_first","score":0.6}');
  const proxy = proxyListener();
  try {
    await fn(svc, proxy);
  } finally {
    proxy.close();
    await svc.close();
  }
}

Deno.test("compact judge goes straight to the loopback service whatever proxy variable is set", async () => {
  await withService(async (svc, proxy) => {
    const home = await tempHome();
    await Deno.writeTextFile(`${home}/config.json`, JSON.stringify({ judge: { service_url: svc.url } }));
    const base = { HOME: home, VERDICT_CONFIG: `${home}/config.json` };
    const built = await runCli(["compact", "build", "--summary", "-", "--json"], {
      env: base,
      stdin: JSON.stringify(BAND_SUMMARY),
    });
    assert.equal(built.code, 0, built.stderr);
    for (const extra of proxyEnvs(proxy.url)) {
      const before = svc.requests.length;
      const r = await runCli(["compact", "judge", "--json"], {
        env: { ...base, ...extra },
        stdin: built.stdout,
      });
      assert.equal(r.code, 0, r.stderr);
      const a = JSON.parse(r.stdout);
      assert.deepEqual([a.verdict, a.reason], ["preserve_first", "service_answer"], JSON.stringify(extra));
      assert.equal(svc.requests.length, before + 1, JSON.stringify(extra));
      assert.equal(
        proxy.connections(),
        0,
        `the proxy was reached with ${JSON.stringify(extra)}: ${proxy.heads}`,
      );
    }
  });
});

Deno.test("the PreCompact hook goes straight to the loopback service whatever proxy variable is set", async () => {
  await withService(async (svc, proxy) => {
    const home = await tempHome();
    const repo = await makeRepo(home);
    const dir = `${home}/.claude/projects/-repo`;
    await Deno.mkdir(dir, { recursive: true });
    const t = new TranscriptBuilder("s-proxy", repo);
    t.prompt("set up the db");
    t.tool("TodoWrite", { todos: [{ content: "write schema", status: "pending", activeForm: "writing" }] });
    const transcript = `${dir}/s-proxy.jsonl`;
    await Deno.writeTextFile(transcript, t.text());
    await Deno.writeTextFile(`${home}/config.json`, JSON.stringify({ judge: { service_url: svc.url } }));
    const input = JSON.stringify({
      session_id: "s-proxy",
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });
    for (const extra of proxyEnvs(proxy.url)) {
      const before = svc.requests.length;
      const r = await runCli(["hook", "pre-compact"], {
        env: { HOME: home, VERDICT_CONFIG: `${home}/config.json`, ...extra },
        stdin: input,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(JSON.parse(r.stdout).systemMessage, /^verdict: preserve_first \(service_answer\)/);
      assert.equal(svc.requests.length, before + 1, JSON.stringify(extra));
      assert.equal(
        proxy.connections(),
        0,
        `the proxy was reached with ${JSON.stringify(extra)}: ${proxy.heads}`,
      );
    }
  });
});

Deno.test("the MCP judge tool goes straight to the loopback service whatever proxy variable is set", async () => {
  await withService(async (svc, proxy) => {
    const home = await tempHome();
    await Deno.writeTextFile(`${home}/config.json`, JSON.stringify({ judge: { service_url: svc.url } }));
    for (const extra of proxyEnvs(proxy.url)) {
      const { client } = await stdioClient(home, [], { VERDICT_CONFIG: `${home}/config.json`, ...extra });
      try {
        const before = svc.requests.length;
        const snapshot = JSON.parse(textOf(
          await client.callTool({ name: "context_verdict_build", arguments: { summary: BAND_SUMMARY } }),
        ));
        const r = await client.callTool({ name: "context_verdict_judge", arguments: { snapshot } });
        const a = JSON.parse(textOf(r));
        assert.deepEqual([a.verdict, a.reason], ["preserve_first", "service_answer"], JSON.stringify(extra));
        assert.equal(svc.requests.length, before + 1, JSON.stringify(extra));
        assert.equal(
          proxy.connections(),
          0,
          `the proxy was reached with ${JSON.stringify(extra)}: ${proxy.heads}`,
        );
      } finally {
        await client.close();
      }
    }
  });
});
