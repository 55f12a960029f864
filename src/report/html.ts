/**
 * The report page (pure): one self-contained HTML file, with no network and no other file: inline
 * style, inline SVG plots and a little inline script (the search box), under a Content Security
 * Policy that forbids every fetch, so a browser opening it asks nothing of any server. Every text
 * from the archive is escaped; none becomes markup, a link or a script.
 */
import type { ProjectDecisions } from "./decisions.ts";
import type { ReplayFigures } from "./figures.ts";

/** What a quoted record shows in the "quoted most often" table. */
export interface QuotedRecord {
  readonly id: string;
  readonly time: string;
  readonly kind: string;
  readonly project: string;
  readonly text: string;
}

export interface ReportInput {
  /** When the report was made (RFC 3339), and over what. */
  readonly madeAt: string;
  readonly archive: string;
  readonly records: number;
  readonly decisions: readonly ProjectDecisions[];
  readonly figures: ReplayFigures;
  readonly quoted: ReadonlyMap<string, QuotedRecord>;
}

/** Forbids every fetch: scripts and styles only inline, no image, font, frame or connection. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; " +
  "img-src data:; base-uri 'none'; form-action 'none'";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** One line of at most `max` characters (line breaks and control characters become spaces). */
function line(text: string, max: number): string {
  // deno-lint-ignore no-control-regex -- control characters are what is replaced
  const one = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
  const points = Array.from(one);
  return points.length <= max ? one : `${points.slice(0, max - 1).join("")}…`;
}

const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
];

const PLOT = { width: 720, height: 170, left: 40, right: 10, top: 10, bottom: 30 };

/** The y axis: a few round ticks up to at least `max`. */
function ticks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const step = Math.pow(10, Math.floor(Math.log10(max)));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => max / s <= 5)!;
  const out: number[] = [];
  for (let v = 0; v < max + nice; v += nice) out.push(v);
  return out;
}

/** A bar chart over weeks: each week a stack of `series` (name, colour, value per week). */
function weekChart(
  id: string,
  title: string,
  weeks: readonly string[],
  series: readonly { name: string; colour: string; values: readonly number[] }[],
): string {
  const { width, height, left, right, top, bottom } = PLOT;
  const innerW = width - left - right;
  const innerH = height - top - bottom;
  const totals = weeks.map((_, i) => series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  const axis = ticks(Math.max(1, ...totals));
  const yMax = axis.at(-1)!;
  const y = (v: number) => top + innerH - (v / yMax) * innerH;
  const slot = innerW / Math.max(1, weeks.length);
  const barW = Math.max(1, Math.min(36, slot * 0.8));
  const parts: string[] = [];
  for (const v of axis) {
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${
        y(v).toFixed(1)
      }" stroke="#ddd"/><text x="${left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`,
    );
  }
  weeks.forEach((week, i) => {
    let base = 0;
    const x = left + i * slot + (slot - barW) / 2;
    for (const s of series) {
      const v = s.values[i] ?? 0;
      if (v > 0) {
        parts.push(
          `<rect class="bar" data-week="${week}" data-series="${esc(s.name)}" data-value="${v}" x="${
            x.toFixed(1)
          }" y="${y(base + v).toFixed(1)}" width="${barW.toFixed(1)}" height="${
            (y(base) - y(base + v)).toFixed(1)
          }" fill="${s.colour}"><title>${esc(`${week}: ${s.name} ${v}`)}</title></rect>`,
        );
      }
      base += v;
    }
  });
  // A date under the first, the last and a few weeks between.
  const every = Math.max(1, Math.ceil(weeks.length / 6));
  weeks.forEach((week, i) => {
    const last = i === weeks.length - 1;
    // A regular date too near the last one would overlap it.
    if (!last && (i % every !== 0 || weeks.length - 1 - i < Math.ceil(every / 2))) return;
    parts.push(
      `<text x="${(left + i * slot + slot / 2).toFixed(1)}" y="${
        height - bottom + 16
      }" text-anchor="middle">${week}</text>`,
    );
  });
  const legend = series.map((s) =>
    `<span class="key"><i style="background:${s.colour}"></i>${esc(s.name)}</span>`
  )
    .join(" ");
  return `<figure id="${id}"><figcaption>${
    esc(title)
  }</figcaption><svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${
    esc(title)
  }">${parts.join("")}</svg><div class="legend">${legend}</div></figure>`;
}

function stateBadges(state: readonly string[]): string {
  if (state.length === 1 && state[0] === "live") return "";
  return state.map((s) => `<span class="state state-${esc(s.split(" ")[0]!)}">${esc(s)}</span>`).join(" ");
}

function commands(id: string): string {
  return ["show", "retract", "mute", "forget"].map((c) => `<code>verdict ${c} ${esc(id)}</code>`).join(" ");
}

