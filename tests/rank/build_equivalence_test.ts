/**
 * The index build must give the same output whatever its implementation: these tests pin the
 * terms tokenize() gives, the markers markerStrength()/findMarkers() find, the words
 * deriveCjkWords() derives, and the bytes of an index segment, as SHA-256 hashes (the analysis
 * hashes recorded before the build was optimised). A change to any output fails here.
 *
 * A deliberate change to what the index stores about a record (tokenizer, stemmer, markers, CJK
 * words or their basis) must bump ANALYSIS_VERSION (src/rank/analysis_version.ts), so that an
 * index built by the old analysis is rebuilt, never misread: record the new hashes under the new
 * version in HASHES; the test finds no hashes for an unbumped version's new outputs.
 */
import assert from "node:assert/strict";
import { makeRecords } from "../../bench/hint_bench_data.ts";
import { seededRandom } from "../../scripts/seeded_random.ts";
import type { VerdictRecord } from "../../src/record/record.ts";
import { deriveCjkWords } from "../../src/rank/cjk_words.ts";
import { findMarkers, markerStrength } from "../../src/rank/markers.ts";
import {
  ANALYSIS_VERSION,
  analyze,
  basisRecords,
  deriveLexicon,
  lexiconOf,
} from "../../src/rank/analysis.ts";
import { NO_SESSION } from "../../src/rank/bm25.ts";
import { Segment, SEGMENT_FORMAT_VERSION } from "../../src/rank/segment.ts";
import { type MergeInput, mergeSegments, SegmentBuilder } from "../../src/rank/segment_write.ts";
import { cjkRuns, CjkWordSet, tokenize } from "../../src/rank/tokenize.ts";

/** The analysis outputs by ANALYSIS_VERSION (see the module comment). */
const HASHES: Record<number, {
  tokenize: string;
  tokenizeWithLexicon: string;
  markers: string;
  cjkRuns: string;
  cjkWords: string;
}> = {
  3: {
    tokenize: "b0e8cea3efeb9b77be597625a9e345ab630b587b262b067a1e33e03de2e18227",
    tokenizeWithLexicon: "551b73412c0a4683ef2bfec5501a219098d2d02f6bc4b10ea4d159fceec88b4e",
    markers: "7c4a52c3860c4ed070e4c8b1a7f0ed0ab11b99f1728bfbbf863958f550d4f9ed",
    cjkRuns: "d2ad4626bfa7c84a7160d4066435a2bae215c75929871333e5765dbf2db19bcf",
    cjkWords: "ea113dc598b95ce399157ef304026af0ff2c5b1aafc174ed7c63752743134620",
  },
  // Decision language in four languages, clause "no" / ", not" (markers).
  4: {
    tokenize: "b0e8cea3efeb9b77be597625a9e345ab630b587b262b067a1e33e03de2e18227",
    tokenizeWithLexicon: "551b73412c0a4683ef2bfec5501a219098d2d02f6bc4b10ea4d159fceec88b4e",
    markers: "b4acd6fc06c981575faf5c6aa0048fcadfa027b1e9cc4738f2c272802b3b4ba6",
    cjkRuns: "d2ad4626bfa7c84a7160d4066435a2bae215c75929871333e5765dbf2db19bcf",
    cjkWords: "ea113dc598b95ce399157ef304026af0ff2c5b1aafc174ed7c63752743134620",
  },
  // A conditional rule "when you …, do …"; "instead of" only with a verb of choice; "what … should",
  // "should … next" (markers).
  5: {
    tokenize: "b0e8cea3efeb9b77be597625a9e345ab630b587b262b067a1e33e03de2e18227",
    tokenizeWithLexicon: "551b73412c0a4683ef2bfec5501a219098d2d02f6bc4b10ea4d159fceec88b4e",
    markers: "dff628bca83b31f61cec733ca8362423152c8a8544686306d09bbb75f3ffac2a",
    cjkRuns: "d2ad4626bfa7c84a7160d4066435a2bae215c75929871333e5765dbf2db19bcf",
    cjkWords: "ea113dc598b95ce399157ef304026af0ff2c5b1aafc174ed7c63752743134620",
  },
  // An acronym's plural is one word (APIs, FIXMEs: tokenize); "should be updated", "must be added"
  // ask for a change, they set no rule (markers).
  6: {
    tokenize: "380c0818767ba390d82d88ad60f7cca0da060e05df332700cc20b9971757d5f0",
    tokenizeWithLexicon: "e95ead454ad1261aad97609cd135eeef352824b020219e58201c709d8a599fbd",
    markers: "3395e8b71857d7189a72037c03f97d0217164f381c28bcfc26027e87f8614b6d",
    cjkRuns: "ad186a9e59baa9f38c2beeebac5e1a948dc52415a82ea3a1d0eebf50d98b23d9",
    cjkWords: "ea113dc598b95ce399157ef304026af0ff2c5b1aafc174ed7c63752743134620",
  },
  // Japanese "でよい" / "でいい" (X will do) settle an option; "X need(s) to be Y" is a requirement
  // unless a change, a task or a relative clause (markers).
  7: {
    tokenize: "380c0818767ba390d82d88ad60f7cca0da060e05df332700cc20b9971757d5f0",
    tokenizeWithLexicon: "e95ead454ad1261aad97609cd135eeef352824b020219e58201c709d8a599fbd",
    markers: "3395e8b71857d7189a72037c03f97d0217164f381c28bcfc26027e87f8614b6d",
    cjkRuns: "ad186a9e59baa9f38c2beeebac5e1a948dc52415a82ea3a1d0eebf50d98b23d9",
    cjkWords: "ea113dc598b95ce399157ef304026af0ff2c5b1aafc174ed7c63752743134620",
  },
  // 不再, 统一, 别用 (no longer, standardise, don't use), "off the table", только; a typo of always, never,
  // should, prefer, decided or instead is the word (markers).
  8: {
    tokenize: "380c0818767ba390d82d88ad60f7cca0da060e05df332700cc20b9971757d5f0",
    tokenizeWithLexicon: "e95ead454ad1261aad97609cd135eeef352824b020219e58201c709d8a599fbd",
    markers: "532f36d17e9b4e61145b717366456d76ad4de523d8134bbe90a2df94b15f3441",
    cjkRuns: "ad186a9e59baa9f38c2beeebac5e1a948dc52415a82ea3a1d0eebf50d98b23d9",
    cjkWords: "ea113dc598b95ce399157ef304026af0ff2c5b1aafc174ed7c63752743134620",
  },
};

