/**
 * The warm helper over loopback TCP: each side proves it holds the secret of the helper's
 * private folder before a prompt is sent (src/warm/handshake.ts). Injection tests with real
 * processes: a listener squatting the helper's port (or relaying to the helper on another port)
 * learns no prompt text; a client without the secret, or with a wrong one, gets no answer and
 * the helper keeps serving; an address file others could read is refused.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { runCli } from "../cli_helper.ts";
import {
  clientHandshake,
  formatAddress,
  newSecret,
  parseAddress,
  readAddressFile,
  WARM_HELLO_BYTES,
  WARM_NONCE_BYTES,
  WARM_PROOF_BYTES,
  webCryptoSigner,
} from "../../src/warm/handshake.ts";
import { WARM_PROTOCOL } from "../../src/warm/wire.ts";
import { writeAll } from "../../src/fsutil/bytes.ts";
import {
  addressOf,
  answered,
  claudeJson,
  CONTRADICTION,
  folderOf,
  frame,
  hintRequest,
  OFF,
  ON,
  portOf,
  removeWorld,
  startHelper,
  warmWorld,
} from "./_warm.ts";

const enc = new TextEncoder();

Deno.test("the address file: one line of protocol, port and secret; anything else is not an address", () => {
  const secret = newSecret();
  const text = formatAddress({ port: 40123, secret });
  assert.match(text, new RegExp(`^verdict-warm ${WARM_PROTOCOL} 40123 [0-9a-f]{64}\\n$`));
  assert.deepEqual(parseAddress(text), { port: 40123, secret });
  for (
    const bad of [
      "",
      text.trimEnd(),
      text.replace(`verdict-warm ${WARM_PROTOCOL}`, "verdict-warm 1"),
      text.replace("40123", "0"),
      text.replace("40123", "70000"),
      text.replace(/ [0-9a-f]+\n$/, " abc\n"),
      text + text,
    ]
  ) {
    assert.equal(parseAddress(bad), null, JSON.stringify(bad));
  }
  assert.notDeepEqual(newSecret(), secret, "a fresh secret each time");
});

Deno.test("the client's HMAC (WebCrypto) and the helper's (node:crypto) are the same function", async () => {
  for (let i = 0; i < 20; i++) {
    const secret = newSecret();
    const message = crypto.getRandomValues(new Uint8Array(3 + 2 * WARM_NONCE_BYTES));
    const web = await (await webCryptoSigner(secret))(message);
    const node = new Uint8Array(createHmac("sha256", secret).update(message).digest());
    assert.deepEqual(web, node);
    assert.equal(web.length, WARM_PROOF_BYTES);
  }
});

Deno.test("an address file others could read, a link or another's is refused; a private one is read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/helper.addr`;
    assert.deepEqual(readAddressFile(path, Deno.uid()), { kind: "absent" });
    await Deno.writeTextFile(path, formatAddress({ port: 4000, secret: newSecret() }), { mode: 0o600 });
    assert.equal(readAddressFile(path, Deno.uid()).kind, "ok");
    for (const mode of [0o640, 0o604, 0o644, 0o660, 0o606, 0o666]) {
      await Deno.chmod(path, mode);
      const r = readAddressFile(path, Deno.uid());
      assert.equal(r.kind, "unsafe", mode.toString(8));
      assert.match((r as { why: string }).why, /its mode is \d+, not 600/);
    }
    await Deno.chmod(path, 0o600);
    assert.equal(readAddressFile(path, (Deno.uid() ?? 0) + 1).kind, "unsafe", "another user's file");
    await Deno.symlink(path, `${dir}/link.addr`);
    assert.deepEqual(readAddressFile(`${dir}/link.addr`, Deno.uid()), {
      kind: "unsafe",
      why: "it is not a regular file",
    });
    await Deno.writeTextFile(path, "verdict-warm 1 4000 x\n");
    assert.equal(readAddressFile(path, Deno.uid()).kind, "malformed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A listener on loopback that keeps every byte it is sent and answers each connection with `reply`. */
function squatter(reply: (conn: Deno.TcpConn, hello: Uint8Array) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const received: Uint8Array[] = [];
  let connections = 0;
  const served = (async () => {
    for await (const conn of listener) {
      connections++;
      (async () => {
        const chunks: Uint8Array[] = [];
        const keep = (async () => {
          const buf = new Uint8Array(64 * 1024);
          for (;;) {
            const n = await conn.read(buf).catch(() => null);
            if (n === null) break;
            chunks.push(buf.slice(0, n));
          }
        })();
        await new Promise((r) => setTimeout(r, 20));
        await reply(conn, chunks[0] ?? new Uint8Array()).catch(() => {});
        // Hold the connection open for a while: whatever the client still sends is kept.
        await Promise.race([keep, new Promise((r) => setTimeout(r, 1500))]);
        try {
          conn.close();
        } catch { /* closed */ }
        await keep;
        const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let off = 0;
        for (const c of chunks) {
          all.set(c, off);
          off += c.length;
        }
        received.push(all);
      })();
    }
  })().catch(() => {});
  return {
    port,
    connections: () => connections,
    received,
    async stop() {
      listener.close();
      await served;
      await new Promise((r) => setTimeout(r, 1700));
    },
  };
}

