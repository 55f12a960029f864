/**
 * How the hook's client and the warm helper know each other over loopback TCP. The helper listens
 * on 127.0.0.1 (a port the system picks) and writes that port and a fresh random secret into
 * its address file, mode 0600 in its private folder (folder.ts): only the user can read them.
 * Before any prompt is sent, each side proves it holds the secret:
 *
 *   client → helper  HELLO: magic, 32 random bytes (the client's nonce)
 *   helper → client  32 random bytes (the helper's nonce), HMAC(secret, "S", port, nonces)
 *   client → helper  HMAC(secret, "C", port, nonces), then the request frame (wire.ts)
 *
 * The client checks the helper's proof before it sends anything else, so a program listening on
 * the port once the helper is gone (any local user can) learns one random nonce and nothing of
 * the prompt; a client that cannot prove the secret gets no answer. The port is inside both
 * proofs: a listener that relays a client to a helper on another port is found out. The two
 * proofs differ by their label, so one is never taken for the other. The connection stays
 * unencrypted: on loopback, only the two processes (and root) see its bytes.
 *
 * Imports only wire.ts: the per-prompt client loads this.
 */
import { readExactly, WARM_PROTOCOL } from "./wire.ts";

/** The address file in the helper's folder. */
export const WARM_ADDRESS = "helper.addr";
export const WARM_SECRET_BYTES = 32;
export const WARM_NONCE_BYTES = 32;
export const WARM_PROOF_BYTES = 32;
/** "vwh" and the protocol: a HELLO of another protocol is not answered. */
const HELLO_MAGIC = Uint8Array.of(0x76, 0x77, 0x68, WARM_PROTOCOL);
export const WARM_HELLO_BYTES = HELLO_MAGIC.length + WARM_NONCE_BYTES;

const SERVER = 0x53;
const CLIENT = 0x43;

export interface HelperAddress {
  readonly port: number;
  readonly secret: Uint8Array<ArrayBuffer>;
}

/** The address file's text: one line, "verdict-warm <protocol> <port> <secret as hex>". */
export function formatAddress(address: HelperAddress): string {
  return `verdict-warm ${WARM_PROTOCOL} ${address.port} ${toHex(address.secret)}\n`;
}

/** The address in an address file's text, or null when it is not one this protocol wrote. */
export function parseAddress(text: string): HelperAddress | null {
  const m = /^verdict-warm (\d+) (\d{1,5}) ([0-9a-f]{64})\n$/.exec(text);
  if (m === null || Number(m[1]) !== WARM_PROTOCOL) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { port, secret: fromHex(m[3]!) };
}

export type AddressRead =
  | { readonly kind: "ok"; readonly address: HelperAddress }
  | { readonly kind: "absent" }
  | { readonly kind: "unsafe"; readonly why: string }
  | { readonly kind: "malformed" };

/**
 * Reads the address file at `path`. It must be a regular file (not a link), the user's own,
 * with no access for group or others: a secret others could read proves nothing, so such a file
 * is refused, never used.
 */
export function readAddressFile(path: string, uid: number | null): AddressRead {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch {
    return { kind: "absent" };
  }
  if (st.isSymlink || !st.isFile) return { kind: "unsafe", why: "it is not a regular file" };
  if (st.uid !== null && uid !== null && st.uid !== uid) {
    return { kind: "unsafe", why: `it is owned by uid ${st.uid}, not by this user` };
  }
  if (st.mode !== null && (st.mode & 0o077) !== 0) {
    return { kind: "unsafe", why: `its mode is ${(st.mode & 0o777).toString(8)}, not 600` };
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return { kind: "absent" };
  }
  const address = parseAddress(text);
  return address === null ? { kind: "malformed" } : { kind: "ok", address };
}

/** A fresh secret for a helper that is starting. */
export function newSecret(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(WARM_SECRET_BYTES));
}

/**
 * HMAC-SHA-256 with the secret as its key, over a message. The client's is WebCrypto's (nothing to
 * load); the helper passes a synchronous one (serve.ts), so its side of a handshake waits on no
 * worker thread.
 */
