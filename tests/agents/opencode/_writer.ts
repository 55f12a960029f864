/**
 * A real writer for the live-database test: a separate process holding an OpenCode-shaped
 * database open in WAL mode (as a running OpenCode does), driven by lines on stdin:
 *   burst  start adding one user message with its text part every few milliseconds (each its own
 *          transaction; SQLite's automatic checkpoints run as they would in OpenCode)
 *   pause  stop, and answer "paused <prompts written> <errors>"
 *   exit   close the database and exit
 * Every write uses busy_timeout 0, so a lock held by anyone else would show as an error.
 */
import { DatabaseSync } from "node:sqlite";

const path = Deno.args[0]!;
const db = new DatabaseSync(path, { timeout: 0 });
db.exec("PRAGMA journal_mode=WAL");
db.exec(`
CREATE TABLE IF NOT EXISTS \`session\` (\`id\` text PRIMARY KEY, \`project_id\` text NOT NULL, \`parent_id\` text,
  \`slug\` text NOT NULL, \`directory\` text NOT NULL, \`title\` text NOT NULL, \`version\` text NOT NULL,
  \`permission\` text, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL);
CREATE TABLE IF NOT EXISTS \`message\` (\`id\` text PRIMARY KEY, \`session_id\` text NOT NULL,
  \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`data\` text NOT NULL);
CREATE TABLE IF NOT EXISTS \`part\` (\`id\` text PRIMARY KEY, \`message_id\` text NOT NULL, \`session_id\` text NOT NULL,
  \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`data\` text NOT NULL);
CREATE INDEX IF NOT EXISTS \`part_message_id_id_idx\` ON \`part\` (\`message_id\`,\`id\`);
INSERT OR IGNORE INTO session VALUES ('ses_live', 'p', NULL, 'live', '/home/dev/live', 't', '1.18.33', NULL, 0, 0);
`);
const addMessage = db.prepare("INSERT INTO message VALUES (?, 'ses_live', ?, ?, ?)");
const addPart = db.prepare("INSERT INTO part VALUES (?, ?, 'ses_live', ?, ?, ?)");
const BASE_MS = 1772449200000;
let written = 0;
let errors = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function writeOne(): void {
  const n = written + 1;
  const id = `msg_live${String(n).padStart(6, "0")}`;
  const t = BASE_MS + n * 1000;
  try {
    db.exec("BEGIN IMMEDIATE");
    addMessage.run(id, t, t, JSON.stringify({ role: "user", time: { created: t } }));
    addPart.run(
      `prt_live${String(n).padStart(6, "0")}`,
      id,
      t,
      t,
      JSON.stringify({
        type: "text",
        text: `Decision ${n}: keep the blue-green deploy script ${"x".repeat(n % 7 === 0 ? 6000 : 50)}`,
      }),
    );
    db.exec("COMMIT");
    written = n;
  } catch {
    errors++;
    try {
      db.exec("ROLLBACK");
    } catch {
      // nothing open
    }
  }
}

const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));
out("ready");
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
let buf = "";
for await (const chunk of lines) {
  buf += chunk;
  let nl: number;
  while ((nl = buf.indexOf("\n")) !== -1) {
    const cmd = buf.slice(0, nl).trim();
    buf = buf.slice(nl + 1);
    if (cmd === "burst") {
      timer = setInterval(writeOne, 3);
      out("bursting");
    } else if (cmd === "pause") {
      clearInterval(timer);
      out(`paused ${written} ${errors}`);
    } else if (cmd === "exit") {
      db.close();
      Deno.exit(0);
    }
  }
}