/** A squatter's answers to a HELLO: none proves the secret it does not hold. */
const SQUATTERS: [string, (conn: Deno.TcpConn, hello: Uint8Array) => Promise<void>][] = [
  ["silence", async () => {}],
  ["random bytes for a nonce and a proof", async (c) => {
    await writeAll(c, crypto.getRandomValues(new Uint8Array(WARM_NONCE_BYTES + WARM_PROOF_BYTES)));
  }],
  ["a proof made with a secret of its own", async (c, hello) => {
    // As the helper would answer, with the wrong secret.
    const nonce = crypto.getRandomValues(new Uint8Array(WARM_NONCE_BYTES));
    const sign = await webCryptoSigner(newSecret());
    const msg = new Uint8Array(3 + 2 * WARM_NONCE_BYTES);
    msg[0] = 0x53;
    msg.set(hello.subarray(4, 4 + WARM_NONCE_BYTES), 3);
    msg.set(nonce, 3 + WARM_NONCE_BYTES);
    const proof = await sign(msg);
    await writeAll(c, Uint8Array.from([...nonce, ...proof]));
  }],
  ["its HELLO echoed back", async (c, hello) => {
    await writeAll(c, Uint8Array.from([...hello, ...hello]).subarray(0, WARM_NONCE_BYTES + WARM_PROOF_BYTES));
  }],
  ["a hook answer frame at once", async (c) => {
    const body = enc.encode('{"evil":"answer"}\n');
    const h = enc.encode(
      JSON.stringify({ protocol: WARM_PROTOCOL, build: "any", code: 0, bodyBytes: body.length }),
    );
    const f = new Uint8Array(4 + h.length + body.length);
    new DataView(f.buffer).setUint32(0, h.length);
    f.set(h, 4);
    f.set(body, 4 + h.length);
    await writeAll(c, f);
  }],
];

Deno.test("a listener squatting the helper's port after it is gone learns no prompt text; the hook answers in-process", async () => {
  const env = await warmWorld({ warm_helper: false }, true);
  await Deno.mkdir(folderOf(env), { recursive: true, mode: 0o700 });
  // The session id travels in the hook's input, as the prompt does.
  const marker = "zebra-quartz-7781";
  try {
    const cold = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...OFF },
      stdin: claudeJson(CONTRADICTION, `${marker}-c`),
    });
    assert.match(cold.stdout, /\[verdict recall\]/, "the prompt fires in-process");
    for (const [i, [what, reply]] of SQUATTERS.entries()) {
      const squat = squatter(reply);
      // The address file a helper left on that port, with its secret (which the squatter lacks).
      await Deno.writeTextFile(addressOf(env), formatAddress({ port: squat.port, secret: newSecret() }), {
        mode: 0o600,
      });
      try {
        const r = await runCli(["hook", "user-prompt"], {
          env: { ...env, ...ON },
          stdin: claudeJson(CONTRADICTION, `${marker}-w${i}`),
        });
        assert.deepEqual(
          [r.code, r.stdout, r.stderr],
          [0, cold.stdout, ""],
          `${what}: the in-process answer`,
        );
      } finally {
        await squat.stop();
      }
      assert.equal(squat.connections(), 1, `${what}: the client did connect`);
      const got = squat.received.flatMap((b) => [...b]);
      assert.equal(got.length, WARM_HELLO_BYTES, `${what}: it got the HELLO and nothing more`);
      const text = new TextDecoder().decode(Uint8Array.from(got));
      assert.ok(!text.includes(marker) && !text.includes("pg_dump"), `${what}: no prompt text`);
    }
  } finally {
    await removeWorld(env);
  }
});

Deno.test("a listener relaying a client to the real helper on another port is found out: the port is in the proof", async () => {
  const env = await warmWorld({}, true);
  const helper = await startHelper(env);
  const marker = "walrus-umber-3319";
  try {
    const real = parseAddress(await Deno.readTextFile(addressOf(env)))!;
    const relayed: number[] = [];
    const relay = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const relayPort = (relay.addr as Deno.NetAddr).port;
    const pumping = (async () => {
      for await (const c of relay) {
        const up = await Deno.connect({ hostname: "127.0.0.1", port: real.port });
        const pipe = async (from: Deno.TcpConn, to: Deno.TcpConn, seen?: number[]) => {
          const buf = new Uint8Array(64 * 1024);
          for (;;) {
            const n = await from.read(buf).catch(() => null);
            if (n === null) break;
            seen?.push(...buf.subarray(0, n));
            await writeAll(to, buf.subarray(0, n)).catch(() => {});
          }
          try {
            to.close();
          } catch { /* closed */ }
        };
        pipe(c, up, relayed);
        pipe(up, c);
      }
    })().catch(() => {});
    // The client holds the right secret, but the port it connects to is the relay's.
    await Deno.writeTextFile(addressOf(env), formatAddress({ port: relayPort, secret: real.secret }), {
      mode: 0o600,
    });
    const r = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...ON },
      stdin: claudeJson(`${CONTRADICTION} ${marker}`, "relay"),
    });
    assert.equal(r.code, 0, r.stderr);
    await new Promise((r) => setTimeout(r, 300));
    relay.close();
    await pumping;
    assert.equal(relayed.length, WARM_HELLO_BYTES, "the relay passed on the HELLO and nothing more");
    assert.ok(!new TextDecoder().decode(Uint8Array.from(relayed)).includes(marker));
    await Deno.writeTextFile(addressOf(env), formatAddress(real), { mode: 0o600 });
    assert.equal(await answered(env), 0, "the helper answered no prompt through the relay");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

