/**
 * In-process confinement for the per-prompt path: once a command has opened the few files it
 * needs, it drops every permission class. Open handles stay usable; any new read, write, spawn
 * or connection fails with Deno's NotCapable error. Cheaper than a Worker (~14 ms here). The
 * launcher drops the same classes once its Worker is running (./launch.ts).
 */
const CLASSES = ["read", "write", "net", "run", "env", "sys", "ffi"] as const;

export async function revokeAll(): Promise<void> {
  for (const name of CLASSES) await Deno.permissions.revoke({ name });
}
