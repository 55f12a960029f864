/**
 * The level-by-level CJK word count (src/rank/cjk_words.ts) finds exactly the words of the
 * one-pass count it replaced (tests/rank/_cjk_words_reference.ts), on random corpora and
 * thresholds, and reads its texts through a function as well as from an array.
 */
import assert from "node:assert/strict";
import { seededRandom } from "../../scripts/seeded_random.ts";
import { deriveCjkWords } from "../../src/rank/cjk_words.ts";
import { deriveCjkWordsReference } from "./_cjk_words_reference.ts";

const HANZI = "数据库备份迁移部署服务订单支付队列缓存索引查询配置日志监控的了是在不要统一用以后都决定";

function corpus(seed: number, n: number): string[] {
  const r = seededRandom(seed);
  const words = Array.from({ length: 60 }, () => {
    let w = "";
    for (let i = 0, len = 2 + Math.floor(r() * 3); i < len; i++) w += HANZI[Math.floor(r() * HANZI.length)]!;
    return w;
  });
  return Array.from({ length: n }, () => {
    let t = "";
    for (let i = 0, len = 1 + Math.floor(r() * 12); i < len; i++) {
      t += words[Math.floor(Math.pow(r(), 2) * words.length)]!;
      const p = r();
      if (p < 0.1) t += "，";
      else if (p < 0.15) t += " pg_dump ";
      else if (p < 0.17) t += "ひらがなカタカナ";
    }
    return t;
  });
}

Deno.test("CJK words counted by levels equal the one-pass count, for random corpora and thresholds", () => {
  const thresholds = [
    {},
    { minDf: 2 },
    { minDf: 1, minCohesion: 1 },
    { minLength: 1, maxLength: 5 },
    { minLength: 3, maxLength: 4 },
    { minDf: 4, minFreedom: 0.8, maxLength: 6 },
  ];
  let words = 0;
  for (let seed = 1; seed <= 8; seed++) {
    const texts = corpus(seed, 200 + seed * 60);
    for (const t of thresholds) {
      const want = [...deriveCjkWordsReference(texts, t)];
      assert.deepEqual([...deriveCjkWords(texts, t)], want, `seed ${seed}, ${JSON.stringify(t)}`);
      assert.deepEqual([...deriveCjkWords(() => texts.values(), t)], want, `seed ${seed} (streamed)`);
      words += want.length;
    }
  }
  assert.ok(words > 500, `the corpora held too few words to compare (${words})`);
});
