/**
 * IR check of the BM25 core: plain BM25 (no weights, no gate, no term cap) over Vaswani, CACM and
 * Cranfield, with the reference settings of ../shared/data/ir/README.md — tokenisations "plain"
 * and "porter", depth 1000, MAP and nDCG@10 as trec_eval computes them over the queries with at
 * least one relevant document — next to the reference figures (must agree within 1%), plus the
 * tokenizer verdict ships (src/rank/tokenize.ts) through the same code path.
 *
 * Scoring is the product's own: MemoryIndex + bm25Rank, the functions `search` uses.
 * Exit status: 0 when every plain/porter figure is within 1% of its reference, 1 otherwise,
 * 2 when the data folder is missing.
 *
 * Run: deno task eval:ir
 */

import { bm25Rank, type DocMeta, type QueryTerm } from "../src/rank/bm25.ts";
import { MemoryIndex } from "../src/rank/memory_index.ts";
import { porterStem } from "../src/rank/stem.ts";
import { tokenize } from "../src/rank/tokenize.ts";
import { taskArgs } from "../scripts/task_args.ts";

const DATA = new URL("../../shared/data/ir/", import.meta.url);
/** Each query's ranking is cut here, as in the reference runs. */
const DEPTH = 1000;
/** nDCG cut-off. */
const NDCG_AT = 10;
/** Largest relative difference from a reference figure that still counts as agreement. */
const TOLERANCE = 0.01;

interface Collection {
  readonly name: string;
  readonly docs: readonly { readonly docno: string; readonly text: string }[];
  readonly queries: readonly { readonly qid: string; readonly text: string }[];
  /** qid → docno → gain (> 0 relevant). */
  readonly qrels: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/** The README's reference figures: [MAP, nDCG@10]. */
const REFERENCE: Record<string, Record<"plain" | "porter", readonly [number, number]>> = {
  Vaswani: { plain: [0.2110, 0.3563], porter: [0.2789, 0.4265] },
  CACM: { plain: [0.2664, 0.3865], porter: [0.2953, 0.4519] },
  Cranfield: { plain: [0.2700, 0.3362], porter: [0.2952, 0.3590] },
};

// --- loaders ------------------------------------------------------------------------------

async function text(path: string): Promise<string> {
  return await Deno.readTextFile(new URL(path, DATA));
}

function addQrel(qrels: Map<string, Map<string, number>>, qid: string, docno: string, gain: number): void {
  const m = qrels.get(qid) ?? new Map<string, number>();
  m.set(docno, gain);
  qrels.set(qid, m);
}

/** TREC qrels lines `qid iter docno rel`; rel > 0 is relevant with that gain. */
function trecQrels(body: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of body.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    addQrel(qrels, f[0] as string, f[2] as string, Number(f[3]));
  }
  return qrels;
}

async function vaswani(): Promise<Collection> {
  const docs = [...(await text("vaswani/doc-text.trec")).matchAll(
    /<DOC>\s*<DOCNO>\s*(.*?)\s*<\/DOCNO>([\s\S]*?)<\/DOC>/g,
  )].map((m) => ({ docno: m[1] as string, text: m[2] as string }));
  const queries = [...(await text("vaswani/query-text.trec")).matchAll(
    /<top>\s*<num>\s*(.*?)\s*<\/num>\s*<title>([\s\S]*?)<\/title>/g,
  )].map((m) => ({ qid: m[1] as string, text: m[2] as string }));
  return { name: "Vaswani", docs, queries, qrels: trecQrels(await text("vaswani/qrels")) };
}

