/**
 * `deno task bench:index [--records N[,N…]]`: the index build (collect's last step) on synthetic
 * records, 50,000 and 200,000 by default, stage by stage and in full.
 *
 * The full build is buildIndexFile (derive the CJK words, tokenize, markers, postings, encode,
 * write) timed first, once per size, as collect runs it. The stages are then timed one by one on
 * the same records (buildMemoryIndex is derive + tokenize + markers + postings again, in one go).
 */
import { makeRecords } from "./hint_bench_data.ts";
import { recordLine } from "../src/collect/record.ts";
import { deriveCjkWords } from "../src/rank/cjk_words.ts";
import { buildIndexFile, encodeIndex } from "../src/rank/index_write.ts";
import { markerStrength } from "../src/rank/markers.ts";
import { buildMemoryIndex, docMetaOf, MemoryIndex } from "../src/rank/memory_index.ts";
import { CjkWordSet, tokenize } from "../src/rank/tokenize.ts";

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
    const path = `${dir}/records-${n}.jsonl`;
    await Deno.writeTextFile(path, records.map((r) => recordLine(r) + "\n").join(""));

    const t0 = performance.now();
    await buildIndexFile(records, path);
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
    const [index, memory] = timed(() => buildMemoryIndex(records));
    const [bytes, encode] = timed(() => encodeIndex(index, records, 0, 0));

    console.log(`${n.toLocaleString("en")} records, index ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`);
    console.log(`  deriveCjkWords          ${ms(derive)}`);
    console.log(`  markerStrength          ${ms(markers)}`);
    console.log(`  tokenize                ${ms(tokenizing)}`);
    console.log(`  postings (fromTokens)   ${ms(postings)}`);
    console.log(`  buildMemoryIndex        ${ms(memory)}`);
    console.log(`  encodeIndex             ${ms(encode)}`);
    console.log(`  full build (file)       ${ms(full)}`);
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
