/**
 * Loaders of the commands that run in the launcher's own process (sandbox "revoke" or "none").
 * Kept apart from the Worker commands so the per-prompt path's module graph stays small.
 */
import type { CommandModule } from "./plan.ts";

export const IN_PROCESS_COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  "hint": () => import("./cmd/hint.ts"),
  "hook user-prompt": () => import("./cmd/hook_user_prompt.ts"),
  "version": () => import("./cmd/version.ts"),
  // These launch their own narrowed Worker once the clock and the paths are pinned.
  "install": async () => ({ run: (await import("./cmd/install.ts")).launch }),
  "uninstall": async () => ({ run: (await import("./cmd/uninstall.ts")).launch }),
  "schedule install": async () => ({ run: (await import("./cmd/schedule.ts")).launch }),
  "schedule remove": async () => ({ run: (await import("./cmd/schedule.ts")).launch }),
  "schedule status": async () => ({ run: (await import("./cmd/schedule.ts")).launch }),
  "doctor": async () => ({ run: (await import("./cmd/doctor.ts")).launch }),
  // Probing a revoke-mode command runs the probe in-process after the same revoke.
  "sandbox-probe": () => import("./cmd/sandbox_probe.ts"),
};
