/**
 * `verdict serve`: the MCP tools over Streamable HTTP (POST /mcp) plus GET /healthz, on
 * loopback by default. `--print-addr [--json]` prints where it listens (after the same checks)
 * and exits. Refusals (a non-loopback bind without a token, a token file open to others, a net
 * grant wider than the listen address) exit 3 before anything listens. SIGINT/SIGTERM stop it
 * cleanly, exit 0.
 */
import { booleanOption, stringOption } from "../../plan/args.ts";
import { EXIT, UsageError, VerdictError } from "../../errors.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";
import { judgeServiceNet } from "../../config/config.ts";
import { stopSignal } from "../../sandbox/stop.ts";
import { assertNetConfined, probeConnect } from "../../serve/confine.ts";
import { hostPort, type ListenSettings, mcpUrl, resolveListen, ServeRefusal } from "../../serve/listen.ts";
import { loadTokenDigest } from "../../serve/token.ts";
import {
  diagnostics,
  noArguments,
  openPlanCallLog,
  routeConsoleToStderr,
  toolSetup,
  VERSION,
} from "./mcp.ts";
import { buildToolSet } from "../../serve/setup.ts";
import { serveHttp } from "../../serve/http.ts";

/**
 * $VERDICT_SERVE_NET_PROBE=HOST:PORT makes serve try one connection there before listening, and
 * refuse to start unless Deno's sandbox refuses it: evidence, from inside the running server,
 * that it cannot reach anything but its own address (tests/serve/ uses it; so can a doctor).
 */
const PROBE_ENV = "VERDICT_SERVE_NET_PROBE";

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  noArguments(plan, "serve");
  const printAddr = booleanOption(plan.args, "print-addr");
  const json = booleanOption(plan.args, "json");
  if (json && !printAddr) {
    throw new UsageError('"--json" goes with "--print-addr"', "run: verdict serve --print-addr --json");
  }
  const settings = await resolveListen({
    bind: stringOption(plan.args, "bind"),
    port: stringOption(plan.args, "port"),
    tokenFile: stringOption(plan.args, "token-file"),
    env: plan.env,
    cwd: plan.cwd,
    home: plan.paths.home,
  });
  const token = settings.tokenFile === null ? null : await loadTokenDigest(settings.tokenFile!);
  if (printAddr) {
    await io.stdout(printedAddress(settings, json) + "\n");
    return EXIT.ok;
  }
  routeConsoleToStderr();
  const log = diagnostics(io, "verdict serve");
  await assertNetConfined([hostPort(settings.host, settings.port), ...judgeServiceNet(plan.config)]);
  const probe = plan.env[PROBE_ENV];
  if (probe) await netProbe(probe, log);
  const callLog = await openPlanCallLog(plan, log);
  const served = buildToolSet(toolSetup(plan, "http", callLog, log));
  try {
    let server;
    try {
      server = serveHttp({
        tools: served.tools,
        identity: { version: VERSION },
        listen: settings,
        tokenDigest: token,
        log,
        signal: stopSignal.signal,
      });
    } catch (err) {
      throw listenError(err, settings);
    }
    await io.stderr(
      `verdict serve: listening on ${server.url}${token ? " (bearer token required)" : ""}; GET /healthz\n`,
    );
    await server.finished;
    await io.stderr("verdict serve: stopped\n");
  } finally {
    served.close();
    await callLog.close();
  }
  return EXIT.ok;
}

/** `--print-addr`: the URL, or {"url","host","port","token"} with --json. */
export function printedAddress(settings: ListenSettings, json: boolean): string {
  const url = mcpUrl(settings);
  if (!json) return url;
  return JSON.stringify({
    url,
    host: settings.host,
    port: settings.port,
    token: settings.tokenFile !== null,
  });
}

async function netProbe(target: string, log: (line: string) => void): Promise<void> {
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(target)) {
    throw new ServeRefusal(
      `refusing to serve: ${PROBE_ENV} "${target}" is not HOST:PORT`,
      "e.g. 127.0.0.1:9",
    );
  }
  const outcome = await probeConnect(target);
  if (outcome.kind === "refused") {
    log(`net probe: connecting to ${target} was refused by the sandbox (${outcome.message})`);
    return;
  }
  throw new ServeRefusal(
    `refusing to serve: the net probe reached past the sandbox: connecting to ${target} ${
      outcome.kind === "connected" ? "succeeded" : `was attempted (${outcome.message})`
    }`,
    "the server must hold net access to its own address only; check how it was launched",
  );
}

function listenError(err: unknown, settings: ListenSettings): unknown {
  const where = hostPort(settings.host, settings.port);
  if (err instanceof Deno.errors.AddrInUse) {
    return new VerdictError(
      `Cannot listen on ${where}: the address is in use`,
      EXIT.runtime,
      "pick another with --port N",
    );
  }
  if (err instanceof Deno.errors.AddrNotAvailable) {
    return new VerdictError(
      `Cannot listen on ${where}: no interface has that address`,
      EXIT.runtime,
      "use --bind 127.0.0.1",
    );
  }
  return err;
}
