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

/**
 * Everyday words of English and of programming (remove, first, merge, session, file…), stemmed as
 * the tokenizer emits them, written from general knowledge of the two languages and not read off
 * any person's history. Unlike a stopword, an everyday word can be a person's topic ("the bug
 * first" rule, a `default` export); but an archive of a few dozen records cannot show that (one
 * record in thirty-eight is as rare as a word gets), so there it anchors no match (gate.ts
 * canAnchor). tests/rank/stopwords_test.ts checks each is the stem of a listed word.
 */
export const EVERYDAY_WORDS: readonly string[] = (
  "abl actual add ago ahead allow almost alon alreadi anyon anyth anywai anywher around ask awai back " +
  "bad basic begin behind best better big bit break bring broke broken call came care carefulli case " +
  "caus certain chang check clean cleanli clear close come complet continu correct correctli creat " +
  "current dai differ easi either end enough entir everi everyon everyth exact exactli exampl exist fact " +
  "fail fine finish first fix follow found full give given go goe gone good great guess happen hard help " +
  "hold idea import issu keep kind know last later leav left less line littl long look lot main mani " +
  "mean mind miss move need new next nice note noth number old open order part pick place point possibl " +
  "probabl problem properli put quick quickli quit read readi real realli reason rememb remov rest right " +
  "run said sai see seem seen send set show side simpl simpli small someon someth sometim soon sort " +
  "start step stop stuff sure take talk tell thing think thought time todai togeth top turn two type " +
  "understand wait went whole without word work write wrong api app argument arrai bug build " +
  "class code command comment commit config content data databas db debug default delet depend directori " +
  "doc document edit error featur field file folder format function handl id input instal item kei " +
  "librari link list load log merg messag method model modul name object option output packag page param " +
  "paramet path pull push queri readm record refactor renam replac request respons result return save " +
  "script search server session sourc state statu string task test text updat user valu variabl version " +
  "view"
).split(" ");

const EVERYDAY: ReadonlySet<string> = new Set(EVERYDAY_WORDS);

/** Whether a term (in the tokenizer's form) is an everyday word of English or of programming. */
export function isEverydayWord(term: string): boolean {
  return EVERYDAY.has(term);
}
