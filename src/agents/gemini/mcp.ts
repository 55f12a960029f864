/**
 * verdict's MCP server in Gemini CLI's settings.json: `mcpServers.verdict`, a stdio server
 * running `<bin> mcp`, the shape `gemini mcp add verdict <bin> mcp` writes (no `type`). The
 * tool reaches the model as `mcp_verdict_<tool>`. Install does not set `trust` (which skips
 * Gemini CLI's confirmation before each call): that is the person's choice, and a `trust` they
 * add is kept on update. The edits are the shared ones (src/hostfile/mcp_servers.ts).
 */
import type { McpServersSpec } from "../../hostfile/mcp_servers.ts";

export const GEMINI_MCP: McpServersSpec = {
  entry: (bin, env) => ({
    command: bin,
    args: ["mcp"],
    ...(Object.keys(env).length > 0 ? { env: { ...env } } : {}),
  }),
  personalKeys: ["trust", "timeout", "includeTools", "excludeTools"],
  foreignHint: "remove or rename that entry (gemini mcp remove verdict)",
};
