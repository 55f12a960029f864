/**
 * The archive store kept up to date run by run equals the in-memory merge (src/collect/merge.ts)
 * of the same runs, and its index ranks exactly like one built at once from the resulting
 * records: on random sequences of collects with replaced files, appended lines, ids found in two
 * files, history repeats of transcript prompts, CJK words coming and going, and deletions.
 */
import assert from "node:assert/strict";
import { HISTORY_REPEATS } from "../../src/agents/claude/history.ts";
import { mergeRecords } from "../../src/collect/merge.ts";
import { compareRecords, recordId, recordLine, type VerdictRecord } from "../../src/record/record.ts";
import type { SourceResult } from "../../src/record/source.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { search } from "../../src/rank/score.ts";
import type { Corpus } from "../../src/rank/bm25.ts";
import { Archive } from "../../src/store/archive.ts";
import { record as testRecord } from "../_records.ts";
import { storePaths } from "../../src/store/paths.ts";
import { archiveRecordLines, openArchiveReader } from "../../src/store/reader.ts";
import { ArchiveUpdate } from "../../src/store/update.ts";
import { planMerges, type SegmentSize } from "../../src/store/policy.ts";
import { buildArchive } from "../../src/store/build.ts";
import {
  LEXICON_EXACT_RECORDS,
  LEXICON_STEP_RECORDS,
  LEXICON_WINDOW_RECORDS,
  lexiconBasis,
} from "../../src/rank/analysis.ts";

const FILES = [
  "/h/.claude/projects/p/a.jsonl",
  "/h/.claude/projects/p/b.jsonl",
  "/h/.claude/projects/q/c.jsonl",
];
const HISTORY = "/h/.claude/history.jsonl";
const EN = "pnpm npm redis postgres backup nightly deploy friday tuesday vitest jest queue cache migrate"
  .split(" ");
const ZH = ["数据库", "备份", "迁移", "统一用", "不要", "订单", "金额", "部署", "缓存", "以后都", "日志"];

/** A random record of `file`: ids from a small pool so that files share some. */
function record(r: () => number, file: string, line: number, session: string): VerdictRecord {
  const zh = r() < 0.4;
  const words = Array.from(
    { length: 2 + Math.floor(r() * 6) },
    () => zh ? ZH[Math.floor(r() * ZH.length)]! : EN[Math.floor(r() * EN.length)]!,
  );
  const history = file === HISTORY;
  // In this order: the random draws are the test's seed.
  const id = recordId("prompt", `${history ? "history" : "claude"}:${Math.floor(r() * 40)}`);
  const text = (r() < 0.3 ? "we decided to " : "") + words.join(zh ? "" : " ");
  const time = new Date(Date.parse("2026-01-01T00:00:00Z") + Math.floor(r() * 100) * 3_600_000).toISOString();
  return testRecord(text, {
    id,
    time,
    project: "/home/dev/p",
    session,
    source_file: file,
    source_line: line,
  });
}

/** One collect's results: some files re-read whole, some lines appended. */
function run(r: () => number, lines: Map<string, number>): SourceResult<null>[] {
  const replaced = new Map<string, VerdictRecord[]>();
  const appended: VerdictRecord[] = [];
  for (const file of [...FILES, HISTORY]) {
    const pick = r();
    const session = `s${FILES.indexOf(file) + 1}`;
    if (pick < 0.3) {
      const n = Math.floor(r() * 8);
      const recs = Array.from({ length: n }, (_, i) => record(r, file, i + 1, session));
      replaced.set(file, recs);
      lines.set(file, n);
    } else if (pick < 0.7) {
      const from = lines.get(file) ?? 0;
      const n = Math.floor(r() * 4);
      for (let i = 0; i < n; i++) appended.push(record(r, file, from + i + 1, session));
      lines.set(file, from + n);
    }
  }
  // History prompts that repeat a transcript prompt of the same session (same text).
  if (appended.length > 0 && r() < 0.5) {
    const orig = appended[0]!;
    if (orig.source_file !== HISTORY) {
      appended.push({
        ...orig,
        id: recordId("prompt", `history:r${Math.floor(r() * 1000)}`),
        source_file: HISTORY,
        source_line: 1,
      });
    }
  }
  return [{
    replaced,
    appended,
    state: null,
    stats: { filesRead: 0, filesUnreadable: 0, linesSkipped: 0, secretsDropped: 0 },
  }];
}

function comparable(corpus: Corpus, query: string) {
  const r = search(corpus, query, { mode: "recall", nowMs: Date.parse("2026-02-01T00:00:00Z"), top: 10 });
  return { ...r, hits: r.hits.map((h) => ({ ...h, doc: 0, id: h.id, meta: { ...h.meta, id: h.meta.id } })) };
}

const QUERIES = [
  "数据库 备份",
  "pnpm npm",
  "以后都 统一用 缓存",
  "we decided redis",
  "订单金额",
  "friday deploy",
];

/** Merge policies: the real one; one that never merges (deletions stay marked); one that merges all. */
const POLICIES = {
  real: planMerges,
  never: () => [],
  all: (segments: readonly SegmentSize[]) => segments.length > 1 ? [segments.map((_, i) => i)] : [],
};

for (const [name, policy] of Object.entries(POLICIES)) {
  Deno.test(`the store run by run equals the in-memory merge, and its index one built at once (merges: ${name})`, () =>
    equivalence(policy));
}

