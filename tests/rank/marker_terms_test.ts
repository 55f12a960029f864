import assert from "node:assert/strict";
import { deriveMarkerTerms, markerTerms } from "../../src/rank/markers.ts";
import { MARKER_TERMS_FILE, markerTermsSource } from "../../scripts/gen_marker_terms.ts";

Deno.test("the stored marker terms are exactly what tokenizing the marker phrases gives (else: deno task gen:marker-terms)", async () => {
  const derived = deriveMarkerTerms();
  assert.ok(derived.length > 100, `${derived.length} terms derived`);
  assert.deepEqual(
    [...markerTerms()].sort(),
    derived,
    'src/rank/marker_terms.ts is stale: run "deno task gen:marker-terms"',
  );
  assert.equal(await Deno.readTextFile(MARKER_TERMS_FILE), markerTermsSource(derived));
});

Deno.test("the marker-term table's text holds each term once, in order, and refuses a term it could not split back", () => {
  const terms = [
    "alwai",
    "never",
    "必须",
    "不要",
    "никогда",
    ...Array.from({ length: 40 }, (_, i) => `t${i}`),
  ];
  const source = markerTermsSource(terms);
  const body = source.slice(source.indexOf("=") + 1).trim().replace(/;$/, "");
  const joined = body.split(/\s*\+\s*/).map((part) => JSON.parse(part) as string).join("");
  assert.deepEqual(joined.split(" "), terms);
  assert.ok(source.split("\n").every((l) => l.length <= 110), "every line fits deno fmt's width");
  assert.throws(() => markerTermsSource(["we moved"]), /Cannot store the marker term "we moved"/);
  assert.throws(() => markerTermsSource([""]), /Cannot store the marker term ""/);
});

const GENERATOR = new URL("../../scripts/gen_marker_terms.ts", import.meta.url).pathname;

async function generator(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", GENERATOR, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("gen:marker-terms --check passes on the stored table, fails on a stale one, and a run rewrites it", async () => {
  const current = await generator("--check");
  assert.equal(current.code, 0, current.stderr);
  assert.match(current.stdout, /marker_terms\.ts is current/);
  const dir = await Deno.makeTempDir({ prefix: "verdict-marker-terms-" });
  try {
    const stale = `${dir}/marker_terms.ts`;
    await Deno.writeTextFile(stale, markerTermsSource(deriveMarkerTerms().filter((t) => t !== "never")));
    const check = await generator("--check", "--file", stale);
    assert.equal(check.code, 1);
    assert.match(check.stderr, /is not current\nhint: run "deno task gen:marker-terms"/);
    const write = await generator("--file", stale);
    assert.equal(write.code, 0, write.stderr);
    assert.equal(await Deno.readTextFile(stale), markerTermsSource(deriveMarkerTerms()));
    assert.equal((await generator("--check", "--file", stale)).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
