/** Golden files under tests/fixtures/install/: compared byte for byte; UPDATE_GOLDEN=1 rewrites them. */
import assert from "node:assert/strict";

export const FIXTURES = new URL("../fixtures/install/", import.meta.url).pathname;

export function fixture(name: string): string {
  return Deno.readTextFileSync(FIXTURES + name);
}

export function assertGolden(name: string, actual: string): void {
  if (Deno.env.get("UPDATE_GOLDEN") === "1") {
    Deno.mkdirSync(FIXTURES + name.slice(0, name.lastIndexOf("/") + 1), { recursive: true });
    Deno.writeTextFileSync(FIXTURES + name, actual);
    return;
  }
  assert.equal(actual, fixture(name), `${name} differs from the golden file (UPDATE_GOLDEN=1 to rewrite)`);
}

/** The inputs the golden files were made with. */
export const GOLDEN_BIN = "/opt/verdict/bin/verdict";
export const GOLDEN_ENV = { VERDICT_RECORDS: "/home/dev/data/records.jsonl" };
