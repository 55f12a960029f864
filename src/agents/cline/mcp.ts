/**
 * verdict's MCP server in the Cline CLI's MCP settings file (`<data dir>/settings/
 * cline_mcp_settings.json`, or $CLINE_MCP_SETTINGS_PATH): `mcpServers.verdict`, a stdio server
 * running `<bin> mcp`, in the shape `cline mcp add` writes (`{"transport": {"type": "stdio",
 * "command", "args", "env"}}`); Cline also reads the older flat shape (`command`, `args`), which
 * is recognised as verdict's own too. Each session loads the file's servers at its start and
 * offers their tools to the model as `verdict__<tool>` (seen with 3.0.65). The edits are the
 * shared ones (src/hostfile/mcp_servers.ts); a settings file left empty by uninstall is deleted.
 */
import type { EditResult, MayPrune } from "../../hostfile/errors.ts";
import { removedWhenEmpty } from "../../hostfile/host_json.ts";
import {
  installMcpServer,
  isVerdictMcpEntry,
  type McpServersSpec,
  mcpServerState,
  type McpState,
  uninstallMcpServer,
} from "../../hostfile/mcp_servers.ts";
import { isObject } from "../json.ts";

/** Keys of an entry a person may set in Cline (its settings screen turns a server off with `disabled`). */
const PERSONAL_KEYS = ["disabled", "timeoutSeconds"];

/** Is `value` verdict's entry: a stdio `transport` running `verdict mcp`, or the flat shape? */
export function isClineVerdictEntry(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (!("transport" in value)) return isVerdictMcpEntry(value, PERSONAL_KEYS);
  if (Object.keys(value).some((k) => k !== "transport" && !PERSONAL_KEYS.includes(k))) return false;
  return isVerdictMcpEntry(value.transport);
}

export const CLINE_MCP: McpServersSpec = {
  entry: (bin, env) => ({ transport: { type: "stdio", command: bin, args: ["mcp"], env: { ...env } } }),
  personalKeys: PERSONAL_KEYS,
  foreignHint: "remove or rename that entry in cline_mcp_settings.json (cline mcp remove verdict)",
  isOurs: isClineVerdictEntry,
};

export function installClineMcp(
  text: string,
  path: string,
  bin: string,
  env: Readonly<Record<string, string>>,
): EditResult {
  return installMcpServer(CLINE_MCP, text, path, bin, env);
}

/** Removes mcpServers.verdict; a settings file left with nothing in it is deleted. */
export function uninstallClineMcp(text: string, path: string, mayPrune?: MayPrune): EditResult {
  return removedWhenEmpty(uninstallMcpServer(CLINE_MCP, text, path, mayPrune));
}

export function clineMcpState(text: string, path: string): McpState {
  return mcpServerState(CLINE_MCP, text, path);
}
