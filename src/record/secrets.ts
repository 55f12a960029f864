/**
 * The credential filter. Text that matches any rule is dropped whole at collect time and never
 * stored anywhere (records, index, state, logs), and every text that leaves the process (a
 * quote, a hint, a handoff, a logged query) is checked again on its way out, because a quote
 * may be re-read from a file edited since, and rules may have been added since the last collect.
 *
 * Built-in rules cover the shapes public secret scanners look for (vendor token prefixes,
 * key blocks, credentials in URLs and headers, assignments to password-, secret- and key-named
 * fields); SECURITY.md lists them in one table, which a test keeps equal to BUILT_IN_RULES. The
 * config adds `credential_patterns`: a regular expression, or `keyword:<word>`.
 */
import { ConfigError } from "../errors.ts";
import { fnv1a64 } from "./record.ts";

export interface CredentialRule {
  /** How the rule was written (config text, or a built-in name). Never the matched text. */
  readonly name: string;
  readonly pattern: RegExp;
  /**
   * A second look at a match, for shapes a pattern alone would confuse with prose (a generic
   * `token: …` assignment must hold a random-looking value). Absent: every match counts.
   */
  readonly accept?: (match: RegExpExecArray) => boolean;
}

export interface BuiltInRule extends CredentialRule {
  /** What the rule catches, in SECURITY.md's words (its table must say exactly this). */
  readonly shape: string;
}

/** Stands in for text withheld because it matched a credential rule (never the text itself). */
export const CREDENTIAL_PLACEHOLDER = "[verdict: credential removed]";

/**
 * No letter, digit or "_" right before a token's prefix (so `risk-free` is not `sk-`). Every
 * prefix starts with a letter, so a word boundary says exactly that, and costs less.
 */
const NOT_AFTER_WORD = "\\b";

/** The label of a PEM/OpenSSH/PGP private key block ("RSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"). */
const KEY_LABEL = "[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?";

/** Field names of the generic secret rule; any identifier ending in one of them counts. */
const SECRET_FIELDS = [
  "api[_-]?key",
  "apikey",
  "api[_-]?token",
  "secret[_-]?key",
  "secret",
  "client[_-]?secret",
  "access[_-]?token",
  "auth[_-]?token",
  "refresh[_-]?token",
  "private[_-]?key",
  "access[_-]?key",
  "token",
].join("|");

/** Separators of an assignment: `:`, `=`, `：`, `=>`, `:=`, with an optional closing quote of the key. */
const ASSIGN = `["'\`]?\\s*(?:=>|:=|[:=：])\\s*`;

/**
 * Shortest value and least Shannon entropy (bits per character) of a generic secret: real
 * keys are long random strings (about 4 bits/char or more); words, dates, version numbers and
 * sizes stay below.
 */
const SECRET_MIN_CHARS = 12;
const SECRET_MIN_ENTROPY = 3.2;

/**
 * Words that end a "password is …" sentence without being a password: "the password is
 * wrong." says something about a password, "the password is hunter2" gives one.
 */
const PASSWORD_IS_NOT = [
  "wrong",
  "incorrect",
  "invalid",
  "correct",
  "required",
  "optional",
  "missing",
  "empty",
  "expired",
  "weak",
  "strong",
  "changed",
  "reset",
  "set",
  "stored",
  "hashed",
  "encrypted",
  "needed",
  "sent",
  "shown",
  "hidden",
  "visible",
  "long",
  "short",
  "fine",
  "ok",
  "okay",
  "secret",
  "unknown",
  "known",
  "safe",
  "there",
  "here",
  "it",
  "this",
  "that",
];

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The value group of the generic rule looks random: long enough, mixed, high entropy. */
function randomLooking(match: RegExpExecArray): boolean {
  const value = match.groups?.value ?? "";
  return value.length >= SECRET_MIN_CHARS && /\d/.test(value) && /[A-Za-z]/.test(value) &&
    entropy(value) >= SECRET_MIN_ENTROPY;
}

