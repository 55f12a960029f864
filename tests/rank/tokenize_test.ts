import assert from "node:assert/strict";
import { seededRandom } from "../../scripts/seeded_random.ts";
import {
  CjkStartFilter,
  CjkWordSet,
  isAsciiTerm,
  isCjkTerm,
  termOrigins,
  tokenize,
} from "../../src/rank/tokenize.ts";
import { deriveCjkWords } from "../../src/rank/cjk_words.ts";

Deno.test("tokenize() keeps pg_dump whole and adds its parts", () => {
  assert.deepEqual(tokenize("run pg_dump nightly"), ["run", "pg_dump", "pg", "dump", "nightli"]);
});

Deno.test("tokenize() keeps a version like v2.3 whole and never stems an identifier", () => {
  assert.deepEqual(tokenize("upgrade to v2.3"), ["upgrad", "to", "v2.3", "v2", "3"]);
  assert.deepEqual(tokenize("snake_case names"), ["snake_case", "snake", "case", "name"]);
  assert.deepEqual(tokenize("running_tests"), ["running_tests", "run", "test"]);
});

Deno.test("tokenize() treats node:sqlite and gen-itgc as identifiers", () => {
  assert.deepEqual(tokenize("node:sqlite"), ["node:sqlite", "node", "sqlite"]);
  assert.deepEqual(tokenize("gen-itgc"), ["gen-itgc", "gen", "itgc"]);
});

Deno.test("tokenize() finds gen-itgc glued between Chinese characters", () => {
  const terms = tokenize("重跑gen-itgc后");
  assert.ok(terms.includes("gen-itgc"));
  assert.deepEqual(terms, ["重跑", "gen-itgc", "gen", "itgc", "后"]);
  // …so a record with the glued form matches a prompt that writes it alone.
  assert.ok(tokenize("gen-itgc 要重跑吗").includes("gen-itgc"));
});

Deno.test("tokenize() emits overlapping bigrams for a CJK run and a unigram for a lone character", () => {
  assert.deepEqual(tokenize("数据库迁移"), ["数据", "据库", "库迁", "迁移"]);
  assert.deepEqual(tokenize("用 pnpm"), ["用", "pnpm"]);
  assert.deepEqual(tokenize("数据，库"), ["数据", "库"]);
});

Deno.test("tokenize() adds lexicon words of 2–4 characters beside the bigrams", () => {
  const lexicon = new Set(["数据库", "迁移"]);
  assert.deepEqual(tokenize("数据库迁移", lexicon), ["数据", "数据库", "据库", "库迁", "迁移", "迁移"]);
});

Deno.test("tokenize() handles mixed Chinese, English and identifiers in text order", () => {
  assert.deepEqual(tokenize("我们决定用Deno 2.9和node:sqlite"), [
    "我们",
    "们决",
    "决定",
    "定用",
    "deno",
    "2.9",
    "2",
    "9",
    "和",
    "node:sqlite",
    "node",
    "sqlite",
  ]);
  assert.deepEqual(tokenize("データベース를"), ["デー", "ータ", "タベ", "ベー", "ース", "ス를"]);
});

Deno.test("tokenize() folds full-width forms and case", () => {
  assert.deepEqual(tokenize("ＰＧ＿ＤＵＭＰ，Ｖ２．３"), tokenize("pg_dump, v2.3"));
  assert.deepEqual(tokenize("Ｄｅｃｉｄｅｄ"), ["decid"]);
});

Deno.test("tokenize() stems plain words, joins apostrophes and splits camelCase", () => {
  assert.deepEqual(tokenize("Databases don't users' it’s"), ["databas", "dont", "user", "it"]);
  assert.deepEqual(tokenize("getUserName"), ["getusernam", "get", "user", "name"]);
  assert.deepEqual(tokenize("sha256 and bm25"), ["sha256", "and", "bm25"]);
});

Deno.test("tokenize() drops punctuation, emoji and over-long blobs", () => {
  assert.deepEqual(tokenize("— !! 😀 ..."), []);
  assert.deepEqual(tokenize("x".repeat(200)), []);
  assert.deepEqual(tokenize("café naïve Привет"), ["café", "naïve", "привет"]);
});

Deno.test("isAsciiTerm() and isCjkTerm() tell term families apart", () => {
  assert.equal(isAsciiTerm("pg_dump"), true);
  assert.equal(isAsciiTerm("数据"), false);
  assert.equal(isCjkTerm("数据"), true);
  assert.equal(isCjkTerm("café"), false);
});

