/**
 * collect against a live OpenCode database: a real writer process (tests/agents/opencode/
 * _writer.ts) keeps the database open in WAL mode and writes while `verdict collect` runs, and
 * must never meet a lock (its writes use busy_timeout 0); with the writer holding the database
 * open and idle, a collect leaves the database, its -wal and its -shm byte for byte as they were
 * (a read-only node:sqlite connection would write its read mark into -shm); every prompt the
 * writer wrote is collected, each exactly once.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { exportedRecords, runCli, tempHome } from "../../cli_helper.ts";

const WRITER = fileURLToPath(new URL("./_writer.ts", import.meta.url));

class Writer {
  private readonly child: Deno.ChildProcess;
  private readonly lines: AsyncIterator<string>;
  private readonly stdin: WritableStreamDefaultWriter<Uint8Array>;

  constructor(db: string) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--allow-read", "--allow-write", WRITER, db],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.stdin = this.child.stdin.getWriter();
    this.lines = this.child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines()).values();
  }

  async next(): Promise<string> {
    const r = await this.lines.next();
    if (r.done) throw new Error("the writer exited");
    return r.value;
  }

  async send(cmd: string): Promise<string> {
    await this.stdin.write(new TextEncoder().encode(cmd + "\n"));
    return await this.next();
  }

  async exit(): Promise<void> {
    await this.stdin.write(new TextEncoder().encode("exit\n")).catch(() => {});
    await this.stdin.close().catch(() => {});
    await this.child.status;
  }
}

function splitLines(): TransformStream<string, string> {
  let buf = "";
  return new TransformStream({
    transform(chunk, ctl) {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) !== -1) {
        ctl.enqueue(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    },
  });
}

async function fingerprint(path: string): Promise<{ bytes: string; mtime: number } | null> {
  try {
    const data = await Deno.readFile(path);
    const digest = await crypto.subtle.digest("SHA-256", data);
    return {
      bytes: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""),
      mtime: (await Deno.stat(path)).mtime?.getTime() ?? 0,
    };
  } catch {
    return null;
  }
}

Deno.test("opencode live database: collect never blocks the writer and never changes the db, -wal or -shm", async () => {
  const home = await tempHome();
  const dir = `${home}/.local/share/opencode`;
  await Deno.mkdir(dir, { recursive: true });
  const db = `${dir}/opencode.db`;
  const writer = new Writer(db);
  try {
    assert.equal(await writer.next(), "ready");
    assert.equal(await writer.send("burst"), "bursting");
    // Two collects while the writer writes (and checkpoints) all along.
    for (let i = 0; i < 2; i++) {
      const r = await runCli(["collect"], { env: { HOME: home } });
      assert.equal(r.code, 0, r.stderr);
    }
    const paused = (await writer.send("pause")).split(" ");
    assert.equal(paused[0], "paused");
    const written = Number(paused[1]);
    assert.ok(written > 20, `the writer wrote only ${written} prompts while collect ran`);
    assert.equal(paused[2], "0", "the writer met a lock while collect read");

    // Idle writer, database open: collect must not change a byte of it.
    const files = [db, `${db}-wal`, `${db}-shm`];
    const before = await Promise.all(files.map(fingerprint));
    assert.ok(before[1] !== null && before[2] !== null, "the writer holds a -wal and a -shm");
    const last = await runCli(["collect"], { env: { HOME: home } });
    assert.equal(last.code, 0, last.stderr);
    assert.deepEqual(await Promise.all(files.map(fingerprint)), before);

    const records = (await exportedRecords(`${home}/.local/share/verdict/records.jsonl`)).split("\n")
      .filter((l) => l !== "").map((l) => JSON.parse(l));
    const texts = records.filter((r) => r.origin === "opencode").map((r) => r.text as string);
    assert.equal(texts.length, written, "every prompt written, collected once");
    assert.equal(new Set(texts).size, written);
    assert.ok(texts.every((t) => /^Decision \d+: keep the blue-green deploy script/.test(t)));
    // And a collect with nothing new reads nothing.
    const again = await runCli(["collect"], { env: { HOME: home } });
    assert.match(again.stderr, /nothing new/);
  } finally {
    await writer.exit();
    await Deno.remove(home, { recursive: true });
  }
});