async function equivalence(policy: (segments: readonly SegmentSize[]) => number[][]) {
  for (let seed = 1; seed <= 12; seed++) {
    const r = seededRandom(seed);
    const dir = await Deno.makeTempDir({ prefix: "verdict-merge-eq-" });
    const paths = storePaths(`${dir}/records.db`);
    await Deno.mkdir(paths.segments);
    let reference: VerdictRecord[] = [];
    const lines = new Map<string, number>();
    try {
      for (let step = 0; step < 10; step++) {
        const results = run(r, lines);
        const merged = mergeRecords(reference, results, [HISTORY_REPEATS]);
        reference = merged.records;

        const archive = Archive.openForUpdate(paths);
        const update = new ArchiveUpdate(archive, [HISTORY_REPEATS], policy);
        for (const res of results) {
          for (const [file, recs] of res.replaced) update.stage(file, true, recs);
          if (res.appended.length > 0) update.stage("", false, res.appended);
        }
        update.apply();
        update.updateLexicon();
        await update.index();
        const summary = update.commit();
        archive.close();

        const where = `seed ${seed}, step ${step}`;
        assert.equal(summary.added, merged.added, `added, ${where}`);
        assert.deepEqual(
          [...archiveRecordLines(paths)],
          [...reference].sort(compareRecords).map(recordLine),
          `records, ${where}`,
        );
        const reader = await openArchiveReader(paths);
        assert.ok(reader);
        const full = buildMemoryIndex(reference);
        assert.equal(reader.corpus.docCount, full.docCount, `N, ${where}`);
        assert.equal(reader.corpus.avgDocLength, full.avgDocLength, `avgdl, ${where}`);
        for (const q of QUERIES) {
          assert.deepEqual(comparable(reader.corpus, q), comparable(full, q), `${q}, ${where}`);
        }
        reader.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
}

Deno.test("beyond the exact limit the CJK words come from a moving window, and still equal a build at once", async () => {
  assert.deepEqual(lexiconBasis(LEXICON_EXACT_RECORDS), { start: 0, end: LEXICON_EXACT_RECORDS });
  assert.deepEqual(lexiconBasis(LEXICON_EXACT_RECORDS + 1), { start: 0, end: LEXICON_EXACT_RECORDS });
  const big = LEXICON_WINDOW_RECORDS + 3 * LEXICON_STEP_RECORDS + 17;
  const w = lexiconBasis(big);
  assert.equal(w.end % LEXICON_STEP_RECORDS, 0);
  assert.equal(w.end - w.start, LEXICON_WINDOW_RECORDS);

  // An archive past the exact limit: batches of Chinese records, in time order, then one old record.
  const r = seededRandom(77);
  let n = 0;
  const make = (time: number): VerdictRecord => {
    const words = Array.from({ length: 2 + Math.floor(r() * 5) }, () => ZH[Math.floor(r() * ZH.length)]!);
    const i = n++;
    return {
      id: recordId("prompt", `big:${i}`),
      kind: "prompt",
      origin: "claude",
      text: words.join("") + (r() < 0.3 ? "，不要" + ZH[Math.floor(r() * ZH.length)] : ""),
      time: new Date(time).toISOString(),
      project: "/p",
      session: `s${i % 7}`,
      source_file: `/f/${Math.floor(i / 500)}.jsonl`,
      source_line: (i % 500) + 1,
      commit: null,
    };
  };
  const base = Date.parse("2025-01-01T00:00:00Z");
  const batches = [
    Array.from({ length: LEXICON_EXACT_RECORDS + 900 }, (_, i) => make(base + i * 60_000)),
    Array.from({ length: LEXICON_STEP_RECORDS }, (_, i) => make(base + (10_000 + i) * 60_000)),
    // Older than everything, with words of their own: the basis moves, and its words change.
    Array.from({ length: 600 }, (_, i) => {
      const rec = make(base - (i + 1) * 60_000);
      return { ...rec, text: `${ZH[i % ZH.length]}新框架${ZH[(i * 7 + 3) % ZH.length]}${rec.text}` };
    }),
  ];
  const dir = await Deno.makeTempDir({ prefix: "verdict-window-" });
  try {
    const all: VerdictRecord[] = [];
    const windows: string[] = [];
    const lexicons: string[][] = [];
    for (const batch of batches) {
      all.push(...batch);
      await buildArchive(`${dir}/records.db`, batch);
      const reader = await openArchiveReader(storePaths(`${dir}/records.db`));
      assert.ok(reader);
      const full = buildMemoryIndex(all);
      assert.equal(reader.corpus.avgDocLength, full.avgDocLength, `avgdl after ${all.length}`);
      for (const q of ["数据库备份", "以后都统一用缓存", "订单金额不要", "日志部署", "新框架的缓存"]) {
        assert.deepEqual(comparable(reader.corpus, q), comparable(full, q), `${q} after ${all.length}`);
      }
      reader.close();
      const archive = Archive.openForUpdate(storePaths(`${dir}/records.db`));
      windows.push(archive.meta("basis_window")!);
      lexicons.push(JSON.parse(archive.meta("lexicon")!));
      archive.close();
    }
    // The old records brought a word the window now holds.
    assert.ok(!lexicons[1]!.includes("新框架") && lexicons[2]!.includes("新框架"), JSON.stringify(lexicons));
    assert.deepEqual(windows, [
      `0:${LEXICON_EXACT_RECORDS}`,
      `0:${2 * LEXICON_STEP_RECORDS}`,
      `0:${2 * LEXICON_STEP_RECORDS}`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