Deno.test("deriveCjkWords() finds recurring cohesive words and not phrase junctions", () => {
  const nouns = ["数据库", "服务器", "配置文件", "缓存", "日志", "分支", "镜像", "端口"];
  const verbs = ["迁移", "重启", "检查", "备份", "清理", "部署"];
  const lead = ["我们", "以后", "今天", "你先", "大家"];
  const texts: string[] = [];
  let k = 0;
  for (const a of lead) {
    for (const v of verbs) {
      for (const n of nouns) {
        k++;
        texts.push(`${a}${v}${n}${k % 3 === 0 ? "吧" : k % 3 === 1 ? "了" : ""}`);
      }
    }
  }
  const words = deriveCjkWords(texts);
  for (const w of ["数据库", "服务器", "配置文件", "迁移", "重启"]) assert.ok(words.has(w), w);
  for (const junk of ["据库迁", "移数据", "迁移数"]) assert.ok(!words.has(junk), junk);
  // The result does not depend on the order of the texts.
  assert.deepEqual([...deriveCjkWords([...texts].reverse())], [...words]);
});

Deno.test("termOrigins() gives tokenize()'s terms, each with where it came from", () => {
  const lexicon = new CjkWordSet(["数据库"]);
  const texts = [
    "npm install or pnpm add?",
    "run pg_dump nightly on src/db/backup.ts and .\\dev.ps1",
    "重跑gen-itgc后把 output/evidence 目录打包, see README.md",
    "以后数据库迁移一律用 flyway 2026-01-05",
  ];
  for (const t of texts) {
    assert.deepEqual(termOrigins(t, lexicon).map((o) => o.term), tokenize(t, lexicon), t);
  }
  const o = termOrigins("run pg_dump nightly on src/db/backup.ts and .\\dev.ps1 README.md");
  const of = (term: string) => o.find((x) => x.term === term)!;
  // An identifier and its parts share a run; a path's pieces are places; extensions are kinds.
  assert.equal(of("pg").run, of("pg_dump").run);
  assert.notEqual(of("nightli").run, of("pg_dump").run);
  assert.ok(of("db").inPath && of("backup").inPath && !of("pg_dump").inPath);
  assert.ok(of("ps1").extension && of("md").extension && !of("dev").extension);
  // Overlapping CJK bigrams carry their spans; lexicon words are flagged.
  const zh = termOrigins("数据库迁移", lexicon);
  assert.deepEqual(zh.filter((x) => x.word).map((x) => x.term), ["数据库"]);
  assert.ok(zh.filter((x) => !x.word).every((x, i, a) => i === 0 || x.start < a[i - 1]!.end));
});

Deno.test("tokenize() keeps an acronym's plural one word: APIs, PRs, FIXMEs", () => {
  assert.deepEqual(tokenize("APIs PRs"), ["api", "pr"]);
  assert.deepEqual(tokenize("FIXMEs"), tokenize("FIXME"));
  assert.deepEqual(tokenize("getURLs"), ["geturl", "get", "url"]);
  // A capital run before a longer lower-case word is still split (JSON|Parser).
  assert.deepEqual(tokenize("JSONParser"), ["jsonpars", "json", "parser"]);
});

Deno.test("a lexicon that says where no word starts (CjkStartFilter) gives the terms and origins one without it gives", () => {
  const r = seededRandom(3);
  // Common characters, one outside the BMP (a surrogate pair), and kana.
  const chars = [..."数据库备份迁移部署服务订单支付队列缓存索引查询配置日志监控", "𠮷", ..."のをにはがで"];
  const pick = () => chars[Math.floor(r() * chars.length)]!;
  const words: string[] = [];
  for (let i = 0; i < 40; i++) {
    const n = 2 + Math.floor(r() * 3);
    words.push(Array.from({ length: n }, pick).join(""));
  }
  words.push("𠮷数", "数𠮷据", "𠮷𠮷");
  const set = new Set(words);
  const filter = new CjkStartFilter(set);
  for (const w of set) {
    assert.ok(filter.mayStartWord(w.charCodeAt(0), w.charCodeAt(1)), `a word's start is never refused: ${w}`);
  }
  const plain = { has: (w: string) => set.has(w) };
  const filtered = {
    has: (w: string) => set.has(w),
    mayStartWord: (a: number, b: number) => filter.mayStartWord(a, b),
  };
  let refused = 0;
  for (let i = 0; i < 300; i++) {
    const text = Array.from(
      { length: 1 + Math.floor(r() * 30) },
      () => r() < 0.2 ? words[i % words.length]! : pick(),
    )
      .join(r() < 0.1 ? " use pg_dump " : "");
    assert.deepEqual(tokenize(text, filtered), tokenize(text, plain), text);
    assert.deepEqual(termOrigins(text, filtered), termOrigins(text, plain), text);
    for (let k = 0; k + 1 < text.length; k++) {
      if (!filter.mayStartWord(text.charCodeAt(k), text.charCodeAt(k + 1))) refused++;
    }
  }
  assert.ok(refused > 0, "the filter refuses some starts (else it would save nothing)");
});
