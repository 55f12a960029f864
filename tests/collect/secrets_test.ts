import assert from "node:assert/strict";
import { compileCredentialRules, findCredential } from "../../src/collect/secrets.ts";

const BUILT_IN = compileCredentialRules([]);

Deno.test("built-in credential rules catch keys, tokens and password assignments", () => {
  const fakes = [
    "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKEFAKE\n-----END OPENSSH PRIVATE KEY-----",
    "use sk-FAKEfake0123456789abcdef for the test",
    "token ghp_FAKEfakeFAKEfakeFAKEfake0123",
    "github_pat_FAKE_fake_FAKE_fake_0123456789",
    "slack xoxb-0000000000-FAKEfake",
    "aws AKIAFAKEFAKEFAKE1234 here",
    "password: hunter2",
    "PASSWORD=hunter2",
  ];
  for (const text of fakes) assert.ok(findCredential(text, BUILT_IN), `not caught: ${text}`);
});

Deno.test("built-in rules leave ordinary decision text alone", () => {
  const fine = [
    "We decided the password reset flow sends an email.",
    "ask the user for a password",
    "risk-free task: skip the sk- prefix check",
    "AKIA is the prefix of AWS key ids",
    "以后都统一用 pnpm",
  ];
  for (const text of fine) assert.equal(findCredential(text, BUILT_IN), null, `wrongly caught: ${text}`);
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
