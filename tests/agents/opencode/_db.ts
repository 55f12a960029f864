/**
 * OpenCode databases for tests, made with node:sqlite in WAL mode (the writer stays open, so
 * the newest rows are only in the log, as with a running OpenCode):
 * - `sampleDb`: OpenCode 1.18.33's own schema and rows, from the real files in
 *   ../shared/clients/opencode/samples/ (schema dump and session dump), read at test time;
 * - `OpenCodeWriter`: appends sessions, messages and parts in OpenCode's shapes.
 */
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

export const SAMPLES = fileURLToPath(
  new URL("../../../../shared/clients/opencode/samples/", import.meta.url),
);

/** Why the samples cannot be used, or null when they are there. */
export function samplesMissing(): string | null {
  for (const f of ["opencode-db-schema.sql", "opencode-db-dump.sessions.json"]) {
    try {
      Deno.statSync(`${SAMPLES}${f}`);
    } catch {
      return `${SAMPLES}${f} is absent`;
    }
  }
  return null;
}

interface DumpPart extends Record<string, unknown> {
  readonly id: string;
}
interface DumpMessage {
  readonly id: string;
  readonly time_created: number;
  readonly data: Record<string, unknown>;
  readonly parts: readonly DumpPart[];
}
interface DumpSession {
  readonly session: Record<string, unknown>;
  readonly project: Record<string, unknown>;
  readonly messages: readonly DumpMessage[];
}

export class OpenCodeWriter {
  readonly db: DatabaseSync;
  readonly path: string;

  constructor(path: string, schemaSql: string) {
    this.path = path;
    this.db = new DatabaseSync(path);
    this.db.exec("PRAGMA journal_mode=WAL");
    this.db.exec("PRAGMA wal_autocheckpoint=0");
    this.db.exec(schemaSql);
  }

  static withSampleSchema(path: string): OpenCodeWriter {
    return new OpenCodeWriter(path, Deno.readTextFileSync(`${SAMPLES}opencode-db-schema.sql`));
  }

  project(row: Record<string, unknown>): void {
    this.insert("project", row, true);
  }

  session(row: Record<string, unknown>): void {
    this.insert("session", row);
  }

  message(id: string, sessionId: string, time: number, data: Record<string, unknown>): void {
    this.insert("message", {
      id,
      session_id: sessionId,
      time_created: time,
      time_updated: time,
      data: JSON.stringify(data),
    });
  }

  part(id: string, messageId: string, sessionId: string, time: number, data: Record<string, unknown>): void {
    this.insert("part", {
      id,
      message_id: messageId,
      session_id: sessionId,
      time_created: time,
      time_updated: time,
      data: JSON.stringify(data),
    });
  }

  updatePart(id: string, data: Record<string, unknown>): void {
    this.db.prepare("UPDATE part SET data = ? WHERE id = ?").run(JSON.stringify(data), id);
  }

  close(): void {
    this.db.close();
  }

  private insert(table: string, row: Record<string, unknown>, orIgnore = false): void {
    const cols = Object.keys(row);
    const values = cols.map((c) => {
      const v = row[c];
      return v !== null && typeof v === "object" ? JSON.stringify(v) : v as string | number | null;
    });
    this.db.prepare(
      `INSERT ${orIgnore ? "OR IGNORE " : ""}INTO \`${table}\` (${
        cols.map((c) => `\`${c}\``).join(", ")
      }) VALUES (${cols.map(() => "?").join(", ")})`,
    ).run(...values);
  }
}

/** A database holding the sample's two sessions, as OpenCode 1.18.33 wrote them. */
export function sampleDb(path: string): OpenCodeWriter {
  const w = OpenCodeWriter.withSampleSchema(path);
  const dump = JSON.parse(Deno.readTextFileSync(`${SAMPLES}opencode-db-dump.sessions.json`)) as DumpSession[];
  for (const s of dump) {
    w.project(s.project);
    w.session(s.session);
    for (const m of s.messages) {
      w.message(m.id, s.session.id as string, m.time_created, m.data);
      for (const p of m.parts) {
        const { id, ...data } = p;
        w.part(id, m.id, s.session.id as string, m.time_created, data);
      }
    }
  }
  return w;
}
