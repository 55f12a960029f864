/**
 * Fake credentials, one or more per built-in rule, shared by the rule tests and the end-to-end
 * "never stored, never shown" tests. Each example is a sentence someone could type, holding the
 * credential; `secret` is the part that must never appear in any output. Every one is visibly
 * fake (FAKE, 0000, hunter2) or made of repeated characters; none was ever a real credential.
 */

export interface CredentialExample {
  /** The built-in rule (its name, as in SECURITY.md's table) that must catch it first. */
  readonly rule: string;
  readonly text: string;
  /** The substring that must never be stored or shown. */
  readonly secret: string;
}

const PEM_BODY = "MIIEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE0000";

function example(rule: string, before: string, secret: string, after = ""): CredentialExample {
  return { rule, text: `${before}${secret}${after}`, secret };
}

export const CREDENTIAL_EXAMPLES: readonly CredentialExample[] = [
  example(
    "private key block",
    "the deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n",
    PEM_BODY,
    "\n-----END OPENSSH PRIVATE KEY-----",
  ),
  example("private key block", "tail of the key\n", PEM_BODY, "\n-----END RSA PRIVATE KEY-----"),
  example("private key block", "the key, one line: ", PEM_BODY, " -----END EC PRIVATE KEY-----"),
  example(
    "private key block",
    "my age key is ",
    "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
  ),
  example(
    "private key block",
    "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n",
    "AAAAFAKEFAKEFAKEFAKEFAKEFAKE",
  ),
  example("sk- API key", "use ", "sk-FAKEfake0123456789abcdef", " for the test"),
  example("sk- API key", "the admin key ", "sk-ant-api03-FAKEfakeFAKEfake0123456789"),
  example("Stripe key", "charge with ", "sk_live_FAKEfakeFAKE0123456789"),
  example("Stripe key", "restricted ", "rk_test_FAKEfakeFAKE0123456789"),
  example("Stripe key", "webhook secret ", "whsec_FAKEfakeFAKEfake0123456789ab"),
  example("GitHub token", "token ", "ghp_FAKEfakeFAKEfakeFAKEfake0123"),
  example("GitHub token", "pat ", "github_pat_FAKE_fake_FAKE_fake_0123456789"),
  example("GitLab token", "gitlab ", "glpat-FAKEfakeFAKEfake0123"),
  example("Slack token", "slack ", "xoxb-0000000000-FAKEfake"),
  example("Slack token", "the browser token ", "xoxc-0000000000-0000000000-FAKEfakeFAKE"),
  example("Slack token", "refresh with ", "xoxe-1-FAKEFAKEFAKEFAKE0000"),
  example("Slack token", "app-level ", "xapp-1-A0000000000-0000000000-fakefake"),
  example(
    "Slack webhook URL",
    "post to ",
    "https://hooks.slack.com/services/T00000000/B00000000/FAKEFAKEFAKEFAKEFAKE",
  ),
  example("AWS access key id", "aws ", "AKIAFAKEFAKEFAKE1234", " here"),
  example("AWS access key id", "session creds ", "ASIAFAKEFAKEFAKE1234"),
  example("AWS secret access key", "aws_secret_access_key = ", "FAKEfake0000FAKEfake0000FAKEfake0000FAKE"),
  example("Google API key", "maps key ", "AIzaFAKEfakeFAKEfakeFAKEfakeFAKEfake012"),
  example(
    "JSON Web Token",
    "auth with ",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJGQUtFIn0.FAKEfakeFAKEfakeFAKEfake",
  ),
  example("URL with a password", "connect to postgres://app:", "hunter2FAKE", "@db.internal:5432/orders"),
  example("authorization header", 'curl -H "Authorization: Bearer ', "FAKEfakeFAKEfake0123456789", '"'),
  example("password assignment", "password: ", "hunter2"),
  example("password assignment", "PASSWORD=", "hunter2"),
  example("password assignment", '{"user": "app", "password": "', "x9", '"}'),
  example("password assignment", "passwd=", "hunter2"),
  example("password assignment", "pwd: ", "hunter2"),
  example("password assignment", "password：", "hunter2"),
  example("password assignment", "DB_PASSWORD=", "hunter2"),
  example("password in words", "the staging password is ", "hunter2"),
  example("password in words", "my password is ", "x"),
  example("password in words", "数据库密码是", "hunter2"),
  example("secret assignment", "OPENAI_API_KEY=", "FAKEfake0123456789FAKE"),
  example("secret assignment", '{"api_key": "', "FAKEfake0123456789FAKE", '"}'),
  example("secret assignment", "client_secret: ", "FAKE0fake1FAKE2fake3"),
  example("package registry token", "publish with ", "npm_FAKEfakeFAKEfakeFAKEfakeFAKEfake0000"),
  example(
    "package registry token",
    "upload with ",
    "pypi-AgEIcHlwaS5vcmcFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfake00",
  ),
  example("service token", "hub ", "hf_FAKEfakeFAKEfakeFAKEfakeFAKEfake00"),
  example("service token", "sendgrid ", "SG.FAKEfakeFAKEfake0000.FAKEfakeFAKEfake0000FAKEfake"),
  example("service token", "vault ", "hvs.FAKEfakeFAKEfakeFAKEfake0000"),
];

/** Text that looks near a credential but is not one: no built-in rule may catch it. */
export const NOT_CREDENTIALS: readonly string[] = [
  "We decided the password reset flow sends an email.",
  "ask the user for a password",
  "the password is required for every login",
  "the password is wrong.",
  "risk-free task: skip the sk- prefix check",
  "AKIA is the prefix of AWS key ids",
  "以后都统一用 pnpm",
  "数据库密码很重要",
  "always run pwd: /home/dev shows where you are",
  "the password_reset_url is configured",
  "max_tokens: 4096",
  "git clone ssh://git@github.com/acme/shop.git",
  "see https://example.com/docs?x=1 for details",
  "use Bearer tokens for the API, never cookies",
  "the token is refreshed hourly",
  "passwd: password updated successfully",
  "password: ${DB_PASSWORD}",
  "password=<your password>",
];
