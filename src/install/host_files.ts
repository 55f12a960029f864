/**
 * The host files install edits, derived from the environment alone:
 * - Claude Code's user settings: $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json;
 * - Claude Code's user config holding user-scope MCP servers: $CLAUDE_CONFIG_DIR/.claude.json
 *   when that variable is set, else ~/.claude.json;
 * - Codex's config: $CODEX_HOME/config.toml, else ~/.codex/config.toml.
 */
import { type Env, joinPath, type Paths } from "../config/paths.ts";

export type HostFileRole = "claude-settings" | "claude-config" | "codex-config";

export type Host = "claude" | "codex";

export const ROLE_HOST: Readonly<Record<HostFileRole, Host>> = {
  "claude-settings": "claude",
  "claude-config": "claude",
  "codex-config": "codex",
};

/** What each file holds, for messages. */
export const ROLE_LABEL: Readonly<Record<HostFileRole, string>> = {
  "claude-settings": "Claude Code hooks",
  "claude-config": "Claude Code MCP server",
  "codex-config": "Codex MCP server",
};

export function hostFilePath(role: HostFileRole, paths: Paths, env: Env): string {
  switch (role) {
    case "claude-settings":
      return joinPath(paths.claudeDir, "settings.json");
    case "claude-config":
      return env.CLAUDE_CONFIG_DIR
        ? joinPath(paths.claudeDir, ".claude.json")
        : joinPath(paths.home, ".claude.json");
    case "codex-config":
      return joinPath(paths.codexDir, "config.toml");
  }
}

export function rolesFor(hosts: readonly Host[]): HostFileRole[] {
  const roles: HostFileRole[] = [];
  if (hosts.includes("claude")) roles.push("claude-settings", "claude-config");
  if (hosts.includes("codex")) roles.push("codex-config");
  return roles;
}

/** Backup name of `file` for a run at `stamp` (see backupStamp). */
export function backupPath(file: string, stamp: string): string {
  return `${file}.verdict-backup-${stamp}`;
}

/** A compact UTC timestamp for backup names: 20261129T120000Z. */
export function backupStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, "Z").replaceAll("-", "").replaceAll(":", "");
}
