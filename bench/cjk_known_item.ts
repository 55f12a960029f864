/**
 * CJK known-item test: which Chinese tokenisation finds a record again from a few of its words?
 *
 * A synthetic corpus of ~20k short Chinese records (the kind of thing a user types to a coding
 * agent) is generated from the word list below with a seeded generator; each query is 2–4 content
 * words of one target record, shuffled and glued the way people type them (no spaces, 的, 和, a
 * question tail). MRR@10 over the queries, plain BM25 (bm25.ts), for:
 *   - bigrams only (tokenize() without a lexicon);
 *   - bigrams + corpus-derived words (cjk_words.ts; the query finds words by an index lookup);
 *   - bigrams + Intl.Segmenter words — for information only: loading ICU's Chinese data costs
 *     ~11 ms, too much for the per-prompt hook, so it can never ship.
 *
 * Run: deno run bench/cjk_known_item.ts [records] [queries]
 */

import { bm25Rank, type DocMeta, type QueryTerm } from "../src/rank/bm25.ts";
import { deriveCjkWords } from "../src/rank/cjk_words.ts";
import { MemoryIndex } from "../src/rank/memory_index.ts";
import { cjkRuns, isCjkTerm, tokenize } from "../src/rank/tokenize.ts";
import { taskArgs } from "../scripts/task_args.ts";
import { seededRandom } from "../scripts/seeded_random.ts";

taskArgs("bench:cjk", import.meta.url, Deno.args, { positionals: 2 });

const RECORDS = Number(Deno.args[0] ?? 20_000);
const QUERIES = Number(Deno.args[1] ?? 1_000);
const SEED = 20240601;
const CUTOFF = 10;

// --- the word list ------------------------------------------------------------------------

const w = (s: string) => s.split(/\s+/).filter((x) => x !== "");

/** Things people talk about in a coding session (2–4 characters; many share characters on purpose). */
const NOUNS = w(`
  数据库 数据 数据表 数据集 数据源 服务器 服务 服务端 客户端 配置 配置文件 配置项 文件 文件夹 文件名
  接口 接口文档 缓存 缓存层 日志 日志文件 日志级别 测试 测试用例 单元测试 集成测试 测试环境 生产环境
  开发环境 容器 容器镜像 镜像 分支 主分支 代码 代码库 代码审查 仓库 索引 查询 查询语句 性能 内存 内存泄漏
  线程 线程池 进程 网络 端口 端口号 证书 密钥 环境变量 命令行 脚本 依赖 依赖包 版本 版本号 构建 构建脚本
  流水线 前端 后端 页面 组件 函数 变量 参数 返回值 错误 错误码 异常 超时 重试 队列 消息 消息队列 任务
  定时任务 调度器 负载均衡 反向代理 域名 防火墙 权限 用户 用户名 账号 登录 注册 会话 令牌 文档 注释 格式
  编码 字符串 数组 对象 模块 插件 框架 中间件 字段 主键 外键 事务 死锁 连接池 连接 请求 响应 路由 控制器
  模板 样式 图片 目录 路径 压缩包 存储 对象存储 快照 备份 磁盘 机器 集群 节点 副本 分片 主从 读写分离
  搜索引擎 全文检索 分词 分词器 词典 模型 训练 推理 标签 指标 告警 仪表盘 报表 报告 需求 方案 设计 架构
  规范 流程 上线 灰度 变更 补丁 漏洞 安全 审计 哈希 签名 校验 时区 时间戳 日期 编辑器 终端 快捷键 主题
  字体 布局 窗口 按钮 表单 输入框 弹窗 列表 表格 分页 排序 过滤 搜索框 迁移脚本 提交信息 合并请求 发布说明
  包管理器 锁文件 类型检查 格式化 代码风格 提示词 上下文 钩子 子进程 沙箱 白名单 黑名单 凭据 密码 令牌桶
`);
const VERBS = w(`
  使用 用 修改 改 删除 删掉 添加 加上 检查 运行 重启 升级 安装 更新 优化 调试 修复 编译 打包 发布 部署
  迁移 回滚 合并 提交 推送 拉取 备份 恢复 配置 监控 记录 清理 压缩 加密 解析 生成 导出 导入 同步 上传
  下载 启动 关闭 重构 拆分 替换 切换 验证 排查 定位 统计 审查 跑 重跑 执行 处理 保存 读取 写入 缓存 保留
  去掉 固定 锁定 忽略 跳过 限制 放开 打开 禁用 启用 换成 改成 挪到 拆成 补上 写进
`);
const ADJECTIVES = w(`
  新的 旧的 默认的 本地 远程 线上 稳定的 简单的 复杂的 临时的 正式的 自动 手动 增量 全量 全部 所有的
  独立的 共享的 只读的 统一的 最新的 轻量的 单独的
`);
const SUBJECTS = w(`我们 你 我 团队 这边 大家 后端组 前端组`);
const TIMES = w(`以后 现在 今天 明天 下次 之前 刚才 这周 上线前 发布后 每次 平时`);
const MODALS = w(`决定 必须 应该 建议 不要 需要 可以 统一 优先 尽量 先 再 别 一律 还是`);
const LINKS = w(`然后 因为 所以 但是 如果 另外 而且 不过 同时 否则`);
const TAILS = w(`吧 了 一下 就行 为主 再说 比较好 即可`);
const PREPS = w(`在 把 给 到 从 对 跟 里的 上的 中的`);

