/**
 * Gemini CLI 0.61.0's real samples laid out in a HOME as Gemini CLI writes them:
 * `~/.gemini/projects.json`, and in the project's folder `~/.gemini/tmp/<id>/` its
 * `.project_root`, `logs.json` and `chats/session-….jsonl`; (layOutSettings) the sample run's
 * `~/.gemini/settings.json`. The records come from expectations.ts.
 */
import { fileURLToPath } from "node:url";
import { type AgentSamples, expectedFrom, type LaidOut, missingIn, place } from "../_samples.ts";
import { GEMINI_EXPECTATIONS, SAMPLE_PROJECT, SAMPLE_PROJECT_ID, SAMPLES_DIR } from "./expectations.ts";

const DIR = fileURLToPath(SAMPLES_DIR);

/** The project's folder under HOME: `.gemini/tmp/<id>`. */
export function geminiProjectFolder(home: string): string {
  return `${home}/.gemini/tmp/${SAMPLE_PROJECT_ID}`;
}

export const GEMINI_SAMPLES: AgentSamples = {
  agent: "gemini",
  missing: () =>
    missingIn(DIR, [
      ...GEMINI_EXPECTATIONS.map((e) => e.sample),
      "logs.json",
      "projects.json",
      "settings.json",
    ]),
  async layOut(home: string): Promise<LaidOut> {
    const folder = geminiProjectFolder(home);
    const files = new Map<string, string>();
    files.set("projects.json", await place(`${DIR}projects.json`, `${home}/.gemini/projects.json`));
    files.set("logs.json", await place(`${DIR}logs.json`, `${folder}/logs.json`));
    // Gemini CLI writes the project's path beside its chats; the samples keep it in projects.json.
    const projects = JSON.parse(await Deno.readTextFile(`${DIR}projects.json`)).projects as Record<
      string,
      string
    >;
    const root = Object.entries(projects).find(([, id]) => id === SAMPLE_PROJECT_ID)![0];
    await Deno.writeTextFile(`${folder}/.project_root`, root);
    for (const e of GEMINI_EXPECTATIONS) {
      files.set(e.sample, await place(`${DIR}${e.sample}`, `${folder}/chats/${e.name}`));
    }
    return {
      agent: "gemini",
      files,
      ...expectedFrom(
        "gemini",
        GEMINI_EXPECTATIONS.map((e) => ({
          file: files.get(e.sample)!,
          expectation: { ...e, project: SAMPLE_PROJECT },
        })),
      ),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await place(`${DIR}settings.json`, `${home}/.gemini/settings.json`);
  },
};
