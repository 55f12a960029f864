import assert from "node:assert/strict";
import {
  BUILT_IN_RULES,
  compileCredentialRules,
  type CredentialRule,
  credentialSpans,
  findCredential,
} from "../../src/record/secrets.ts";
import { CREDENTIAL_EXAMPLES, NOT_CREDENTIALS } from "../collect/_credentials.ts";

const BUILT_IN = compileCredentialRules([]);

Deno.test("built-in credential rules catch keys, tokens and password assignments", () => {
  const missed: string[] = [];
  for (const ex of CREDENTIAL_EXAMPLES) {
    const rule = findCredential(ex.text, BUILT_IN);
    if (rule?.name !== ex.rule) {
      missed.push(`${JSON.stringify(ex.text)}: ${rule?.name ?? "not caught"}, want ${ex.rule}`);
    }
  }
  assert.deepEqual(missed, []);
});

Deno.test("every built-in rule has an example it catches, and SECURITY.md's table lists exactly the built-in rules", async () => {
  for (const rule of BUILT_IN_RULES) {
    assert.ok(CREDENTIAL_EXAMPLES.some((ex) => ex.rule === rule.name), `no example for "${rule.name}"`);
  }
  const doc = await Deno.readTextFile(new URL("../../SECURITY.md", import.meta.url));
  const table = doc.slice(doc.indexOf("| rule "));
  const rows = table.split("\n").filter((l) => l.startsWith("| ")).slice(2);
  const names = rows.map((l) => l.split("|")[1]!.trim());
  assert.deepEqual(names, BUILT_IN_RULES.map((r) => r.name));
  const shapes = rows.map((l) => l.split("|")[2]!.trim());
  assert.deepEqual(shapes, BUILT_IN_RULES.map((r) => r.shape));
});

Deno.test("built-in rules leave ordinary decision text alone", () => {
  const wrong = NOT_CREDENTIALS.filter((text) => findCredential(text, BUILT_IN) !== null)
    .map((text) => `${text}: ${findCredential(text, BUILT_IN)!.name}`);
  assert.deepEqual(wrong, []);
});

Deno.test("keyword rules take a separator or a space, then four or more ASCII characters", () => {
  const rules = compileCredentialRules(["keyword:api_key", "keyword:口令"]);
  for (
    const text of [
      "api_key: abcd1234",
      "API_KEY=abcd",
      "api_key abcd",
      "口令：abcd1234",
      "口令是abcd1234",
      "api_key＝abcd",
    ]
  ) {
    assert.ok(findCredential(text, rules), `not caught: ${text}`);
  }
  for (const text of ["api_key: abc", "my_api_key_name is configured", "口令很重要"]) {
    assert.equal(findCredential(text, rules), null, `wrongly caught: ${text}`);
  }
});

Deno.test("a keyword rule also catches the word inside a longer name and a quoted JSON key", () => {
  // Only the configured rule: the built-in generic rule would catch these first.
  const rule = compileCredentialRules(["keyword:api_key"]).slice(BUILT_IN_RULES.length);
  for (
    const text of [
      "OPENAI_API_KEY=abcd",
      'export OPENAI_API_KEY="abcd"',
      '{"api_key": "abcd"}',
      "api_key = 'abcd'",
    ]
  ) {
    assert.ok(findCredential(text, rule), `not caught: ${text}`);
  }
  for (
    const text of [
      "the api_keys table",
      "rotate_api_key_now() is a function",
      "my_api_key_name is configured",
    ]
  ) {
    assert.equal(findCredential(text, rule), null, `wrongly caught: ${text}`);
  }
});

Deno.test("regex rules are used as written", () => {
  const rules = compileCredentialRules(["corp-[0-9]{6}"]);
  assert.equal(findCredential("ticket corp-123456", rules)?.name, 'credential_patterns[0] "corp-[0-9]{6}"');
});

Deno.test("an invalid rule fails the whole list, naming the rule", () => {
  assert.throws(
    () => compileCredentialRules(["fine-[a-z]+", "[unclosed"]),
    /credential_patterns\[1\] "\[unclosed"/,
  );
  assert.throws(() => compileCredentialRules(["keyword:  "]), /needs a word/);
  assert.throws(() => compileCredentialRules(["(x)?"]), /matches empty text/);
});

/**
 * The typed prompts of the development histories (../shared/data/histories), read in place; none
 * when they are absent (the examples above still hold the test).
 */
function historyPrompts(): string[] {
  const root = new URL("../../../shared/data/histories/", import.meta.url);
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(root)) {
      if (!e.isDirectory) continue;
      const text = Deno.readTextFileSync(new URL(`${e.name}/prompts.jsonl`, root));
      for (const line of text.split("\n")) {
        if (line.trim() !== "") out.push((JSON.parse(line) as { text: string }).text);
      }
    }
  } catch {
    console.log(`secrets_test: the development histories are absent (${decodeURIComponent(root.pathname)})`);
  }
  return out;
}

/** Every accepted match of `rule` in `text`, each rule's expression tried over the whole text. */
function allMatches(rule: CredentialRule, text: string): Array<[number, number]> {
  const re = new RegExp(rule.pattern.source, rule.pattern.flags.replace("g", "") + "g");
  const out: Array<[number, number]> = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (rule.accept === undefined || rule.accept(m)) {
      out.push([m.index - (m.groups?.lead?.length ?? 0), m.index + Math.max(1, m[0].length)]);
    }
    if (m[0] === "") re.lastIndex++;
  }
  return out;
}

Deno.test("the trigger pass never changes what the rules find: every text, with and without it, the same rule and the same spans", () => {
  for (const rule of BUILT_IN_RULES) {
    for (const t of rule.triggers ?? []) assert.equal(t, t.toLowerCase(), `${rule.name}: trigger ${t}`);
  }
  const rules = compileCredentialRules(["keyword:zebracorn"]);
  const texts = [
    ...CREDENTIAL_EXAMPLES.map((ex) => ex.text),
    ...CREDENTIAL_EXAMPLES.map((ex) => ex.text.toUpperCase()),
    ...NOT_CREDENTIALS,
    // Examples inside longer text, and several in one text.
    ...CREDENTIAL_EXAMPLES.map((ex, i) =>
      `Intro ${"lorem ipsum ".repeat(i % 7)}\n${ex.text}\n then ${
        NOT_CREDENTIALS[i % NOT_CREDENTIALS.length]
      }`
    ),
    CREDENTIAL_EXAMPLES.map((ex) => ex.text).join(" | "),
    "zebracorn: abcd1234",
    ...historyPrompts(),
  ];
  for (const text of texts) {
    const want = rules.find((r) => allMatches(r, text).length > 0) ?? null;
    assert.equal(findCredential(text, rules)?.name ?? null, want?.name ?? null, text);
    const spans = rules.flatMap((r) => allMatches(r, text));
    assert.deepEqual(credentialSpans(text, rules), spans, text);
  }
});
