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

const HEX32 = "0000000000000000000000000000fa4e";
const HEX40 = "000000000000000000000000000000000000fa4e";
const HEX64 = "000000000000000000000000000000000000000000000000000000000000fa4e";
/** FAKE, fake and 0000 repeated to `n` characters. */
function fake(n: number): string {
  return "FAKEfake0000".repeat(Math.ceil(n / 12)).slice(0, n);
}
const UUID0 = "00000000-0000-0000-0000-000000000000";

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
  example("sk- API key", "project key ", `sk-proj-${fake(48)}`),
  example("sk- API key", "the service account's ", `sk-svcacct-${fake(40)}`),
  example("payment key", "charge with ", "sk_live_FAKEfakeFAKE0123456789"),
  example("payment key", "restricted ", "rk_test_FAKEfakeFAKE0123456789"),
  example("payment key", "webhook secret ", "whsec_FAKEfakeFAKEfake0123456789ab"),
  example("payment key", "braintree ", `access_token$production$0000fake0000fake$${HEX32}`),
  example("payment key", "square ", "sq0atp-FAKEfakeFAKEfake000000"),
  example("payment key", "square secret ", `sq0csp-${fake(43)}`),
  example("GitHub token", "token ", "ghp_FAKEfakeFAKEfakeFAKEfake0123"),
  example("GitHub token", "pat ", "github_pat_FAKE_fake_FAKE_fake_0123456789"),
  example("GitHub token", "oauth ", `gho_${fake(36)}`),
  example("GitHub token", "the app's installation token ", `ghs_${fake(36)}`),
  example("GitLab token", "gitlab ", "glpat-FAKEfakeFAKEfake0123"),
  example("GitLab token", "trigger with ", `glptt-${fake(40)}`),
  example("GitLab token", "deploy token ", `gldt-${fake(20)}`),
  example("GitLab token", "register the runner with ", `GR1348941${fake(20)}`),
  example("Slack token", "slack ", "xoxb-0000000000-FAKEfake"),
  example("Slack token", "the browser token ", "xoxc-0000000000-0000000000-FAKEfakeFAKE"),
  example("Slack token", "refresh with ", "xoxe-1-FAKEFAKEFAKEFAKE0000"),
  example("Slack token", "rotated config token ", "xoxe.xoxp-1-FAKEfake0000FAKEfake0000"),
  example("Slack token", "app-level ", "xapp-1-A0000000000-0000000000-fakefake"),
  example(
    "chat webhook URL",
    "post to ",
    "https://hooks.slack.com/services/T00000000/B00000000/FAKEFAKEFAKEFAKEFAKE",
  ),
  example(
    "chat webhook URL",
    "alerts go to https://",
    `discord.com/api/webhooks/000000000000000000/${fake(68)}`,
  ),
  example(
    "chat webhook URL",
    "the Teams hook https://acme.",
    `webhook.office.com/webhookb2/${UUID0}@${UUID0}/IncomingWebhook/${HEX32}/${UUID0}`,
  ),
  example(
    "chat webhook URL",
    "google chat: https://",
    `chat.googleapis.com/v1/spaces/AAAAfake/messages?key=k&token=${fake(40)}`,
  ),
  example("chat bot token", "the telegram bot token is ", "0000000000:AAFAKEfakeFAKEfakeFAKEfakeFAKEfake0"),
  example("chat bot token", "discord bot ", `MTAwMDAwMDAwMDAwMDAwMDAw.GFAKEf.${fake(38)}`),
  example("AWS access key id", "aws ", "AKIAFAKEFAKEFAKE1234", " here"),
  example("AWS access key id", "session creds ", "ASIAFAKEFAKEFAKE1234"),
  example("AWS secret access key", "aws_secret_access_key = ", "FAKEfake0000FAKEfake0000FAKEfake0000FAKE"),
  example("Google key or token", "maps key ", "AIzaFAKEfakeFAKEfakeFAKEfakeFAKEfake012"),
  example("Google key or token", "client secret ", `GOCSPX-${fake(28)}`),
  example("Google key or token", "access token ", `ya29.${fake(60)}`),
  example("Google key or token", "refresh token ", `1//0${fake(60)}`),
  example(
    "JSON Web Token",
    "auth with ",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJGQUtFIn0.FAKEfakeFAKEfakeFAKEfake",
  ),
  example("URL with a password", "connect to postgres://app:", "hunter2FAKE", "@db.internal:5432/orders"),
  example("URL with a password", "cache at redis://:", "hunter2FAKE", "@cache.internal:6379/0"),
  example(
    "cloud storage credential",
    "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=",
    `${fake(86)}==`,
    ";EndpointSuffix=core.windows.net",
  ),
  example(
    "cloud storage credential",
    "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=",
    `${fake(43)}=`,
  ),
  example(
    "cloud storage credential",
    "BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=",
    `${fake(43)}%3D`,
  ),
  example(
    "cloud storage credential",
    "the link https://acme.s3.amazonaws.com/a.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=",
    HEX64,
  ),
  example(
    "cloud storage credential",
    "share https://acme.blob.core.windows.net/c/a.pdf?sv=2022-11-02&se=2026-01-01&sp=r&sig=",
    `${fake(43)}%3D`,
  ),
  example(
    "cloud storage credential",
    "https://storage.googleapis.com/acme/a.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=",
    HEX64 + HEX64,
  ),
  example(
    "cluster credential",
    "users:\n- name: admin\n  user:\n    client-key-data: ",
    `LS0tLS1${fake(60)}`,
  ),
  example("cluster credential", "users:\n- name: admin\n  user:\n    token: ", fake(40)),
  example("cluster credential", "K3S_TOKEN=", `K10${HEX64}::server:${fake(32)}`),
  example(
    "registry auth",
    '{"auths": {"registry.example.com": {"auth": "',
    "ZGVwbG95Omh1bnRlcjJGQUtF",
    '"}}}',
  ),
  example("registry auth", '{"auths": {"acr.io": {"identitytoken": "', fake(40), '"}}}'),
  example("registry auth", "//registry.example.com/:_authToken=", fake(40)),
  example("authorization header", 'curl -H "Authorization: Bearer ', "FAKEfakeFAKEfake0123456789", '"'),
  example("session cookie", 'curl -H "Cookie: theme=dark; session=', "FAKEfake0123456789abcdefFAKE", '"'),
  example("session cookie", "Set-Cookie: sessionid=", "0123456789abcdefFAKEfake0000", "; Path=/; HttpOnly"),
  example("password assignment", "password: ", "hunter2"),
  example("password assignment", "PASSWORD=", "hunter2"),
  example("password assignment", '{"user": "app", "password": "', "x9", '"}'),
  example("password assignment", "passwd=", "hunter2"),
  example("password assignment", "pwd: ", "hunter2"),
  example("password assignment", "password：", "hunter2"),
  example("password assignment", "password＝", "hunter2"),
  example("password assignment", "DB_PASSWORD=", "hunter2"),
  example("password on a command line", "curl -u admin:", "hunter2FAKE", " https://api.example.com/v1"),
  example("password on a command line", "mysql -uroot -p", "hunter2FAKE", " orders"),
  example("password on a command line", "psql-wrapper --password ", "hunter2FAKE", " --host db"),
  example("password on a command line", "sshpass -p ", "hunter2FAKE", " ssh deploy@10.0.0.5"),
  example("password on a command line", "machine api.example.com login deploy password ", "hunter2FAKE"),
  example("password on a command line", "redis-cli -h cache -a ", "hunter2FAKE", " ping"),
  example("password in words", "the staging password is ", "hunter2"),
  example("password in words", "my password is ", "x"),
  example("password in words", "数据库密码是", "hunter2"),
  example("password in words", "密钥是", "FAKEfake0000"),
  example("password in words", "把密码改成", "hunter2FAKE"),
  example("password in words", "服务器密码：", "hunter2FAKE"),
  example("password in words", "パスワードは ", "hunter2FAKE", " です"),
  example("password in words", "비밀번호: ", "hunter2FAKE"),
  example("secret assignment", "OPENAI_API_KEY=", "FAKEfake0123456789FAKE"),
  example("secret assignment", '{"api_key": "', "FAKEfake0123456789FAKE", '"}'),
  example("secret assignment", "client_secret: ", "FAKE0fake1FAKE2fake3"),
  example("package registry token", "publish with ", "npm_FAKEfakeFAKEfakeFAKEfakeFAKEfake0000"),
  example(
    "package registry token",
    "upload with ",
    "pypi-AgEIcHlwaS5vcmcFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfake00",
  ),
  example("package registry token", "docker login with ", `dckr_pat_${fake(27)}`),
  example("messaging and e-mail key", "sendgrid ", "SG.FAKEfakeFAKEfake0000.FAKEfakeFAKEfake0000FAKEfake"),
  example("messaging and e-mail key", "mailgun ", `key-${fake(32)}`),
  example("infrastructure token", "vault ", "hvs.FAKEfakeFAKEfakeFAKEfake0000"),
  example("infrastructure token", "vault batch token ", `hvb.${fake(90)}`),
  example("infrastructure token", "doppler ", `dp.pt.${fake(43)}`),
  example("infrastructure token", "terraform cloud ", `FAKEfake000000.atlasv1.${fake(67)}`),
  example("infrastructure token", "pulumi ", `pul-${HEX40}`),
  example("infrastructure token", "heroku ", `HRKU-AA${fake(58)}`),
  example("infrastructure token", "digitalocean ", `dop_v1_${HEX64}`),
  example("AI service key", "hub ", "hf_FAKEfakeFAKEfakeFAKEfakeFAKEfake00"),
  example("AI service key", "groq ", `gsk_${fake(52)}`),
  example("AI service key", "perplexity ", `pplx-${fake(48)}`),
  example("service token", "linear ", `lin_api_${fake(40)}`),
  example("service token", "shopify ", `shpat_${HEX32}`),
  example("service token", "jira ", `ATATT3x${fake(180)}`),
  example("token known by its shape", "twilio api key ", `SK${HEX32}`),
  example("token known by its shape", "twilio account ", `AC${HEX32}`),
  example("token known by its shape", "mailchimp ", `${HEX32}-us21`),
  example("token known by its shape", "old vault token ", "s.FAKEfake0000FAKEfake0000"),
  example("token known by its shape", "azure client secret ", `Fak8Q~${fake(34)}`),
  example("token known by its shape", "这是智谱的 key：", `${HEX32}.FAKEfake0000FAKE`),
  example("token known by its shape", "asana ", `1/1200000000000000:${HEX32}`),
  example("token known by its shape", "kubeadm join 10.0.0.1:6443 --token ", "fa4e00.0000fake0000fa4e"),
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
  // Hashes, ids and versions
  "fixed in commit 3f9a2c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 yesterday",
  "git show 3f9a2c1 and 3f9a2c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39^",
  "session 5e0c0de0-0000-4000-8000-00000000c0de ended",
  "userId: 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b",
  "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "pin the image to node:20.11.1-alpine3.19 and python:3.12.2-slim-bookworm",
  "time 12:34:56, ratio 16:9, version v1.2.3-rc.1",
  "config.properties and Object.keys(settings).forEach(applySetting)",
  // Words near a prefix
  "pip install scikit-learn; the sk-learn-pipeline-transformer-module wraps it",
  "SK hynix and AC power adapters; a key-value store",
  "ya29 is the prefix of Google access tokens",
  "hooks.slack.com and discord.com/api/webhooks are allowed by the CSP",
  "the SAS URL carries ?sig= at the end",
  "set AccountKey= in the portal, never here",
  "the kubeconfig user: entry holds a token: field",
  "Cookie: theme=dark; lang=en-GB",
  "Set-Cookie: consent=yes; Path=/; Max-Age=31536000",
  "the Authorization header is missing",
  // Command lines without a password in them
  "docker run -p 8080:80 -u 1000:1000 nginx",
  "mysql -u root -p orders",
  "use the --password flag, or --password-stdin in CI",
  'curl -u "$USER:$TOKEN" https://api.example.com',
  "curl -u admin: https://api.example.com",
  'sshpass -p "$SSH_PASS" ssh deploy@host',
  "machine learning password strength estimator",
  "git log --format=%H%x00%at --branches",
  "kubectl get pods -n kube-system -o wide",
  // Password words in Chinese, Japanese and Korean without a value
  "密码是必填项",
  "请输入密码：",
  "パスワードを忘れた",
  "비밀번호를 잊어버렸어요",
  "redis://localhost:6379/0 and postgres://app@db.internal/orders",
  // A long base64 text that happens to hold a prefix
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAXdCzAgRpM7VYtV-r8_LnzXEaWG8jd9X2onrfxOOkgN4eAplMnaaeQwMOOSI1vQqUV" +
  "KPcdyBN8KTEw1BqRErbL/hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+sk-ZmFrZWZha2VmYWtlZmFrZTAwMDA=",
];