export function renderReport(input: ReportInput): string {
  const f = input.figures;
  const weeks = f.weeks.map((w) => w.week);
  const hints = weekChart("hints-per-week", "Prompts replayed and hints shown, per week", weeks, [
    { name: "hint shown", colour: "#2b7a78", values: f.weeks.map((w) => w.fired) },
    { name: "silent", colour: "#c9d6d5", values: f.weeks.map((w) => w.prompts - w.fired) },
  ]);
  const silent = weekChart(
    "silent-by-rule",
    "Silent prompts by the rule that kept the hint silent, per week",
    weeks,
    f.rules.map((rule, i) => ({
      name: rule,
      colour: PALETTE[i % PALETTE.length]!,
      values: f.weeks.map((w) => w.silent[rule] ?? 0),
    })),
  );
  const total = input.decisions.reduce((n, p) => n + p.decisions.length, 0);
  const quotedRows = f.mostQuoted.map((q) => {
    const r = input.quoted.get(q.id);
    return `<tr class="quoted"><td class="num">${q.count}×</td><td><code>${
      esc(q.id)
    }</code></td><td class="date">${r ? esc(r.time.slice(0, 10)) : ""}</td><td>${
      r ? esc(line(r.text, 160)) : "(no longer in the archive)"
    }</td><td class="cmds">${commands(q.id)}</td></tr>`;
  });
  const projects = input.decisions.map((p) => {
    const items = p.decisions.map((d) => {
      const text = d.statements.join(" ");
      const search = `${text} ${d.id} ${p.project} ${d.state.join(" ")}`.toLowerCase();
      return `<li class="decision" data-id="${esc(d.id)}" data-search="${esc(search)}"><time datetime="${
        esc(d.time)
      }">${esc(d.time.slice(0, 10))}</time> <code>${esc(d.id)}</code> <span class="kind">${
        esc(d.kind)
      }</span> ${stateBadges(d.state)}${
        d.copies > 1 ? ` <span class="copies">said ${d.copies}×</span>` : ""
      }<div class="text">${esc(line(text, 600))}</div></li>`;
    });
    return `<section class="project" data-project="${esc(p.project)}"><h3>${
      esc(p.project || "(no project)")
    } <small>${p.decisions.length}</small></h3><ol>${items.join("")}</ol></section>`;
  });
  const share = f.prompts === 0 ? "0" : (100 * f.fired / f.prompts).toFixed(1);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>verdict report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:980px;padding:0 16px;color:#222}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:16px 0 4px}h3 small{color:#888;font-weight:normal}
.meta{color:#666}figure{margin:8px 0 16px}figcaption{font-weight:600;margin-bottom:4px}
svg text{font-size:10px;fill:#555}.legend{font-size:12px;color:#444}.key{margin-right:12px}
.key i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
table{border-collapse:collapse;width:100%}td{border-top:1px solid #eee;padding:4px 6px;vertical-align:top}
.num,.date{text-align:right;white-space:nowrap}.cmds{white-space:nowrap}.cmds code{display:block;font-size:11px;color:#555}
ol{list-style:none;padding:0;margin:0}li.decision{padding:6px 0;border-top:1px solid #f0f0f0}
li .text{margin-top:2px}time{color:#555}code{font-size:12px}.kind{color:#777;font-size:12px}
.state{font-size:11px;padding:1px 6px;border-radius:8px;background:#eee}.state-retracted,.state-superseded{background:#f6d5d5}
.state-muted{background:#e2e2e2}.state-pinned{background:#d5e8f6}.state-replaces{background:#dcf0dc}.copies{color:#888;font-size:12px}
#search{font-size:15px;padding:6px 8px;width:60%;margin:4px 0}
</style>
</head>
<body>
<header>
<h1>verdict: your decisions</h1>
<p class="meta">Made ${esc(input.madeAt.slice(0, 16).replace("T", " "))} UTC from ${
    esc(input.archive)
  }: ${input.records} records, ${total} decisions in ${input.decisions.length} project(s). This page is one file: it loads nothing and sends nothing.</p>
</header>
<section id="figures">
<h2>What the hint would have said</h2>
<p class="meta">Replay of ${f.prompts} typed prompt(s): the hint spoke on ${f.fired} (${share}%).</p>
${hints}
${silent}
</section>
<section id="quoted">
<h2>Quoted most often</h2>
${
    quotedRows.length === 0
      ? '<p class="meta">The hint quoted nothing in this replay.</p>'
      : `<table><tbody>${quotedRows.join("")}</tbody></table>`
  }
</section>
<section id="timeline">
<h2>Decisions, per project, newest first</h2>
<input id="search" type="search" placeholder="Search decisions, ids, projects" autocomplete="off">
<p id="shown" class="meta"></p>
${projects.join("\n")}
</section>
<script>
(() => {
  const box = document.getElementById("search");
  const items = [...document.querySelectorAll("li.decision")];
  const apply = () => {
    const q = box.value.trim().toLowerCase();
    let shown = 0;
    for (const li of items) {
      li.hidden = q !== "" && !li.dataset.search.includes(q);
      if (!li.hidden) shown++;
    }
    for (const p of document.querySelectorAll("section.project")) {
      p.hidden = p.querySelector("li.decision:not([hidden])") === null;
    }
    document.getElementById("shown").textContent = shown + " of " + items.length + " decisions";
  };
  box.addEventListener("input", apply);
  const asked = new URLSearchParams(location.hash.slice(1)).get("q");
  if (asked) box.value = asked;
  apply();
})();
</script>
</body>
</html>
`;
}
