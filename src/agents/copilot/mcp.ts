/**
 * verdict's MCP server in Copilot CLI's `<folder>/mcp-config.json`: `mcpServers.verdict`, a
 * stdio server running `<bin> mcp` (`"type": "stdio"`; `copilot mcp add` writes the legacy alias
 * "local" and `"tools": ["*"]`, both recognised as verdict's own). The tool reaches the model as
 * `verdict-<tool>`. The edits are the shared ones (src/hostfile/mcp_servers.ts).
 */
import type { McpServersSpec } from "../../hostfile/mcp_servers.ts";

export const COPILOT_MCP: McpServersSpec = {
  entry: (bin, env) => ({ type: "stdio", command: bin, args: ["mcp"], env: { ...env } }),
  types: ["stdio", "local"],
  personalKeys: ["tools", "timeout", "displayName"],
  foreignHint: "remove or rename that entry in mcp-config.json (copilot mcp remove verdict)",
};
