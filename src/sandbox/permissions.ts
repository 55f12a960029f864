/**
 * A permission set, and how it becomes a Worker's Deno permissions. What each command gets is its
 * own row's rule in the command table (src/cli/commands.ts); SECURITY.md describes them and
 * tests/sandbox/ proves them.
 *
 * Never granted to any command: env (the plan carries the environment snapshot), sys (but the
 * warm helper's "uid": it checks its folder's owner), ffi,
 * remote import, and net beyond loopback addresses named by the plan (the warm helper: listening on
 * 127.0.0.1:0, given up once it listens).
 */

export interface PermissionSet {
  readonly read: readonly string[];
  readonly write: readonly string[];
  /** host:port entries, loopback only. */
  readonly net: readonly string[];
  readonly run: readonly string[];
  /** System information: only "uid" is ever granted (the warm helper checks its folder's owner). */
  readonly sys?: readonly "uid"[];
}

export const NO_PERMISSIONS: PermissionSet = { read: [], write: [], net: [], run: [] };

/** The Worker `deno.permissions` object for a set: every class not listed is off. */
export function workerPermissions(set: PermissionSet): Deno.PermissionOptionsObject {
  const list = (xs: readonly string[]) => (xs.length === 0 ? false : [...new Set(xs)].sort());
  return {
    read: list(set.read),
    write: list(set.write),
    net: list(set.net),
    run: list(set.run),
    env: false,
    sys: list(set.sys ?? []),
    ffi: false,
    import: false,
  };
}
