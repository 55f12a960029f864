/**
 * The byte writers loop until every byte is taken: one `write` (a pipe, a socket) may take only
 * part of a buffer.
 */
import assert from "node:assert/strict";
import { concatBytes, writeAll, writeAllSync } from "../../src/fsutil/bytes.ts";

/** A writer that takes at most `most` bytes a call and keeps what it took. */
function trickle(most: number) {
  const taken: Uint8Array[] = [];
  let calls = 0;
  const take = (buf: Uint8Array) => {
    calls++;
    const n = Math.min(most, buf.length);
    taken.push(buf.slice(0, n));
    return n;
  };
  return {
    writeSync: take,
    write: (buf: Uint8Array) => Promise.resolve(take(buf)),
    get bytes() {
      return concatBytes(taken);
    },
    get calls() {
      return calls;
    },
  };
}

const payload = new TextEncoder().encode(`{"hint":"${"é".repeat(700)}"}\n`);

Deno.test("writeAllSync and writeAll write every byte through a writer that takes 7 at a time", async () => {
  const a = trickle(7);
  writeAllSync(a, payload);
  assert.deepEqual(a.bytes, payload);
  assert.equal(a.calls, Math.ceil(payload.length / 7));
  const b = trickle(7);
  await writeAll(b, payload);
  assert.deepEqual(b.bytes, payload);
  assert.equal(b.calls, a.calls);
});

Deno.test("writeAllSync passes a writer's failure on (a closed pipe is no printed hint)", () => {
  const broken = {
    writeSync(): number {
      throw new Deno.errors.BrokenPipe("closed");
    },
  };
  assert.throws(() => writeAllSync(broken, payload), Deno.errors.BrokenPipe);
});
