/**
 * `deno task bench:secrets [--rounds R]`: the credential screen's cost and what it takes from
 * real text.
 *
 * Reads every typed prompt of the development histories (../shared/data/histories and
 * ../shared/data/more-histories, read in place; skipped with a printed reason when absent) and
 * runs the built-in rules over each, as collect does for every record and the hint for every
 * quote on its way out. Printed:
 *   - the screen's time over the whole set (median of the rounds) and per prompt;
 *   - how many prompts each rule catches: real histories hold few credentials, so every catch
 *     is worth reading (`--show` prints them, cut to 160 characters around the match), since a
 *     dropped prompt is a decision recall can no longer quote.
 */
import { compileCredentialRules, findCredential } from "../src/record/secrets.ts";

const ROOTS = ["../../shared/data/histories/", "../../shared/data/more-histories/"].map((p) =>
  new URL(p, import.meta.url)
);

function arg(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

function prompts(): string[] {
  const out: string[] = [];
  for (const root of ROOTS) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(root)];
    } catch {
      console.log(`skipped: ${decodeURIComponent(root.pathname)} is absent`);
      continue;
    }
    for (const e of entries.filter((e) => e.isDirectory).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      let text: string;
      try {
        text = Deno.readTextFileSync(new URL(`${e.name}/prompts.jsonl`, root));
      } catch {
        continue;
      }
      for (const line of text.split("\n")) {
        if (line.trim() !== "") out.push((JSON.parse(line) as { text: string }).text);
      }
    }
  }
  return out;
}

const texts = prompts();
if (texts.length === 0) {
  console.log("no prompts to screen");
  Deno.exit(0);
}
const rules = compileCredentialRules([]);
const rounds = Number(arg("--rounds") ?? "7") || 7;
const chars = texts.reduce((n, t) => n + t.length, 0);
const times: number[] = [];
const caught = new Map<string, string[]>();
for (let round = 0; round < rounds; round++) {
  const start = performance.now();
  for (const t of texts) {
    const rule = findCredential(t, rules);
    if (round === 0 && rule !== null) {
      const list = caught.get(rule.name) ?? [];
      list.push(t);
      caught.set(rule.name, list);
    }
  }
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  `screen: ${texts.length} prompts, ${(chars / 1e6).toFixed(1)} M characters, ${rules.length} rules: ` +
    `${median.toFixed(0)} ms median of ${rounds} (min ${times[0]!.toFixed(0)}), ` +
    `${(median * 1000 / texts.length).toFixed(1)} µs per prompt, ${
      (median / (chars / 1e6)).toFixed(1)
    } ms per M characters`,
);
const total = [...caught.values()].reduce((n, l) => n + l.length, 0);
console.log(`caught: ${total} of ${texts.length} prompts`);
for (const [name, list] of [...caught].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`  ${String(list.length).padStart(5)}  ${name}`);
  if (Deno.args.includes("--show")) {
    for (const t of list) {
      const rule = rules.find((r) => r.name === name)!;
      const m = new RegExp(rule.pattern.source, rule.pattern.flags.replace("g", "")).exec(t);
      const at = m?.index ?? 0;
      const shown = t.slice(Math.max(0, at - 60), at + 100).replace(/\s+/g, " ");
      console.log(`         ${JSON.stringify(shown)}`);
    }
  }
}