/**
 * Pins the segment's bytes, by ANALYSIS_VERSION (a segment holds the analysis's markers and
 * terms) and SEGMENT_FORMAT_VERSION (its layout): a change to either that forgets its bump fails
 * here.
 */
const SEGMENT_HASHES: Record<string, string> = {
  "3:1": "bc979577abd3c8fbd0dbabb89454d2559102119fe306b994c9dc88e2ab1810f9",
  "4:1": "f61147beaaebd281037c34d03801f4941d1f008e8b1fd9321b20d3dca9014184",
  "5:1": "8e1edc9948b116e47a8aafa6e4104068539e18a2fd5331f4efcaad0747cecb19",
  "6:1": "1bb311afa679394043783e6de23f7bea4e261d34c95d3f3593197486e6a902fe",
  "7:1": "0755c3e119e21512129dad693a00ef9d0982a71a5ef016794b7f3f49fdb69bcc",
  // Format 2: each entry holds its term's conversation count.
  "6:2": "1dae01312a02e8c8b2c7a2227a9e3e123ec35661457f65fccae8a739791e583d",
  "7:2": "880b62515d454c70aecd9e1a97852aeff0cccb4144373d39bba69c55e841eb6a",
  "8:2": "43e3e27edf34d7e32e877aa29b917ada6e55975c3806ea576e3ebc467317e44e",
};

const EXPECTED = HASHES[ANALYSIS_VERSION] ?? (() => {
  throw new Error(`No hashes recorded for ANALYSIS_VERSION ${ANALYSIS_VERSION}: record them in HASHES`);
})();

