/**
 * `verdict remember TEXT [--project DIR] [--on WORD…]`: a decision added by hand, stored as a
 * record whose source is a section of remembered.md beside the archive (src/collect/remembered.ts),
 * so its quote can be traced; `--on` pins it to trigger words: the hint shows it whenever a prompt
 * names one of them (once per session, as any quote), even where the gate stays silent.
 */
import { rememberDecision, withArchive } from "../../collect/edit.ts";
import { sourcePosition } from "../../record/record.ts";
import { compileCredentialRules, holdsCredential } from "../../record/secrets.ts";
import { resolvePath } from "../../config/paths.ts";
import { EXIT, InputError, UsageError } from "../../errors.ts";
import { storePaths } from "../../store/paths.ts";
import { booleanOption, stringOption, stringsOption } from "../../plan/args.ts";
import { nowMs } from "../../plan/clock.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

/** Longest decision remembered (characters): a decision is said briefly; a longer text is a note. */
export const REMEMBER_MAX_CHARS = 2000;

/** The trigger words of `--on` (repeatable, or joined by commas): lower-case, each a word. */
export function triggerWords(values: readonly string[]): string[] {
  const words = values.flatMap((v) => v.split(/[,\s]+/)).map((w) => w.trim().toLowerCase()).filter((w) =>
    w !== ""
  );
  for (const w of words) {
    if (!/^[\p{L}\p{N}_.-]+$/u.test(w)) {
      throw new UsageError(
        `--on "${w}" is not one word (letters, digits, "_", "." or "-")`,
        "e.g. --on pnpm,npm",
      );
    }
  }
  return [...new Set(words)].sort();
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const text = plan.args.positionals.join(" ").trim();
  if (text === "") {
    throw new UsageError(
      '"verdict remember" needs the decision',
      'e.g. verdict remember "Always use pnpm, never npm." --on pnpm,npm',
    );
  }
  if (text.length > REMEMBER_MAX_CHARS) {
    throw new InputError(
      `The decision is ${text.length} characters; at most ${REMEMBER_MAX_CHARS}`,
      "say it briefly; keep long notes in a doc root",
    );
  }
  if (holdsCredential(text, compileCredentialRules(plan.config.credential_patterns))) {
    throw new InputError(
      "The decision holds what looks like a credential; verdict never stores one",
      "leave the secret out",
    );
  }
  const projectOption = stringOption(plan.args, "project");
  const project = projectOption === undefined
    ? plan.cwd
    : resolvePath(projectOption, plan.cwd, plan.paths.home);
  const on = triggerWords(stringsOption(plan.args, "on"));
  const time = new Date(nowMs(plan.asOf)).toISOString();
  const paths = storePaths(plan.paths.records);
  const record = await withArchive(
    paths,
    (archive) => rememberDecision(archive, { text, project, time, on }),
  );
  if (booleanOption(plan.args, "json")) {
    await io.stdout(
      JSON.stringify({ id: record.id, source: sourcePosition(record), pinned: on, record }, null, 2) + "\n",
    );
  } else {
    await io.stdout(
      `remembered ${record.id} (${record.project || "every project"}${
        on.length > 0 ? `; pinned on ${on.join(", ")}` : ""
      }): ${sourcePosition(record)}\n`,
    );
  }
  return EXIT.ok;
}
