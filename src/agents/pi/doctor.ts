/**
 * pi's own doctor check: is verdict's extension in the extensions folder, is it verdict's, does it
 * run this verdict, and will pi load it? pi loads every `*.ts` in that folder at start (no trust
 * prompt), unless settings.json's `extensions` list excludes it (`!pattern` or `-path`, which
 * `pi config` writes when a person turns it off) or pi runs with `--no-extensions`. An extension
 * written while pi runs takes effect at its next start (or `/reload`).
 */
import { parseJsonc } from "../../config/jsonc.ts";
import { type Check, check, reason } from "../../hostfile/checks.ts";
import type { DoctorContext } from "../agent.ts";
import { isObject } from "../json.ts";
import { extensionProgram, isOurExtension } from "./extension.ts";

/** The role of the extension file, and of pi's settings.json (doctor reads it, install never edits it). */
export const EXTENSION_ROLE = "pi-extension";
export const SETTINGS_ROLE = "pi-settings";

const FIX = "run verdict install --pi";

/** The entries of settings.json's `extensions` list that turn verdict's extension off. */
export function excludingEntries(settings: unknown): string[] {
  if (!isObject(settings) || !Array.isArray(settings.extensions)) return [];
  return settings.extensions.filter((e): e is string =>
    typeof e === "string" && /^[!-]/.test(e) && /verdict(\.ts)?\b|\*/.test(e)
  );
}

export async function extensionCheck(ctx: DoctorContext): Promise<Check> {
  if (!ctx.agent.present) return check("extension", "skip", "pi not found; no extension to check");
  const path = ctx.agent.files.find((f) => f.role === EXTENSION_ROLE)!.path;
  const settingsPath = ctx.agent.files.find((f) => f.role === SETTINGS_ROLE)?.path ?? null;
  let text: string | null;
  try {
    text = await ctx.read(path);
  } catch (err) {
    return check("extension", "fail", `Cannot read "${path}": ${reason(err)}`, `make ${path} readable`);
  }
  if (text === null) return check("extension", "fail", `no verdict extension at ${path}`, FIX);
  if (!isOurExtension(text)) {
    return check(
      "extension",
      "warn",
      `${path} was not written by verdict install; pi runs it, but it is not verdict's`,
      `move it away, then ${FIX}`,
    );
  }
  const program = extensionProgram(text);
  if (program !== ctx.bin) {
    return check(
      "extension",
      "warn",
      `the extension runs ${program ?? "an unknown program"}, but this verdict is ${ctx.bin}`,
      `${FIX} to point it here`,
    );
  }
  let excluded: string[] = [];
  try {
    const s = settingsPath === null ? null : await ctx.read(settingsPath);
    excluded = s === null || s.trim() === "" ? [] : excludingEntries(parseJsonc(s));
  } catch {
    // An unreadable settings.json: pi reports it itself; the extension folder still loads.
  }
  if (excluded.length > 0) {
    return check(
      "extension",
      "fail",
      `pi will not load verdict's extension: ${settingsPath} lists ${
        excluded.map((e) => `"${e}"`).join(", ")
      } ` +
        "under extensions",
      `remove that entry from ${settingsPath} (or turn the extension back on in pi config)`,
    );
  }
  return check(
    "extension",
    "ok",
    `extension (hint, compaction verdict and handoff) in ${path}; pi loads it at start, except when run ` +
      "with --no-extensions",
  );
}
