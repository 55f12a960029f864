/**
 * `deno task bench:index [--records N[,N…]]`: the index build (collect's last step) on synthetic
 * records, 50,000 and 200,000 by default, stage by stage and in full.
 *
 * The full build is buildArchive (store the records, derive the CJK words from their basis, tokenize,
 * markers, postings, write the segments) timed first, once per size, as a first collect runs it.
 * The stages are then timed one by one on the same records (buildMemoryIndex is derive + tokenize +
 * markers + postings again, in one go; the segment write is the index alone).
 */
import { makeRecords } from "./hint_bench_data.ts";
import { deriveCjkWords } from "../src/rank/cjk_words.ts";
import { analyze, basisRecords, deriveLexicon, lexiconOf } from "../src/rank/analysis.ts";
import { NO_SESSION } from "../src/rank/bm25.ts";
import { markerStrength } from "../src/rank/markers.ts";
import { buildMemoryIndex, docMetaOf, MemoryIndex } from "../src/rank/memory_index.ts";
import { SegmentBuilder } from "../src/rank/segment_write.ts";
import { CjkWordSet, tokenize } from "../src/rank/tokenize.ts";
import { buildArchive } from "../src/store/build.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:index", import.meta.url, Deno.args, { values: ["--records"] });

function sizes(): number[] {
  const i = Deno.args.indexOf("--records");
  if (i < 0) return [50_000, 200_000];
  return (Deno.args[i + 1] ?? "").split(",").map((s) => Number(s.replaceAll("_", "")));
}

function timed<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const value = f();
  return [value, performance.now() - t0];
}

const ms = (x: number) => `${x.toFixed(0).padStart(7)} ms`;

const dir = await Deno.makeTempDir({ prefix: "verdict-index-bench-" });
try {
  for (const n of sizes()) {
    const records = makeRecords(n);
    const path = `${dir}/records-${n}.db`;
    const t0 = performance.now();
    await buildArchive(path, records);
    const full = performance.now() - t0;

    const texts = records.map((r) => r.text);
    const [words, derive] = timed(() => deriveCjkWords(texts));
    const [, markers] = timed(() => texts.map(markerStrength));
    const metas = records.map(docMetaOf);
    const lexicon = words.size > 0 ? new CjkWordSet(words) : undefined;
    // Tokenizing keeps every record's terms for fromTokens (the build itself drops them as it goes).
    const [docs, tokenizing] = timed(() => texts.map((t) => tokenize(t, lexicon)));
    const [, postings] = timed(() => MemoryIndex.fromTokens(docs, metas, words));
    docs.length = 0;
    const [, memory] = timed(() => buildMemoryIndex(records));
    const segmentLexicon = lexiconOf(deriveLexicon(basisRecords(records).map((r) => r.text)));
    const names = new Map<string, number>();
    const nameId = (name: string) => names.get(name) ?? (names.set(name, names.size), names.size - 1);
    const t1 = performance.now();
    const builder = new SegmentBuilder();
    records.forEach((r, i) => {
      const a = analyze(r, segmentLexicon);
      builder.add({
        rowid: i + 1,
        id: r.id,
        terms: a.terms,
        timeMs: a.timeMs,
        flags: a.flags,
        project: nameId(r.project),
        session: r.session === null ? NO_SESSION : nameId(r.session),
      });
    });
    const segment = await builder.write(`${dir}/segment-${n}.vix`, 0);
    const encode = performance.now() - t1;

    console.log(
      `${n.toLocaleString("en")} records, index segment ${(segment.bytes / 1024 / 1024).toFixed(1)} MiB`,
    );
    console.log(`  deriveCjkWords          ${ms(derive)}`);
    console.log(`  markerStrength          ${ms(markers)}`);
    console.log(`  tokenize                ${ms(tokenizing)}`);
    console.log(`  postings (fromTokens)   ${ms(postings)}`);
    console.log(`  buildMemoryIndex        ${ms(memory)}`);
    console.log(`  segment (analyse+write) ${ms(encode)}`);
    console.log(`  full build (archive)    ${ms(full)}`);
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
