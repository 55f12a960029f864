/**
 * Where `verdict serve` listens, and the refusals that come before listening. Pure: flags and
 * the environment snapshot in, settings out. The permission rules (src/cli/grants.ts)
 * use `listenAddress` so the Worker's net grant is exactly the address serve binds.
 */
import { type Env, resolvePath } from "../config/paths.ts";
import { UsageError } from "../errors.ts";
import { isGrantedLoopback } from "../config/config.ts";

/** serve's defaults as SECURITY.md states them; `verdict serve --help` prints these. */
export const DEFAULT_BIND = "127.0.0.1";
export const DEFAULT_PORT = 8933;

/** A refusal to start, with a hint line giving the way out: a usage error (exit 3). */
export class ServeRefusal extends UsageError {
  constructor(message: string, hint: string) {
    super(message, hint);
    this.name = "ServeRefusal";
  }
}

export interface ListenRequest {
  /** --bind, else $VERDICT_MCP_BIND, else 127.0.0.1. */
  readonly bind: string | undefined;
  /** --port, else 8933. */
  readonly port: string | undefined;
  /** --token-file (absolute), else $VERDICT_MCP_TOKEN_FILE. */
  readonly tokenFile: string | undefined;
  readonly env: Env;
  readonly cwd: string;
  readonly home: string;
}

export interface ListenSettings {
  /** The address to bind, normalised; IPv6 without brackets. */
  readonly host: string;
  readonly port: number;
  /** Absolute path of the bearer token file, or null. */
  readonly tokenFile: string | null;
  /** Bound to a loopback name verdict's permission holds (127.0.0.1, ::1, localhost): always, once resolved. */
  readonly loopback: boolean;
  /** Bound to every interface (0.0.0.0 or ::). */
  readonly wildcard: boolean;
}

const BIND_HINT = "give 127.0.0.1, ::1 or localhost";

function ipv4(text: string): boolean {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** Normalises a bind address, or throws ServeRefusal naming it. */
export function normalizeHost(raw: string, from: string): string {
  const text = raw.trim().toLowerCase();
  if (text === "localhost" || ipv4(text)) return text;
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (bare.includes(":") && /^[0-9a-f:.]+$/.test(bare)) {
    try {
      return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
    } catch {
      // fall through to the refusal
    }
  }
  throw new ServeRefusal(`refusing to listen on ${from} "${raw}": not an IP address`, BIND_HINT);
}

/** Is `host` a loopback name verdict's net permission holds (127.0.0.1, localhost, ::1)? */
export function isLoopbackHost(host: string): boolean {
  return isGrantedLoopback(host);
}

function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::";
}

/** Parses --port: a whole number 1..65535. */
export function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ServeRefusal(`refusing to listen on port "${raw}": not a port number`, "give --port 1..65535");
  }
  return Number(raw);
}

/**
 * The listen settings for a request. Throws ServeRefusal for a malformed address or port, and
 * for a bind outside the loopback names verdict's permission holds (a token file or not).
 */
export function resolveListen(req: ListenRequest): ListenSettings {
  const bindFrom = req.bind !== undefined ? "--bind" : "VERDICT_MCP_BIND";
  const rawBind = req.bind ?? (req.env.VERDICT_MCP_BIND || undefined);
  const host = rawBind === undefined ? DEFAULT_BIND : normalizeHost(rawBind, bindFrom);
  const port = parsePort(req.port);
  const rawToken = req.tokenFile ?? (req.env.VERDICT_MCP_TOKEN_FILE || undefined);
  const tokenFile = rawToken === undefined ? null : resolvePath(rawToken, req.cwd, req.home);
  const loopback = isLoopbackHost(host);
  if (!loopback) {
    // Token or not: the binary's own permission holds these names alone (src/config/config.ts, LOOPBACK_NAMES).
    throw new ServeRefusal(
      `refusing to listen on ${hostPort(host, port)}: verdict reaches the network on 127.0.0.1, localhost ` +
        "and ::1 alone",
      "bind to 127.0.0.1 (the default); to reach it from another machine, forward a port to it " +
        "(ssh -L 8933:127.0.0.1:8933 <this machine>)",
    );
  }
  return { host, port, tokenFile, loopback, wildcard: isWildcard(host) };
}

/** host:port as Deno's net permission and the Host header write it ("[::1]:8933"). */
export function hostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The MCP endpoint's URL. */
export function mcpUrl(settings: Pick<ListenSettings, "host" | "port">): string {
  return `http://${hostPort(settings.host, settings.port)}/mcp`;
}

/**
 * The Host header values a request may carry (lower case, with the port), or null when any
 * Host is accepted: a wildcard bind cannot know the names it is reached by. resolveListen
 * refuses every bind but the loopback names, so only settings made by hand carry one.
 */
export function allowedHosts(settings: ListenSettings): ReadonlySet<string> | null {
  if (settings.wildcard) return null;
  const names = settings.loopback ? [settings.host, "localhost", "127.0.0.1", "::1"] : [settings.host];
  const out = new Set<string>();
  for (const name of names) {
    out.add(hostPort(name, settings.port));
    if (settings.port === 80) out.add(name.includes(":") ? `[${name}]` : name);
  }
  return out;
}

/**
 * The address the serve Worker gets net access to, or null when the flags are malformed or
 * refused (the command then stops with the refusal before listening).
 */
export function listenAddress(req: ListenRequest): { host: string; port: number } | null {
  try {
    const s = resolveListen(req);
    return { host: s.host, port: s.port };
  } catch {
    return null;
  }
}

/** The token file named by flags or environment, absolute, or null (for the read grant). */
export function tokenFilePath(req: Pick<ListenRequest, "tokenFile" | "env" | "cwd" | "home">): string | null {
  const raw = req.tokenFile ?? (req.env.VERDICT_MCP_TOKEN_FILE || undefined);
  return raw === undefined ? null : resolvePath(raw, req.cwd, req.home);
}

/** $VERDICT_CALL_LOG, absolute, or null. */
export function callLogPath(env: Env, cwd: string, home: string): string | null {
  const raw = env.VERDICT_CALL_LOG;
  return raw ? resolvePath(raw, cwd, home) : null;
}
