import assert from "node:assert/strict";
import { checkSchema, validate } from "../../src/serve/validate.ts";

const RECALL = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1, maxLength: 5 },
    top: { type: "integer", minimum: 1, maximum: 50 },
  },
  required: ["query"],
  additionalProperties: false,
};

Deno.test("validate() accepts conforming input and names each problem by its JSON path", () => {
  assert.deepEqual(validate(RECALL, { query: "abc" }), []);
  assert.deepEqual(validate(RECALL, { query: "abc", top: 50 }), []);
  assert.deepEqual(validate(RECALL, { top: 0, "odd key": 1 }), [
    "$.query: is required",
    "$.top: must be between 1 and 50, got 0",
    '$["odd key"]: is not a known property',
  ]);
  assert.deepEqual(validate(RECALL, null), ["$: expected an object, got null"]);
  assert.deepEqual(validate(RECALL, [1]), ["$: expected an object, got an array"]);
});

Deno.test("validate() counts string length in code points, as JSON Schema does", () => {
  assert.deepEqual(validate(RECALL, { query: "😀😀😀😀😀" }), []);
  assert.deepEqual(validate(RECALL, { query: "数据库迁移计" }), [
    "$.query: must be at most 5 characters, got 6",
  ]);
  assert.deepEqual(validate(RECALL, { query: "" }), ["$.query: must be at least 1 character(s), got 0"]);
});

Deno.test("validate() tells integers from other numbers", () => {
  assert.deepEqual(validate(RECALL, { query: "a", top: 2.5 }), ["$.top: expected an integer, got 2.5"]);
  assert.deepEqual(validate(RECALL, { query: "a", top: "3" }), ["$.top: expected an integer, got a string"]);
  assert.deepEqual(validate({ type: "number", maximum: 1 }, 1.5), ["$: must be at most 1, got 1.5"]);
});

Deno.test("validate() handles arrays, enums, patterns and oneOf branches without a type", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "string" },
      b: { type: "string" },
      list: { type: "array", minItems: 1, items: { type: "string", enum: ["lost", "keep"] } },
      digest: { type: "string", pattern: "^[0-9a-f]{4}$" },
    },
    oneOf: [{ required: ["a"] }, { required: ["b"] }],
    additionalProperties: false,
  };
  assert.deepEqual(checkSchema(schema), []);
  assert.deepEqual(validate(schema, { a: "x" }), []);
  assert.deepEqual(validate(schema, { a: "x", b: "y" }), [
    "$: must match exactly one of: {a} | {b} (matches 2)",
  ]);
  assert.deepEqual(validate(schema, {}), ["$: must match exactly one of: {a} | {b} (matches 0)"]);
  assert.deepEqual(validate(schema, { a: "x", list: [] }), ["$.list: needs at least 1 item(s)"]);
  assert.deepEqual(validate(schema, { a: "x", list: ["keep", "drop"] }), [
    '$.list[1]: must be one of "lost", "keep"',
  ]);
  assert.deepEqual(validate(schema, { a: "x", digest: "abcg" }), [
    "$.digest: must match the pattern ^[0-9a-f]{4}$",
  ]);
});

Deno.test("checkSchema() refuses keywords outside the subset, so nothing is skipped silently", () => {
  assert.deepEqual(checkSchema(RECALL), []);
  assert.deepEqual(checkSchema({ type: "object", properties: { q: { type: "string", format: "email" } } }), [
    '$.properties.q: unsupported keyword "format"',
  ]);
  assert.deepEqual(checkSchema({ type: "object", additionalProperties: { type: "string" } }), [
    '$.additionalProperties: unusable value {"type":"string"}',
  ]);
  assert.deepEqual(checkSchema({ type: "tuple" }), ['$.type: unusable value "tuple"']);
  assert.deepEqual(checkSchema({ type: "string", pattern: "(" }), ['$.pattern: unusable value "("']);
  assert.deepEqual(checkSchema({ type: "object", required: ["x"], properties: {} }), [
    '$.required: "x" is not a property',
  ]);
});