/** Reads what the helper sends until it closes the connection (or 5 s pass). */
async function drain(conn: Deno.TcpConn): Promise<number> {
  let total = 0;
  const buf = new Uint8Array(64 * 1024);
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) break;
    total += n;
  }
  return total;
}

Deno.test("a client without the secret, or with a wrong one, gets no answer, and the helper keeps serving", async () => {
  const env = await warmWorld({}, true);
  const helper = await startHelper(env);
  try {
    const port = portOf(env)!;
    const request = hintRequest(
      env,
      { env: { HOME: env.HOME, VERDICT_SEEN: "" } },
      enc.encode(claudeJson(CONTRADICTION, "x")),
    );
    const cases: [string, (c: Deno.TcpConn) => Promise<number>][] = [
      ["the request at once, no handshake", async (c) => {
        await writeAll(c, request);
        return await drain(c);
      }],
      ["a HELLO, then a random proof and the request", async (c) => {
        await writeAll(
          c,
          Uint8Array.from([0x76, 0x77, 0x68, WARM_PROTOCOL, ...new Uint8Array(WARM_NONCE_BYTES)]),
        );
        const reply = new Uint8Array(WARM_NONCE_BYTES + WARM_PROOF_BYTES);
        let off = 0;
        while (off < reply.length) off += (await c.read(reply.subarray(off))) ?? reply.length;
        await writeAll(
          c,
          Uint8Array.from([...crypto.getRandomValues(new Uint8Array(WARM_PROOF_BYTES)), ...request]),
        );
        return await drain(c);
      }],
      ["the client's handshake with a wrong secret, then the request", async (c) => {
        const proof = await clientHandshake(c, await webCryptoSigner(newSecret()), port);
        // Its check of the helper's proof fails: a real client stops here. This one goes on.
        assert.equal(proof, null, "the helper's proof does not verify with another secret");
        await writeAll(c, Uint8Array.from([...new Uint8Array(WARM_PROOF_BYTES), ...request]));
        return await drain(c);
      }],
      ["a HELLO of another protocol", async (c) => {
        await writeAll(
          c,
          Uint8Array.from([0x76, 0x77, 0x68, WARM_PROTOCOL + 1, ...new Uint8Array(WARM_NONCE_BYTES)]),
        );
        return await drain(c);
      }],
    ];
    for (const [what, run] of cases) {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      try {
        const after = await run(c);
        // What came back is at most the helper's own proof: never a frame.
        assert.ok(after === 0, `${what}: nothing after the handshake (${after} bytes)`);
      } finally {
        try {
          c.close();
        } catch { /* closed */ }
      }
    }
    assert.equal(await answered(env), 0, "no prompt was answered");
    const ok = await frame(
      env,
      { env: { HOME: env.HOME, VERDICT_SEEN: "" } },
      enc.encode(claudeJson(CONTRADICTION, "ok")),
    );
    assert.match(ok!.body, /\[verdict recall\]/, "a client that proves the secret is answered");
    assert.equal(await answered(env), 1);
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});

Deno.test("an address file others can read is refused by the hook and by warm status: the hook answers in-process, the helper is never asked", async () => {
  const env = await warmWorld({}, true);
  const helper = await startHelper(env);
  try {
    const cold = await runCli(["hook", "user-prompt"], {
      env: { ...env, ...OFF },
      stdin: claudeJson(CONTRADICTION, "c"),
    });
    assert.match(cold.stdout, /\[verdict recall\]/);
    for (const mode of [0o644, 0o640, 0o604]) {
      await Deno.chmod(addressOf(env), mode);
      const warm = await runCli(["hook", "user-prompt"], {
        env: { ...env, ...ON },
        stdin: claudeJson(CONTRADICTION, `m${mode}`),
      });
      assert.deepEqual([warm.code, warm.stdout], [0, cold.stdout], mode.toString(8));
      const status = await runCli(["warm", "status"], { env });
      assert.notEqual(status.code, 0, `${mode.toString(8)}: warm status does not use it`);
    }
    await Deno.chmod(addressOf(env), 0o600);
    assert.equal(await answered(env), 0, "the helper was never asked");
  } finally {
    await helper.stop();
    await removeWorld(env);
  }
});
