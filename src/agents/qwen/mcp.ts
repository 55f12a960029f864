/**
 * verdict's MCP server in Qwen Code's settings.json: `mcpServers.verdict`, a stdio server
 * running `<bin> mcp`, in the shape `qwen mcp add verdict <bin> mcp` writes (no `type`). The
 * tool reaches the model as `mcp__verdict__<tool>`. Install does not set `trust` (which skips
 * Qwen's confirmation before each call): that is the person's choice, and a `trust` they add is
 * kept on update. The edits are the shared ones (src/hostfile/mcp_servers.ts).
 */
import type { McpServersSpec } from "../../hostfile/mcp_servers.ts";

export const QWEN_MCP: McpServersSpec = {
  entry: (bin, env) => ({
    command: bin,
    args: ["mcp"],
    ...(Object.keys(env).length > 0 ? { env: { ...env } } : {}),
  }),
  personalKeys: ["trust", "timeout", "includeTools", "excludeTools", "description"],
  foreignHint: "remove or rename that entry (qwen mcp remove verdict)",
};