/** Content words are what queries are made of. */
const CONTENT = new Set([...NOUNS, ...VERBS, ...ADJECTIVES]);

const rand = seededRandom(SEED);
const chance = (p: number) => rand() < p;

/** Zipf-like choice: the list's order is a fixed shuffle, item k has weight 1/(k+1)^0.9. */
function zipfPicker(list: readonly string[]): () => string {
  const order = [...list];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  const cum: number[] = [];
  let total = 0;
  for (let k = 0; k < order.length; k++) cum.push(total += 1 / Math.pow(k + 1, 0.9));
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo] as string;
  };
}

const noun = zipfPicker(NOUNS);
const verb = zipfPicker(VERBS);
const adj = zipfPicker(ADJECTIVES);
const pick = (list: readonly string[]) => list[Math.floor(rand() * list.length)] as string;

/** One clause, as the list of words it was built from. */
function clause(): string[] {
  const out: string[] = [];
  if (chance(0.3)) out.push(pick(TIMES));
  if (chance(0.4)) out.push(pick(SUBJECTS));
  if (chance(0.6)) out.push(pick(MODALS));
  if (chance(0.3)) {
    out.push(pick(PREPS));
    if (chance(0.3)) out.push(adj());
    out.push(noun());
    if (chance(0.3)) out.push("的", noun());
  }
  out.push(verb());
  if (chance(0.4)) out.push(adj());
  out.push(noun());
  if (chance(0.35)) out.push(chance(0.5) ? "的" : "和", noun());
  if (chance(0.3)) out.push(pick(TAILS));
  return out;
}

function record(): string[] {
  const words = clause();
  const more = rand();
  if (more < 0.55) words.push("，", ...(chance(0.5) ? [pick(LINKS)] : []), ...clause());
  if (more < 0.2) words.push("，", ...clause());
  words.push(chance(0.8) ? "。" : "");
  return words;
}

function query(target: readonly string[], minWords: number): string {
  const content = [...new Set(target.filter((x) => CONTENT.has(x)))];
  for (let i = content.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [content[i], content[j]] = [content[j] as string, content[i] as string];
  }
  const k = Math.min(content.length, minWords + Math.floor(rand() * 3));
  const chosen = content.slice(0, k);
  let q = chosen.map((x, i) => (i === 0 ? "" : chance(0.6) ? "" : chance(0.5) ? "的" : "和") + x).join("");
  if (chance(0.3)) q = pick(["之前说的", "上次", "关于", "怎么"]) + q;
  if (chance(0.3)) q += pick(["怎么办", "是什么", "吗", "的方案"]);
  return q;
}

// --- the measurement ----------------------------------------------------------------------

