import assert from "node:assert/strict";
import { readLines } from "../../src/collect/lines.ts";

async function fileWith(content: string | Uint8Array): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.jsonl`;
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
  return path;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

async function collectLines(path: string, offset = 0, lineNo = 0, max?: number) {
  const got: [number, string][] = [];
  const res = await readLines(
    path,
    offset,
    lineNo,
    (t, n) => got.push([n, t]),
    max ? { maxLineBytes: max } : {},
  );
  return { got, res };
}

Deno.test("readLines() numbers lines from 1, skips empty ones and strips CR", async () => {
  const path = await fileWith('{"a":1}\n\n{"b":2}\r\n{"c":3}\n');
  const { got, res } = await collectLines(path);
  assert.deepEqual(got, [[1, '{"a":1}'], [3, '{"b":2}'], [4, '{"c":3}']]);
  assert.equal(res.lineNo, 4);
  assert.equal(res.offset, (await Deno.stat(path)).size);
});

Deno.test("readLines() resumes from an offset and line number", async () => {
  const first = '{"a":1}\n';
  const path = await fileWith(first + '{"b":2}\n');
  const { got } = await collectLines(path, new TextEncoder().encode(first).length, 1);
  assert.deepEqual(got, [[2, '{"b":2}']]);
});

Deno.test("readLines() leaves an incomplete last line for the next run", async () => {
  const path = await fileWith('{"a":1}\n{"b":');
  const { got, res } = await collectLines(path);
  assert.deepEqual(got, [[1, '{"a":1}']]);
  assert.equal(res.offset, 8);
  assert.equal(res.lineNo, 1);
});

Deno.test("readLines() consumes a complete JSON last line that lacks its newline", async () => {
  const path = await fileWith('{"a":1}\n{"b":2}');
  const { got, res } = await collectLines(path);
  assert.deepEqual(got, [[1, '{"a":1}'], [2, '{"b":2}']]);
  assert.equal(res.offset, 15);
});

Deno.test("readLines() skips and counts a line that is not UTF-8, keeping the lines around it", async () => {
  const enc = new TextEncoder();
  const bad = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
  const path = await fileWith(concat(enc.encode('{"a":1}\n'), bad, enc.encode('{"c":"é"}\n')));
  const { got, res } = await collectLines(path);
  assert.deepEqual(got, [[1, '{"a":1}'], [3, '{"c":"é"}']]);
  assert.equal(res.invalidUtf8, 1);
  assert.ok(!got.some(([, t]) => t.includes("\ufffd")), "no replacement character is ever fed");
});

Deno.test("readLines() joins a line spanning many read chunks", async () => {
  const big = '{"t":"' + "x".repeat(9 * 1024 * 1024) + '"}';
  const path = await fileWith(`{"a":1}\n${big}\n{"b":2}\n`);
  const { got } = await collectLines(path);
  assert.deepEqual(got.map(([n, t]) => [n, t.length]), [[1, 7], [2, big.length], [3, 7]]);
});

Deno.test("readLines() skips and counts a line longer than the cap, keeping the lines after it", async () => {
  const big = '{"t":"' + "y".repeat(6 * 1024 * 1024) + '"}';
  const path = await fileWith(`{"a":1}\n${big}\n{"b":2}\n`);
  const { got, res } = await collectLines(path, 0, 0, 1024 * 1024);
  assert.deepEqual(got, [[1, '{"a":1}'], [3, '{"b":2}']]);
  assert.equal(res.oversized, 1);
});

Deno.test("readLines() reads an empty file as no lines", async () => {
  const { got, res } = await collectLines(await fileWith(""));
  assert.deepEqual(got, []);
  assert.equal(res.offset, 0);
});

Deno.test("readLines() resumes after an open line by taking its newline, without counting a line", async () => {
  const first = '{"a":1}';
  const path = await fileWith(`${first}\r\n{"b":2}\n`);
  const { got, res } = await (async () => {
    const got: [number, string][] = [];
    const res = await readLines(path, first.length, 1, (t, n) => got.push([n, t]), { afterOpenLine: true });
    return { got, res };
  })();
  assert.deepEqual(got, [[2, '{"b":2}']]);
  assert.equal(res.continued, false);
  assert.equal(res.openLine, false);
  // Nothing after the open line yet: still open, nothing fed.
  const open = await fileWith(first);
  const still = await readLines(open, first.length, 1, () => assert.fail("fed"), { afterOpenLine: true });
  assert.deepEqual([still.offset, still.lineNo, still.openLine, still.continued], [
    first.length,
    1,
    true,
    false,
  ]);
});

Deno.test("readLines() reports an open line that went on as continued, feeding nothing", async () => {
  const path = await fileWith('{"a":1}  {"b":2}\n');
  const res = await readLines(path, 7, 1, () => assert.fail("fed"), { afterOpenLine: true });
  assert.equal(res.continued, true);
  assert.equal(res.offset, 7);
});

Deno.test("readLines() reads no further than its limit, leaving the rest for the next run", async () => {
  const path = await fileWith('{"a":1}\n{"b":2}\n{"c":3}\n');
  const { got, res } = await (async () => {
    const got: [number, string][] = [];
    const res = await readLines(path, 0, 0, (t, n) => got.push([n, t]), { limit: 12 });
    return { got, res };
  })();
  assert.deepEqual(got, [[1, '{"a":1}']]);
  assert.equal(res.offset, 8);
  assert.equal(res.bytes, 12);
});