/**
 * Built-in rules, most specific first (the first match names the drop in tests and reports).
 * Each names the credential shape it catches, as the SECURITY.md table says it.
 */
export const BUILT_IN_RULES: readonly BuiltInRule[] = [
  {
    name: "private key block",
    shape: "`-----BEGIN … PRIVATE KEY-----` or `-----END … PRIVATE KEY-----` (PEM, OpenSSH, PGP), " +
      "PuTTY key files, `AGE-SECRET-KEY-1…`",
    // A match covers the whole block (to its END line, else to the end of the text; an END
    // line with the base64 lines above it), so text cut into chunks drops every chunk of it.
    pattern: new RegExp(
      [
        `-----BEGIN ${KEY_LABEL}-----[\\s\\S]*?(?:-----END ${KEY_LABEL}-----|$)`,
        // (tried only at line starts, which keeps the search linear and fast)
        `(?:(?:^|\\n)(?:[A-Za-z0-9+/=]{16,}\\r?\\n)+)?-----END ${KEY_LABEL}-----`,
        "PuTTY-User-Key-File-\\d[\\s\\S]*?(?:Private-MAC: [0-9a-f]+|$)",
        "AGE-SECRET-KEY-1[0-9A-Z]{20,}",
      ].join("|"),
    ),
  },
  {
    name: "sk- API key",
    shape: "`sk-…` keys (OpenAI, Anthropic and others), 16+ characters after the prefix",
    pattern: new RegExp(`${NOT_AFTER_WORD}sk-[A-Za-z0-9_-]{16,}`),
  },
  {
    name: "Stripe key",
    shape: "`sk_live_…`, `sk_test_…`, `rk_live_…`, `rk_test_…`, webhook secrets `whsec_…`",
    pattern: new RegExp(`${NOT_AFTER_WORD}(?:[sr]k_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`),
  },
  {
    name: "GitHub token",
    shape: "`ghp_…`, `gho_…`, `ghu_…`, `ghs_…`, `ghr_…`, `github_pat_…`",
    pattern: new RegExp(`${NOT_AFTER_WORD}(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`),
  },
  {
    name: "GitLab token",
    shape: "`glpat-…` and the other `gl…-` token prefixes (deploy, runner, trigger, feed)",
    pattern: new RegExp(`${NOT_AFTER_WORD}gl(?:pat|dt|rt|ptt|cbt|ft|imt|soat|agent)-[A-Za-z0-9_-]{20,}`),
  },
  {
    name: "Slack token",
    shape: "`xox?-…` (bot, user, browser, refresh, config: `xoxb-`, `xoxp-`, `xoxc-`, `xoxe-`, …), `xapp-…`",
    pattern: new RegExp(`${NOT_AFTER_WORD}(?:xox[a-z]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})`),
  },
  {
    name: "Slack webhook URL",
    shape: "`https://hooks.slack.com/services/…` (and `/workflows/`, `/triggers/`)",
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{16,}/,
  },
  {
    name: "AWS access key id",
    shape: "`AKIA…`, `ASIA…`, `ABIA…`, `ACCA…`, `A3T…` followed by 16 capitals or digits",
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])/,
  },
  {
    name: "AWS secret access key",
    shape: "`aws_secret_access_key = …` and `secret_access_key: …` with a value",
    pattern: new RegExp(`(?:aws[_-]?)?secret[_-]?access[_-]?key${ASSIGN}["'\`]?[A-Za-z0-9/+=]{16,}`, "i"),
  },
  {
    name: "Google API key",
    shape: "`AIza…` API keys, `GOCSPX-…` OAuth client secrets",
    pattern: new RegExp(`${NOT_AFTER_WORD}(?:AIza[0-9A-Za-z_-]{35}|GOCSPX-[A-Za-z0-9_-]{20,})`),
  },
  {
    name: "JSON Web Token",
    shape: "`eyJ….eyJ….…` (a JWT: header, payload, signature)",
    pattern: new RegExp(`${NOT_AFTER_WORD}eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*`),
  },
  {
    name: "URL with a password",
    shape: "`scheme://user:password@host` (database, broker and HTTP URLs with a password in them)",
    // Anchored on "://" (a scheme's letters before it), which keeps the search fast.
    pattern: /(?<=[A-Za-z0-9]):\/\/[^\s:/?#@"'<>]+:(?![$<{*])[^\s/?#@"'<>]+@[^\s/?#@"'<>]/,
  },
  {
    name: "authorization header",
    shape: "`Authorization:` with a `Bearer`, `Basic` or `Token` value, `Bearer <20+ characters>`",
    pattern:
      /authorization["'`]?\s*[:=]\s*["'`]?(?:bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}|\bbearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{20,}/i,
  },
  {
    name: "password assignment",
    shape: "`password`, `passwd`, `passphrase`, `pwd` (also inside a longer name such as `DB_PASSWORD`) " +
      'followed by `:`, `=`, `：`, `=>` or `:=` and a value, quoted keys included (`"password": "x"`)',
    pattern:
      /(?:password|passwd|passphrase|(?<![A-Za-z0-9])pwd)["'`]?\s*(?:=>|:=|[:=：])\s*["'`]?(?![\s"'`])(?!\/|~\/|\$|<|\{\{|\*+(?:\s|$)|\[REDACTED|pass(?:word|wd)\b)\S/i,
  },
  {
    name: "password in words",
    shape:
      "`password is …` / `password was …` giving a value, `密码`/`口令` followed by `是`, `为`, `:` or `：` " +
      "and an ASCII value",
    pattern: new RegExp(
      "\\bpassword\\s+(?:is|was)\\s+(?:" +
        // quoted, or holding a digit or symbol, or the last word of its line (and not a word that
        // describes a password rather than giving one)
        "[\"'`][^\\s\"'`]+|(?=\\S*[0-9!@#$%^&*_+=~])[^\\s.,;:!?]{3,}|" +
        `(?!(?:${PASSWORD_IS_NOT.join("|")})\\b)[^\\s.,;:!?]+[.!]?\\s*$` +
        ")|(?:密码|口令)\\s*(?:[是为:：=]|is)\\s*[\"'「]?[\\x21-\\x7e]{4,}",
      "im",
    ),
  },
  {
    name: "secret assignment",
    shape: "a field named like a key, secret or token (`api_key`, `OPENAI_API_KEY`, `client_secret`, " +
      '`"access_token"`, …) assigned a random-looking value of 12+ characters',
    pattern: new RegExp(
      // "_" is not excluded before the field, so OPENAI_API_KEY counts as an api_key field.
      `(?<![A-Za-z0-9])(?:${SECRET_FIELDS})${ASSIGN}["'\`]?(?<value>[A-Za-z0-9_\\-./+=~]{${SECRET_MIN_CHARS},})`,
      "gi",
    ),
    accept: randomLooking,
  },
  {
    name: "package registry token",
    shape: "`npm_…` and `pypi-AgEIcHlwaS5vcmc…` publish tokens",
    pattern: new RegExp(`${NOT_AFTER_WORD}(?:npm_[A-Za-z0-9]{36}|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,})`),
  },
  {
    name: "service token",
    shape: "Hugging Face `hf_…`, SendGrid `SG.….…`, Vault `hvs.…`, DigitalOcean `dop_v1_…`, Shopify " +
      "`shpat_…`, Databricks `dapi…`, Linear `lin_api_…`, Postman `PMAK-…`, Grafana `glsa_…`, Atlassian `ATATT3…`",
    pattern: new RegExp(
      NOT_AFTER_WORD + "(?:" + [
        "hf_[A-Za-z0-9]{30,}",
        "SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}",
        "hvs\\.[A-Za-z0-9_-]{24,}",
        "do[opr]_v1_[a-f0-9]{64}",
        "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
        "dapi[a-f0-9]{32}",
        "lin_api_[A-Za-z0-9]{40}",
        "PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
        "glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
        "ATATT3[A-Za-z0-9_=-]{100,}",
      ].join("|") + ")",
    ),
  },
];

const KEYWORD_PREFIX = "keyword:";

/**
 * Compiles configured rules. Any invalid rule fails the whole list (no partial list is ever
 * used), with an error that names the rule.
 */
export function compileCredentialRules(configured: readonly string[]): CredentialRule[] {
  const rules: CredentialRule[] = [...BUILT_IN_RULES];
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

/**
 * `keyword:<word>`: the word, also as the end of a longer name (`OPENAI_API_KEY` for
 * `api_key`) or as a quoted key (`"api_key":`), then a separator (: = ： 是, or spaces), then an
 * optional quote and 4 or more ASCII characters.
 */
function keywordPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `(?<![A-Za-z0-9])${escaped}["'\`]?(?:\\s*[:=：是]\\s*|\\s+)["'\`]?[\\x21-\\x7e]{4,}`,
    "i",
  );
}

