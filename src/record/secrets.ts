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
  /**
   * Texts (ASCII letters in lower case, compared without case) one of which is in any text the
   * rule matches: where none is, the rule is not tried (one pass over the text finds them all).
   * Absent: the rule is always tried.
   */
  readonly triggers?: readonly string[];
}

/** Stands in for text withheld because it matched a credential rule (never the text itself). */
export const CREDENTIAL_PLACEHOLDER = "[verdict: credential removed]";

/**
 * No letter, digit, "_", "-", "+" or "/" right before a token's prefix: so `risk-free` is not
 * `sk-`, and a long base64 text (a pasted image, a signature) that happens to hold `-r8_` or
 * `/hf_` is not a token either. (The word boundary first: it is the cheaper test, and every
 * prefix starts with a letter or digit.)
 */
const NOT_AFTER_WORD = "\\b(?<![+/-])";

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

/** Separators of an assignment: `:`, `=`, `：`, `＝`, `=>`, `:=`, with an optional closing quote of the key. */
const ASSIGN = `["'\`]?\\s*(?:=>|:=|[:=：＝])\\s*`;

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

/** Words for a password or a secret key in Chinese, Japanese and Korean. */
const PASSWORD_WORDS = [
  "密码",
  "密碼",
  "口令",
  "密钥",
  "密鑰",
  "秘钥",
  "秘鑰",
  "金鑰",
  "パスワード",
  "暗証番号",
  "パスコード",
  "秘密鍵",
  "비밀번호",
  "패스워드",
  "비번",
  "암호",
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

function randomLooking(match: RegExpExecArray): boolean {
  return randomValue(match.groups?.value ?? "", SECRET_MIN_CHARS);
}

/** `value` looks random: at least `min` characters, letters and digits, high entropy. */
function randomValue(value: string, min: number): boolean {
  return value.length >= min && /\d/.test(value) && /[A-Za-z]/.test(value) &&
    entropy(value) >= SECRET_MIN_ENTROPY;
}

/** Shortest cookie value taken for a session: session ids are 16 or more random characters. */
const COOKIE_MIN_CHARS = 16;

/** Some `name=value` pair of a cookie header holds a random-looking value. */
function sessionCookie(match: RegExpExecArray): boolean {
  for (const pair of (match.groups?.value ?? "").split(/[;,\s]+/)) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const value = pair.slice(eq + 1).replace(/^["']|["']$/g, "");
    if (randomValue(value, COOKIE_MIN_CHARS)) return true;
  }
  return false;
}

/** A docker config `"auth"` value is base64 of `user:password`. */
function basicAuthValue(match: RegExpExecArray): boolean {
  let decoded: string;
  try {
    decoded = atob(match.groups?.value ?? "");
  } catch {
    return false;
  }
  const colon = decoded.indexOf(":");
  return colon > 0 && colon < decoded.length - 1 && /^[\x20-\x7e]+$/.test(decoded);
}

/**
 * A lookbehind for the part of a token before its distinctive middle (`<32 hex>` before
 * `.atlasv1.`): the search is anchored on the middle, which is fast, and the part is kept in the
 * group `lead` so a match's span still starts where the token does.
 */
function lead(pattern: string): string {
  return `(?<=(?<lead>${pattern}))`;
}

/** Alternatives joined into one non-capturing group, each after a word boundary. */
function prefixed(alternatives: readonly string[]): RegExp {
  return new RegExp(`${NOT_AFTER_WORD}(?:${alternatives.join("|")})`);
}

/**
 * Built-in rules, most specific first (the first match names the drop in tests and reports).
 * Each names the credential shape it catches, as the SECURITY.md table says it.
 */
export const BUILT_IN_RULES: readonly BuiltInRule[] = [
  {
    name: "private key block",
    triggers: ["-----begin", "-----end", "putty-user-key-file-", "age-secret-key-1"],
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
    triggers: ["sk-"],
    shape: "`sk-…` keys (OpenAI `sk-proj-`/`sk-svcacct-`, Anthropic `sk-ant-`, and others): 16+ " +
      "characters after the prefix, a digit among them",
    // The digit keeps hyphenated words such as `sk-learn-pipeline-transformer` out.
    pattern: new RegExp(`${NOT_AFTER_WORD}sk-(?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{16,}`),
  },
  {
    name: "payment key",
    shape: "Stripe `sk_live_…`, `sk_test_…`, `rk_live_…`, `rk_test_…`, webhook secrets `whsec_…`; " +
      "Braintree/PayPal `access_token$production$…`; Square `sq0atp-…`, `sq0csp-…`, `EAAA…`; " +
      "Razorpay `rzp_live_…`; Flutterwave `FLWSECK-…`",
    pattern: prefixed([
      "[sr]k_(?:live|test)_[A-Za-z0-9]{10,}",
      "whsec_[A-Za-z0-9]{20,}",
      "access_token\\$(?:production|sandbox)\\$[0-9a-z]{16}\\$[0-9a-f]{32}",
      "sq0(?:atp|csp)-[0-9A-Za-z_-]{22,}",
      "EAAA[A-Za-z0-9_+=-]{60,}",
      "rzp_(?:live|test)_[A-Za-z0-9]{14,}",
      "FLWSECK(?:_TEST)?-[a-h0-9]{32}-X",
    ]),
    triggers: [
      "sk_live_",
      "sk_test_",
      "rk_live_",
      "rk_test_",
      "whsec_",
      "access_token$",
      "sq0atp-",
      "sq0csp-",
      "eaaa",
      "rzp_live_",
      "rzp_test_",
      "flwseck",
    ],
  },
  {
    name: "GitHub token",
    triggers: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    shape: "`ghp_…`, `gho_…`, `ghu_…`, `ghs_…`, `ghr_…`, `github_pat_…`",
    pattern: new RegExp(`${NOT_AFTER_WORD}(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`),
  },
  {
    name: "GitLab token",
    triggers: [
      "glpat-",
      "gldt-",
      "glrt-",
      "glptt-",
      "glcbt-",
      "glft-",
      "glimt-",
      "glsoat-",
      "glagent-",
      "gloas-",
      "gr1348941",
    ],
    shape: "`glpat-…` and the other `gl…-` token prefixes (deploy `gldt-`, runner `glrt-`, " +
      "pipeline trigger `glptt-`, feed, …), runner registration tokens `GR1348941…`",
    pattern: new RegExp(
      `${NOT_AFTER_WORD}(?:gl(?:pat|dt|rt|ptt|cbt|ft|imt|soat|agent|oas)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20})`,
    ),
  },
  {
    name: "Slack token",
    triggers: ["xox", "xapp-"],
    shape: "`xox?-…` (bot, user, browser, refresh, config: `xoxb-`, `xoxp-`, `xoxc-`, `xoxe-`, " +
      "`xoxe.xoxp-`, …), `xapp-…`",
    pattern: new RegExp(
      `${NOT_AFTER_WORD}(?:xox[a-z](?:\\.xox[a-z])?-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})`,
    ),
  },
  {
    name: "chat webhook URL",
    triggers: [
      "hooks.slack.com/",
      "/api/webhooks/",
      "webhook.office.com/",
      "/webhook/",
      "chat.googleapis.com/",
    ],
    shape: "Slack `hooks.slack.com/services/…` (and `/workflows/`, `/triggers/`), Discord " +
      "`discord.com/api/webhooks/…`, Teams `….webhook.office.com/webhookb2/…`, Google Chat " +
      "`chat.googleapis.com/…&token=…`",
    pattern: new RegExp(
      [
        "hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{16,}",
        "discord(?:app)?\\.com/api/webhooks/\\d{15,22}/[A-Za-z0-9_-]{30,}",
        "webhook\\.office\\.com/webhookb2/[^\\s\"'<>]{20,}",
        "outlook\\.office(?:365)?\\.com/webhook/[^\\s\"'<>]{20,}",
        "chat\\.googleapis\\.com/v1/spaces/[^\\s\"'<>]*[?&]token=[A-Za-z0-9_%=-]{16,}",
      ].join("|"),
    ),
  },
  {
    name: "chat bot token",
    shape: "Telegram bot tokens `<digits>:A…` (35 characters), Discord bot tokens `M…`/`N…`/`O…` " +
      "(three dot-separated parts)",
    pattern: new RegExp(
      [
        `${lead("(?<![0-9])\\d{5,16}")}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])`,
        `${
          lead("(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}")
        }\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])`,
      ].join("|"),
    ),
  },
  {
    name: "AWS access key id",
    triggers: ["akia", "asia", "abia", "acca", "a3t"],
    shape: "`AKIA…`, `ASIA…`, `ABIA…`, `ACCA…`, `A3T…` followed by 16 capitals or digits",
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])/,
  },
  {
    name: "AWS secret access key",
    triggers: ["secret"],
    shape: "`aws_secret_access_key = …` and `secret_access_key: …` with a value",
    pattern: new RegExp(`(?:aws[_-]?)?secret[_-]?access[_-]?key${ASSIGN}["'\`]?[A-Za-z0-9/+=]{16,}`, "i"),
  },
  {
    name: "Google key or token",
    triggers: ["aiza", "gocspx-", "ya29.", "1//0"],
    shape: "`AIza…` API keys, `GOCSPX-…` OAuth client secrets, `ya29.…` OAuth access tokens, " +
      "`1//0…` refresh tokens",
    pattern: new RegExp(
      `(?:${NOT_AFTER_WORD}(?:AIza[0-9A-Za-z_-]{35}|GOCSPX-[A-Za-z0-9_-]{20,}|ya29\\.[A-Za-z0-9_-]{20,})` +
        "|(?<![A-Za-z0-9/])1//0[A-Za-z0-9_-]{30,})",
    ),
  },
  {
    name: "JSON Web Token",
    triggers: ["eyj"],
    shape: "`eyJ….eyJ….…` (a JWT: header, payload, signature)",
    pattern: new RegExp(`${NOT_AFTER_WORD}eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*`),
  },
  {
    name: "URL with a password",
    triggers: ["://"],
    shape: "`scheme://user:password@host` and `scheme://:password@host` (database, broker and HTTP " +
      "URLs with a password in them)",
    // Anchored on "://" (a scheme's letters before it), which keeps the search fast.
    pattern: /(?<=[A-Za-z0-9]):\/\/[^\s:/?#@"'<>]*:(?![$<{*])[^\s/?#@"'<>]+@[^\s/?#@"'<>]/,
  },
  {
    name: "cloud storage credential",
    triggers: [
      "accountkey=",
      "sharedaccesskey=",
      "sharedaccesssignature=",
      "signature=",
      "x-amz-security-token=",
      "sig=",
    ],
    shape: "connection strings with `AccountKey=…`, `SharedAccessKey=…` or `SharedAccessSignature=…` " +
      "(Azure storage, Service Bus, Event Hubs); signed URLs: `X-Amz-Signature=`, " +
      "`X-Amz-Security-Token=`, `X-Goog-Signature=`, a SAS `sig=`, `Signature=`",
    pattern: new RegExp(
      [
        "\\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{20,}",
        "\\bSharedAccessSignature=[^\\s;\"']*sig=",
        "[?&](?:X-Amz-Signature|X-Goog-Signature)=[0-9a-f]{32,}",
        "[?&]X-Amz-Security-Token=[A-Za-z0-9%/+=_-]{40,}",
        "[?&]sig=[A-Za-z0-9%+/=_-]{30,}",
        "[?&]Signature=[A-Za-z0-9~%+/=_-]{30,}",
      ].join("|"),
    ),
  },
  {
    name: "cluster credential",
    triggers: ["client-key-data:", "user:", "k10"],
    shape: "kubeconfig `client-key-data:` and a user's `token:`; K3s tokens `K10…::server:…` " +
      "(kubeadm join tokens: a token known by its shape, below)",
    pattern: new RegExp(
      [
        "client-key-data:\\s*[A-Za-z0-9+/=]{20,}",
        "\\buser:\\s+token:[ \\t]*[\"']?[A-Za-z0-9._~+/:=-]{8,}",
        "\\bK10[0-9a-f]{64}::[A-Za-z0-9_.-]+:[A-Za-z0-9]{8,}",
      ].join("|"),
    ),
  },
  {
    name: "registry auth",
    triggers: ['"auth"', '"identitytoken"', '"registrytoken"', "_auth"],
    shape: 'docker config `"auth": "<base64 of user:password>"` and `"identitytoken"`; npm ' +
      "`_auth=`/`_authToken=` with a value",
    pattern: new RegExp(
      [
        '"auth"\\s*:\\s*"(?<value>[A-Za-z0-9+/]{6,}={0,2})"',
        '"(?:identitytoken|registrytoken)"\\s*:\\s*"[^"\\s$]{16,}"',
        "\\b_auth(?:Token)?\\s*=\\s*[\"']?(?![\"'$])[A-Za-z0-9+/=._-]{16,}",
      ].join("|"),
    ),
    accept: (m) => m.groups?.value === undefined || basicAuthValue(m),
  },
  {
    name: "authorization header",
    triggers: ["authorization", "bearer"],
    shape: "`Authorization:` with a `Bearer`, `Basic` or `Token` value, `Bearer <20+ characters>`",
    pattern:
      /authorization["'`]?\s*[:=]\s*["'`]?(?:bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}|\bbearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{20,}/i,
  },
  {
    name: "session cookie",
    triggers: ["cookie", "curl"],
    shape: "a `Cookie:` or `Set-Cookie:` header (or curl's `-b`/`--cookie`) holding a value of 16+ " +
      "random-looking characters",
    pattern:
      /(?:(?<![A-Za-z0-9-])(?:set-)?cookie["'`]?\s*:|\s-(?:b|-cookie)[\s=](?<=\bcurl\b[^\n]*\s-(?:b|-cookie)[\s=]))\s*["'`]?(?<value>[^\n]{8,})/gi,
    accept: sessionCookie,
  },
  {
    name: "password assignment",
    triggers: ["passw", "passphrase", "pwd"],
    shape: "`password`, `passwd`, `passphrase`, `pwd` (also inside a longer name such as `DB_PASSWORD`) " +
      'followed by `:`, `=`, `：`, `＝`, `=>` or `:=` and a value, quoted keys included (`"password": "x"`)',
    pattern:
      /(?:password|passwd|passphrase|(?<![A-Za-z0-9])pwd)["'`]?\s*(?:=>|:=|[:=：＝])\s*["'`]?(?![\s"'`])(?!\/|~\/|\$|<|\{\{|\*+(?:\s|$)|\[REDACTED|pass(?:word|wd)\b)\S/i,
  },
  {
    name: "password on a command line",
    triggers: [
      "curl",
      "mysql",
      "mariadb",
      "-pass",
      "sshpass",
      "redis-cli",
      "docker",
      "mongo",
      "storepass",
      "keypass",
      "password",
    ],
    shape: "`curl -u user:pw` (and `--user`), `mysql -pPW`, `--password X`, `sshpass -p X`, " +
      "`redis-cli -a X`, `docker login -p X`, `-passin pass:X`, `-storepass X`, netrc " +
      "`machine … login … password …`",
    pattern: new RegExp(
      [
        "\\s-(?:u\\s*|-user[\\s=]+)(?<=\\bcurl\\b[^\\n]*\\s-(?:u\\s*|-user[\\s=]+))[\"']?(?![$<{])[^\\s:\"'$]+:(?![$<{*])[^\\s\"']{3,}",
        "\\s-p(?<=\\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\\b[^\\n]*\\s-p)(?![\\s\"'$<]|[\"'][$<])[\"']?[^\\s\"']+",
        "--pass(?:word|wd)?\\s+(?:[\"'](?![$<{])[^\\s\"']{3,}|(?![-$<{])(?=[^\\s\"']*[0-9!@#%^&*_+=~])[^\\s\"']{3,})",
        "\\bsshpass\\s+(?:-[A-Za-z]+\\s+)*?-p\\s*[\"']?(?![$<-])[^\\s\"']+",
        "(?:\\s-a(?<=\\bredis-cli\\b[^\\n]*\\s-a)|\\s-p(?<=\\b(?:docker\\s+login|mongo(?:sh|dump|restore|import|export)?)\\b[^\\n]*\\s-p))\\s+[\"']?(?![-$<])[^\\s\"']+",
        "\\s-pass(?:in|out)?\\s+pass:(?!\\$)\\S+",
        "\\s-(?:storepass|keypass|srcstorepass|deststorepass)\\s+[\"']?(?![-$<])[^\\s\"']+",
        "\\b(?:machine\\s+\\S+|default)\\s+login\\s+\\S+\\s+(?:account\\s+\\S+\\s+)?password\\s+(?![$<])\\S+",
      ].join("|"),
    ),
  },
  {
    name: "password in words",
    triggers: ["password", ...PASSWORD_WORDS],
    shape: "`password is …` / `password was …` giving a value; a password or key word in Chinese, " +
      "Japanese or Korean (`密码`, `口令`, `密钥`, `パスワード`, `비밀번호`, …) followed by `是`, `为`, " +
      "`改成`, `设为`, `は`, `を`, `는`, `:`, `：`, `=` or `＝` and an ASCII value",
    pattern: new RegExp(
      "\\bpassword\\s+(?:is|was)\\s+(?:" +
        // quoted, or holding a digit or symbol, or the last word of its line (and not a word that
        // describes a password rather than giving one)
        "[\"'`][^\\s\"'`]+|(?=\\S*[0-9!@#$%^&*_+=~])[^\\s.,;:!?]{3,}|" +
        `(?!(?:${PASSWORD_IS_NOT.join("|")})\\b)[^\\s.,;:!?]+[.!]?\\s*$` +
        ")|" +
        `(?:${PASSWORD_WORDS.join("|")})` +
        "\\s*(?:也|都|就|仍|还|應|应)?(?:是|为|為|改成|改为|改為|设为|設為|设成|设置为|設置為|换成|換成|变成|變成|" +
        "は|が|を|는|은|를|을|:|：|=|＝|is)\\s*[\"'「『“]?[\\x21-\\x7e]{4,}",
      "im",
    ),
  },
  {
    name: "secret assignment",
    triggers: ["key", "secret", "token"],
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
    triggers: ["npm_", "pypi-", "dckr_", "rubygems_", "oy2", "clojars_", "cio", "akcp"],
    shape: "`npm_…`, `pypi-AgEIcHlwaS5vcmc…`, Docker Hub `dckr_pat_…`, RubyGems `rubygems_…`, " +
      "NuGet `oy2…`, Clojars `CLOJARS_…`, Cargo registry `cio…`, Artifactory `AKCp…`",
    pattern: prefixed([
      "npm_[A-Za-z0-9]{36}",
      "pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}",
      "dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}",
      "rubygems_[a-f0-9]{48}",
      "oy2[a-z0-9]{43}",
      "CLOJARS_[a-z0-9]{60}",
      "cio[A-Za-z0-9]{32}\\b",
      "AKCp[A-Za-z0-9]{60,}",
    ]),
  },
  {
    name: "messaging and e-mail key",
    triggers: ["sg.", "key-", "xkeysib-"],
    shape: "SendGrid `SG.….…`, Mailgun `key-…`, Brevo `xkeysib-…` (Twilio and Mailchimp keys: a token " +
      "known by its shape, below)",
    pattern: prefixed([
      "SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}",
      "key-(?=[A-Za-z]*\\d)[0-9a-zA-Z]{32}\\b",
      "xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}",
    ]),
  },
  {
    name: "infrastructure token",
    triggers: [
      "hvs.",
      "hvb.",
      "hvr.",
      "dp.",
      ".atlasv1.",
      "pul-",
      "hrku-",
      "_v1_",
      "tskey-",
      "fo1_",
      "fm1",
      "fm2",
      "ops_eyj",
      "v1.0-",
      "pscale_",
      "sbp_",
      "nfp_",
      "glsa_",
      "glc_",
      "nrak-",
      "sntry",
      "dapi",
      "dt0c01.",
      "ltai",
    ],
    shape: "Vault `hvs.…`, `hvb.…`, `hvr.…`; Doppler `dp.pt.…`; Terraform Cloud `….atlasv1.…`; " +
      "Pulumi `pul-…`; Heroku `HRKU-…`; DigitalOcean `dop_v1_…`; Tailscale `tskey-…`; Fly.io " +
      "`fo1_…`/`fm2_…`; 1Password `ops_eyJ…`; Cloudflare origin CA `v1.0-…`; PlanetScale `pscale_…`; " +
      "Supabase `sbp_…`; Netlify `nfp_…`; Grafana `glsa_…`/`glc_…`; New Relic `NRAK-…`; Sentry " +
      "`sntrys_…`; Databricks `dapi…`; Dynatrace `dt0c01.…`; Alibaba `LTAI…`",
    pattern: new RegExp(
      NOT_AFTER_WORD + "(?:" + [
        "hv[sbr]\\.[A-Za-z0-9_-]{24,}",
        "dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,}",
        "pul-[a-f0-9]{40}",
        "HRKU-[A-Za-z0-9_-]{40,}",
        "do[opr]_v1_[a-f0-9]{64}",
        "tskey-[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{20,}",
        "fo1_[A-Za-z0-9_-]{40,}",
        "fm[12][ar]?_[A-Za-z0-9+/]{100,}",
        "ops_eyJ[A-Za-z0-9+/]{100,}",
        "v1\\.0-[a-f0-9]{24}-[a-f0-9]{100,}",
        "pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{30,}",
        "sbp_[a-f0-9]{40}",
        "nfp_[A-Za-z0-9]{36}",
        "glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
        "glc_[A-Za-z0-9+/]{32,}",
        "NRAK-[A-Z0-9]{27}",
        "sntry[su]_[A-Za-z0-9+/=_]{40,}",
        "dapi[a-f0-9]{32}",
        "dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}",
        "LTAI[A-Za-z0-9]{20}\\b",
      ].join("|") + ")" +
        `|${lead("[A-Za-z0-9]{14}")}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}`,
    ),
  },
  {
    name: "AI service key",
    triggers: ["hf_", "api_org_", "gsk_", "pplx-", "xai-", "r8_", "pcsk_", "lsv2_", "sk_"],
    shape: "Hugging Face `hf_…`, Groq `gsk_…`, Perplexity `pplx-…`, xAI `xai-…`, Replicate `r8_…`, " +
      "Pinecone `pcsk_…`, LangSmith `lsv2_…`, ElevenLabs `sk_…` (OpenAI and Anthropic: `sk-` above; " +
      "Zhipu: a token known by its shape, below)",
    pattern: prefixed([
      "hf_[A-Za-z0-9]{30,}",
      "api_org_[A-Za-z0-9]{30,}",
      "gsk_[A-Za-z0-9]{40,}",
      "pplx-[A-Za-z0-9]{40,}",
      "xai-[A-Za-z0-9]{60,}",
      "r8_[A-Za-z0-9]{30,}",
      "pcsk_[A-Za-z0-9_]{40,}",
      "lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}",
      "sk_[a-f0-9]{48}\\b",
    ]),
  },
  {
    name: "service token",
    triggers: [
      "shp",
      "lin_api_",
      "pmak-",
      "atatt3",
      "ntn_",
      "secret_",
      "pat",
      "figd_",
      "cfpat-",
      "sk.eyj",
      "sl.",
      "sgp_",
    ],
    shape: "Shopify `shpat_…`, Linear `lin_api_…`, Postman `PMAK-…`, Atlassian `ATATT3…`, Notion " +
      "`ntn_…`/`secret_…`, Airtable `pat….…`, Figma `figd_…`, Contentful `CFPAT-…`, Mapbox " +
      "`sk.eyJ…`, Dropbox `sl.…`, Sourcegraph `sgp_…`",
    pattern: prefixed([
      "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
      "lin_api_[A-Za-z0-9]{40}",
      "PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
      "ATATT3[A-Za-z0-9_=-]{100,}",
      "ntn_[A-Za-z0-9]{40,}",
      "secret_[A-Za-z0-9]{43}\\b",
      "pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}",
      "figd_[A-Za-z0-9_-]{40,}",
      "CFPAT-[A-Za-z0-9_-]{43}",
      "sk\\.eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{20,}",
      "sl\\.(?:u\\.)?[A-Za-z0-9_-]{130,}",
      "sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}",
    ]),
  },
  {
    name: "token known by its shape",
    shape: "tokens without a telling prefix, by their shape: Twilio `SK…` keys and `AC…` account ids " +
      "(32 hex), Mailchimp `<32 hex>-us<N>`, Vault's older `s.…` (24 mixed characters), Azure AD " +
      "client secrets `…Q~…`, Zhipu `<32 hex>.<16 characters>`, Asana `<n>/<id>:<32 hex>`, kubeadm " +
      "join tokens `abcdef.0123456789abcdef`",
    // Each is anchored on its telling middle (`Q~`, `-us`, the dot, the colon) where it has one,
    // which keeps this rule, tried on every text, cheap.
    pattern: new RegExp(
      [
        `${NOT_AFTER_WORD}(?:SK|AC)[0-9a-f]{32}\\b`,
        `${lead("\\b[0-9a-f]{32}")}-us\\d{1,2}\\b`,
        // (the older Vault token is 24 characters of mixed case and digits)
        `${NOT_AFTER_WORD}s\\.(?=[A-Za-z]*\\d)(?=[a-z0-9]*[A-Z])(?=[A-Z0-9]*[a-z])[A-Za-z0-9]{24}(?![A-Za-z0-9._-])`,
        `${lead("(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\\d")}Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
        `${lead("\\b[0-9a-f]{32}")}\\.[A-Za-z0-9]{16}\\b`,
        `${lead("\\b\\d/\\d{13,20}")}:[a-f0-9]{32}\\b`,
        // (a digit in the second part keeps file and property names such as `config.properties` out)
        `${lead("(?<![A-Za-z0-9._-])[a-z0-9]{6}")}\\.(?=[a-z]*\\d)[a-z0-9]{16}(?![A-Za-z0-9._-])`,
      ].join("|"),
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
 * `api_key`) or as a quoted key (`"api_key":`), then a separator (: = ： ＝ 是, or spaces), then an
 * optional quote and 4 or more ASCII characters.
 */
function keywordPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `(?<![A-Za-z0-9])${escaped}["'\`]?(?:\\s*[:=：＝是]\\s*|\\s+)["'\`]?[\\x21-\\x7e]{4,}`,
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
  const held = heldTriggers(text);
  for (const rule of rules) {
    if (!mayMatch(rule, held)) continue;
    eachMatch(rule, text, (m) => {
      const start = m.index - (m.groups?.lead?.length ?? 0);
      spans.push([start, m.index + Math.max(1, m[0].length)]);
      return true;
    });
  }
  return spans;
}

/** The first rule `text` matches, or null. */
export function findCredential(text: string, rules: readonly CredentialRule[]): CredentialRule | null {
  const held = heldTriggers(text);
  for (const rule of rules) {
    if (mayMatch(rule, held) && matches(rule, text)) return rule;
  }
  return null;
}

/**
 * Which built-in rules' triggers a text holds, found in one pass: from each character that can
 * start a trigger, a walk down the trie of the triggers (ASCII letters folded to lower case). A
 * rule whose triggers are all absent cannot match, so it is not tried: most text holds few of
 * them, and the pass costs less than trying each rule's expression over the whole text. (A trie
 * without failure links: it is made in a fraction of a millisecond when a hook first screens a
 * quote, and the walks are short.)
 */
class TriggerScan {
  /** Each rule with triggers, by its bit in a scan's result. */
  readonly bits = new Map<CredentialRule, number>();
  /** UTF-16 code unit → symbol (ASCII letters folded); 0 for every character no trigger holds. */
  private readonly symbols = new Uint16Array(65536);
  private readonly width: number;
  /** state × width + symbol → child state; 0 where there is none (the root is no one's child). */
  private readonly children: Int32Array;
  /** state → the bits of the rules one of whose triggers ends there. */
  private readonly out: Int32Array;

  constructor(rules: readonly BuiltInRule[]) {
    const words: Array<[string, number]> = [];
    let chars = 0;
    for (const rule of rules) {
      // A mask holds 32 rules; any more are simply always tried.
      if (rule.triggers === undefined || this.bits.size === 32) continue;
      const bit = 1 << this.bits.size;
      this.bits.set(rule, bit);
      for (const word of rule.triggers) {
        words.push([word, bit]);
        chars += word.length;
      }
    }
    let width = 1;
    for (const [word] of words) {
      for (let i = 0; i < word.length; i++) {
        const c = word.charCodeAt(i);
        if (this.symbols[c] === 0) this.symbols[c] = width++;
      }
    }
    for (let c = 0x41; c <= 0x5a; c++) this.symbols[c] = this.symbols[c + 0x20]!;
    this.width = width;
    this.children = new Int32Array((chars + 1) * width);
    this.out = new Int32Array(chars + 1);
    let states = 1;
    for (const [word, bit] of words) {
      let state = 0;
      for (let i = 0; i < word.length; i++) {
        const at = state * width + this.symbols[word.charCodeAt(i)]!;
        if (this.children[at] === 0) this.children[at] = states++;
        state = this.children[at]!;
      }
      this.out[state]! |= bit;
    }
  }

  /** The bits of the rules whose triggers `text` holds. */
  scan(text: string): number {
    const { symbols, children, out, width } = this;
    let held = 0;
    for (let i = 0; i < text.length; i++) {
      let state = children[symbols[text.charCodeAt(i)]!]!;
      for (let j = i + 1; state !== 0; j++) {
        held |= out[state]!;
        if (j === text.length) break;
        state = children[state * width + symbols[text.charCodeAt(j)]!]!;
      }
    }
    return held;
  }
}

let triggerScan: TriggerScan | null = null;

/** The triggers `text` holds (the automaton is made on first use, not when a hook starts). */
function heldTriggers(text: string): number {
  triggerScan ??= new TriggerScan(BUILT_IN_RULES);
  return triggerScan.scan(text);
}

/** Can `rule` match a text holding `held`? (A rule without triggers always may.) */
function mayMatch(rule: CredentialRule, held: number): boolean {
  const bit = triggerScan!.bits.get(rule);
  return bit === undefined || (held & bit) !== 0;
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
