/**
 * The bearer token: read once at start from a file that only its owner may read, and compared
 * in constant time. Both sides are hashed (SHA-256) first, so the comparison always walks 32
 * bytes whatever the lengths, and a mismatch position never shows in the timing.
 */
import { ServeRefusal } from "./listen.ts";

/** Shortest token accepted: 16 characters is 96+ bits from any reasonable generator. */
export const MIN_TOKEN_CHARS = 16;

const TOKEN_HINT = (path: string) =>
  `create it with: (umask 077; head -c 32 /dev/urandom | base64 > "${path}")`;

/** The SHA-256 digest of `token`. */
export async function tokenDigest(token: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
}

/** Compares two digests in time independent of their content. */
export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * Reads the token file and returns the token's digest. Refuses (ServeRefusal) a file that is
 * missing, not a regular file, readable or writable by group or others (mode looser than
 * 0600), empty, shorter than MIN_TOKEN_CHARS, or holding anything but one printable word.
 */
export async function loadTokenDigest(path: string): Promise<Uint8Array> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ServeRefusal(`refusing to serve: token file "${path}" does not exist`, TOKEN_HINT(path));
    }
    throw err;
  }
  if (!info.isFile) {
    throw new ServeRefusal(`refusing to serve: token file "${path}" is not a regular file`, TOKEN_HINT(path));
  }
  // Windows reports no mode; there the file's ACL is the user's to set.
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
    throw new ServeRefusal(
      `refusing to serve: token file "${path}" has mode ${mode}, open to group or others`,
      `run: chmod 600 "${path}"`,
    );
  }
  const token = (await Deno.readTextFile(path)).trim();
  if (!/^[\x21-\x7e]+$/.test(token) || token.length < MIN_TOKEN_CHARS) {
    throw new ServeRefusal(
      `refusing to serve: token file "${path}" must hold one word of at least ${MIN_TOKEN_CHARS} printable ASCII characters`,
      TOKEN_HINT(path),
    );
  }
  return await tokenDigest(token);
}
