import assert from "node:assert/strict";
import {
  appendItem,
  insertMember,
  type JsonArrayNode,
  type JsonObjectNode,
  member,
  nodeValue,
  parseTree,
  removeItem,
  removeMember,
  replaceNode,
} from "../../src/hostfile/json_edit.ts";
import { JsoncSyntaxError } from "../../src/config/jsonc.ts";

const obj = (text: string) => parseTree(text) as JsonObjectNode;

Deno.test("parseTree() keeps offsets: a member's value spans exactly its text", () => {
  const text = '{\n  // note\n  "a": [1, {"b": true}],\n  "c": "x\\"y"\n}\n';
  const root = obj(text);
  const a = member(root, "a")!.value;
  assert.equal(text.slice(a.start, a.end), '[1, {"b": true}]');
  assert.deepEqual(nodeValue(root), { a: [1, { b: true }], c: 'x"y' });
});

Deno.test("parseTree() reports malformed input with our JSONC parser's line and column", () => {
  const err = (() => {
    try {
      parseTree('{\n  "a": 1,\n  "b" 2\n}');
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof JsoncSyntaxError);
  assert.equal(err.line, 3);
  assert.equal(err.column, 7);
});

/** insert then remove must give back the original bytes. */
function roundTrip(text: string, path: string[], key: string, value: unknown) {
  let node = parseTree(text);
  for (const k of path) node = member(node as JsonObjectNode, k)!.value;
  const inserted = insertMember(text, node as JsonObjectNode, key, value);
  let after = parseTree(inserted);
  for (const k of path) after = member(after as JsonObjectNode, k)!.value;
  assert.deepEqual(nodeValue(member(after as JsonObjectNode, key)!.value), value);
  const removed = removeMember(inserted, after as JsonObjectNode, key);
  assert.equal(removed, text);
  return inserted;
}

Deno.test("insertMember/removeMember are exact inverses: 2 spaces, 4 spaces, tabs, CRLF, comments, trailing comma", () => {
  const v = { x: [1, 2], y: { z: "w" } };
  const two = roundTrip('{\n  "a": 1,\n  "b": {\n    "c": 2\n  }\n}\n', ["b"], "k", v);
  assert.equal(
    two,
    '{\n  "a": 1,\n  "b": {\n    "c": 2,\n    "k": {\n      "x": [\n        1,\n        2\n      ],\n      "y": {\n        "z": "w"\n      }\n    }\n  }\n}\n',
  );
  roundTrip('{\n    "a": 1\n}', [], "k", v);
  const tabs = roundTrip('{\n\t"a": {\n\t\t"b": 1\n\t}\n}\n', ["a"], "k", [true]);
  assert.match(tabs, /\n\t\t"k": \[\n\t\t\ttrue\n\t\t\]/);
  const crlf = roundTrip('{\r\n  "a": 1\r\n}\r\n', [], "k", { q: 1 });
  assert.ok(!/[^\r]\n/.test(crlf), "only CRLF line ends");
  roundTrip('{\n  // keep me\n  "a": 1, /* and me */\n}\n', [], "k", 1);
});

Deno.test("a one-line object or list grows on its line, compactly, and shrinks back", () => {
  const text = '{"a":{"b":1},"l":[1]}';
  const out = roundTrip(text, ["a"], "k", { v: [2] });
  assert.equal(out, '{"a":{"b":1,"k":{"v":[2]}},"l":[1]}');
  const l = member(obj(text), "l")!.value as JsonArrayNode;
  const appended = appendItem(text, l, { z: 1 });
  assert.equal(appended, '{"a":{"b":1},"l":[1,{"z":1}]}');
  const l2 = member(obj(appended), "l")!.value as JsonArrayNode;
  assert.equal(removeItem(appended, l2, 1), text);
});

Deno.test("appendItem/removeItem are exact inverses; the first item goes with the separator after it", () => {
  const text = '{\n  "l": [\n    "a",\n    "b"\n  ]\n}\n';
  const l = member(obj(text), "l")!.value as JsonArrayNode;
  const out = appendItem(text, l, { c: 1 });
  assert.equal(out, '{\n  "l": [\n    "a",\n    "b",\n    {\n      "c": 1\n    }\n  ]\n}\n');
  const l2 = member(obj(out), "l")!.value as JsonArrayNode;
  assert.equal(removeItem(out, l2, 2), text);
  assert.equal(removeItem(text, l, 0), '{\n  "l": [\n    "b"\n  ]\n}\n');
});

Deno.test("empty containers: filled on new lines at the right depth; emptied back to {} and []", () => {
  const text = '{\n  "o": {},\n  "l": []\n}\n';
  const o = member(obj(text), "o")!.value as JsonObjectNode;
  const filled = insertMember(text, o, "k", 1);
  assert.equal(filled, '{\n  "o": {\n    "k": 1\n  },\n  "l": []\n}\n');
  const o2 = member(obj(filled), "o")!.value as JsonObjectNode;
  assert.equal(removeMember(filled, o2, "k"), text);
  const l = member(obj(text), "l")!.value as JsonArrayNode;
  assert.equal(appendItem(text, l, 2), '{\n  "o": {},\n  "l": [\n    2\n  ]\n}\n');
  assert.equal(insertMember("{}", obj("{}"), "k", 1), '{\n  "k": 1\n}');
});

Deno.test("replaceNode() swaps one value and leaves the rest alone", () => {
  const text = '{\n  "a": {"old": true},\n  "b": 2\n}\n';
  const a = member(obj(text), "a")!.value;
  assert.equal(replaceNode(text, a, { new: 1 }), '{\n  "a": {\n    "new": 1\n  },\n  "b": 2\n}\n');
});
