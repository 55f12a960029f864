/**
 * The pinned-CLI installer against a package registry of our own on 127.0.0.1 (the real npm
 * client, a real tarball made by `npm pack`): installed once and reused, safe when two installs
 * race, and a clear failure when the registry cannot be reached.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { installCli, installDir, type InstallOptions, latestVersion } from "./install_cli.ts";

const PKG = "verdict-test-cli";
const VERSION = "1.2.3";

interface Registry {
  readonly origin: string;
  /** Requests so far, as "METHOD path". */
  readonly hits: string[];
  close(): Promise<void>;
}

/** A registry serving one package at one version. */
async function registry(root: string): Promise<Registry> {
  const src = `${root}/src`;
  await Deno.mkdir(src, { recursive: true });
  await Deno.writeTextFile(
    `${src}/package.json`,
    JSON.stringify({ name: PKG, version: VERSION, bin: { "verdict-test-cli": "cli.js" } }),
  );
  await Deno.writeTextFile(`${src}/cli.js`, "#!/usr/bin/env node\nconsole.log('hi');\n", { mode: 0o755 });
  const pack = await new Deno.Command("npm", {
    args: ["pack", "--silent", "--pack-destination", root],
    cwd: src,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(pack.success, new TextDecoder().decode(pack.stderr));
  const tarball = await Deno.readFile(`${root}/${PKG}-${VERSION}.tgz`);
  const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
  const shasum = createHash("sha1").update(tarball).digest("hex");
  const hits: string[] = [];
  let origin = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    hits.push(`${req.method} ${path}`);
    if (path === `/${PKG}`) {
      return Response.json({
        name: PKG,
        "dist-tags": { latest: VERSION },
        versions: {
          [VERSION]: {
            name: PKG,
            version: VERSION,
            bin: { "verdict-test-cli": "cli.js" },
            dist: { tarball: `${origin}/${PKG}/-/${PKG}-${VERSION}.tgz`, integrity, shasum },
          },
        },
      });
    }
    if (path === `/${PKG}/-/${PKG}-${VERSION}.tgz`) return new Response(tarball);
    return new Response("not found", { status: 404 });
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, hits, close: () => server.shutdown() };
}

function options(root: string, registryUrl: string): InstallOptions {
  return {
    cacheRoot: `${root}/cache`,
    npmEnv: {
      npm_config_registry: `${registryUrl}/`,
      npm_config_cache: `${root}/npm-cache`,
      npm_config_fetch_retries: "0",
      npm_config_audit: "false",
    },
  };
}

Deno.test("installCli() installs a version once into its cache folder and reuses it", async () => {
  const root = await Deno.makeTempDir({ prefix: "verdict-install-cli-" });
  const reg = await registry(root);
  try {
    const opts = options(root, reg.origin);
    const dir = await installCli(PKG, VERSION, opts);
    assert.equal(dir, installDir(PKG, VERSION, opts));
    assert.equal(dir, `${root}/cache/${PKG}@${VERSION}`);
    const meta = JSON.parse(await Deno.readTextFile(`${dir}/node_modules/${PKG}/package.json`));
    assert.equal(meta.version, VERSION);
    const tarballs = reg.hits.filter((h) => h.endsWith(".tgz")).length;
    assert.equal(tarballs, 1);
    // A second call finds it complete and asks the registry nothing.
    const before = reg.hits.length;
    assert.equal(await installCli(PKG, VERSION, opts), dir);
    assert.equal(reg.hits.length, before);
    assert.equal(await latestVersion(PKG, opts), VERSION);
  } finally {
    await reg.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("installCli(): two installs racing end with one complete copy and no partial folder", async () => {
  const root = await Deno.makeTempDir({ prefix: "verdict-install-cli-" });
  const reg = await registry(root);
  try {
    const opts = options(root, reg.origin);
    const [a, b] = await Promise.all([installCli(PKG, VERSION, opts), installCli(PKG, VERSION, opts)]);
    assert.equal(a, b);
    const left = (await Array.fromAsync(Deno.readDir(`${root}/cache`))).map((e) => e.name).sort();
    assert.deepEqual(left, [`${PKG}@${VERSION}`], "a partial install was left behind");
    const meta = JSON.parse(await Deno.readTextFile(`${a}/node_modules/${PKG}/package.json`));
    assert.equal(meta.version, VERSION);
  } finally {
    await reg.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("installCli() fails clearly, leaving nothing, when the registry cannot be reached", async () => {
  const root = await Deno.makeTempDir({ prefix: "verdict-install-cli-" });
  // A port that was just free: nothing listens there.
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  try {
    const opts = options(root, `http://127.0.0.1:${port}`);
    await assert.rejects(installCli(PKG, VERSION, opts), (err: Error) => {
      assert.match(err.message, new RegExp(`^Cannot install "${PKG}@${VERSION}": npm exited \\d+`));
      assert.match(err.message, /hint: the client tests need the npm registry once per version/);
      return true;
    });
    const left = await Array.fromAsync(Deno.readDir(`${root}/cache`));
    assert.deepEqual(left, [], "a failed install left a folder in the cache");
    await assert.rejects(
      latestVersion(PKG, opts),
      /Cannot ask the registry for the newest "verdict-test-cli"/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("installCli() refuses a version that is not a version number (it becomes an npm argument)", async () => {
  await assert.rejects(installCli(PKG, "1.0.0 --global"), TypeError);
  await assert.rejects(installCli(PKG, "latest"), /is not a version number/);
});