/** The regular files of a gzip-compressed tar archive: name → bytes. */
async function untarGz(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  const tar = new Uint8Array(await new Response(stream).arrayBuffer());
  const decoder = new TextDecoder();
  const field = (at: number, len: number) =>
    decoder.decode(tar.subarray(at, at + len)).replace(/\0[\s\S]*$/, "");
  const files = new Map<string, Uint8Array>();
  let longName: string | undefined;
  for (let off = 0; off + 512 <= tar.length;) {
    if (tar.subarray(off, off + 512).every((b) => b === 0)) break; // the end-of-archive block
    const size = parseInt(field(off + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(tar[off + 156] ?? 0);
    const prefix = field(off + 345, 155);
    const name = longName ?? (prefix !== "" ? `${prefix}/${field(off, 100)}` : field(off, 100));
    const data = tar.subarray(off + 512, off + 512 + size);
    longName = undefined;
    if (type === "L") longName = decoder.decode(data).replace(/\0[\s\S]*$/, "");
    else if (type === "0" || type === "\0") files.set(name, data);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

async function cacm(): Promise<Collection> {
  const files = await untarGz(await Deno.readFile(new URL("cacm/cacm.tar.gz", DATA)));
  const decoder = new TextDecoder();
  const docs: { docno: string; text: string }[] = [];
  for (const [name, data] of files) {
    const base = name.split("/").pop() as string;
    const m = /^(CACM-\d+)\.html$/.exec(base);
    if (m === null) continue;
    docs.push({ docno: m[1] as string, text: decoder.decode(data).replace(/<[^>]*>/g, " ") });
  }
  docs.sort((a, b) => (a.docno < b.docno ? -1 : 1));
  const queries = [...(await text("cacm/topics.cacm.txt")).matchAll(
    /<DOC>\s*<DOCNO>\s*(.*?)\s*<\/DOCNO>([\s\S]*?)<\/DOC>/g,
  )].map((m) => ({ qid: m[1] as string, text: m[2] as string }));
  return { name: "CACM", docs, queries, qrels: trecQrels(await text("cacm/qrels.cacm.txt")) };
}

/** SMART-format records: `.I id` then fields `.X` each followed by its lines. */
function smart(body: string): { id: string; fields: Map<string, string> }[] {
  const out: { id: string; fields: Map<string, string> }[] = [];
  let current: { id: string; fields: Map<string, string> } | undefined;
  let field = "";
  for (const line of body.split("\n")) {
    const head = /^\.([A-Z])(?:\s+(.*))?$/.exec(line.trimEnd());
    if (head !== null && head[1] === "I") {
      current = { id: (head[2] ?? "").trim(), fields: new Map() };
      out.push(current);
      field = "";
    } else if (head !== null) {
      field = head[1] as string;
      current?.fields.set(field, current.fields.get(field) ?? "");
    } else if (current !== undefined && field !== "") {
      current.fields.set(field, (current.fields.get(field) ?? "") + line + "\n");
    }
  }
  return out;
}

async function cranfield(): Promise<Collection> {
  const docs = smart(await text("cranfield/cran.all.1400")).map((r) => ({
    docno: r.id,
    text: r.fields.get("W") ?? "",
  }));
  // The qrels number the queries 1…225 in file order, not by their .I numbers.
  const queries = smart(await text("cranfield/cran.qry")).map((r, i) => ({
    qid: String(i + 1),
    text: r.fields.get("W") ?? "",
  }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of (await text("cranfield/cranqrel")).split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 3) continue;
    const code = Number(f[2]);
    // Codes 1 (complete answer) … 4 (minimum interest) are relevant with gain 5 − code; −1 is not.
    addQrel(qrels, f[0] as string, f[1] as string, code >= 1 && code <= 4 ? 5 - code : 0);
  }
  return { name: "Cranfield", docs, queries, qrels };
}

// --- tokenisations --------------------------------------------------------------------------

/** Unicode letter/digit runs joined across inner apostrophes (then dropped), lower-cased. */
const PLAIN_TOKEN = /[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*/gu;

function plain(s: string): string[] {
  return (s.match(PLAIN_TOKEN) ?? []).map((t) => t.replace(/['\u2019]/g, "").toLowerCase());
}

const TOKENISATIONS: readonly {
  name: string;
  fn: (s: string) => string[];
  ref: "plain" | "porter" | null;
}[] = [
  { name: "plain", fn: plain, ref: "plain" },
  { name: "porter", fn: (s) => plain(s).map(porterStem), ref: "porter" },
  { name: "verdict tokenize()", fn: (s) => tokenize(s), ref: null },
];

// --- runs and measures ----------------------------------------------------------------------

const META: DocMeta = { id: "", kind: "doc", timeMs: 0, project: "", session: null, marker: null };

function counted(terms: readonly string[]): QueryTerm[] {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return [...m].map(([term, qtf]) => ({ term, qtf }));
}

/** MAP and nDCG@10 of one collection under one tokenisation. */
function evaluate(
  c: Collection,
  tokenizeFn: (s: string) => string[],
): { map: number; ndcg: number; queries: number } {
  const index = MemoryIndex.fromTokens(c.docs.map((d) => tokenizeFn(d.text)), c.docs.map(() => META));
  let apSum = 0;
  let ndcgSum = 0;
  let judged = 0;
  for (const q of c.queries) {
    const rels = c.qrels.get(q.qid);
    const relevant = rels === undefined ? 0 : [...rels.values()].filter((g) => g > 0).length;
    if (rels === undefined || relevant === 0) continue;
    judged++;
    // trec_eval's order: score descending, ties by docno descending.
    const ranked = bm25Rank(index, counted(tokenizeFn(q.text)))
      .map((m) => ({ docno: (c.docs[m.doc] as { docno: string }).docno, score: m.bm25 }))
      .sort((a, b) => b.score - a.score || (a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0))
      .slice(0, DEPTH);
    let hits = 0;
    let ap = 0;
    let dcg = 0;
    ranked.forEach((r, i) => {
      const gain = rels.get(r.docno) ?? 0;
      if (gain <= 0) return;
      hits++;
      ap += hits / (i + 1);
      if (i < NDCG_AT) dcg += gain / Math.log2(i + 2);
    });
    const ideal = [...rels.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, NDCG_AT);
    const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
    apSum += ap / relevant;
    ndcgSum += idcg > 0 ? dcg / idcg : 0;
  }
  return { map: apSum / judged, ndcg: ndcgSum / judged, queries: judged };
}

// --- main -----------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  let collections: Collection[];
  try {
    collections = [await vaswani(), await cacm(), await cranfield()];
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      console.error(`Cannot run the IR check: ${e.message}`);
      console.error("hint: the collections live in ../shared/data/ir/ beside the repository");
      return 2;
    }
    throw e;
  }
  const fmt = (x: number) => x.toFixed(4);
  const pct = (x: number, ref: number) => `${x >= ref ? "+" : ""}${((x / ref - 1) * 100).toFixed(2)}%`;
  let ok = true;
  console.log("BM25 k1=1.2 b=0.75, idf ln(1+(N-n+0.5)/(n+0.5)), depth 1000; MAP and nDCG@10 (trec_eval)");
  console.log("");
  console.log("| collection | tokenisation | MAP | ref MAP | Δ MAP | nDCG@10 | ref nDCG@10 | Δ nDCG@10 |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|");
  for (const c of collections) {
    for (const t of TOKENISATIONS) {
      const r = evaluate(c, t.fn);
      const ref = t.ref === null ? undefined : REFERENCE[c.name]?.[t.ref];
      let cells: string;
      if (ref === undefined) {
        // The shipped tokenizer has no reference of its own; compare it with the porter reference.
        const porter = REFERENCE[c.name]?.porter as readonly [number, number];
        cells = `${fmt(r.map)} | (porter ${fmt(porter[0])}) | ${pct(r.map, porter[0])} | ${fmt(r.ndcg)} | ` +
          `(porter ${fmt(porter[1])}) | ${pct(r.ndcg, porter[1])}`;
      } else {
        const within = Math.abs(r.map / ref[0] - 1) <= TOLERANCE &&
          Math.abs(r.ndcg / ref[1] - 1) <= TOLERANCE;
        if (!within) ok = false;
        cells =
          `${fmt(r.map)} | ${fmt(ref[0])} | ${pct(r.map, ref[0])} | ${fmt(r.ndcg)} | ${fmt(ref[1])} | ` +
          `${pct(r.ndcg, ref[1])}${within ? "" : " ✗"}`;
      }
      console.log(`| ${c.name} (${c.docs.length} docs, ${r.queries} queries) | ${t.name} | ${cells} |`);
    }
  }
  console.log("");
  console.log(
    `${ok ? "ok" : "FAILED"}: plain and porter ${ok ? "agree with" : "differ from"} the reference within ` +
      `${TOLERANCE * 100}% (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return ok ? 0 : 1;
}

if (import.meta.main) {
  taskArgs("eval:ir", import.meta.url, Deno.args, {});
  Deno.exit(await main());
}
