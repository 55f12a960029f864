/**
 * Function words: terms that never carry a topic. The "common" rule (a term in more than 1% of
 * records) finds these in a large archive; in a small or young archive nothing reaches 1%, so
 * without this list "what is the … like" could match a decision on "the" and "like" alone.
 * Stopwords are treated as common: searched last, never enough to justify a hint.
 *
 * English words are stored stemmed (the tokenizer stems them the same way); Chinese entries are
 * the character bigrams of filler phrases ("好的，继续", "帮我看一下").
 */
import { porterStem } from "./stem.ts";

const ENGLISH = (
  "a about above after again against all also am an and any are as at be because been before being below " +
  "between both but by can could did do does doing done down during each else even ever few for from " +
  "further get got had has have having he her here hers herself him himself his how i if in into is it its " +
  "itself just let lets like make may me might more most much must my myself no nor not now of off ok okay " +
  "on once only or other our ours ourselves out over own please same she should so some still such than " +
  "thank thanks that the their theirs them themselves then there these they this those through thus to too " +
  "under until up us very via want was way we well were what when where which while who whom why will with " +
  "would yes yet you your yours yourself yourselves"
).split(" ");

const CHINESE = [
  "好的",
  "继续",
  "这个",
  "那个",
  "一下",
  "可以",
  "什么",
  "怎么",
  "我们",
  "你们",
  "他们",
  "一个",
  "没有",
  "就是",
  "然后",
  "现在",
  "帮我",
  "看看",
  "看一",
  "下这",
  "个怎",
  "怎样",
  "谢谢",
  "是的",
  "不是",
  "还是",
  "如果",
  "因为",
  "所以",
  "但是",
  "已经",
  "这样",
  "那样",
  "一些",
  "这里",
  "那里",
  "的话",
  "之后",
  "之前",
  "时候",
  "问题",
];

/** Stopwords in the form the tokenizer emits them. */
export const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH.map(porterStem), ...CHINESE]);

export function isStopword(term: string): boolean {
  return STOPWORDS.has(term);
}
