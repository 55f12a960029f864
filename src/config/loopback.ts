/**
 * The loopback names verdict's network permission holds: the base grant the binary is built
 * with (the verdict task's `--allow-net`, src/task_flags.ts) is exactly these, so they are
 * also the only hosts a judge service URL or `verdict serve --bind` may name. Deno checks a host
 * as written, not what it resolves to, and cannot grant a range: 127.0.0.2 is loopback but not
 * granted, so it is refused up front with a clear error rather than by Deno later.
 */
export const LOOPBACK_NAMES: readonly string[] = ["127.0.0.1", "localhost", "::1"];

/** Is `host` (IPv6 with or without brackets, any case) one of LOOPBACK_NAMES? */
export function isGrantedLoopback(host: string): boolean {
  const h = host.toLowerCase();
  const bare = h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
  return LOOPBACK_NAMES.includes(bare);
}
