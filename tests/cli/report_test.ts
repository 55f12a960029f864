/**
 * `verdict report --html`, loaded in a real browser: headless Chromium (Debian's `chromium`;
 * .ci/run installs it when missing) loads the page from a real HTTP server on 127.0.0.1 that
 * logs every request. The page must make no request but its own, hold no http(s) reference in
 * any attribute, show the decisions, plots and most-quoted table in its DOM, filter by the
 * search box (its "#q=" address part), and render to a screenshot of the asked size.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../cli_helper.ts";

const CORPUS = new URL("../fixtures/gate/corpus.jsonl", import.meta.url).pathname;
const AS_OF = "2026-12-01T00:00:00Z";

function chromiumPath(): string {
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // Not there.
    }
  }
  throw new Error("headless Chromium is needed for this test: apt-get install -y chromium (.ci/run does)");
}

async function chromium(args: string[], profile: string): Promise<string> {
  const out = await new Deno.Command(chromiumPath(), {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--no-default-browser-check",
      `--user-data-dir=${profile}`,
      ...args,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(out.code, 0, `chromium ${args.join(" ")}`);
  return new TextDecoder().decode(out.stdout);
}

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

Deno.test("report --html: one self-contained page a real browser shows without a single request beyond it", async () => {
  const home = await tempHome();
  const env = { HOME: home, VERDICT_SEEN: "" };
  const data = `${home}/.local/share/verdict`;
  await Deno.mkdir(data, { recursive: true });
  // The synthetic gate corpus as an older verdict's records file: collect migrates it.
  await Deno.copyFile(CORPUS, `${data}/records.jsonl`);
  assert.equal((await runCli(["collect", "--quiet"], { env })).code, 0);
  // A decision holding markup and an address: it must stay text.
  const hostile =
    'Always escape <img src="https://tracker.example/p.png"> and <script>alert(1)</script> in reports.';
  const remembered = await runCli([
    "remember",
    "--json",
    "--project",
    "/home/dev/shop",
    "--as-of",
    "2026-11-30T00:00:00Z",
    hostile,
  ], {
    env,
  });
  assert.equal(remembered.code, 0, remembered.stderr);
  const hostileId = JSON.parse(remembered.stdout).record.id as string;
  assert.equal(
    (await runCli(["retract", "d000000000000c002", "--as-of", "2026-11-30T00:00:00Z"], { env })).code,
    0,
  );

  const page = `${home}/out/report.html`;
  await Deno.mkdir(`${home}/out`);
  const r = await runCli(["report", "--html", page, "--as-of", AS_OF], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^report: \d+ decision\(s\) in \d+ project\(s\), \d+ prompt\(s\) replayed \(\d+ hinted\) → /,
  );
  const html = await Deno.readTextFile(page);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  assert.ok(
    !/\b(?:src|href|action|data|poster|srcset)\s*=\s*["']?\s*https?:/i.test(html),
    "no attribute names an address",
  );
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), "markup from the archive is escaped");

  const requests: string[] = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    async (req) => {
      requests.push(new URL(req.url).pathname);
      if (new URL(req.url).pathname === "/report.html") {
        return new Response(await Deno.readFile(page), {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      }
      return new Response("not here", { status: 404 });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}/report.html`;
  try {
    const dom = await chromium(["--virtual-time-budget=3000", "--dump-dom", base], `${home}/profile-1`);
    assert.deepEqual(requests, ["/report.html"], "the page asked for nothing beyond itself");
    // What it shows.
    const decisions = [...dom.matchAll(/<li class="decision"/g)].length;
    assert.ok(decisions > 20, `${decisions} decisions listed`);
    assert.match(
      dom,
      new RegExp(`<p id="shown" class="meta">${decisions} of ${decisions} decisions</p>`),
      "the script ran",
    );
    assert.match(dom, /<figure id="hints-per-week">/);
    assert.match(dom, /<figure id="silent-by-rule">/);
    assert.ok([...dom.matchAll(/<rect class="bar"/g)].length > 20, "the plots have bars");
    assert.match(dom, /data-series="hint shown" data-value="\d+"/, "some week had a hint");
    assert.match(dom, /<tr class="quoted">.*?<code>verdict show [pndct][0-9a-f]{16}<\/code>/s);
    assert.match(dom, /<span class="state state-retracted">retracted on 2026-11-30<\/span>/);
    assert.match(dom, new RegExp(`data-id="${hostileId}"`));
    assert.ok(!/<img|<script>alert/i.test(dom), "the hostile decision is text in the DOM, not an element");

    // The search box: "#q=vitest" hides every decision that does not mention it.
    requests.length = 0;
    const searched = await chromium(
      ["--virtual-time-budget=3000", "--dump-dom", `${base}#q=vitest`],
      `${home}/profile-2`,
    );
    assert.deepEqual(requests, ["/report.html"]);
    const shown = [...searched.matchAll(/<li class="decision"(?![^>]*hidden)[^>]*data-search="([^"]*)"/g)]
      .map((m) => m[1]!);
    assert.ok(shown.length > 0 && shown.length < decisions, `${shown.length} shown`);
    assert.ok(shown.every((s) => s.includes("vitest")));
    assert.match(searched, new RegExp(`>${shown.length} of ${decisions} decisions<`));

    // It renders: a screenshot of the asked size, from the file itself (no server at all).
    const shot = `${home}/report.png`;
    await chromium(
      [`--screenshot=${shot}`, "--window-size=1100,1500", `file://${page}`],
      `${home}/profile-3`,
    );
    const png = await Deno.readFile(shot);
    assert.deepEqual(pngSize(png), { width: 1100, height: 1500 });
    assert.ok(png.length > 30_000, `a page with content (${png.length} bytes)`);
  } finally {
    ac.abort();
    await server.finished;
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("report needs --html FILE and an archive", async () => {
  const home = await tempHome();
  const none = await runCli(["report"], { env: { HOME: home } });
  assert.equal(none.code, 3);
  assert.match(none.stderr, /needs --html FILE/);
  const empty = await runCli(["report", "--html", `${home}/r.html`], { env: { HOME: home } });
  assert.equal(empty.code, 3);
  assert.match(empty.stderr, /no archive yet/);
});
