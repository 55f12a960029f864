/**
 * Function words: terms that never carry a topic. The "common" rule (a term in more than 1% of
 * records) finds these in a large archive; in a small or young archive nothing reaches 1%, so
 * without this list "what is the … like" could match a decision on "the" and "like" alone.
 * Stopwords are treated as common: searched last, never enough to justify a hint.
 *
 * English words are stored stemmed (the tokenizer stems them the same way); Chinese entries are
 * the character bigrams of filler phrases ("好的，继续", "帮我看一下").
 */

/**
 * English function words, already in the tokenizer's (Porter-stemmed) form so no stemming runs at
 * start-up: "becaus" is "because", "thi" is "this". tests/rank/stopwords_test.ts checks each is
 * the stem of the word it stands for.
 */
export const ENGLISH_STOPWORDS: readonly string[] = (
  "a about abov after again against all also am an and ani ar as at be becaus been befor below " +
  "between both but by can could did do doe done down dure each els even ever few for from further " +
  "get got had ha have he her here herself him himself hi how i if in into is it itself just let " +
  "like make mai me might more most much must my myself no nor not now of off ok okai on onc onli " +
  "or other our ourselv out over own pleas same she should so some still such than thank that the " +
  "their them themselv then there these thei thi those through thu to too under until up us veri " +
  "via want wa wai we well were what when where which while who whom why will with would ye yet you " +
  "your yourself yourselv"
).split(" ");

/** Bigrams of Chinese filler phrases. */
export const CHINESE_STOPWORDS: readonly string[] = [
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
export const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOPWORDS, ...CHINESE_STOPWORDS]);

export function isStopword(term: string): boolean {
  return STOPWORDS.has(term);
}
