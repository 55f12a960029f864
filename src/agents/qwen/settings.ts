/**
 * Qwen Code's user settings file (`<folder>/settings.json`): its hooks (hooks.ts) and its MCP
 * server (mcp.ts), edited as the family's settings file (src/agents/gemini_family/): Qwen Code
 * kept Gemini CLI's layout.
 */
import { settingsFile } from "../gemini_family/settings_file.ts";
import { QWEN_HOOKS } from "./hooks.ts";
import { QWEN_MCP } from "./mcp.ts";

export const QWEN_SETTINGS = settingsFile({ hooks: QWEN_HOOKS, mcp: QWEN_MCP });

export const {
  install: installQwenSettings,
  uninstall: uninstallQwenSettings,
  mcpState: qwenMcpState,
} = QWEN_SETTINGS;
