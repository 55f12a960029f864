/**
 * `verdict warm serve|status|stop`: the warm helper the per-prompt hook asks first
 * (src/warm/). `serve` runs it (a hook starts it, detached, when it finds none); `status` says
 * whether one runs, for which build, since when, how many prompts it answered; `stop` ends it.
 */
import { EXIT } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { stopSignal } from "../../sandbox/stop.ts";
import { serveWarm } from "../../warm/serve.ts";
import { privateFolderProblem } from "../../warm/folder.ts";
import { connectToHelper, WARM_ADDRESS } from "../../warm/handshake.ts";
import {
  buildIdentity,
  encodeFrame,
  readFrame,
  WARM_PROTOCOL,
  warmFolderOf,
  type WarmOp,
  type WarmStatus,
} from "../../warm/wire.ts";
import { hookDialectOf } from "../../agents/registry.ts";
import { AGENTS } from "../../agents/registry.ts";
import { writeAll } from "../../fsutil/bytes.ts";
import { describeTrouble, readTroubleSummary } from "../../gate/health.ts";
import { nowMs } from "../../plan/clock.ts";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const build = buildIdentity(Deno.execPath());
  if (plan.command === "warm serve") {
    // Every hook dialect and the in-memory index now: this Worker cannot load a module later.
    for (const a of AGENTS) if (a.hookDialect !== null) await hookDialectOf(a.id);
    await import("../../rank/memory_index.ts");
    const why = await serveWarm({
      env: plan.env,
      cwd: plan.cwd,
      build,
      signal: stopSignal.signal,
      // Accepting on its listener needs no permission: from here the helper can reach nothing.
      onListening: () => Deno.permissions.revokeSync({ name: "net" }),
    });
    if (plan.env.VERDICT_WARM_LOG === "1") await io.stderr(`verdict warm serve: ended (${why})\n`);
    return EXIT.ok;
  }
  const op: WarmOp = plan.command === "warm stop" ? "stop" : "status";
  const folder = warmFolderOf(plan.paths.stateDir);
  const address = `${folder}/${WARM_ADDRESS}`;
  const problem = privateFolderProblem(folder);
  if (problem !== null && problem !== "it does not exist") {
    await io.stderr(
      `Cannot ${
        op === "stop" ? "stop" : "ask"
      } the warm helper "${address}": its folder is unsafe: ${problem}\n` +
        `hint: the hook ignores it and runs in-process; remove "${folder}" and the next prompt makes a private one\n`,
    );
    return EXIT.runtime;
  }
  const status = problem === null ? await ask(address, op, build) : null;
  const trouble = op === "status" ? [hookTroubleLine(plan)] : [];
  if (status === null) {
    await io.stdout(
      [`verdict warm: no helper running (address file ${address})`, ...trouble].join("\n") + "\n",
    );
    return op === "stop" ? EXIT.ok : EXIT.finding;
  }
  if (op === "stop") {
    await io.stdout(`verdict warm: stopped the helper (address file ${address})\n`);
    return EXIT.ok;
  }
  const s = status as WarmStatus;
  await io.stdout(
    [
      `verdict warm: running, pid ${s.pid}, since ${s.startedAt}, ${s.requests} prompt(s) answered`,
      `  address file: ${address}`,
      `  build: ${
        s.build === build ? "this build" : `another build (${s.build}); it stops at this build's next prompt`
      }`,
      `  idle exit: after ${Math.round(s.idleExitMs / 60_000)} min without a prompt`,
      ...(typeof s.archiveOpens === "number"
        ? [`  archive: opened ${s.archiveOpens} time(s), kept open for ${s.archiveReused ?? 0} prompt(s)`]
        : []),
      ...(typeof s.warmUpPrompts === "number"
        ? [`  warm-up: asked itself ${s.warmUpPrompts} of the archive's newest prompt(s), answers dropped`]
        : []),
      ...trouble,
    ].join("\n") + "\n",
  );
  return EXIT.ok;
}

/** What the hook's trouble ledger (src/gate/health.ts) holds for the last day, in one line. */
function hookTroubleLine(plan: CommandPlan): string {
  const summary = readTroubleSummary(plan.paths.stateDir, nowMs(plan.asOf));
  const what = summary === null ? null : describeTrouble(summary);
  return what === null
    ? "  hook: no trouble counted in the last day"
    : `  hook: ${what} (run "verdict doctor" to see why)`;
}

/** One request; the status (or `true` for a stop) or null when no helper answered. */
async function ask(address: string, op: WarmOp, build: string): Promise<WarmStatus | true | null> {
  const connecting = await connectToHelper(address, Deno.uid());
  if (connecting.kind !== "connected") return null;
  const { conn, proof } = connecting;
  try {
    const frame = encodeFrame(
      { protocol: WARM_PROTOCOL, build, op, argv: [], env: {}, cwd: "/", elapsedMs: 0, bodyBytes: 0 },
      new Uint8Array(),
    );
    await writeAll(conn, proof);
    await writeAll(conn, frame);
    const { header } = await readFrame(conn, 1024 * 1024);
    if (header.protocol !== WARM_PROTOCOL) return null;
    return op === "status" ? (header.status as WarmStatus) ?? null : true;
  } catch {
    return null;
  } finally {
    conn.close();
  }
}
