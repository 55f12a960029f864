/**
 * pi 0.73.1's real sessions laid out in a HOME as pi writes them:
 * `~/.pi/agent/sessions/--home-dev-project--/<file>`. pi's own settings files are not part of the
 * samples (layOutSettings writes what the client test seeds: a local provider, no MCP). The
 * records come from expectations.ts.
 */
import { fileURLToPath } from "node:url";
import { type AgentSamples, expectedFrom, type LaidOut, missingIn, place } from "../_samples.ts";
import { PI_EXPECTATIONS, PI_SAMPLES_DIR, PI_SESSION_FOLDER } from "./expectations.ts";

const DIR = fileURLToPath(PI_SAMPLES_DIR);

export const PI_SAMPLES: AgentSamples = {
  agent: "pi",
  missing: () => missingIn(DIR, PI_EXPECTATIONS.map((e) => e.file)),
  async layOut(home: string): Promise<LaidOut> {
    const sessions = `${home}/.pi/agent/sessions/${PI_SESSION_FOLDER}`;
    const files = new Map<string, string>();
    for (const e of PI_EXPECTATIONS) {
      files.set(e.file, await place(`${DIR}${e.file}`, `${sessions}/${e.file}`));
    }
    return {
      agent: "pi",
      files,
      ...expectedFrom("pi", PI_EXPECTATIONS.map((e) => ({ file: files.get(e.file)!, expectation: e }))),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await Deno.mkdir(`${home}/.pi/agent`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/.pi/agent/settings.json`,
      JSON.stringify({ defaultProvider: "local", defaultModel: "test-model" }, null, 2) + "\n",
    );
  },
};
