import assert from "node:assert/strict";
import { buildServiceRequest, parseServiceReply } from "../../src/judge/service.ts";
import { judgeSnapshot } from "../../src/judge/judge.ts";
import { makeSnapshot } from "../../src/judge/snapshot.ts";
import { VERDICTS } from "../../src/judge/rules.ts";
import type { JudgeConfig } from "../../src/config/config.ts";
import { CONFIG, deadUrl, fakeService } from "./_helpers.ts";

const BAND_SUMMARY = {
  session: "s-band",
  todos: ["finish the parser (in_progress)"],
  uncommitted: [],
  questions: [],
  decisions: [],
  next_steps: [],
  risk_hints: [],
};

async function judgeWith(url: string, extra: Partial<JudgeConfig> = {}) {
  const snap = await makeSnapshot(BAND_SUMMARY, CONFIG);
  return await judgeSnapshot(snap, { config: { ...CONFIG, service_url: url, ...extra } });
}

Deno.test("a four-option and a two-option service request are refused before anything is sent", () => {
  assert.throws(() => buildServiceRequest("s", [...VERDICTS, "drop_blocks"], "m"), (err: unknown) => {
    assert.ok(err instanceof RangeError);
    assert.match(err.message, /refusing to build a service request with 4 option\(s\)/);
    return true;
  });
  assert.throws(
    () => buildServiceRequest("s", ["safe_to_compact", "preserve_first"], "m"),
    /with 2 option\(s\)/,
  );
  assert.throws(
    () => buildServiceRequest("s", ["wait", "safe_to_compact", "preserve_first"], "m"),
    RangeError,
  );
});

Deno.test("the request is one question with exactly the three options, JSON output, temperature 0", async () => {
  const svc = fakeService('{"choice":"preserve_first","score":0.9}');
  try {
    await judgeWith(svc.url);
    assert.equal(svc.requests.length, 1);
    const req = svc.requests[0] as Record<string, unknown>;
    assert.equal(req.temperature, 0);
    assert.equal(req.model, "local");
    assert.deepEqual(req.response_format, { type: "json_object" });
    const messages = req.messages as Array<{ role: string; content: string }>;
    assert.equal(messages.length, 2);
    assert.match(messages[1]!.content, /Options: safe_to_compact, wait, preserve_first$/);
    assert.match(messages[1]!.content, /Session: s-band/);
    assert.match(messages[0]!.content, /"score"/);
  } finally {
    await svc.close();
  }
});

Deno.test("a valid service answer decides the band and its score is carried", async () => {
  const svc = fakeService('{"choice":"safe_to_compact","score":0.75}');
  try {
    const a = await judgeWith(svc.url);
    assert.deepEqual([a.verdict, a.reason, a.score], ["safe_to_compact", "service_answer", 0.75]);
  } finally {
    await svc.close();
  }
});

Deno.test("a service that answers maybe, a fourth option, or no valid score gets wait (service_invalid_answer)", async () => {
  for (
    const content of [
      '{"choice":"maybe","score":0.5}',
      '{"choice":"drop_some_blocks","score":0.5}',
      '{"choice":"Safe_To_Compact","score":0.5}',
      '{"choice":"safe_to_compact"}',
      '{"choice":"safe_to_compact","score":1.5}',
      '{"choice":"safe_to_compact","score":"0.9"}',
      '{"choice":"safe_to_compact","score":0.9,"why":"x"}',
      "safe_to_compact",
    ]
  ) {
    const svc = fakeService(content);
    try {
      const a = await judgeWith(svc.url);
      assert.deepEqual([a.verdict, a.reason, a.score], ["wait", "service_invalid_answer", null], content);
    } finally {
      await svc.close();
    }
  }
});

Deno.test("a service answer carrying perBlock is refused with its path, never stripped", async () => {
  const svc = fakeService('{"choice":"safe_to_compact","score":0.9,"detail":[{"perBlock":{"b3":"drop"}}]}');
  try {
    const a = await judgeWith(svc.url);
    assert.deepEqual([a.verdict, a.reason], ["wait", "service_invalid_answer"]);
    assert.match(a.reasonText, /\$\.detail\[0\]\.perBlock/);
    assert.match(a.reasonText, /0\.323/);
  } finally {
    await svc.close();
  }
  assert.equal(
    parseServiceReply(JSON.stringify({ choices: [{ message: { content: "{}", keep: [1] } }] })).kind,
    "invalid",
  );
});

Deno.test("a service that is down gets wait (service_unreachable)", async () => {
  const a = await judgeWith(deadUrl());
  assert.deepEqual([a.verdict, a.reason], ["wait", "service_unreachable"]);
  assert.match(a.reasonText, /was not there/);
});

Deno.test("a service that hangs times out into wait (service_unreachable, timed out)", async () => {
  const svc = fakeService("", { hang: true });
  try {
    const a = await judgeWith(svc.url, { timeout_ms: 200 });
    assert.deepEqual([a.verdict, a.reason], ["wait", "service_unreachable"]);
    assert.match(a.reasonText, /timed out after 200 ms/);
  } finally {
    await svc.close();
  }
});

Deno.test("an HTTP error from the service gets wait (service_unreachable)", async () => {
  const svc = fakeService('{"choice":"safe_to_compact","score":1}', { status: 500 });
  try {
    const a = await judgeWith(svc.url);
    assert.deepEqual([a.verdict, a.reason], ["wait", "service_unreachable"]);
  } finally {
    await svc.close();
  }
});

Deno.test("the service is never asked at the two ends", async () => {
  const svc = fakeService('{"choice":"safe_to_compact","score":1}');
  try {
    const config = { ...CONFIG, service_url: svc.url };
    const empty = await makeSnapshot({ ...BAND_SUMMARY, todos: [] }, CONFIG);
    assert.equal((await judgeSnapshot(empty, { config })).reason, "none_unlanded");
    const full = await makeSnapshot({ ...BAND_SUMMARY, todos: ["a", "b", "c"] }, CONFIG);
    assert.equal((await judgeSnapshot(full, { config })).reason, "over_threshold");
    assert.equal(svc.requests.length, 0);
  } finally {
    await svc.close();
  }
});

Deno.test("a service answer repeating a key is refused, in the answer and in its envelope", async () => {
  for (
    const content of [
      '{"choice":"preserve_first","choice":"safe_to_compact","score":0.9}',
      '{"choice":"safe_to_compact","score":0.1,"score":0.9}',
      // The same key spelled with an escape is still the same key.
      '{"choice":"preserve_first","\\u0063hoice":"safe_to_compact","score":0.9}',
    ]
  ) {
    const svc = fakeService(content);
    try {
      const a = await judgeWith(svc.url);
      assert.deepEqual([a.verdict, a.reason, a.score], ["wait", "service_invalid_answer", null], content);
    } finally {
      await svc.close();
    }
  }
  const envelope = (choices: string) =>
    `{"id":"x","choices":${choices},"choices":[{"message":{"content":"{}"}}]}`;
  const reply = parseServiceReply(
    envelope('[{"message":{"content":"{\\"choice\\":\\"safe_to_compact\\",\\"score\\":1}"}}]'),
  );
  assert.equal(reply.kind, "invalid");
  assert.match((reply as { note: string }).note, /repeats the key "choices"/);
});