export type Signer = (message: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>;

/** A Signer of WebCrypto's HMAC-SHA-256 with `secret` as its key. */
export async function webCryptoSigner(secret: Uint8Array<ArrayBuffer>): Promise<Signer> {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return async (message) => new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

/** HMAC(secret, label, port, client nonce, helper nonce). */
async function proof(
  sign: Signer,
  label: number,
  port: number,
  clientNonce: Uint8Array,
  helperNonce: Uint8Array,
): Promise<Uint8Array> {
  const message = new Uint8Array(3 + WARM_NONCE_BYTES * 2);
  message[0] = label;
  message[1] = port >>> 8;
  message[2] = port & 0xff;
  message.set(clientNonce, 3);
  message.set(helperNonce, 3 + WARM_NONCE_BYTES);
  return await sign(message);
}

/** Compares two byte strings in time that does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

interface Conn {
  read(buffer: Uint8Array): Promise<number | null>;
  write(buffer: Uint8Array): Promise<number>;
}

async function writeAll(conn: Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

/**
 * The client's side, on a connection to `port`: sends HELLO, checks the helper's proof, and
 * returns its own proof (to send before the request, in the same write), or null when the
 * listener did not prove the secret (nothing more may be sent to it).
 */
export async function clientHandshake(conn: Conn, sign: Signer, port: number): Promise<Uint8Array | null> {
  const clientNonce = crypto.getRandomValues(new Uint8Array(WARM_NONCE_BYTES));
  const hello = new Uint8Array(WARM_HELLO_BYTES);
  hello.set(HELLO_MAGIC);
  hello.set(clientNonce, HELLO_MAGIC.length);
  await writeAll(conn, hello);
  const reply = await readExactly(conn, WARM_NONCE_BYTES + WARM_PROOF_BYTES);
  const helperNonce = reply.subarray(0, WARM_NONCE_BYTES);
  const theirs = reply.subarray(WARM_NONCE_BYTES);
  // Both at once (one wait for the crypto ops, not two); the client's is sent only if the
  // helper's checks out.
  const [expected, ours] = await Promise.all([
    proof(sign, SERVER, port, clientNonce, helperNonce),
    proof(sign, CLIENT, port, clientNonce, helperNonce),
  ]);
  return sameBytes(theirs, expected) ? ours : null;
}

/**
 * The helper's side, on a connection it accepted on `port`: reads HELLO, proves the secret, and
 * reads the client's proof. True when the client proved it; false for anything else (the caller
 * closes the connection without a word).
 */
export async function helperHandshake(
  conn: Conn,
  sign: Signer,
  port: number,
): Promise<boolean> {
  const hello = await readExactly(conn, WARM_HELLO_BYTES);
  if (!sameBytes(hello.subarray(0, HELLO_MAGIC.length), HELLO_MAGIC)) return false;
  const clientNonce = hello.slice(HELLO_MAGIC.length);
  const helperNonce = crypto.getRandomValues(new Uint8Array(WARM_NONCE_BYTES));
  const reply = new Uint8Array(WARM_NONCE_BYTES + WARM_PROOF_BYTES);
  reply.set(helperNonce);
  reply.set(await proof(sign, SERVER, port, clientNonce, helperNonce), WARM_NONCE_BYTES);
  await writeAll(conn, reply);
  const theirs = await readExactly(conn, WARM_PROOF_BYTES);
  return sameBytes(theirs, await proof(sign, CLIENT, port, clientNonce, helperNonce));
}

function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export type HelperConnection =
  | {
    readonly kind: "connected";
    readonly conn: Deno.TcpConn;
    /** The client's proof, to be sent before the request (in the same write). */
    readonly proof: Uint8Array;
  }
  /** No address file, or nothing listens on its port: a helper may be started. */
  | { readonly kind: "absent"; readonly why: string }
  /** An address file that is not private, or a listener that did not prove the secret. */
  | { readonly kind: "refused"; readonly why: string; readonly startHelper: boolean };

/**
 * Connects to the helper whose address file is `addressPath`, and proves the secret both ways.
 * Never throws; on anything but "connected", nothing was sent beyond a HELLO.
 */
export async function connectToHelper(addressPath: string, uid: number | null): Promise<HelperConnection> {
  const read = readAddressFile(addressPath, uid);
  if (read.kind === "absent") return { kind: "absent", why: "no helper address" };
  if (read.kind === "malformed") return { kind: "absent", why: "an address file of another protocol" };
  if (read.kind === "unsafe") {
    return { kind: "refused", why: `the helper's address file is unsafe: ${read.why}`, startHelper: false };
  }
  const { port, secret } = read.address;
  // The key is made while the connection is opened.
  const signer = webCryptoSigner(secret);
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch (err) {
    if (err instanceof Deno.errors.ConnectionRefused) return { kind: "absent", why: "no helper listening" };
    return { kind: "refused", why: `cannot connect (${(err as Error).name})`, startHelper: false };
  }
  try {
    const proof = await clientHandshake(conn, await signer, port);
    if (proof !== null) return { kind: "connected", conn, proof };
    conn.close();
    // Not the helper that wrote the file (it is gone, and something else took its port): a
    // new helper listens on a port of its own and replaces the file.
    return {
      kind: "refused",
      why: "the listener on the helper's port did not prove the secret",
      startHelper: true,
    };
  } catch {
    try {
      conn.close();
    } catch { /* closed */ }
    return { kind: "refused", why: "the handshake failed", startHelper: false };
  }
}
