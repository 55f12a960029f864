/**
 * Indexing reads a record's text, project and session out of its stored JSON line in SQLite
 * (src/store/update.ts), not through JSON.parse. Texts that JSON escapes must still be indexed as
 * JSON.parse reads them: quotes, backslashes, line breaks, control characters, a lone surrogate,
 * characters outside the BMP, a text spelling out an escape. The archive's index must hold
 * exactly the terms, lengths and facts an index built in memory from the records holds. (SQLite
 * reads a lone surrogate's escape as three U+FFFD, which is why a line holding any \u escape is
 * parsed in JavaScript instead.)
 */
import assert from "node:assert/strict";
import { recordId, type VerdictRecord } from "../../src/record/record.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { buildArchive } from "../../src/store/build.ts";
import { openArchiveReader } from "../../src/store/reader.ts";

const TEXTS = [
  'we decided "quoted" words stay, alpha',
  "a back\\slash path C:\\Users\\bravo and \\\\server\\share",
  "line one charlie\nline two\r\nline three\ttabbed",
  "control \u0001 delta \u001f character",
  "lone \ud800 echo surrogate \udfff here",
  "astral 𝒳 foxtrot 😀 emoji 数据库迁移 golf",
  "spelled \\u00e9 escape hotel \\ud83d",
  "plain india prompt with nothing to escape",
];

function records(): VerdictRecord[] {
  return TEXTS.map((text, i) => ({
    id: recordId("prompt", `escape:${i}`),
    kind: "prompt",
    origin: "claude",
    text,
    time: `2026-02-0${i + 1}T10:00:00.000Z`,
    project: i % 2 === 0 ? '/home/dev/p"q' : "/home/dev/\u00e9t\u00e9",
    session: i % 3 === 0 ? null : `s-${i % 3}\\"`,
    source_file: "/h/.claude/projects/p/a.jsonl",
    source_line: i + 1,
    commit: null,
  }));
}

Deno.test("texts JSON escapes are indexed as JSON.parse reads them: same terms, lengths and facts as an index in memory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const recs = records();
    const paths = await buildArchive(`${dir}/records.db`, recs);
    const reader = await openArchiveReader(paths, 0);
    assert.ok(reader, "the archive opens with its index");
    const full = buildMemoryIndex(recs);
    const index = reader.corpus;
    assert.equal(index.docCount, full.docCount);
    assert.equal(index.avgDocLength, full.avgDocLength);
    // Every term, with its documents' ids, frequencies and lengths.
    const byId = (corpus: typeof index, term: string) =>
      corpus.postings(term).map((p) => ({
        id: corpus.meta(p.doc).id,
        tf: p.tf,
        length: corpus.docLength(p.doc),
      })).sort((a, b) => (a.id < b.id ? -1 : 1));
    const vocabulary = full.vocabulary();
    assert.ok(vocabulary.includes("echo") && vocabulary.includes("hotel"), "the texts give terms");
    for (const term of vocabulary) {
      assert.equal(index.docFreq(term), full.docFreq(term), term);
      assert.deepEqual(byId(index, term), byId(full, term), term);
    }
    // The facts ranking weighs, document by document (project and session among them).
    const facts = (corpus: typeof index) =>
      Array.from({ length: corpus.docSlots }, (_, d) => corpus.meta(d))
        .map((m) => JSON.stringify([m.id, m.kind, m.timeMs, m.project, m.session, m.marker]))
        .sort();
    assert.deepEqual(facts(index), facts(full));
    reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
