/**
 * Quoting for the command lines verdict writes into other programs' files: POSIX shell words
 * (Claude Code runs a hook's command through a shell), systemd unit arguments, TOML strings and
 * XML text. Each returns text that the consumer reads back as exactly the given string.
 */

/** A POSIX shell word: bare when it holds only safe characters, else single-quoted. */
export function shellQuote(word: string): string {
  // No "=" (a leading NAME=value would be an assignment) and no "~" (tilde expansion).
  if (/^[A-Za-z0-9_./:@%+,-]+$/.test(word)) return word;
  return "'" + word.replaceAll("'", `'\\''`) + "'";
}

/** A systemd unit-file argument: double-quoted, with "%" and "$" escaped against expansion. */
export function systemdQuote(word: string): string {
  const escaped = word
    .replaceAll("\\", "\\\\")
    .replaceAll('"', '\\"')
    .replaceAll("%", "%%")
    .replaceAll("$", () => "$$");
  return `"${escaped}"`;
}

/** A TOML basic string. */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out + '"';
}

/** Text for an XML element or attribute. */
export function xmlEscape(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** A Windows command-line argument (for schtasks /TR): double-quoted when it needs to be. */
export function windowsQuote(word: string): string {
  if (/^[A-Za-z0-9_.:\\/@%+,-]+$/.test(word)) return word;
  return `"${word.replaceAll('"', '\\"')}"`;
}
