/**
 * Gemini CLI's user settings file (`<folder>/settings.json`): its hooks (hooks.ts) and its MCP
 * server (mcp.ts), edited as the family's settings file (src/agents/gemini_family/).
 */
import { settingsFile } from "../gemini_family/settings_file.ts";
import { GEMINI_HOOKS } from "./hooks.ts";
import { GEMINI_MCP } from "./mcp.ts";

export const GEMINI_SETTINGS = settingsFile({ hooks: GEMINI_HOOKS, mcp: GEMINI_MCP });

export const {
  install: installGeminiSettings,
  uninstall: uninstallGeminiSettings,
  mcpState: geminiMcpState,
} = GEMINI_SETTINGS;
