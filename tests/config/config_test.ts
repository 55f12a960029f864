import assert from "node:assert/strict";
import { ConfigError } from "../../src/errors.ts";
import {
  ConfigKeeper,
  DEFAULT_CONFIG,
  isLoopbackUrl,
  loadConfig,
  parseConfig,
} from "../../src/config/config.ts";
import { thrown } from "../_helpers.ts";

const HOME = "/home/u";

Deno.test("a missing config file gives the defaults", async () => {
  const dir = await Deno.makeTempDir();
  assert.deepEqual(await loadConfig(`${dir}/nope.json`, HOME), DEFAULT_CONFIG);
});

Deno.test("config paths resolve against the config file's folder and ~", () => {
  const c = parseConfig(
    `{ "doc_roots": ["notes", "~/docs", "/abs"], "entities": "ents.tsv", }`,
    "/etc/verdict/config.json",
    HOME,
  );
  assert.deepEqual(c.doc_roots, ["/etc/verdict/notes", "/home/u/docs", "/abs"]);
  assert.equal(c.entities, "/etc/verdict/ents.tsv");
  assert.equal(c.source, "/etc/verdict/config.json");
});

Deno.test("a malformed config names the file, line and column", () => {
  const err = thrown(() => parseConfig('{\n  "doc_roots": [\n  "a"\n  "b"]\n}', "/c.json", HOME));
  assert.ok(err instanceof ConfigError);
  assert.match(err.message, /\/c\.json/);
  assert.match(err.message, /line 4, column 3/);
  assert.equal(err.exitCode, 3);
});

Deno.test("an unknown key is an error naming it, top level and under judge", () => {
  assert.throws(() => parseConfig('{"doc_root": []}', "/c.json", HOME), /Unknown key "doc_root"/);
  assert.throws(
    () => parseConfig('{"judge": {"safe_maxx": 1}}', "/c.json", HOME),
    /Unknown key "judge.safe_maxx"/,
  );
});

Deno.test("values of the wrong type are refused with the key named", () => {
  assert.throws(() => parseConfig('{"doc_roots": "x"}', "/c.json", HOME), /doc_roots must be a list/);
  assert.throws(() => parseConfig('{"judge": {"safe_max": -1}}', "/c.json", HOME), /judge.safe_max/);
  assert.throws(() => parseConfig('{"include_headless": "yes"}', "/c.json", HOME), /include_headless/);
  assert.throws(
    () => parseConfig('{"judge": {"safe_max": 3, "wait_min": 1}}', "/c.json", HOME),
    /wait_min \(1\) is below judge.safe_max \(3\)/,
  );
});

Deno.test("a non-loopback judge service URL is a config error", () => {
  for (
    const url of [
      "http://10.0.0.2:8080/v1",
      "https://api.example.com/v1",
      "http://user:pw@127.0.0.1/",
      "ftp://127.0.0.1/",
      // Loopback, but the judge's direct client speaks plain HTTP.
      "https://127.0.0.1:8443/v1",
    ]
  ) {
    assert.throws(
      () => parseConfig(JSON.stringify({ judge: { service_url: url } }), "/c.json", HOME),
      /not a loopback http URL/,
      url,
    );
  }
  const ok = parseConfig(
    '{"judge": {"service_url": "http://127.0.0.1:8080/v1/chat/completions"}}',
    "/c.json",
    HOME,
  );
  assert.equal(ok.judge.service_url, "http://127.0.0.1:8080/v1/chat/completions");
});

Deno.test("isLoopbackUrl() accepts 127.0.0.1, ::1 and localhost only: the names verdict's net permission holds", () => {
  assert.ok(isLoopbackUrl("http://127.0.0.1:1/"));
  // Loopback, but Deno grants no range: the binary could not reach it, so the config says so.
  assert.ok(!isLoopbackUrl("http://127.3.2.1/"));
  assert.ok(isLoopbackUrl("http://LOCALHOST:8080/"));
  assert.ok(isLoopbackUrl("http://[::1]:8080/"));
  assert.ok(isLoopbackUrl("http://localhost:8080/"));
  assert.ok(!isLoopbackUrl("http://127.0.0.1.example.com/"));
  assert.ok(!isLoopbackUrl("http://0.0.0.0/"));
  assert.ok(!isLoopbackUrl("not a url"));
});

Deno.test("an invalid credential pattern fails config loading with the rule named", () => {
  assert.throws(
    () => parseConfig('{"credential_patterns": ["ok-[a-z]+", "(unclosed"]}', "/c.json", HOME),
    /credential_patterns\[1\] "\(unclosed"/,
  );
  assert.throws(() => parseConfig('{"credential_patterns": ["keyword:"]}', "/c.json", HOME), /needs a word/);
  assert.throws(() => parseConfig('{"credential_patterns": ["x*"]}', "/c.json", HOME), /matches empty text/);
});

Deno.test("ConfigKeeper: parsed once while the text stays; an edit of the same size and mtime is read; removed gives the defaults; a broken file fails every load", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config.json`;
  const keeper = new ConfigKeeper();
  try {
    assert.equal(keeper.load(path, HOME), DEFAULT_CONFIG, "no file: the defaults");
    await Deno.writeTextFile(path, '{ "hook_personas": ["shop"] }');
    const first = keeper.load(path, HOME);
    assert.deepEqual(first.hook_personas, ["shop"]);
    assert.equal(keeper.load(path, HOME), first, "the same text: the same parsed config");
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.hook_personas), "shared, so frozen");
    // Same size, same mtime: only the text tells.
    const before = await Deno.stat(path);
    await Deno.writeTextFile(path, '{ "hook_personas": ["shoq"] }');
    await Deno.utime(path, before.atime!, before.mtime!);
    assert.equal((await Deno.stat(path)).size, before.size);
    assert.deepEqual(keeper.load(path, HOME).hook_personas, ["shoq"], "the edit is read");
    assert.deepEqual(keeper.load(path, "/home/v").hook_personas, ["shoq"], "another home: parsed for it");
    await Deno.writeTextFile(path, '{ "hook_personas": [ }');
    for (const round of [1, 2]) {
      assert.throws(() => keeper.load(path, HOME), ConfigError, `broken, load ${round}`);
    }
    await Deno.remove(path);
    assert.equal(keeper.load(path, HOME), DEFAULT_CONFIG, "removed: the defaults again");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
