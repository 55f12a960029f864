/**
 * Backups of the host files install edits (which files those are is each agent's to say:
 * `hostFiles` in src/agents/<id>/mod.ts).
 */

/** Backup name of `file` for a run at `stamp` (see backupStamp). */
export function backupPath(file: string, stamp: string): string {
  return `${file}.verdict-backup-${stamp}`;
}

/** A compact UTC timestamp for backup names: 20261129T120000Z. */
export function backupStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, "Z").replaceAll("-", "").replaceAll(":", "");
}
