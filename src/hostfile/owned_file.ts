/**
 * A file that is verdict's alone: an agent's plugin or extension that runs the verdict command
 * (OpenCode's plugin, pi's extension, the Cline CLI's plugin). install writes it whole and keeps it
 * up to date, refuses a file at that path it did not write (one of verdict's starts with the marker
 * line install writes), and uninstall deletes it. The program it runs is its `const VERDICT = "…";`
 * line, which every such file holds.
 */
import { type EditResult, HostFileError } from "./errors.ts";

export interface OwnedFile {
  /** The first line install writes: how a file of verdict's is known. */
  readonly marker: string;
  /** What the file is, in the list of changes ("hint plugin", "extension"). */
  readonly label: string;
  /** What a person's own file at that path is called in a refusal ("plugin", "extension"). */
  readonly noun: string;
  /** Said whenever install writes the file (a limit of the agent's worth minding). */
  readonly notes?: readonly string[];
}

export function isOwnedFile(spec: OwnedFile, text: string): boolean {
  return text.startsWith(spec.marker);
}

/** The program an installed file runs, or null. */
export function ownedFileProgram(text: string): string | null {
  const m = /^const VERDICT = ("(?:[^"\\]|\\.)*");$/m.exec(text);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as string;
  } catch {
    return null;
  }
}

/** Writes `wanted` (the file's whole text) where nothing, or an older file of verdict's, is. */
export function installOwnedFile(spec: OwnedFile, text: string, path: string, wanted: string): EditResult {
  const notes = [...spec.notes ?? []];
  if (text === "") return { text: wanted, changes: [`${spec.label} added`], notes };
  if (!isOwnedFile(spec, text)) {
    throw new HostFileError(
      `refusing to overwrite "${path}": it was not written by "verdict install"`,
      `move that ${spec.noun} to another name, then run the command again; nothing was changed`,
    );
  }
  if (text === wanted) return { text, changes: [], notes: [] };
  return { text: wanted, changes: [`${spec.label} updated`], notes };
}

/** Deletes a file of verdict's; leaves anyone else's as it is. */
export function uninstallOwnedFile(spec: OwnedFile, text: string): EditResult {
  if (text === "") return { text, changes: [], notes: [] };
  if (!isOwnedFile(spec, text)) {
    return { text, changes: [], notes: [`this ${spec.noun} was not written by verdict install; left as is`] };
  }
  return { text: "", changes: [`${spec.label} deleted`], notes: [], remove: true };
}
