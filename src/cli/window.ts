/**
 * A window over the records, as the commands that take one read it from their options: --since
 * DATE (inclusive) and --until DATE (exclusive), UTC, a bare date being midnight; --project DIR,
 * the records of DIR or below it; --kind KIND.
 */
import { RECORD_KINDS, type RecordKind } from "../record/record.ts";
import type { RecordWindow } from "../lookup/recall.ts";
import { resolvePath } from "../config/paths.ts";
import { UsageError } from "../errors.ts";
import { stringOption } from "../plan/args.ts";
import { parseTime } from "../plan/clock.ts";
import type { CommandPlan } from "../plan/plan.ts";

export { inWindow, type RecordWindow, underProject } from "../lookup/recall.ts";

/** An option holding a date or an RFC 3339 time, as RFC 3339 (null when absent). */
export function dateOption(plan: CommandPlan, name: string): string | null {
  const raw = stringOption(plan.args, name);
  if (raw === undefined) return null;
  const t = parseTime(raw);
  if (t === null) {
    throw new UsageError(
      `Cannot read --${name} "${raw}": not a date or RFC 3339 time`,
      "write it like 2026-03-01 (midnight UTC) or 2026-03-01T09:30:00Z",
    );
  }
  return t;
}

/** --project DIR as an absolute path without a trailing slash (null when absent). */
export function projectOption(plan: CommandPlan): string | null {
  const project = stringOption(plan.args, "project");
  return project === undefined ? null : resolvePath(project, plan.cwd, plan.paths.home).replace(/\/+$/, "");
}

/** --kind KIND (null when absent); an unknown kind is a usage error. */
export function kindOption(plan: CommandPlan): RecordKind | null {
  const kind = stringOption(plan.args, "kind");
  if (kind === undefined) return null;
  if (!(RECORD_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--kind "${kind}" is not a record kind`, `--kind takes ${RECORD_KINDS.join(", ")}`);
  }
  return kind as RecordKind;
}

/** The window the options name (each part absent: no bound). */
export function windowOf(plan: CommandPlan): RecordWindow {
  const window: RecordWindow = {
    since: dateOption(plan, "since"),
    until: dateOption(plan, "until"),
    project: projectOption(plan),
    kind: kindOption(plan),
  };
  if (window.since !== null && window.until !== null && window.until <= window.since) {
    throw new UsageError(`--until ${window.until} is not after --since ${window.since}`);
  }
  return window;
}

/** Whether the window bounds anything. */
export function bounded(w: RecordWindow): boolean {
  return w.since !== null || w.until !== null || w.project !== null || w.kind !== null;
}
