/**
 * The Cline CLI 3.0.65's real sessions laid out in a HOME as Cline writes them:
 * `~/.cline/data/sessions/<id>/<id>.messages.json` with its meta file `<id>.json`. Cline's own
 * settings (its provider) are not part of the samples; layOutSettings writes the MCP settings
 * file a person who never added a server has (none). The records come from expectations.ts.
 */
import { fileURLToPath } from "node:url";
import { type AgentSamples, expectedFrom, type LaidOut, missingIn, place } from "../_samples.ts";
import { CLINE_EXPECTATIONS, CLINE_SAMPLES_DIR, messagesFile, metaFile } from "./expectations.ts";

const DIR = fileURLToPath(CLINE_SAMPLES_DIR);

export const CLINE_SAMPLES: AgentSamples = {
  agent: "cline",
  missing: () =>
    missingIn(DIR, CLINE_EXPECTATIONS.flatMap((e) => [messagesFile(e.session), metaFile(e.session)])),
  async layOut(home: string): Promise<LaidOut> {
    const sessions = `${home}/.cline/data/sessions`;
    const files = new Map<string, string>();
    for (const e of CLINE_EXPECTATIONS) {
      await place(`${DIR}${metaFile(e.session)}`, `${sessions}/${metaFile(e.session)}`);
      const messages = messagesFile(e.session);
      files.set(messages, await place(`${DIR}${messages}`, `${sessions}/${messages}`));
    }
    return {
      agent: "cline",
      files,
      ...expectedFrom(
        "cline",
        CLINE_EXPECTATIONS.map((e) => ({ file: files.get(messagesFile(e.session))!, expectation: e })),
      ),
      close: () => {},
    };
  },
  async layOutSettings(home: string): Promise<void> {
    await Deno.mkdir(`${home}/.cline/data/settings`, { recursive: true });
  },
};
