/**
 * Segments with deletions, merged or not, rank exactly like one index built from the live records:
 * the same hits, scores, terms, coverage and candidates, bit for bit, in both search modes.
 */
import assert from "node:assert/strict";
import { makeRecords, queries } from "../../bench/hint_bench_data.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import { analyze, basisRecords, deriveLexicon, lexiconOf } from "../../src/rank/analysis.ts";
import { NO_SESSION } from "../../src/rank/bm25.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { isCommonTerm, search, type SearchOptions } from "../../src/rank/score.ts";
import { Segment } from "../../src/rank/segment.ts";
import { mergeSegments, SegmentBuilder } from "../../src/rank/segment_write.ts";
import { SegmentedIndex, type SegmentView } from "../../src/rank/segmented_index.ts";
import type { Corpus } from "../../src/rank/bm25.ts";

interface Built {
  readonly dir: string;
  readonly files: string[];
  /** Deleted slots per segment, and the terms of the deleted documents. */
  readonly deleted: (Set<number>)[];
  readonly deletedTerms: Map<string, number>[];
}

class Names {
  readonly list: string[] = [];
  readonly #ids = new Map<string, number>();
  id(name: string): number {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(name);
      this.#ids.set(name, id);
    }
    return id;
  }
}

/** Writes `batches` as segments, with rowids counting from 1, everything analysed with `words`. */
async function writeSegments(
  batches: readonly (readonly VerdictRecord[])[],
  words: ReadonlySet<string>,
  projects: Names,
  sessions: Names,
): Promise<{ dir: string; files: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "verdict-seg-" });
  const lexicon = lexiconOf(words);
  const files: string[] = [];
  let rowid = 1;
  for (const [k, batch] of batches.entries()) {
    const b = new SegmentBuilder();
    for (const r of batch) {
      const a = analyze(r, lexicon);
      b.add({
        rowid: rowid++,
        id: r.id,
        terms: a.terms,
        timeMs: a.timeMs,
        flags: a.flags,
        project: projects.id(r.project),
        session: r.session === null ? NO_SESSION : sessions.id(r.session),
      });
    }
    const path = `${dir}/seg-${k}.vix`;
    await b.write(path, 1);
    files.push(path);
  }
  return { dir, files };
}

function bitmap(slots: Set<number>, size: number): Uint8Array | null {
  if (slots.size === 0) return null;
  const bm = new Uint8Array((size + 7) >> 3);
  for (const s of slots) bm[s >> 3] = bm[s >> 3]! | (1 << (s & 7));
  return bm;
}

function segmentedOver(
  files: readonly string[],
  deleted: readonly Set<number>[],
  deletedTerms: readonly Map<string, number>[],
  live: readonly VerdictRecord[],
  words: ReadonlySet<string>,
  projects: Names,
  sessions: Names,
): SegmentedIndex {
  const views: SegmentView[] = files.map((f, i) => {
    const segment = Segment.open(f);
    return {
      segment,
      deleted: bitmap(deleted[i] ?? new Set(), segment.docCount),
      deletedTerms: () => deletedTerms[i] ?? new Map(),
    };
  });
  const lexicon = lexiconOf(words);
  let length = 0;
  for (const r of live) length += analyze(r, lexicon).terms.length;
  return new SegmentedIndex({
    segments: views,
    liveDocs: live.length,
    liveLength: length,
    lexicon: () => words,
    projectNames: projects.list,
    sessionNames: sessions.list,
  });
}

/** The result with doc numbers replaced by ids (they differ between the two indexes). */
function comparable(corpus: Corpus, query: string, options: SearchOptions) {
  const r = search(corpus, query, options);
  return {
    ...r,
    hits: r.hits.map((h) => ({ ...h, doc: undefined, id: h.id, meta: { ...h.meta, id: h.meta.id } })),
  };
}

