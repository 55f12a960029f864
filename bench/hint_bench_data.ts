/** Synthetic records and queries for the hint benchmark (deterministic). */
import { recordId, type RecordKind, type VerdictRecord } from "../src/record/record.ts";
import { seededRandom } from "../scripts/seeded_random.ts";

// Vocabularies with a Zipf distribution, as natural text has: English function words, a 20,000-
// word technical vocabulary of made-up words (a few hundred frequent, a long tail of rare ones),
// identifiers, and a Chinese vocabulary of 3,000 two- and three-character words.
const FUNCTION_WORDS = ("the a to of and in is for on with that this it be as are was we use should can " +
  "not do you i my our from at by or if so but what when how").split(" ");
const LETTERS = "abcdefghiklmnoprstuvwy";
const HANZI =
  "数据库备份迁移部署服务订单支付队列缓存索引查询配置日志监控重试超时集群镜像密钥用户账单发票接口字段金额整数测试前端后端路由会话登录权限任务调度消息事件版本发布分支合并代码审查文档规范格式错误异常处理性能优化内存线程进程网络请求响应"
    .split("");

function madeUpWord(r: () => number): string {
  const len = 4 + Math.floor(r() * 6);
  let w = "";
  for (let i = 0; i < len; i++) w += LETTERS[Math.floor(r() * LETTERS.length)]!;
  return w;
}

const VOCAB_RNG = seededRandom(7);
const WORDS: string[] = Array.from({ length: 20_000 }, () => madeUpWord(VOCAB_RNG));
const ZH_WORDS: string[] = Array.from({ length: 3000 }, () => {
  const n = VOCAB_RNG() < 0.7 ? 2 : 3;
  let w = "";
  for (let i = 0; i < n; i++) w += HANZI[Math.floor(VOCAB_RNG() * HANZI.length)]!;
  return w;
});
export const IDENT_POOL = Array.from(
  { length: 4000 },
  (_, i) => `svc_${i.toString(36)}-${(i * 7919 % 1000).toString(36)}`,
);

/** A Zipf(1) rank in [0, n): rank k has probability ∝ 1/(k + 1). */
function zipf(r: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(Math.exp(r() * Math.log(n + 1)) - 1));
}

const MARKERS = [
  "we decided to",
  "from now on",
  "always",
  "never",
  "let's use",
  "以后都",
  "统一用",
  "不要",
  "必须",
  "",
  "",
  "",
];

/** One synthetic record text: a marker or none, then Zipf-distributed words; a quarter Chinese. */
export function syntheticText(r: () => number): string {
  const zh = r() < 0.25;
  const shape = r();
  // Mostly short prompts, some paragraphs, a few long documents.
  const len = shape < 0.7
    ? 5 + Math.floor(r() * 25)
    : shape < 0.95
    ? 30 + Math.floor(r() * 90)
    : 120 + Math.floor(r() * 380);
  const parts: string[] = [MARKERS[Math.floor(r() * MARKERS.length)]!];
  for (let i = 0; i < len; i++) {
    const p = r();
    if (zh && p < 0.6) parts.push(ZH_WORDS[zipf(r, ZH_WORDS.length)]!);
    else if (p < 0.35) parts.push(FUNCTION_WORDS[Math.floor(r() * FUNCTION_WORDS.length)]!);
    else if (p < 0.97) parts.push(WORDS[zipf(r, WORDS.length)]!);
    else parts.push(IDENT_POOL[Math.floor(r() * IDENT_POOL.length)]!);
  }
  return parts.join(zh ? "" : " ");
}

export function makeRecords(n: number): VerdictRecord[] {
  const r = seededRandom(1);
  const kinds: RecordKind[] = [
    "prompt",
    "prompt",
    "prompt",
    "prompt",
    "note",
    "doc",
    "doc",
    "commit",
    "commit",
    "tag",
  ];
  const base = Date.parse("2024-01-01T00:00:00Z");
  const out: VerdictRecord[] = [];
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % kinds.length]!;
    out.push({
      id: recordId(kind, `bench:${i}`),
      kind,
      origin: kind === "doc" ? "doc" : kind === "commit" || kind === "tag" ? "git" : "claude",
      text: syntheticText(r),
      time: new Date(base + Math.floor((i / n) * 700 * 86_400_000)).toISOString(),
      project: `/home/dev/p${i % 40}`,
      session: kind === "prompt" ? `s${i % 5000}` : null,
      source_file: `/home/dev/.claude/projects/p${i % 40}/s${i % 5000}.jsonl`,
      source_line: (i % 900) + 1,
      commit: null,
    });
  }
  return out;
}

export function queries(count: number): string[] {
  const r = seededRandom(99);
  const word = () => WORDS[zipf(r, WORDS.length)]!;
  const zh = () => ZH_WORDS[zipf(r, ZH_WORDS.length)]!;
  return Array.from(
    { length: count },
    (_, i) =>
      i % 3 === 0
        ? `should we ${word()} the ${IDENT_POOL[Math.floor(r() * IDENT_POOL.length)]} ${word()}`
        : i % 3 === 1
        ? `${zh()}${zh()}的${zh()}怎么办`
        : `switch the ${word()} ${word()} to ${word()} and the ${word()}`,
  );
}
