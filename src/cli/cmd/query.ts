/**
 * `verdict query --as-of T "<text>"`: a look-up on behalf of a caller's session: the caller's
 * project weighted, entities boosted, the live session's own records left out.
 */
import { LOADED_AGENTS } from "../../agents/loaded.ts";
import { stringOption } from "../../plan/args.ts";
import { InputError } from "../../errors.ts";
import { runLookup } from "../lookup.ts";
import type { CommandIO, CommandPlan } from "../../plan/plan.ts";

/** Lines of a live transcript read to find its session id and working directory. */
const LIVE_TRANSCRIPT_SCAN_LINES = 200;

/** The session id and project a live session file of any registered agent names in its first lines. */
export async function liveSessionOf(
  path: string,
): Promise<{ session: string | null; project: string | null }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    throw new InputError(`Cannot read --live-transcript "${path}": ${(err as Error).message}`);
  }
  let session: string | null = null;
  let project: string | null = null;
  for (const line of text.split("\n").slice(0, LIVE_TRANSCRIPT_SCAN_LINES)) {
    try {
      const v = JSON.parse(line) as Record<string, unknown>;
      for (const agent of LOADED_AGENTS) {
        const live = agent.liveSession(v);
        session ??= live.session;
        project ??= live.project;
      }
    } catch {
      // A damaged or partial line says nothing about the session.
    }
    if (session && project) break;
  }
  return { session, project };
}

export async function run(plan: CommandPlan, io: CommandIO): Promise<number> {
  const transcript = stringOption(plan.args, "live-transcript");
  const live = transcript ? await liveSessionOf(transcript) : { session: null, project: null };
  return await runLookup("query", {
    plan,
    io,
    entitiesPath: stringOption(plan.args, "entities") ?? plan.config.entities,
    project: live.project ?? plan.cwd,
    excludeSession: stringOption(plan.args, "live-session") ?? live.session,
  });
}
