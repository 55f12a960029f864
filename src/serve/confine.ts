/**
 * The server's own check of its network confinement, run before it listens. The launcher gives
 * the mcp/serve Worker net access to its listen address (and the judge service, when one is
 * configured) and nothing else; these functions ask Deno what this thread may reach, so a
 * broken launcher or a hand-made embedding that grants more is refused instead of trusted.
 */
import { ServeRefusal } from "./listen.ts";

/** Why this thread's net grant is wider than `allowed` ("host:port" entries), or null. */
export async function netConfinementProblem(allowed: readonly string[]): Promise<string | null> {
  if ((await Deno.permissions.query({ name: "net" })).state === "granted") {
    return "this process may reach any host";
  }
  const hosts = new Set(allowed.map((a) => a.slice(0, a.lastIndexOf(":"))));
  for (const host of hosts) {
    if ((await Deno.permissions.query({ name: "net", host })).state === "granted") {
      return `this process may reach every port of ${host}`;
    }
  }
  return null;
}

/** Throws ServeRefusal when this thread's net grant is wider than `allowed`. */
export async function assertNetConfined(allowed: readonly string[]): Promise<void> {
  const problem = await netConfinementProblem(allowed);
  if (problem !== null) {
    throw new ServeRefusal(
      `refusing to serve: ${problem}; the server must hold net access to its own address only`,
      'run it as "verdict serve" (or "verdict mcp"), whose sandbox grants exactly that',
    );
  }
}

export type ProbeOutcome =
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "connected" }
  | { readonly kind: "failed"; readonly message: string };

/**
 * Tries one TCP connection to `target` ("host:port") and closes it at once. "refused" means
 * Deno's sandbox said no before any packet left (NotCapable); "failed" means the sandbox let the
 * attempt through and the network failed it (which is as bad as "connected" for confinement).
 */
export async function probeConnect(target: string): Promise<ProbeOutcome> {
  const i = target.lastIndexOf(":");
  const hostname = target.slice(0, i).replace(/^\[(.*)\]$/, "$1");
  const port = Number(target.slice(i + 1));
  try {
    const conn = await Deno.connect({ hostname, port });
    conn.close();
    return { kind: "connected" };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof Deno.errors.NotCapable) return { kind: "refused", message };
    return { kind: "failed", message };
  }
}