const records = Array.from({ length: RECORDS }, record);
const texts = records.map((r) => r.join(""));
/** Two query sets: 2–4 words of the target (the test) and 3–5 words (a check the ranking holds). */
function querySet(minWords: number): { text: string; target: number }[] {
  const out: { text: string; target: number }[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const target = Math.floor(rand() * RECORDS);
    out.push({ text: query(records[target] as string[], minWords), target });
  }
  return out;
}
const querySets = [querySet(2), querySet(3)];

const meta: DocMeta = { id: "", kind: "prompt", timeMs: 0, project: "", session: null, marker: null };
const metas = texts.map(() => meta);

function counted(terms: readonly string[]): QueryTerm[] {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return [...m].map(([term, qtf]) => ({ term, qtf }));
}

function mrr(
  index: MemoryIndex,
  queries: readonly { text: string; target: number }[],
  queryTerms: (q: string) => string[],
): number {
  let sum = 0;
  for (const q of queries) {
    const ranked = bm25Rank(index, counted(queryTerms(q.text)))
      .sort((a, b) => b.bm25 - a.bm25 || a.doc - b.doc)
      .slice(0, CUTOFF);
    const rank = ranked.findIndex((m) => m.doc === q.target);
    if (rank >= 0) sum += 1 / (rank + 1);
  }
  return sum / queries.length;
}

const rows: [string, number[], string][] = [];
const measure = (index: MemoryIndex, queryTerms: (q: string) => string[]) =>
  querySets.map((qs) => mrr(index, qs, queryTerms));

// 1. Bigrams only.
const bigramIndex = MemoryIndex.fromTokens(texts.map((t) => tokenize(t)), metas);
rows.push(["bigrams", measure(bigramIndex, (q) => tokenize(q)), `${bigramIndex.vocabulary().length} terms`]);

// 2. Bigrams + corpus-derived words; the query finds words through the index (isCjkWord) only.
const t0 = performance.now();
const words = deriveCjkWords(texts);
const deriveMs = performance.now() - t0;
const wordIndex = MemoryIndex.fromTokens(texts.map((t) => tokenize(t, words)), metas, words);
const lexicon = { has: (x: string) => wordIndex.isCjkWord(x) };
rows.push([
  "bigrams + derived words (shipped)",
  measure(wordIndex, (q) => tokenize(q, lexicon)),
  `${words.size} words derived in ${deriveMs.toFixed(0)} ms`,
]);

// 3. For information: bigrams + Intl.Segmenter words (never on the query path).
const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
function segmenterTerms(text: string): string[] {
  const out = tokenize(text);
  for (const s of segmenter.segment(text.normalize("NFKC"))) {
    if (s.isWordLike && [...s.segment].length >= 2 && isCjkTerm(s.segment)) out.push(s.segment);
  }
  return out;
}
const segIndex = MemoryIndex.fromTokens(texts.map(segmenterTerms), metas);
rows.push([
  "bigrams + Intl.Segmenter words",
  measure(segIndex, segmenterTerms),
  "information only, not shippable",
]);

// How well the derivation found the list's own words (a sanity figure, not a goal).
const listWords = new Set([...CONTENT, ...SUBJECTS, ...TIMES, ...MODALS, ...LINKS, ...TAILS, ...PREPS]);
const multiChar = [...listWords].filter((x) => [...x].length >= 2 && cjkRuns(x).length === 1);
const found = multiChar.filter((x) => words.has(x)).length;
const other = [...words].filter((x) => !listWords.has(x));

console.log(`CJK known-item test: ${RECORDS} records, ${QUERIES} queries per set, MRR@${CUTOFF}, plain BM25`);
console.log("");
console.log(`| tokenisation | MRR@${CUTOFF}, 2–4 word queries | MRR@${CUTOFF}, 3–5 word queries | note |`);
console.log("|---|---:|---:|---|");
for (const [name, v, note] of rows) {
  console.log(`| ${name} | ${v.map((x) => x.toFixed(4)).join(" | ")} | ${note} |`);
}
console.log("");
console.log(
  `derived words: ${found} of the list's ${multiChar.length} multi-character words found; ` +
    `${other.length} of ${words.size} derived words are not list words (${other.slice(0, 10).join(" ")})`,
);
console.log(`sample queries: ${querySets[0]?.slice(0, 5).map((q) => q.text).join(" / ")}`);
