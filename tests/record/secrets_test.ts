import assert from "node:assert/strict";
import { BUILT_IN_RULES, compileCredentialRules, findCredential } from "../../src/record/secrets.ts";
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
    const text of ["api_key: abcd1234", "API_KEY=abcd", "api_key abcd", "口令：abcd1234", "口令是abcd1234"]
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
