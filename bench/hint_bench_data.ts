/** Synthetic records and queries for the hint benchmark (deterministic). */
import { recordId, type RecordKind, type VerdictRecord } from "../src/collect/record.ts";

export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A Zipf-ish English vocabulary (common words repeated) and technical identifiers.
const COMMON = "the a to of and in is for on with that this it be as are was we use should".split(" ");
const WORDS = (
  "database backup migration deploy service order payment queue cache redis postgres index query schema " +
  "config error value function import export async await string number interface build release branch " +
  "logging metrics tracing retry timeout worker cluster node pod image container secret vault token " +
  "frontend backend router handler middleware session cookie auth login user account billing invoice"
).split(" ");
export const IDENT_POOL = Array.from(
  { length: 4000 },
  (_, i) => `svc_${i.toString(36)}-${(i * 7919 % 1000).toString(36)}`,
);
const ZH =
  "数据库 备份 迁移 部署 服务 订单 支付 队列 缓存 索引 查询 配置 日志 监控 重试 超时 集群 镜像 密钥 用户 账单 发票 以后 统一 决定 不要 必须 使用 改用 接口 字段 金额 整数"
    .split(" ");
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
];

function text(r: () => number): string {
  const zh = r() < 0.3;
  const len = r() < 0.7 ? 6 + Math.floor(r() * 25) : 40 + Math.floor(r() * 200);
  const parts: string[] = [MARKERS[Math.floor(r() * MARKERS.length)]!];
  for (let i = 0; i < len; i++) {
    const p = r();
    if (zh && p < 0.6) parts.push(ZH[Math.floor(r() * ZH.length)]!);
    else if (p < 0.45) parts.push(COMMON[Math.floor(r() * COMMON.length)]!);
    else if (p < 0.93) parts.push(WORDS[Math.floor(Math.pow(r(), 2) * WORDS.length)]!);
    else parts.push(IDENT_POOL[Math.floor(r() * IDENT_POOL.length)]!);
  }
  return parts.join(zh ? "" : " ");
}

export function makeRecords(n: number): VerdictRecord[] {
  const r = rng(1);
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
      text: text(r),
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
  const r = rng(99);
  return Array.from(
    { length: count },
    (_, i) =>
      i % 3 === 0
        ? `should we ${WORDS[Math.floor(r() * WORDS.length)]} the ${
          IDENT_POOL[Math.floor(r() * IDENT_POOL.length)]
        } ${WORDS[Math.floor(r() * WORDS.length)]}`
        : i % 3 === 1
        ? `${ZH[Math.floor(r() * ZH.length)]}${ZH[Math.floor(r() * ZH.length)]}的${
          ZH[Math.floor(r() * ZH.length)]
        }怎么办`
        : `switch the ${WORDS[Math.floor(r() * WORDS.length)]} ${WORDS[Math.floor(r() * WORDS.length)]} to ${
          WORDS[Math.floor(r() * WORDS.length)]
        } and the ${WORDS[Math.floor(r() * WORDS.length)]}`,
  );
}