async function sha256(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data.slice();
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Pieces the varied inputs are made of: every script, form and edge the tokenizer and markers treat specially. */
const FRAGMENTS: readonly string[] = [
  // English prose, stemming fodder, markers and negations.
  "the",
  "we",
  "running",
  "generalizations",
  "happily",
  "caresses",
  "ponies",
  "hopping",
  "relational",
  "agreed",
  "decided",
  "we decided to",
  "from now on",
  "always",
  "never mind",
  "Never",
  "must not",
  "don't",
  "don’t",
  "DON'T know",
  "should we",
  "not sure whether we should",
  "let's use",
  "Let’s go with",
  "instead of",
  "rather than",
  "no deploys on Friday",
  "No.",
  "no,",
  "maybe",
  "tbd",
  "under no circumstances",
  "stick   with",
  "is\nrequired",
  "perhaps always",
  "should",
  // Identifiers, versions, camelCase, apostrophes.
  "pg_dump",
  "v2.3",
  "gen-itgc",
  "node:sqlite",
  "__init__",
  "_private",
  "a.b.c",
  "foo--bar",
  "x::y",
  "1.2.3",
  "getUserName",
  "JSONParser",
  "HTTPServer2",
  "XMLHttpRequest",
  "parseJSON_v2",
  "rock'n'roll",
  "'quoted'",
  "o'clock's",
  "it's",
  "sha256",
  "bm25",
  "x",
  "ID",
  "a1b2c3",
  "-flag",
  "--long-option",
  "path/to/file.ts",
  "https://example.invalid/a?b=c",
  "user@example.invalid",
  "#123",
  "$HOME",
  "C++",
  "3.14159",
  "2024-01-01T00:00:00Z",
  "QmFzZTY0QmxvYkJhc2U2NEJsb2JCYXNlNjRCbG9iQmFzZTY0QmxvYkJhc2U2NEJsb2JCYXNl",
  "a_very_long_identifier_name_that_goes_on_and_on_and_on_beyond_sixty_four_units",
  "superCalifragilisticExpialidociousSuperCalifragilisticExpialidociousX",
  "abcdefghij".repeat(6) + "abcd", // 64 units: the longest term
  "abcdefghij".repeat(6) + "abcde", // 65: too long
  "snake_" + "x".repeat(58), // a 64-unit identifier
  "Ａ" + "b".repeat(63), // 64 units after NFKC
  // Chinese, Japanese, Korean; markers and negations.
  "数据库",
  "迁移",
  "数据库迁移",
  "决定",
  "没决定",
  "以后都",
  "统一用",
  "不要",
  "要不要",
  "不要紧",
  "必须",
  "未来必须",
  "不一定要统一用",
  "不确定 是否",
  "还没 决定",
  "应该",
  "建议",
  "的",
  "用",
  "重跑gen-itgc后",
  "我们决定用Deno 2.9和node:sqlite",
  "缓存",
  "订单金额",
  "ひらがな",
  "カタカナ・テスト",
  "ｶﾀｶﾅ",
  "한국어",
  "ㄱㄴ",
  "𠀀𠀁𠀂",
  "々〆〇",
  "。",
  "？",
  "！",
  "，",
  "、",
  "「引用」",
  // Full-width and compatibility forms (NFKC folds them).
  "Ａ１，",
  "ＡＢＣ",
  "ｇｅｔＵｓｅｒ",
  "ＦＲＯＭ ＮＯＷ ＯＮ",
  "ﬁle",
  "ﬀ",
  "①",
  "²",
  "½",
  "Ⅻ",
  "㍿",
  "™",
  "K",
  "Å",
  "ſ",
  "µ",
  // Other scripts, case quirks and combining marks.
  "Привет",
  "Ελληνικά",
  "ΣΊΣΥΦΟΣ",
  "العربية",
  "हिन्दी",
  "ไทย",
  "Ñandú",
  "Straße",
  "İstanbul",
  "ǅ",
  "e\u0301",
  "ÀÉÎÕÜ",
  "×÷",
  "café's",
  "naïve-approach",
  "Ωmega_Δ",
  // Emoji, invisible and odd code units.
  "😀",
  "👍🏽",
  "🇨🇳",
  "👨‍👩‍👧",
  "\u200b",
  "\u00a0",
  "\ufeff",
  "\ud800",
  "\udc00x",
  "\u0000",
  "\t",
];

const SEPARATORS: readonly string[] = [
  " ",
  " ",
  " ",
  "",
  "",
  "  ",
  "\n",
  ", ",
  ". ",
  "。",
  "-",
  "_",
  ".",
  ":",
  "'",
  "’",
  "?",
  "？",
  "!",
];

/** A few thousand deterministic inputs mixing the fragments, plus the empty string and each fragment alone. */
function variedInputs(): string[] {
  const r = seededRandom(2024);
  const inputs = ["", " ", "\n", ...FRAGMENTS];
  for (let i = 0; i < 3000; i++) {
    const n = Math.floor(r() * (r() < 0.1 ? 40 : 12));
    let text = "";
    for (let k = 0; k < n; k++) {
      if (k > 0) text += SEPARATORS[Math.floor(r() * SEPARATORS.length)]!;
      text += FRAGMENTS[Math.floor(r() * FRAGMENTS.length)]!;
    }
    inputs.push(text);
  }
  return inputs;
}

/** Chinese-heavy texts with recurring words, so deriveCjkWords has real words to find. */
function chineseTexts(): string[] {
  const r = seededRandom(31);
  const hanzi = "数据库备份迁移部署服务订单支付队列缓存索引查询配置日志监控的了是在我们用和不要必须决定";
  const words = Array.from({ length: 300 }, () => {
    let w = "";
    const n = 2 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) w += hanzi[Math.floor(r() * hanzi.length)]!;
    return w;
  });
  return Array.from({ length: 1500 }, () => {
    let t = "";
    const n = 1 + Math.floor(r() * 20);
    for (let i = 0; i < n; i++) {
      t += words[Math.floor(Math.pow(r(), 2) * words.length)]!;
      if (r() < 0.2) t += r() < 0.5 ? "，" : " pg_dump ";
    }
    return t;
  });
}

