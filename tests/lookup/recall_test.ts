import assert from "node:assert/strict";
import { recordId, type VerdictRecord } from "../../src/record/record.ts";
import { record } from "../_records.ts";
import { buildArchive } from "../../src/store/build.ts";
import { sqliteFiles, storePaths } from "../../src/store/paths.ts";
import { openRecaller, quoteFor } from "../../src/lookup/recall.ts";
import { compileCredentialRules } from "../../src/record/secrets.ts";

const RULES = compileCredentialRules([]);

function rec(i: number, text: string): VerdictRecord {
  return record(text, { id: recordId("prompt", `t${i}`), source_line: i + 1 });
}

/** `i` written in letters (a…z, ba…): a word that tells records apart. */
function lettersOf(i: number): string {
  return [...i.toString(26)].map((d) => String.fromCharCode(0x61 + parseInt(d, 26))).join("");
}

/** The archive at `path` made to hold exactly `records` (a collect that replaced it). */
async function writeArchive(path: string, records: VerdictRecord[]): Promise<void> {
  const paths = storePaths(path);
  for (const f of sqliteFiles(paths.db)) await Deno.remove(f).catch(() => {});
  await Deno.remove(paths.segments, { recursive: true }).catch(() => {});
  await buildArchive(path, records);
}

Deno.test("concurrent first calls share one load and all succeed", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.db`;
  await writeArchive(
    path,
    // Distinct texts (a number alone does not make one: copies of a text are one result).
    Array.from({ length: 500 }, (_, i) => rec(i, `we decided pg_dump nightly for host ${lettersOf(i)}`)),
  );
  const recaller = openRecaller({
    recordsPath: path,
    quoteRoots: [],
    entitiesPath: null,
    credentialRules: RULES,
  });
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 32 },
        () => recaller.recall("pg_dump nightly", { top: 3, asOfMs: Date.parse("2026-02-01T00:00:00Z") }),
      ),
    );
    for (const a of answers) assert.equal(a.hits.length, 3);
  } finally {
    recaller.close();
  }
});

Deno.test("a recaller picks up a changed archive on the next call", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.db`;
  await writeArchive(path, [rec(0, "we decided to use pnpm")]);
  const recaller = openRecaller({
    recordsPath: path,
    quoteRoots: [],
    entitiesPath: null,
    credentialRules: RULES,
  });
  const asOfMs = Date.parse("2026-02-01T00:00:00Z");
  try {
    assert.equal((await recaller.recall("vitest", { top: 3, asOfMs })).hits.length, 0);
    await writeArchive(path, [rec(0, "we decided to use pnpm"), rec(1, "always use vitest, never jest")]);
    const after = await recaller.recall("vitest", { top: 3, asOfMs });
    assert.equal(after.hits.length, 1);
    assert.match(after.hits[0]!.quote, /vitest/);
  } finally {
    recaller.close();
  }
});

Deno.test("a doc quote is re-read from its file only under the roots", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(`${dir}/docs`);
  await Deno.writeTextFile(
    `${dir}/docs/adr.md`,
    "# ADR\n\n## Database\n\nPostgreSQL 16.\nMySQL rejected.\n\n## Next\n\nx\n",
  );
  const doc: VerdictRecord = {
    ...rec(0, "## Database\n\nPostgreSQL 16."),
    kind: "doc",
    origin: "doc",
    source_file: `${dir}/docs/adr.md`,
    source_line: 3,
  };
  assert.equal(quoteFor(doc, [`${dir}/docs`], RULES), "## Database\n\nPostgreSQL 16.\nMySQL rejected.");
  assert.equal(quoteFor(doc, [`${dir}/elsewhere`], RULES), doc.text, "outside the roots: the stored text");
  await Deno.symlink(`${dir}/docs/adr.md`, `${dir}/link.md`);
  const viaLink = { ...doc, source_file: `${dir}/link.md` };
  assert.equal(
    quoteFor(viaLink, [`${dir}/other`], RULES),
    doc.text,
    "a link leading outside the roots is not followed",
  );
});
