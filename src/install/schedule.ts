/**
 * The scheduled collect, as files and commands for each platform's scheduler. Pure: the
 * platform is a parameter, so every platform's output can be generated (and held to golden
 * files) anywhere.
 *
 * - systemd (Linux): a user service and timer in ~/.config/systemd/user, then
 *   `systemctl --user daemon-reload` and `systemctl --user enable --now verdict-collect.timer`;
 * - launchd (macOS): a user agent ~/Library/LaunchAgents/dev.verdict.collect.plist running
 *   collect with --skip-protected (no privacy prompt from a background job), then `launchctl load`;
 * - cron (other Unix) and schtasks (Windows): nothing is written; the line or command to add by
 *   hand is printed.
 */
import { joinPath } from "../config/paths.ts";
import { shellQuote, systemdQuote, windowsQuote, xmlEscape } from "../hostfile/shell.ts";

export type Scheduler = "systemd" | "launchd" | "cron" | "schtasks";

export const SCHEDULERS: readonly Scheduler[] = ["systemd", "launchd", "cron", "schtasks"];

/** The scheduler of an OS (`Deno.build.os` values). */
export function defaultScheduler(os: string): Scheduler {
  if (os === "linux") return "systemd";
  if (os === "darwin") return "launchd";
  if (os === "windows") return "schtasks";
  return "cron";
}

export const SYSTEMD_SERVICE = "verdict-collect.service";
export const SYSTEMD_TIMER = "verdict-collect.timer";
export const LAUNCHD_LABEL = "dev.verdict.collect";
export const SCHTASKS_NAME = "verdict collect";

/** Seconds after boot before the first systemd run, so a login is not slowed down. */
const SYSTEMD_BOOT_DELAY = "5min";

export interface ScheduleInput {
  readonly scheduler: Scheduler;
  /** Absolute path of the verdict binary. */
  readonly bin: string;
  readonly intervalMinutes: number;
  /** VERDICT_* variables to set for the job. */
  readonly env: Readonly<Record<string, string>>;
  readonly home: string;
  /** $XDG_CONFIG_HOME, else ~/.config (systemd reads user units from there). */
  readonly configHome: string;
}

export interface ScheduleFile {
  readonly path: string;
  readonly text: string;
}

export interface SchedulePlan {
  readonly scheduler: Scheduler;
  /** Files install writes and remove deletes (none for cron and schtasks). */
  readonly files: readonly ScheduleFile[];
  /** Run after the files are written. */
  readonly activate: readonly (readonly string[])[];
  /** Run before the files are removed. */
  readonly deactivate: readonly (readonly string[])[];
  /** Run after the files are removed. */
  readonly afterRemove: readonly (readonly string[])[];
  /** What to do by hand to install (cron, schtasks), or when a command above fails. */
  readonly manualInstall: readonly string[];
  readonly manualRemove: readonly string[];
  /** Said when the scheduler cannot keep the exact interval. */
  readonly note: string | null;
}

const HEADER = '# Written by "verdict schedule install"; "verdict schedule remove" deletes it.';

/** Where a scheduler's files live. */
export function schedulePaths(scheduler: Scheduler, home: string, configHome: string): string[] {
  switch (scheduler) {
    case "systemd": {
      const dir = joinPath(configHome, "systemd", "user");
      return [joinPath(dir, SYSTEMD_SERVICE), joinPath(dir, SYSTEMD_TIMER)];
    }
    case "launchd":
      return [joinPath(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`)];
    default:
      return [];
  }
}

export function schedulePlan(input: ScheduleInput): SchedulePlan {
  switch (input.scheduler) {
    case "systemd":
      return systemdPlan(input);
    case "launchd":
      return launchdPlan(input);
    case "cron":
      return cronPlan(input);
    case "schtasks":
      return schtasksPlan(input);
  }
}

function systemdPlan(input: ScheduleInput): SchedulePlan {
  const [servicePath, timerPath] = schedulePaths("systemd", input.home, input.configHome) as [string, string];
  const service = [
    HEADER,
    "[Unit]",
    "Description=verdict collect: prompts, notes, docs and commits into the records file",
    "",
    "[Service]",
    "Type=oneshot",
    `ExecStart=${systemdQuote(input.bin)} collect`,
    ...Object.entries(input.env).map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`)}`),
    "Nice=10",
    "IOSchedulingClass=idle",
    "",
  ].join("\n");
  const timer = [
    HEADER,
    "[Unit]",
    `Description=Run verdict collect every ${input.intervalMinutes} minutes`,
    "",
    "[Timer]",
    `OnBootSec=${SYSTEMD_BOOT_DELAY}`,
    `OnUnitActiveSec=${input.intervalMinutes}min`,
    `Unit=${SYSTEMD_SERVICE}`,
    "",
    "[Install]",
    "WantedBy=timers.target",
    "",
  ].join("\n");
  const reload = ["systemctl", "--user", "daemon-reload"];
  const enable = ["systemctl", "--user", "enable", "--now", SYSTEMD_TIMER];
  const disable = ["systemctl", "--user", "disable", "--now", SYSTEMD_TIMER];
  return {
    scheduler: "systemd",
    files: [{ path: servicePath, text: service }, { path: timerPath, text: timer }],
    activate: [reload, enable],
    deactivate: [disable],
    afterRemove: [reload],
    manualInstall: [`${reload.join(" ")} && ${enable.join(" ")}`],
    manualRemove: [`${disable.join(" ")}; ${reload.join(" ")}`],
    note: null,
  };
}

function launchdPlan(input: ScheduleInput): SchedulePlan {
  const [plistPath] = schedulePaths("launchd", input.home, input.configHome) as [string];
  const str = (s: string) => `<string>${xmlEscape(s)}</string>`;
  const envEntries = Object.entries(input.env);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- ${HEADER.slice(2)} -->`,
    '<plist version="1.0">',
    "<dict>",
    "  <key>Label</key>",
    `  ${str(LAUNCHD_LABEL)}`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    `    ${str(input.bin)}`,
    `    ${str("collect")}`,
    `    ${str("--skip-protected")}`,
    "  </array>",
    ...(envEntries.length > 0
      ? [
        "  <key>EnvironmentVariables</key>",
        "  <dict>",
        ...envEntries.flatMap(([k, v]) => [`    <key>${xmlEscape(k)}</key>`, `    ${str(v)}`]),
        "  </dict>",
      ]
      : []),
    "  <key>StartInterval</key>",
    `  <integer>${input.intervalMinutes * 60}</integer>`,
    "  <key>RunAtLoad</key>",
    "  <true/>",
    "  <key>ProcessType</key>",
    "  <string>Background</string>",
    "  <key>LowPriorityIO</key>",
    "  <true/>",
    "  <key>StandardErrorPath</key>",
    `  ${str(joinPath(input.home, "Library", "Logs", "verdict-collect.log"))}`,
    "</dict>",
    "</plist>",
    "",
  ];
  const unload = ["launchctl", "unload", "-w", plistPath];
  const load = ["launchctl", "load", "-w", plistPath];
  return {
    scheduler: "launchd",
    files: [{ path: plistPath, text: lines.join("\n") }],
    activate: [load],
    deactivate: [unload],
    afterRemove: [],
    manualInstall: [load.map(shellQuote).join(" ")],
    manualRemove: [unload.map(shellQuote).join(" ")],
    note: null,
  };
}

