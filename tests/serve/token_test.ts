import assert from "node:assert/strict";
import { bearerToken, loadTokenDigest, sameDigest, tokenDigest } from "../../src/serve/token.ts";
import { ServeRefusal } from "../../src/serve/listen.ts";

Deno.test("sameDigest() compares whole digests: equal, differing anywhere, or of other lengths", async () => {
  const a = await tokenDigest("token-aaaaaaaaaaaaaaaa");
  assert.equal(sameDigest(a, await tokenDigest("token-aaaaaaaaaaaaaaaa")), true);
  assert.equal(sameDigest(a, await tokenDigest("token-aaaaaaaaaaaaaaab")), false);
  const flipped = a.slice();
  flipped[31] = flipped[31]! ^ 1;
  assert.equal(sameDigest(a, flipped), false);
  assert.equal(sameDigest(a, a.slice(0, 31)), false);
});

Deno.test("bearerToken() reads the scheme case-insensitively and refuses anything else", () => {
  assert.equal(bearerToken("Bearer abc"), "abc");
  assert.equal(bearerToken("bearer   abc "), "abc");
  assert.equal(bearerToken("Basic abc"), null);
  assert.equal(bearerToken("Bearer a b"), null);
  assert.equal(bearerToken("Bearer"), null);
  assert.equal(bearerToken(null), null);
});

Deno.test("loadTokenDigest() reads a 0600 file and refuses looser modes, directories and short tokens", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t`;
  await Deno.writeTextFile(path, "  0123456789abcdef-token \n");
  await Deno.chmod(path, 0o600);
  assert.deepEqual(await loadTokenDigest(path), await tokenDigest("0123456789abcdef-token"));
  await Deno.chmod(path, 0o400);
  assert.deepEqual(await loadTokenDigest(path), await tokenDigest("0123456789abcdef-token"));
  await Deno.chmod(path, 0o644);
  await assert.rejects(
    loadTokenDigest(path),
    (e: unknown) => e instanceof ServeRefusal && /mode 0644/.test(e.message),
  );
  await assert.rejects(loadTokenDigest(dir), /not a regular file/);
  await Deno.chmod(path, 0o600);
  await Deno.writeTextFile(path, "tooshort");
  await assert.rejects(loadTokenDigest(path), /at least 16/);
  await Deno.remove(dir, { recursive: true });
});
