import assert from "node:assert/strict";
import { allowedHosts, listenAddress, mcpUrl, resolveListen, ServeRefusal } from "../../src/serve/listen.ts";

const base = { bind: undefined, port: undefined, tokenFile: undefined, env: {}, cwd: "/w", home: "/h" };

Deno.test("serve listens on 127.0.0.1:8933 by default, the same address the permission table names", () => {
  const s = resolveListen(base);
  assert.deepEqual(s, { host: "127.0.0.1", port: 8933, tokenFile: null, loopback: true, wildcard: false });
  assert.equal(mcpUrl(s), "http://127.0.0.1:8933/mcp");
});

Deno.test("bind addresses are normalised; IPv6 loopback counts as loopback", () => {
  for (const bind of ["::1", "[::1]", "0:0:0:0:0:0:0:1"]) {
    const s = resolveListen({ ...base, bind });
    assert.equal(s.host, "::1");
    assert.equal(s.loopback, true);
    assert.equal(mcpUrl(s), "http://[::1]:8933/mcp");
  }
  assert.equal(resolveListen({ ...base, bind: "LocalHost" }).host, "localhost");
});

Deno.test("a bind outside 127.0.0.1, localhost and ::1 is refused, token file or not; a token file's path is resolved", () => {
  for (const bind of ["0.0.0.0", "::", "192.168.1.5", "::ffff:127.0.0.1", "127.0.0.2"]) {
    for (const env of [{}, { VERDICT_MCP_TOKEN_FILE: "tok" }]) {
      assert.throws(
        () => resolveListen({ ...base, bind, env }),
        /refusing to listen on .*: verdict reaches the network on 127\.0\.0\.1, localhost and ::1 alone/,
        bind,
      );
    }
  }
  assert.throws(() => resolveListen({ ...base, bind: "0.0.0.0" }), ServeRefusal, "a usage error (exit 3)");
  const s = resolveListen({ ...base, env: { VERDICT_MCP_TOKEN_FILE: "tok" } });
  assert.equal(s.tokenFile, "/w/tok");
  assert.equal(s.loopback, true);
});

Deno.test("malformed addresses and ports are refused, and then no net is granted", () => {
  for (const bind of ["example.invalid", "010.0.0.1", "256.1.1.1", "1.2.3", "::g"]) {
    assert.throws(() => resolveListen({ ...base, bind }), /not an IP address/, bind);
    assert.equal(listenAddress({ ...base, bind }), null);
  }
  for (const port of ["0", "65536", "-1", "8e3", "", " 80"]) {
    assert.throws(() => resolveListen({ ...base, port }), /not a port number/, port);
  }
  assert.deepEqual(listenAddress({ ...base, port: "9001" }), { host: "127.0.0.1", port: 9001 });
});

Deno.test("the Host header must name the listen address", () => {
  const loop = allowedHosts(resolveListen({ ...base, port: "9000" }))!;
  assert.deepEqual([...loop].sort(), ["127.0.0.1:9000", "[::1]:9000", "localhost:9000"]);
  const v6 = allowedHosts(resolveListen({ ...base, bind: "::1", tokenFile: "/t" }))!;
  assert.deepEqual([...v6].sort(), ["127.0.0.1:8933", "[::1]:8933", "localhost:8933"]);
});
