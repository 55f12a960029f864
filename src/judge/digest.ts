/**
 * The digest binding a summary to its state: SHA-256 (crypto.subtle) over a canonical JSON
 * serialisation (object keys sorted, no whitespace) of `{state, summary}`. It is an integrity
 * check against accidents (a hand-assembled state, a state edited after build), not a security
 * control: anyone can recompute it.
 */

/** JSON with object keys sorted at every depth and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const s = JSON.stringify(value);
    if (s === undefined) throw new TypeError(`Cannot serialise ${typeof value} canonically`);
    return s;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}

/** Lower-case hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The digest of a summary and its state. */
export function digestOf(summary: unknown, state: string): Promise<string> {
  return sha256Hex(canonicalJson({ state, summary }));
}

/** A digest shortened for messages: the first 12 hex digits and an ellipsis. */
export function shortDigest(digest: string): string {
  return digest.length > 12 ? `${digest.slice(0, 12)}…` : digest;
}