/** A cron expression for "every N minutes", and whether cron keeps N exactly. */
export function cronExpression(minutes: number): { expr: string; exact: boolean } {
  if (minutes < 60) return { expr: `*/${minutes} * * * *`, exact: 60 % minutes === 0 };
  if (minutes < 24 * 60) {
    const h = Math.round(minutes / 60);
    return { expr: h === 1 ? "0 * * * *" : `0 */${h} * * *`, exact: minutes % 60 === 0 && 24 % h === 0 };
  }
  const d = Math.round(minutes / (24 * 60));
  return { expr: d === 1 ? "0 0 * * *" : `0 0 */${d} * *`, exact: d === 1 && minutes === 24 * 60 };
}

function cronPlan(input: ScheduleInput): SchedulePlan {
  const { expr, exact } = cronExpression(input.intervalMinutes);
  const assigns = Object.entries(input.env).map(([k, v]) => `${k}=${shellQuote(v)} `).join("");
  // cron ends the command at an unescaped % (the rest becomes its stdin), so each % is escaped.
  const command = `${assigns}${shellQuote(input.bin)} collect --quiet`.replaceAll("%", "\\%");
  const line = `${expr} ${command}`;
  return {
    scheduler: "cron",
    files: [],
    activate: [],
    deactivate: [],
    afterRemove: [],
    manualInstall: ["Add this line with `crontab -e`:", line],
    manualRemove: ["Remove the line running `verdict collect` with `crontab -e`."],
    note: exact
      ? null
      : `cron cannot run every ${input.intervalMinutes} minutes exactly; the line runs on "${expr}"`,
  };
}

/** A schtasks schedule for "every N minutes" (/SC MINUTE takes 1 to 1439). */
export function schtasksSchedule(minutes: number): { args: string[]; exact: boolean } {
  if (minutes < 1440) return { args: ["/SC", "MINUTE", "/MO", String(minutes)], exact: true };
  if (minutes % 1440 === 0) return { args: ["/SC", "DAILY", "/MO", String(minutes / 1440)], exact: true };
  const h = Math.min(23, Math.round(minutes / 60));
  return { args: ["/SC", "HOURLY", "/MO", String(h)], exact: false };
}

function schtasksPlan(input: ScheduleInput): SchedulePlan {
  const { args, exact } = schtasksSchedule(input.intervalMinutes);
  const run = `"${input.bin}" collect --quiet`;
  const create = [
    "schtasks",
    "/Create",
    "/F",
    ...args,
    "/TN",
    `"${SCHTASKS_NAME}"`,
    "/TR",
    `"${run.replaceAll('"', '\\"')}"`,
  ];
  const setx = Object.entries(input.env).map(([k, v]) => `setx ${k} ${windowsQuote(v)}`);
  return {
    scheduler: "schtasks",
    files: [],
    activate: [],
    deactivate: [],
    afterRemove: [],
    manualInstall: [
      "Run in a Command Prompt:",
      ...setx,
      create.join(" "),
    ],
    manualRemove: ["Run in a Command Prompt:", `schtasks /Delete /F /TN "${SCHTASKS_NAME}"`],
    note: exact
      ? null
      : `Task Scheduler cannot run every ${input.intervalMinutes} minutes exactly; it runs every ${
        args[3]
      } hours`,
  };
}

/** The interval written in an installed timer or plist, in minutes, or null. */
export function installedInterval(scheduler: Scheduler, text: string): number | null {
  if (scheduler === "systemd") {
    const m = /^OnUnitActiveSec=(\d+)min$/m.exec(text);
    return m ? Number(m[1]) : null;
  }
  if (scheduler === "launchd") {
    const m = /<key>StartInterval<\/key>\s*<integer>(\d+)<\/integer>/.exec(text);
    return m ? Number(m[1]) / 60 : null;
  }
  return null;
}