/** Inputs for the changes of later versions (appended, so the mixed inputs stay as they were). */
const LATER_INPUTS: readonly string[] = [
  "solve all FIXMEs, list the APIs and PRs, getURLs, MCPServers, URLsList",
  "the types should be updated in page.svelte; there should be added a modal; we must be removed",
  "tests should always be updated with the code",
];

const INPUTS = [...variedInputs(), ...LATER_INPUTS];

/** Adds `records` to `builder` as the store does, with row ids from `firstRowid`. */
function addRecords(
  builder: SegmentBuilder,
  records: readonly VerdictRecord[],
  firstRowid: number,
  lexicon: ReturnType<typeof lexiconOf>,
  id: (name: string) => number,
): void {
  records.forEach((r, i) => {
    const a = analyze(r, lexicon);
    builder.add({
      rowid: firstRowid + i,
      id: r.id,
      terms: a.terms,
      timeMs: a.timeMs,
      flags: a.flags,
      project: id(r.project),
      session: r.session === null ? NO_SESSION : id(r.session),
    });
  });
}

function namesTable(): (name: string) => number {
  const names = new Map<string, number>();
  return (name) => names.get(name) ?? (names.set(name, names.size), names.size - 1);
}

Deno.test("build equivalence: an index segment of makeRecords(5000) has the same bytes", async () => {
  const records = makeRecords(5000);
  const words = deriveLexicon(basisRecords(records).map((r) => r.text));
  const builder = new SegmentBuilder();
  addRecords(builder, records, 1, lexiconOf(words), namesTable());
  const dir = await Deno.makeTempDir();
  try {
    await builder.write(`${dir}/s.vix`, ANALYSIS_VERSION);
    assert.equal(
      await sha256(await Deno.readFile(`${dir}/s.vix`)),
      SEGMENT_HASHES[`${ANALYSIS_VERSION}:${SEGMENT_FORMAT_VERSION}`],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A merge's bytes, pinned like a build's (by analysis and segment format): segments of uneven
 * sizes (the first small enough to be read whole, the others not), with deleted documents and without,
 * merged into one. The merge writer's memory was cut down more than once; its output must not move.
 */
const MERGE_HASHES: Record<string, string> = {
  "7:2": "3ba40a1b9b945e04dda27c1303afb5c6032ce9e3af0bde3c14b28b572fe75e35",
  "8:2": "f682bd2b7ab0c895c57e47b2ef32fc5637bad6903d84d48740467f6d1114f5fd",
};

Deno.test("build equivalence: segments merged with deletions give the same bytes", async () => {
  const records = makeRecords(9000);
  const words = deriveLexicon(basisRecords(records).map((r) => r.text));
  const lexicon = lexiconOf(words);
  const id = namesTable();
  const pieces = [[0, 150], [150, 4000], [4000, 4700], [4700, 9000]] as const;
  const dir = await Deno.makeTempDir();
  try {
    const inputs: MergeInput[] = [];
    for (const [k, [from, to]] of pieces.entries()) {
      const builder = new SegmentBuilder();
      addRecords(builder, records.slice(from, to), from + 1, lexicon, id);
      const path = `${dir}/s${k}.vix`;
      await builder.write(path, ANALYSIS_VERSION);
      // Every seventh document deleted from the first and third, none from the others.
      const deleted = k % 2 === 0 ? new Uint8Array(Math.ceil((to - from) / 8)) : null;
      for (let slot = 0; deleted && slot < to - from; slot += 7) deleted[slot >> 3]! |= 1 << (slot & 7);
      inputs.push({ segment: Segment.open(path), deleted });
    }
    await mergeSegments(inputs, `${dir}/merged.vix`, ANALYSIS_VERSION);
    for (const input of inputs) input.segment.close();
    assert.equal(
      await sha256(await Deno.readFile(`${dir}/merged.vix`)),
      MERGE_HASHES[`${ANALYSIS_VERSION}:${SEGMENT_FORMAT_VERSION}`],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("build equivalence: one builder writing segment after segment (its memory released once) gives each the bytes of a fresh builder", async () => {
  const records = makeRecords(6000);
  const words = deriveLexicon(basisRecords(records).map((r) => r.text));
  const lexicon = lexiconOf(words);
  const id = namesTable();
  // Shrinking then growing: stale term ids, last documents or buffer tails of a larger batch
  // before must not leak into a smaller one after.
  const pieces = [[0, 3000], [3000, 3100], [3100, 3101], [3101, 6000]] as const;
  const reused = new SegmentBuilder();
  const dir = await Deno.makeTempDir();
  try {
    for (const [k, [from, to]] of pieces.entries()) {
      const fresh = new SegmentBuilder();
      addRecords(fresh, records.slice(from, to), from + 1, lexicon, id);
      await fresh.write(`${dir}/fresh${k}.vix`, ANALYSIS_VERSION);
      addRecords(reused, records.slice(from, to), from + 1, lexicon, id);
      await reused.write(`${dir}/reused${k}.vix`, ANALYSIS_VERSION);
      assert.equal(reused.size, 0);
      // Its memory given back halfway: it must build the same again.
      if (k === 1) reused.release();
      assert.equal(
        await sha256(await Deno.readFile(`${dir}/reused${k}.vix`)),
        await sha256(await Deno.readFile(`${dir}/fresh${k}.vix`)),
        `segment ${k}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("build equivalence: tokenize() gives the same terms for varied inputs", async () => {
  assert.equal(await sha256(JSON.stringify(INPUTS.map((t) => tokenize(t)))), EXPECTED.tokenize);
  const lexicon = new Set(["数据库", "迁移", "数据", "订单金额", "决定用", "ひらがな", "𠀀𠀁", "据库迁移"]);
  assert.equal(
    await sha256(JSON.stringify(INPUTS.map((t) => tokenize(t, lexicon)))),
    EXPECTED.tokenizeWithLexicon,
  );
  // The index build passes its words as a CjkWordSet (which skips hopeless look-ups): same terms.
  const wordSet = new CjkWordSet(lexicon);
  assert.equal(
    await sha256(JSON.stringify(INPUTS.map((t) => tokenize(t, wordSet)))),
    EXPECTED.tokenizeWithLexicon,
  );
});

Deno.test("build equivalence: markerStrength() and findMarkers() are unchanged for varied inputs", async () => {
  const out = INPUTS.map((t) => [markerStrength(t), findMarkers(t)]);
  assert.equal(await sha256(JSON.stringify(out)), EXPECTED.markers);
});

Deno.test("build equivalence: cjkRuns() is unchanged for varied inputs", async () => {
  assert.equal(await sha256(JSON.stringify(INPUTS.map(cjkRuns))), EXPECTED.cjkRuns);
});

Deno.test("build equivalence: deriveCjkWords() is unchanged, with default and custom thresholds", async () => {
  const records = makeRecords(5000).map((r) => r.text);
  const zh = chineseTexts();
  const out = [
    [...deriveCjkWords(records)],
    [...deriveCjkWords(zh)],
    [...deriveCjkWords([...zh, ...INPUTS])],
    [...deriveCjkWords(INPUTS)],
    [...deriveCjkWords(zh, { minDf: 2, minCohesion: 1, minFreedom: 0.5 })],
    [...deriveCjkWords(zh, { minLength: 1, maxLength: 6 })],
    [...deriveCjkWords(zh, { minLength: 3, maxLength: 3, minDf: 1 })],
    [...deriveCjkWords([])],
  ];
  assert.equal(await sha256(JSON.stringify(out)), EXPECTED.cjkWords);
});
