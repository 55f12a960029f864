/**
 * Which agent CLIs the client tests drive, and at which versions. The pinned versions are what
 * `deno task test` (and so CI) runs; `deno task test:clients --latest` asks the registry for the
 * newest versions and hands them to the tests in VERSIONS_ENV. Add an agent here first.
 */

export interface ClientSpec {
  /** Short id, used in test names and VERSIONS_ENV. */
  readonly id: string;
  /** Name shown in test names. */
  readonly label: string;
  /** npm package that carries the CLI. */
  readonly pkg: string;
  /** The version CI runs (the README names it as verified). */
  readonly pinned: string;
}

export const CLIENTS = {
  "claude-code": {
    id: "claude-code",
    label: "Claude Code",
    pkg: "@anthropic-ai/claude-code",
    pinned: "2.1.328",
  },
  "codex": {
    id: "codex",
    label: "Codex",
    pkg: "@openai/codex",
    pinned: "0.169.0",
  },
  "qwen-code": {
    id: "qwen-code",
    label: "Qwen Code",
    pkg: "@qwen-code/qwen-code",
    pinned: "0.24.4",
  },
  "copilot": {
    id: "copilot",
    label: "Copilot CLI",
    pkg: "@github/copilot",
    pinned: "1.0.102",
  },
  "gemini": {
    id: "gemini",
    label: "Gemini CLI",
    pkg: "@google/gemini-cli",
    pinned: "0.61.0",
  },
  "opencode": {
    id: "opencode",
    label: "OpenCode",
    pkg: "opencode-ai",
    pinned: "1.18.33",
  },
  "pi": {
    id: "pi",
    label: "pi",
    pkg: "@mariozechner/pi-coding-agent",
    pinned: "0.73.1",
  },
  "cline": {
    id: "cline",
    label: "Cline CLI",
    pkg: "cline",
    pinned: "3.0.65",
  },
} as const satisfies Record<string, ClientSpec>;

export type ClientId = keyof typeof CLIENTS;

/** JSON object `{ "<client id>": "<version>" }` overriding the pinned versions. */
export const VERSIONS_ENV = "VERDICT_TEST_CLIENT_VERSIONS";

/** The version of `id` this run tests: VERSIONS_ENV's when it names one, else the pinned one. */
export function versionOf(id: ClientId): string {
  const raw = Deno.env.get(VERSIONS_ENV);
  if (raw) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new Error(`Cannot read ${VERSIONS_ENV}: not JSON (${raw})`);
    }
    const v = (parsed as Record<string, unknown>)[id];
    if (typeof v === "string" && v !== "") return v;
  }
  return CLIENTS[id].pinned;
}

/** "Claude Code 2.1.328" — the prefix of every test name, so a failure says which version broke. */
export function testPrefix(id: ClientId): string {
  return `${CLIENTS[id].label} ${versionOf(id)}`;
}
