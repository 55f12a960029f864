/**
 * `deno task bench:secrets [--rounds R] [--show] [--against DIR]`: the credential screen's cost
 * and what it takes from real text.
 *
 * Reads every typed prompt of the development histories (../shared/data/histories and
 * ../shared/data/more-histories, read in place; skipped with a printed reason when absent) and
 * runs the built-in rules over each, as collect does for every record and the hint for every
 * quote on its way out. Printed:
 *   - the screen's time over the whole set (median of the rounds) and per prompt, as the process's
 *     CPU time (user + system), which other work on a loaded machine moves less than the wall
 *     clock;
 *   - how many prompts each rule catches: real histories hold few credentials, so every catch
 *     is worth reading (`--show` prints them, cut to 160 characters around the match), since a
 *     dropped prompt is a decision recall can no longer quote.
 * `--against DIR`: a checkout of another commit (e.g. `git archive <rev> | tar -x -C DIR`), its
 * screen timed the same way over the same prompts, round for round alternating with this one's:
 * a before/after in one run.
 */
import process from "node:process";
import * as here from "../src/record/secrets.ts";
import { taskArgs } from "../scripts/task_args.ts";

taskArgs("bench:secrets", import.meta.url, Deno.args, {
  values: ["--rounds", "--against"],
  switches: ["--show"],
});

type Screen = Pick<typeof here, "compileCredentialRules" | "findCredential">;

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

/** The other tree's screen module (where it lives before and after the re-floor of src/). */
async function screenOf(dir: string): Promise<Screen> {
  const root = Deno.realPathSync(dir);
  for (const rel of ["src/collect/secrets.ts", "src/record/secrets.ts"]) {
    try {
      Deno.statSync(`${root}/${rel}`);
    } catch {
      continue;
    }
    return await import(`file://${root}/${rel}`) as Screen;
  }
  throw new Error(`${dir} holds no src/collect/secrets.ts or src/record/secrets.ts`);
}

const texts = prompts();
if (texts.length === 0) {
  console.log("no prompts to screen");
  Deno.exit(0);
}
const rounds = Number(arg("--rounds") ?? "7") || 7;
const chars = texts.reduce((n, t) => n + t.length, 0);
const against = arg("--against");
const screens: Array<[string, Screen]> = [["this tree", here]];
if (against !== undefined) screens.push([against, await screenOf(against)]);
const times = screens.map(() => [] as number[]);
const caught = new Map<string, string[]>();
for (let round = 0; round < rounds; round++) {
  for (const [k, [, screen]] of screens.entries()) {
    const rules = screen.compileCredentialRules([]);
    const start = process.cpuUsage();
    for (const t of texts) {
      const rule = screen.findCredential(t, rules);
      if (round === 0 && k === 0 && rule !== null) {
        const list = caught.get(rule.name) ?? [];
        list.push(t);
        caught.set(rule.name, list);
      }
    }
    const used = process.cpuUsage(start);
    times[k]!.push((used.user + used.system) / 1000);
  }
}
console.log(`screen: ${texts.length} prompts, ${(chars / 1e6).toFixed(1)} M characters (CPU time)`);
for (const [k, [name, screen]] of screens.entries()) {
  const sorted = [...times[k]!].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `  ${name}: ${screen.compileCredentialRules([]).length} rules, ${
      median.toFixed(0)
    } ms median of ${rounds} ` +
      `(min ${sorted[0]!.toFixed(0)}), ${(median * 1000 / texts.length).toFixed(1)} µs per prompt, ` +
      `${(median / (chars / 1e6)).toFixed(1)} ms per M characters`,
  );
}
const rules = here.compileCredentialRules([]);
const total = [...caught.values()].reduce((n, l) => n + l.length, 0);
console.log(`caught (this tree): ${total} of ${texts.length} prompts`);
for (const [name, list] of [...caught].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`  ${String(list.length).padStart(5)}  ${name}`);
  if (Deno.args.includes("--show")) {
    const rule = rules.find((r) => r.name === name)!;
    for (const t of list) {
      const m = new RegExp(rule.pattern.source, rule.pattern.flags.replace("g", "")).exec(t);
      const at = m?.index ?? 0;
      const shown = t.slice(Math.max(0, at - 60), at + 100).replace(/\s+/g, " ");
      console.log(`         ${JSON.stringify(shown)}`);
    }
  }
}
