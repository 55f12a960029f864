import assert from "node:assert/strict";
import { intOption, parseArgs } from "../../src/plan/args.ts";
import { UsageError } from "../../src/errors.ts";

const SPECS = {
  out: { kind: "string", description: "" },
  json: { kind: "boolean", description: "" },
  "doc-root": { kind: "strings", description: "" },
  top: { kind: "string", description: "" },
} as const;

Deno.test("parseArgs() reads strings, booleans, repeatable options and positionals", () => {
  const a = parseArgs(
    ["--out", "f", "--json", "--doc-root=a", "--doc-root", "b", "words", "here"],
    SPECS,
    "x",
  );
  assert.deepEqual(a.options, { out: "f", json: true, "doc-root": ["a", "b"] });
  assert.deepEqual(a.positionals, ["words", "here"]);
});

Deno.test("parseArgs() treats everything after -- as positionals", () => {
  assert.deepEqual(parseArgs(["--", "--json", "-x"], SPECS, "x").positionals, ["--json", "-x"]);
});

Deno.test("parseArgs() refuses unknown options, missing values and repeated singles", () => {
  assert.throws(
    () => parseArgs(["--bogus"], SPECS, "collect"),
    /Unknown option "--bogus" for "verdict collect"/,
  );
  assert.throws(() => parseArgs(["-x"], SPECS, "collect"), UsageError);
  assert.throws(() => parseArgs(["--out"], SPECS, "x"), /needs a value/);
  assert.throws(() => parseArgs(["--out", "--json"], SPECS, "x"), /needs a value/);
  assert.throws(() => parseArgs(["--out", "a", "--out", "b"], SPECS, "x"), /given twice/);
  assert.throws(() => parseArgs(["--json=yes"], SPECS, "x"), /takes no value/);
});

Deno.test("intOption() checks digits and range", () => {
  const parsed = (v: string) => parseArgs(["--top", v], SPECS, "x");
  assert.equal(intOption(parsed("7"), "top", 5, 1, 50), 7);
  assert.equal(intOption(parseArgs([], SPECS, "x"), "top", 5, 1, 50), 5);
  assert.throws(() => intOption(parsed("abc"), "top", 5, 1, 50), /whole number/);
  assert.throws(() => intOption(parsed("0"), "top", 5, 1, 50), /between 1 and 50/);
  assert.throws(() => intOption(parsed("-3"), "top", 5, 1, 50), UsageError);
});
