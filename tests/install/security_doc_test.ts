/**
 * SECURITY.md names the test behind each claim as `tests/…_test.ts › "test name"`. This keeps
 * those references true: every named test must exist, under that name, in that file.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const REF = /`(tests\/[\w/]+_test\.ts) › "([^"]+)"`/g;

Deno.test("every test SECURITY.md cites exists, by that name, in the file it names", async () => {
  const doc = await Deno.readTextFile(new URL("SECURITY.md", ROOT));
  const refs = [...doc.matchAll(REF)].map((m) => [m[1]!, m[2]!] as const);
  assert.ok(refs.length >= 40, `only ${refs.length} references found`);
  const missing: string[] = [];
  for (const [file, name] of refs) {
    const text = await Deno.readTextFile(new URL(file, ROOT)).catch(() => "");
    if (!text.includes(JSON.stringify(name))) missing.push(`${file} › "${name}"`);
  }
  assert.deepEqual(missing, []);
});

Deno.test("every claim line of SECURITY.md's guarantees sections cites a test", async () => {
  const doc = await Deno.readTextFile(new URL("SECURITY.md", ROOT));
  // Bullets under the sections that make claims; each bullet (with its continuation lines) cites one.
  const sections = doc.split(/^## /m).slice(1).filter((s) => !s.startsWith("Reporting a vulnerability"));
  for (const section of sections) {
    const bullets = section.split(/^- /m).slice(1);
    for (const bullet of bullets) {
      const uncited = !REF.test(bullet) && !bullet.includes("docs/");
      REF.lastIndex = 0;
      // Statements of what verdict does not defend against are limits, not claims.
      const limit = /not sandboxed|cannot know|is not a boundary|can run code/.test(bullet);
      assert.ok(!uncited || limit, `a bullet without a test: ${bullet.slice(0, 120)}`);
    }
  }
});
