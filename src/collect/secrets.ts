/**
 * The credential filter. Text that matches any rule is dropped whole at collect time and never
 * stored anywhere (records, index, state, logs). Built-in rules cover the common shapes; the
 * config adds `credential_patterns`: a regular expression, or `keyword:<word>`.
 */
import { ConfigError } from "../errors.ts";

export interface CredentialRule {
  /** How the rule was written (config text, or a built-in name). Never the matched text. */
  readonly name: string;
  readonly pattern: RegExp;
}

/** Built-in rules; each one names the credential shape it catches. */
export const BUILT_IN_RULES: readonly CredentialRule[] = [
  { name: "private key block", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/ },
  { name: "sk- API key", pattern: /(?<![A-Za-z0-9_])sk-[A-Za-z0-9_-]{16,}/ },
  {
    name: "GitHub token",
    pattern: /(?<![A-Za-z0-9_])(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  },
  { name: "Slack token", pattern: /(?<![A-Za-z0-9_])xox[abposr]-[A-Za-z0-9-]{10,}/ },
  { name: "AWS access key id", pattern: /(?<![A-Z0-9])AKIA[0-9A-Z]{16}(?![A-Z0-9])/ },
  { name: "password assignment", pattern: /password\s*[:=]\s*\S/i },
];

const KEYWORD_PREFIX = "keyword:";

/**
 * Compiles configured rules. Any invalid rule fails the whole list (no partial list is ever
 * used), with an error that names the rule.
 */
export function compileCredentialRules(configured: readonly string[]): CredentialRule[] {
  const rules = [...BUILT_IN_RULES];
  for (const [i, rule] of configured.entries()) {
    const name = `credential_patterns[${i}] ${JSON.stringify(rule)}`;
    let pattern: RegExp;
    if (rule.startsWith(KEYWORD_PREFIX)) {
      const word = rule.slice(KEYWORD_PREFIX.length).trim();
      if (word === "") {
        throw new ConfigError(
          `Invalid ${name}: "keyword:" needs a word after it`,
          'write it as "keyword:<word>", e.g. "keyword:token"',
        );
      }
      pattern = keywordPattern(word);
    } else {
      try {
        pattern = new RegExp(rule);
      } catch (err) {
        throw new ConfigError(
          `Invalid ${name}: not a regular expression (${(err as Error).message})`,
          'fix the expression, or use "keyword:<word>" for a word followed by a value',
        );
      }
      if (pattern.test("")) {
        throw new ConfigError(
          `Refusing ${name}: it matches empty text, so it would drop every record`,
          "make the expression require at least one character",
        );
      }
    }
    rules.push({ name, pattern });
  }
  return rules;
}

/** `keyword:<word>`: the word, an optional separator (: = ： 是 or spaces), then ≥4 ASCII chars. */
function keywordPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `(?<![A-Za-z0-9_])${escaped}(?:\\s*[:=：是]\\s*|\\s+)[\\x21-\\x7e]{4,}`,
    "i",
  );
}

/** The first rule `text` matches, or null. */
export function findCredential(text: string, rules: readonly CredentialRule[]): CredentialRule | null {
  for (const rule of rules) {
    if (rule.pattern.test(text)) return rule;
  }
  return null;
}
