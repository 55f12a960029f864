import assert from "node:assert/strict";
import { record } from "./_records.ts";
import { asRecord, recordId } from "../src/record/record.ts";
import { RECORD_ORIGINS } from "../src/agents/registry.ts";

Deno.test("the test record builder makes a valid record; later layers win, undefined keeps what is beneath", () => {
  const plain = record("use pnpm");
  assert.equal(plain.id, recordId("prompt", "use pnpm"));
  assert.deepEqual(asRecord(JSON.parse(JSON.stringify(plain)), RECORD_ORIGINS), plain);
  const r = record("x", { session: "file-default", project: "/a" }, { session: undefined, project: "/b" });
  assert.equal(r.session, "file-default");
  assert.equal(r.project, "/b");
  assert.equal(record("x", { session: "a" }, { session: null }).session, null);
});
