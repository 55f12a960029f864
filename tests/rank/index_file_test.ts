import assert from "node:assert/strict";
import { recordId, type RecordKind, type VerdictRecord } from "../../src/collect/record.ts";
import { DiskIndex, indexPathFor, IndexStaleError } from "../../src/rank/index_file.ts";
import { buildIndexFile, encodeIndex } from "../../src/rank/index_write.ts";
import { buildMemoryIndex } from "../../src/rank/memory_index.ts";
import { search } from "../../src/rank/score.ts";
import { thrown } from "../_helpers.ts";

/** A deterministic mixed English/Chinese corpus with identifiers, markers and several projects. */
function corpus(n: number): VerdictRecord[] {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const en =
    "we decided to use pnpm workspaces postgres pg_dump backups nightly the a of and for queue redis cache ttl vitest jest api v2 path headers deploy tuesday friday logs json stdout"
      .split(" ");
  const zh = [
    "以后都",
    "统一用",
    "不要",
    "数据库",
    "备份",
    "日志",
    "订单",
    "金额",
    "整数",
    "缓存",
    "重跑gen-itgc后",
    "部署",
    "周二",
  ];
  const kinds: RecordKind[] = ["prompt", "prompt", "prompt", "note", "doc", "commit", "tag"];
  const out: VerdictRecord[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from(
      { length: 4 + Math.floor(rand() * 20) },
      () => rand() < 0.3 ? zh[Math.floor(rand() * zh.length)] : en[Math.floor(rand() * en.length)],
    );
    const kind = kinds[i % kinds.length]!;
    out.push({
      id: recordId(kind, `r${i}`),
      kind,
      origin: kind === "doc" ? "doc" : kind === "commit" || kind === "tag" ? "git" : "claude",
      text: words.join(rand() < 0.5 ? " " : ""),
      time: new Date(Date.parse("2025-06-01T00:00:00Z") + i * 3_600_000).toISOString(),
      project: `/home/dev/p${i % 4}`,
      session: kind === "prompt" ? `s${i % 9}` : null,
      source_file: `/f/${i % 13}.jsonl`,
      source_line: i + 1,
      commit: null,
    });
  }
  return out;
}

async function diskFrom(records: VerdictRecord[]): Promise<{ disk: DiskIndex; path: string }> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.jsonl`;
  await Deno.writeTextFile(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  await buildIndexFile(records, path);
  const info = await Deno.stat(path);
  const file = await Deno.open(indexPathFor(path));
  return { disk: DiskIndex.open(file, info.size, info.mtime!.getTime()), path };
}

const QUERIES = [
  "pnpm workspaces",
  "pg_dump backups nightly postgres",
  "以后都统一用 数据库 备份",
  "重跑gen-itgc后 缓存",
  "the a of and",
  "vitest instead of jest for the api v2 path",
  "nothing-matches-this",
  "日志 stdout json",
];

Deno.test("the disk index ranks exactly like the in-memory scorer", async () => {
  const records = corpus(3000);
  const memory = buildMemoryIndex(records);
  const { disk } = await diskFrom(records);
  try {
    assert.equal(disk.docCount, memory.docCount);
    assert.equal(disk.avgDocLength, memory.avgDocLength);
    for (const query of QUERIES) {
      for (const mode of ["hint", "recall"] as const) {
        const options = {
          mode,
          nowMs: Date.parse("2025-12-01T00:00:00Z"),
          project: "/home/dev/p1",
          excludeSession: "s3",
          excludeIds: new Set([records[5]!.id]),
          top: 25,
        };
        assert.deepEqual(search(disk, query, options), search(memory, query, options), `${mode}: ${query}`);
      }
    }
    for (const term of memory.vocabulary().filter((_, i) => i % 7 === 0)) {
      assert.equal(disk.docFreq(term), memory.docFreq(term), term);
      assert.deepEqual(disk.postings(term), memory.postings(term), term);
    }
    for (let d = 0; d < records.length; d += 97) {
      assert.deepEqual(disk.meta(d), memory.meta(d));
      assert.equal(disk.docLength(d), memory.docLength(d));
    }
    for (const w of memory.cjkWords) assert.ok(disk.isCjkWord(w), w);
  } finally {
    disk.close();
  }
});

Deno.test("the disk index points at each record's own JSONL line", async () => {
  const records = corpus(200);
  const { disk, path } = await diskFrom(records);
  const file = await Deno.open(path);
  try {
    for (const d of [0, 1, 57, 199]) {
      const span = disk.recordSpan(d);
      const buf = new Uint8Array(span.length);
      await file.seek(span.offset, Deno.SeekMode.Start);
      await file.read(buf);
      assert.equal(JSON.parse(new TextDecoder().decode(buf)).id, records[d]!.id);
    }
  } finally {
    file.close();
    disk.close();
  }
});

Deno.test("an index built for another records file is refused as stale", async () => {
  const records = corpus(50);
  const bytes = encodeIndex(buildMemoryIndex(records), records, 1234, 5678);
  const dir = await Deno.makeTempDir();
  await Deno.writeFile(`${dir}/x.idx`, bytes);
  const f = await Deno.open(`${dir}/x.idx`);
  try {
    assert.ok(thrown(() => DiskIndex.open(f, 1235, 5678)) instanceof IndexStaleError);
    assert.ok(thrown(() => DiskIndex.open(f, 1234, 9999)) instanceof IndexStaleError);
    assert.equal(DiskIndex.open(f, 1234, 5678).docCount, 50);
  } finally {
    f.close();
  }
  await Deno.writeTextFile(`${dir}/y.idx`, "not an index at all, just text that is long enough ".repeat(10));
  const g = await Deno.open(`${dir}/y.idx`);
  assert.ok(thrown(() => DiskIndex.open(g, 0, 0)) instanceof IndexStaleError);
  g.close();
});
