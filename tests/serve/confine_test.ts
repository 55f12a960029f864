/**
 * The server's confinement self-check, under real Deno permissions set per test: it passes with
 * a grant for one address and refuses the wider grants (the injected violations).
 */
import assert from "node:assert/strict";
import { assertNetConfined, netConfinementProblem, probeConnect } from "../../src/serve/confine.ts";
import { ServeRefusal } from "../../src/serve/listen.ts";

Deno.test({
  name: "a grant for the listen address only passes the self-check, and Deno refuses a probe elsewhere",
  permissions: { net: ["127.0.0.1:45871"] },
  async fn() {
    assert.equal(await netConfinementProblem(["127.0.0.1:45871"]), null);
    const probe = await probeConnect("127.0.0.1:45872");
    assert.equal(probe.kind, "refused");
    assert.equal((await probeConnect("[::1]:45871")).kind, "refused");
  },
});

Deno.test({
  name: "a grant for every host is refused by the self-check",
  permissions: { net: true },
  async fn() {
    assert.equal(await netConfinementProblem(["127.0.0.1:45871"]), "this process may reach any host");
    await assert.rejects(assertNetConfined(["127.0.0.1:45871"]), ServeRefusal);
  },
});

Deno.test({
  name: "a grant for every port of the listen host is refused by the self-check",
  permissions: { net: ["127.0.0.1"] },
  async fn() {
    assert.match((await netConfinementProblem(["127.0.0.1:45871"]))!, /every port of 127\.0\.0\.1/);
  },
});

Deno.test({
  name: "with no net at all (the stdio server without a judge service) the self-check passes",
  permissions: { net: false },
  async fn() {
    assert.equal(await netConfinementProblem([]), null);
  },
});