function assertSameSearches(a: Corpus, b: Corpus, qs: readonly string[]) {
  const nowMs = Date.parse("2026-01-01T00:00:00Z");
  for (const q of qs) {
    for (
      const options of [
        {
          mode: "hint" as const,
          nowMs,
          top: 15,
          project: "/home/dev/p3",
          excludeSession: "s7",
          minCandidateIdf: 5,
        },
        { mode: "recall" as const, nowMs, top: 8, project: "/home/dev/p1" },
      ]
    ) {
      assert.deepEqual(
        comparable(a, q, options),
        comparable(b, q, options),
        `query ${JSON.stringify(q)} (${options.mode})`,
      );
    }
  }
}

const RECORDS = makeRecords(6000);
const QUERIES = [...queries(60), "数据库 备份", "svc_1-7 deploy", "the", "we decided to", "以后都 统一用"];

Deno.test("segments written in batches rank exactly like one index of the same records", async () => {
  const words = deriveLexicon(basisRecords(RECORDS).map((r) => r.text));
  const projects = new Names();
  const sessions = new Names();
  const { dir, files } = await writeSegments(
    [RECORDS.slice(0, 3000), RECORDS.slice(3000, 5500), RECORDS.slice(5500, 5501), RECORDS.slice(5501)],
    words,
    projects,
    sessions,
  );
  try {
    const seg = segmentedOver(files, [], [], RECORDS, words, projects, sessions);
    const mem = buildMemoryIndex(RECORDS, { cjkWords: words });
    assert.equal(seg.docCount, mem.docCount);
    assert.equal(seg.avgDocLength, mem.avgDocLength);
    assertSameSearches(seg, mem, QUERIES);
    seg.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deleted documents count nowhere: df, N, length and candidates are those of the live records", async () => {
  const words = deriveLexicon(basisRecords(RECORDS).map((r) => r.text));
  const projects = new Names();
  const sessions = new Names();
  const batches = [RECORDS.slice(0, 2500), RECORDS.slice(2500, 4000), RECORDS.slice(4000)];
  const { dir, files } = await writeSegments(batches, words, projects, sessions);
  try {
    const { deleted, deletedTerms, live } = deleteSome(batches, words, (slot, k) => (slot * 7 + k) % 5 === 0);
    const seg = segmentedOver(files, deleted, deletedTerms, live, words, projects, sessions);
    const mem = buildMemoryIndex(live, { cjkWords: words });
    assert.equal(seg.docCount, live.length);
    assert.equal(seg.avgDocLength, mem.avgDocLength);
    for (const t of ["the", "we", "以后", "svc_1-7"]) assert.equal(seg.docFreq(t), mem.docFreq(t), t);
    assertSameSearches(seg, mem, QUERIES);

    // Merged without the deleted documents: the same again, from one segment.
    const merged = `${dir}/merged.vix`;
    await mergeSegments(
      files.map((f, i) => ({ segment: Segment.open(f), deleted: bitmap(deleted[i]!, batches[i]!.length) })),
      merged,
      1,
    );
    const one = segmentedOver([merged], [], [], live, words, projects, sessions);
    assert.equal(one.docSlots, live.length);
    assertSameSearches(one, mem, QUERIES);
    seg.close();
    one.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Marks the documents `pick` chooses (slot within batch k) deleted: per batch, their slots and how
 * many of them hold each term (what the store keeps for a segment), and the records left live.
 */
function deleteSome(
  batches: VerdictRecord[][],
  words: ReturnType<typeof deriveLexicon>,
  pick: (slot: number, k: number) => boolean,
): { deleted: Set<number>[]; deletedTerms: Map<string, number>[]; live: VerdictRecord[] } {
  const lexicon = lexiconOf(words);
  const deleted = batches.map(() => new Set<number>());
  const deletedTerms = batches.map(() => new Map<string, number>());
  const live: VerdictRecord[] = [];
  batches.forEach((batch, k) =>
    batch.forEach((r, slot) => {
      if (pick(slot, k)) {
        deleted[k]!.add(slot);
        for (const t of new Set(analyze(r, lexicon).terms)) {
          deletedTerms[k]!.set(t, (deletedTerms[k]!.get(t) ?? 0) + 1);
        }
      } else live.push(r);
    })
  );
  return { deleted, deletedTerms, live };
}

/** The distinct conversations among `corpus`'s live documents holding `term`, counted plainly. */
function exactConversations(corpus: Corpus, term: string): number {
  const seen = new Set<string>();
  let alone = 0;
  for (const p of corpus.postings(term)) {
    const session = corpus.meta(p.doc).session;
    if (session === null) alone++;
    else seen.add(session);
  }
  return seen.size + alone;
}

Deno.test("the segments' conversation counts bound the exact count, and the common-word test decides as the exact count does", async () => {
  const words = deriveLexicon(basisRecords(RECORDS).map((r) => r.text));
  const projects = new Names();
  const sessions = new Names();
  // Sessions s0–s999 have a record in the first batch and one in the last: they span segments.
  const batches = [RECORDS.slice(0, 2500), RECORDS.slice(2500, 4000), RECORDS.slice(4000)];
  const { dir, files } = await writeSegments(batches, words, projects, sessions);
  try {
    const { deleted, deletedTerms, live } = deleteSome(batches, words, (slot, k) => (slot * 3 + k) % 7 === 0);
    const seg = segmentedOver(files, deleted, deletedTerms, live, words, projects, sessions);
    const mem = buildMemoryIndex(live, { cjkWords: words });
    let settled = 0;
    let counted = 0;
    for (const term of mem.vocabulary()) {
      const exact = exactConversations(mem, term);
      const { lower, upper } = seg.conversationBounds(term);
      assert.ok(lower <= exact && exact <= upper, `${term}: ${lower} ≤ ${exact} ≤ ${upper}`);
      if (exact < 20) continue;
      // Thresholds at, around and between the bounds: where they settle it and where they do not.
      for (const threshold of new Set([lower - 1, lower, exact - 1, exact, exact + 1, upper - 1, upper])) {
        if (threshold < 1) continue;
        const df = mem.docFreq(term);
        assert.equal(
          isCommonTerm(seg, term, df, threshold),
          isCommonTerm(mem, term, df, threshold),
          `${term} at threshold ${threshold} (${lower} ≤ ${exact} ≤ ${upper})`,
        );
        if (lower > threshold || upper <= threshold) settled++;
        else counted++;
      }
    }
    assert.ok(settled > 100 && counted > 100, `both ways were taken: ${settled} settled, ${counted} counted`);

    // One segment written from scratch, without deletions: its count is exact.
    const merged = `${dir}/merged.vix`;
    await mergeSegments(
      files.map((f, i) => ({ segment: Segment.open(f), deleted: bitmap(deleted[i]!, batches[i]!.length) })),
      merged,
      1,
    );
    const one = segmentedOver([merged], [], [], live, words, projects, sessions);
    const frequent = mem.vocabulary().sort((a, b) => mem.docFreq(b) - mem.docFreq(a) || (a < b ? -1 : 1));
    for (const term of [...frequent.slice(0, 20), "以后"]) {
      const exact = exactConversations(mem, term);
      assert.ok(exact > 0, term);
      assert.deepEqual(one.conversationBounds(term), { lower: exact, upper: exact }, term);
    }
    seg.close();
    one.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a long list in a much larger segment fills only its documents' columns, and ranks as one index does", async () => {
  // 20,000 documents in one segment: a list of 256 (raw, no facts inline) to 312 documents is
  // under a 64th of it, so only its rows are read; the search must not notice.
  const records = makeRecords(20_000);
  const words = deriveLexicon(basisRecords(records).map((r) => r.text));
  const projects = new Names();
  const sessions = new Names();
  const { dir, files } = await writeSegments([records], words, projects, sessions);
  try {
    const mem = buildMemoryIndex(records, { cjkWords: words });
    const sparse = mem.vocabulary().filter((t) => mem.docFreq(t) >= 256 && mem.docFreq(t) < 20_000 / 64)
      .sort();
    assert.ok(sparse.length >= 3, `terms with a list of 256–312 documents: ${sparse.length}`);
    const qs = [sparse.slice(0, 3).join(" "), `${sparse[0]} the`, `${sparse.at(-1)} we decided`];
    // A fresh index per query: each starts with no columns filled.
    for (const q of qs) {
      const seg = segmentedOver(files, [], [], records, words, projects, sessions);
      assertSameSearches(seg, mem, [q]);
      seg.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rows a search filled are not read again: the same long list asked again reads no document row, and ranks as one index does", async () => {
  // As the warm helper keeps one index across prompts: a list of 256–312 documents (raw, under a
  // 64th of the segment) has its rows read the first time it is asked for, then never.
  const records = makeRecords(20_000);
  const words = deriveLexicon(basisRecords(records).map((r) => r.text));
  const projects = new Names();
  const sessions = new Names();
  const { dir, files } = await writeSegments([records], words, projects, sessions);
  const docRows = Segment.prototype.docRows;
  let rowsRead = 0;
  Segment.prototype.docRows = function (first: number, count: number) {
    rowsRead += count;
    return docRows.call(this, first, count);
  };
  try {
    const mem = buildMemoryIndex(records, { cjkWords: words });
    const sparse = mem.vocabulary().filter((t) => mem.docFreq(t) >= 256 && mem.docFreq(t) < 20_000 / 64)
      .sort();
    assert.ok(sparse.length >= 2, `terms with a list of 256–312 documents: ${sparse.length}`);
    const seg = segmentedOver(files, [], [], records, words, projects, sessions);
    const rowsFor = (q: string) => {
      const before = rowsRead;
      assertSameSearches(seg, mem, [q]);
      return rowsRead - before;
    };
    const first = rowsFor(sparse[0]!);
    assert.ok(first >= mem.docFreq(sparse[0]!), `the first search reads its list's rows (${first})`);
    assert.ok(first < 20_000, `only its rows, not the whole table (${first})`);
    assert.equal(rowsFor(sparse[0]!), 0, "the same prompt again reads no row");
    // A new long list reads rows, never all of the first list's again.
    const second = rowsFor(sparse[1]!);
    assert.ok(
      second > 0 && second < first + mem.docFreq(sparse[1]!),
      `a new long list reads its rows (${second})`,
    );
    assert.equal(rowsFor(`${sparse[1]} ${sparse[0]}`), 0, "both lists filled: no row read");
    seg.close();
  } finally {
    Segment.prototype.docRows = docRows;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a common word's long lists read for a few look-ups rank alike the first time (not kept) and later (kept)", async () => {
  // Three segments of 2,500–4,000 documents, too large to be read whole when opened, with
  // deletions: "the" and "we" hold hundreds of documents in each (raw lists) and only add to the
  // rare words' candidates, so their first look-ups read the lists into the index's reused
  // buffer, and the second keeps them.
  const words = deriveLexicon(basisRecords(RECORDS).map((r) => r.text));
  const projects = new Names();
  const sessions = new Names();
  const batches = [RECORDS.slice(0, 2000), RECORDS.slice(2000, 4000), RECORDS.slice(4000)];
  const { dir, files } = await writeSegments(batches, words, projects, sessions);
  try {
    const { deleted, deletedTerms, live } = deleteSome(batches, words, (slot, k) => (slot * 3 + k) % 7 === 0);
    const mem = buildMemoryIndex(live, { cjkWords: words });
    const qs = queries(30).filter((q) => /\bthe\b/.test(q) && /\bwe\b/.test(q));
    assert.ok(qs.length >= 5, `bench queries holding "the" and "we": ${qs.length}`);
    const seg = segmentedOver(files, deleted, deletedTerms, live, words, projects, sessions);
    const segments = files.map((f) => Segment.open(f));
    try {
      for (const s of segments) assert.ok(!s.inMemory && s.entry("the")!.df >= 256, s.path);
      const nowMs = Date.parse("2026-01-01T00:00:00Z");
      const options: SearchOptions = {
        mode: "hint",
        nowMs,
        top: 15,
        project: "/home/dev/p3",
        minCandidateIdf: 5,
      };
      // The first query of "the": searched, equal to one index of the live records, and not kept.
      const first = comparable(seg, qs[0]!, options);
      assert.deepEqual(first, comparable(mem, qs[0]!, options));
      assert.ok(first.terms.some((t) => t.term === "the" && t.common), "the is a common (restricted) term");
      assert.ok(first.hits.length > 0, "the query has hits");
      const kept = () => seg.postingParts("the", true, true).every((p) => p.transient !== true);
      // Every later query the same as one index, "the" now kept; and the first query again too.
      for (const q of [...qs, qs[0]!]) {
        assert.deepEqual(comparable(seg, q, options), comparable(mem, q, options), q);
      }
      assert.ok(kept(), "asked for again, the lists are kept");
      // A fresh index: the first ask is transient, the second is not.
      const fresh = segmentedOver(files, deleted, deletedTerms, live, words, projects, sessions);
      assert.ok(
        fresh.postingParts("the", true, true).every((p) => p.transient === true),
        "first ask: transient",
      );
      assert.ok(fresh.postingParts("the", true, true).every((p) => p.transient !== true), "second ask: kept");
      // Asked for by a caller that may keep the arrays, a list is kept at once, even the first
      // time; a first transient ask after that is served from the kept lists.
      const whole = fresh.postingParts("we", false);
      assert.ok(whole.length === 3 && whole.every((p) => p.transient !== true), "not transient unless asked");
      assert.ok(fresh.postingParts("we", true, true).every((p) => p.transient !== true), "kept since");
      fresh.close();
      // A rare word's short lists (facts inline) are unpacked into the buffer the first time too,
      // their documents' columns filled from them; a search over a fresh index sees the same.
      const rare = first.terms[0]!;
      assert.ok(rare.df < 256 && !rare.common, `the rarest term is a short list: ${rare.term} ${rare.df}`);
      const other = segmentedOver(files, deleted, deletedTerms, live, words, projects, sessions);
      const rareParts = other.postingParts(rare.term, false, true);
      assert.ok(
        rareParts.length > 0 && rareParts.every((p) => p.transient === true),
        "short lists: transient",
      );
      const cols = other.columns();
      for (const p of rareParts) {
        for (const slot of p.docs) {
          const doc = p.base + slot;
          assert.equal(cols.times[doc], seg.meta(doc).timeMs, `document ${doc}'s time, from the facts`);
          assert.equal(cols.lengths[doc], seg.docLength(doc), `document ${doc}'s length, from the facts`);
        }
      }
      for (const q of qs) assert.deepEqual(comparable(other, q, options), comparable(mem, q, options), q);
      other.close();
    } finally {
      for (const s of segments) s.close();
      seg.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every term is found through the bucket table's chunks, read once and kept, in either order", async () => {
  const words = deriveLexicon(basisRecords(RECORDS).map((r) => r.text));
  const { dir, files } = await writeSegments([RECORDS], words, new Names(), new Names());
  try {
    const mem = buildMemoryIndex(RECORDS, { cjkWords: words });
    const vocabulary = mem.vocabulary();
    const absent = ["zzz-not-a-term", "数据库备份迁移", "", "the the"];
    // Read through its handle, not whole, with a table of several chunks of 1,024 buckets.
    const first = Segment.open(files[0]!);
    assert.equal(first.inMemory, false, "a segment this large is read through its handle");
    assert.ok(first.header.bucketBits > 10, `${2 ** first.header.bucketBits} buckets: more than one chunk`);
    for (const order of [vocabulary, [...vocabulary].reverse()]) {
      // A fresh segment per order: a chunk is read for the first of its terms asked, and the
      // others falling in it are found in the kept one.
      const seg = Segment.open(files[0]!);
      for (const term of order) assert.equal(seg.entry(term)?.df, mem.docFreq(term), JSON.stringify(term));
      for (const term of absent) assert.equal(seg.entry(term), null, JSON.stringify(term));
      seg.close();
    }
    first.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