const globalCopies = new WeakMap<RegExp, RegExp>();

/** The rule's pattern with the global flag (a copy made once), for walking every match. */
function globalPattern(rule: CredentialRule): RegExp {
  if (rule.pattern.global) return rule.pattern;
  let copy = globalCopies.get(rule.pattern);
  if (copy === undefined) {
    copy = new RegExp(rule.pattern.source, rule.pattern.flags + "g");
    globalCopies.set(rule.pattern, copy);
  }
  return copy;
}

/** Each accepted match of `rule` in `text`, in order; stops when `visit` returns false. */
function eachMatch(rule: CredentialRule, text: string, visit: (m: RegExpExecArray) => boolean): void {
  const re = globalPattern(rule);
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if ((rule.accept === undefined || rule.accept(m)) && !visit(m)) return;
    if (m[0] === "") re.lastIndex++;
  }
}

/** Does `rule` match somewhere in `text` (and accept the match, when it second-guesses)? */
function matches(rule: CredentialRule, text: string): boolean {
  if (rule.accept === undefined && !rule.pattern.global) return rule.pattern.test(text);
  let found = false;
  eachMatch(rule, text, () => {
    found = true;
    return false;
  });
  return found;
}

/**
 * Where credentials are in `text`: [start, end) of every match of every rule (overlapping
 * spans are not merged). For text that is cut up after screening, so each piece that touches
 * a span can be left out.
 */
