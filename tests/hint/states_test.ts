/** src/hint/states.ts: what marks do around the gate (pure). */
import assert from "node:assert/strict";
import { changedFor, excludedIds, inScope, replacedBy, triggeredPins } from "../../src/hint/states.ts";
import type { Marks } from "../../src/store/marks.ts";

const AT = "2026-04-14T09:00:00.000Z";

function marks(partial: Partial<Marks>): Marks {
  return { retracted: new Map(), muted: new Map(), pinned: new Map(), ...partial };
}

Deno.test("a mute holds everywhere, or in its folder and below it only", () => {
  assert.ok(inScope("", null));
  assert.ok(inScope("/src/app", "/src/app"));
  assert.ok(inScope("/src/app/", "/src/app/web"));
  assert.ok(!inScope("/src/app", "/src/application"));
  assert.ok(!inScope("/src/app", null));
  const m = marks({ muted: new Map([["p1", [""]], ["p2", ["/src/app"]]]) });
  const shown = new Set(["k"]);
  assert.deepEqual([...excludedIds(shown, m, "/src/app/x")].sort(), ["k", "p1", "p2"]);
  assert.deepEqual([...excludedIds(shown, m, "/other")].sort(), ["k", "p1"]);
  assert.equal(excludedIds(shown, marks({}), "/x"), shown, "nothing muted: the cooldown set as it is");
});

Deno.test("a pin triggers on one of its words as a word (CJK as a substring), not when shown, muted here or retracted", () => {
  const m = marks({
    pinned: new Map([
      ["d1", { at: AT, words: ["pnpm", "npm"] }],
      ["d2", { at: AT, words: ["迁移"] }],
      ["d3", { at: AT, words: ["yarn"] }],
    ]),
    muted: new Map([["d3", ["/muted"]]]),
  });
  assert.deepEqual(triggeredPins(m, "install it with npm please", "/a", new Set()), ["d1"]);
  assert.deepEqual(triggeredPins(m, "npmrc and pnpmfile", "/a", new Set()), [], "not inside other words");
  assert.deepEqual(triggeredPins(m, "数据库迁移怎么做", "/a", new Set()), ["d2"]);
  assert.deepEqual(triggeredPins(m, "PNPM or Yarn?", "/a", new Set(["d1"])), ["d3"], "cooldown");
  assert.deepEqual(triggeredPins(m, "yarn", "/muted/x", new Set()), []);
  const retracted = marks({ ...m, retracted: new Map([["d1", { at: AT, by: null, why: null }]]) });
  assert.deepEqual(triggeredPins(retracted, "npm", "/a", new Set()), []);
});

Deno.test("a retracted decision becomes its replacement when that is there and may be shown, else it no longer holds", () => {
  const m = marks({
    retracted: new Map([
      ["p1", { at: AT, by: "p2", why: "moved" }],
      ["p3", { at: AT, by: "p9", why: null }],
      ["p4", { at: AT, by: "p5", why: null }],
      ["p5", { at: AT, by: null, why: null }],
    ]),
    muted: new Map([["p2", ["/quiet"]]]),
  });
  const exists = (id: string) => id !== "p9";
  assert.equal(changedFor(m, "p2", "/a", exists), null, "not retracted");
  assert.equal(changedFor(m, "p1", "/a", exists)?.by, "p2");
  assert.equal(changedFor(m, "p1", "/quiet", exists)?.by, null, "its replacement is muted here");
  assert.equal(changedFor(m, "p3", "/a", exists)?.by, null, "its replacement is gone");
  assert.equal(changedFor(m, "p4", "/a", exists)?.by, null, "its replacement is retracted too");
  assert.deepEqual(replacedBy(m, "p2"), { id: "p1", retraction: m.retracted.get("p1") });
  assert.equal(replacedBy(m, "p1"), null);
});
