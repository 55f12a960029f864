/** A typed Claude Code prompt line, as the collect upkeep and incremental tests write them. */

/** The first prompt's minute; prompt n is n minutes later, so line order is time order. */
const T0 = Date.parse("2026-01-01T00:00:00Z");

/** Prompt `n` of `session` as one transcript line (a human's typed prompt in the CLI). */
export function claudePrompt(n: number, text: string, session = "s-1"): string {
  return JSON.stringify({
    type: "user",
    isSidechain: false,
    cwd: "/p",
    sessionId: session,
    version: "2.1.180",
    entrypoint: "cli",
    message: { role: "user", content: text },
    uuid: `${session}-u${n}`,
    timestamp: new Date(T0 + n * 60_000).toISOString(),
    origin: { kind: "human" },
  });
}