export function credentialSpans(
  text: string,
  rules: readonly CredentialRule[],
): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const rule of rules) {
    eachMatch(rule, text, (m) => {
      spans.push([m.index, m.index + Math.max(1, m[0].length)]);
      return true;
    });
  }
  return spans;
}

/** The first rule `text` matches, or null. */
export function findCredential(text: string, rules: readonly CredentialRule[]): CredentialRule | null {
  for (const rule of rules) {
    if (matches(rule, text)) return rule;
  }
  return null;
}

/**
 * A digest of the rules in force (built-in patterns and configured rules): the collector
 * re-screens its archive whenever it changes.
 */
export function credentialRulesDigest(configured: readonly string[]): string {
  const builtIn = BUILT_IN_RULES.map((r) => `${r.name}\n${r.pattern.source}\n${r.pattern.flags}`);
  return fnv1a64(JSON.stringify([builtIn, configured]));
}

/** Does `text` hold a credential, or the placeholder of one removed earlier? */
export function holdsCredential(text: string, rules: readonly CredentialRule[]): boolean {
  return text.includes(CREDENTIAL_PLACEHOLDER) || findCredential(text, rules) !== null;
}

/** `text` when it holds no credential, else the placeholder: for text that must still say something. */
export function withoutCredential(text: string, rules: readonly CredentialRule[]): string {
  return findCredential(text, rules) === null ? text : CREDENTIAL_PLACEHOLDER;
}
