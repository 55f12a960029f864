/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin/stdout. stdout carries the protocol and
 * nothing else; the caller routes console.log to stderr before calling this. Returns when stdin
 * ends (after the calls in flight have answered) or when `signal` aborts.
 */
import process from "node:process";
import { StdioServerTransport } from "./mcp_deps.ts";
import { createMcpServer, type ServerIdentity } from "./server.ts";
import type { ToolSet } from "./tools.ts";

export interface StdioOptions {
  readonly tools: ToolSet;
  readonly identity: ServerIdentity;
  readonly signal: AbortSignal;
  /** Diagnostics (stderr). */
  readonly log: (line: string) => void;
}

export async function serveStdio(options: StdioOptions): Promise<void> {
  const server = createMcpServer(options.tools, options.identity);
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (err) => options.log(`mcp: ${err.message}`);
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await options.tools.idle();
    // Let the protocol layer write the answers of those calls before the transport closes.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await server.close();
  };
  const onEnd = () => void close();
  process.stdin.on("end", onEnd);
  process.stdin.on("close", onEnd);
  options.signal.addEventListener("abort", onEnd, { once: true });
  if (options.signal.aborted) onEnd();
  await server.connect(transport);
  try {
    await closed;
  } finally {
    process.stdin.off("end", onEnd);
    process.stdin.off("close", onEnd);
    options.signal.removeEventListener("abort", onEnd);
  }
}
