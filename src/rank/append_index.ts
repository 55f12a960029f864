/**
 * An in-memory index that grows one record at a time, implementing `Corpus` (bm25.ts). `verdict
 * replay` adds records in time order and searches between additions, so every prompt is ranked
 * with the exact document frequencies, lengths and columns of the records older than it: after k
 * additions this index scores bit for bit like a MemoryIndex built over the same k records with
 * the same CJK words (tests/rank/append_index_test.ts).
 *
 * Posting lists are per-term typed arrays that double when full; the columns likewise. Views
 * handed out (postingList, columns) are valid until the next `add`.
 */
import type { VerdictRecord } from "../record/record.ts";
import {
  checkDoc,
  type Corpus,
  type DocColumns,
  type DocMeta,
  metaFromColumns,
  NO_SESSION,
  packFlags,
} from "./bm25.ts";
import { EMPTY_POSTING_LIST, type Posting, type PostingList, type PostingPart } from "./postings.ts";
import { docMetaOf } from "./memory_index.ts";
import { type CjkLexicon, CjkWordSet, tokenize } from "./tokenize.ts";

/** Room a new posting list starts with: most terms occur in one or two records. */
const INITIAL_POSTINGS = 2;
/** Room the columns start with. */
const INITIAL_DOCS = 1024;

/** One term's postings: docs ascending (records are only ever appended), with their tfs. */
interface GrowingList {
  docs: Int32Array;
  tfs: Int32Array;
  length: number;
}

function grow<T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(a: T, needed: number): T {
  if (needed <= a.length) return a;
  let size = Math.max(1, a.length * 2);
  while (size < needed) size *= 2;
  const next = new (a.constructor as { new (n: number): T })(size);
  next.set(a);
  return next;
}

export class AppendIndex implements Corpus {
  /** The CJK words records and queries are tokenized with (fixed for the index's life). */
  readonly cjkWords: ReadonlySet<string>;
  readonly #lexicon: CjkLexicon | undefined;
  readonly #lists = new Map<string, GrowingList>();
  readonly #ids: string[] = [];
  #count = 0;
  #totalLength = 0;
  #lengths = new Uint32Array(INITIAL_DOCS);
  #times = new Float64Array(INITIAL_DOCS);
  #flags = new Uint8Array(INITIAL_DOCS);
  #projects = new Uint32Array(INITIAL_DOCS);
  #sessions = new Uint32Array(INITIAL_DOCS);
  readonly #projectNames: string[] = [];
  readonly #sessionNames: string[] = [];
  readonly #projectIds = new Map<string, number>();
  readonly #sessionIds = new Map<string, number>();
  #columns: DocColumns | null = null;

  constructor(cjkWords: ReadonlySet<string> = new Set()) {
    this.cjkWords = cjkWords;
    this.#lexicon = cjkWords.size > 0 ? new CjkWordSet(cjkWords) : undefined;
  }

  get docCount(): number {
    return this.#count;
  }

  /** Every document is live: slots are the documents. */
  get docSlots(): number {
    return this.#count;
  }

  get avgDocLength(): number {
    return this.#count === 0 ? 0 : this.#totalLength / this.#count;
  }

  /** Appends a record as the next document; returns its document number. */
  add(record: VerdictRecord): number {
    return this.addTokens(tokenize(record.text, this.#lexicon), docMetaOf(record));
  }

  /** Appends an already-tokenized document (its terms in text order, repeats kept). */
  addTokens(terms: readonly string[], meta: DocMeta): number {
    const doc = this.#count;
    const n = doc + 1;
    this.#lengths = grow(this.#lengths, n);
    this.#times = grow(this.#times, n);
    this.#flags = grow(this.#flags, n);
    this.#projects = grow(this.#projects, n);
    this.#sessions = grow(this.#sessions, n);
    this.#lengths[doc] = terms.length;
    this.#times[doc] = meta.timeMs;
    this.#flags[doc] = packFlags(meta.kind, meta.marker);
    this.#projects[doc] = this.#nameId(meta.project, this.#projectIds, this.#projectNames);
    this.#sessions[doc] = meta.session === null
      ? NO_SESSION
      : this.#nameId(meta.session, this.#sessionIds, this.#sessionNames);
    this.#ids.push(meta.id);
    for (const term of terms) {
      let list = this.#lists.get(term);
      if (list === undefined) {
        list = { docs: new Int32Array(INITIAL_POSTINGS), tfs: new Int32Array(INITIAL_POSTINGS), length: 0 };
        this.#lists.set(term, list);
      }
      const last = list.length - 1;
      if (last >= 0 && list.docs[last] === doc) {
        list.tfs[last] = (list.tfs[last] as number) + 1;
        continue;
      }
      list.docs = grow(list.docs, list.length + 1);
      list.tfs = grow(list.tfs, list.length + 1);
      list.docs[list.length] = doc;
      list.tfs[list.length] = 1;
      list.length++;
    }
    this.#count = n;
    this.#totalLength += terms.length;
    this.#columns = null;
    return doc;
  }

  #nameId(name: string, ids: Map<string, number>, names: string[]): number {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    return id;
  }

  docFreq(term: string): number {
    return this.#lists.get(term)?.length ?? 0;
  }

  postingList(term: string): PostingList {
    const list = this.#lists.get(term);
    if (list === undefined) return EMPTY_POSTING_LIST;
    return { docs: list.docs.subarray(0, list.length), tfs: list.tfs.subarray(0, list.length) };
  }

  postings(term: string): readonly Posting[] {
    const list = this.postingList(term);
    return Array.from(list.docs, (doc, i) => ({ doc, tf: list.tfs[i]! }));
  }

  postingParts(term: string): readonly PostingPart[] {
    const list = this.postingList(term);
    return list.docs.length === 0 ? [] : [{ docs: list.docs, tfs: list.tfs, base: 0, deleted: null }];
  }

  columns(): DocColumns {
    const n = this.#count;
    return this.#columns ??= {
      lengths: this.#lengths.subarray(0, n),
      times: this.#times.subarray(0, n),
      flags: this.#flags.subarray(0, n),
      projects: this.#projects.subarray(0, n),
      sessions: this.#sessions.subarray(0, n),
      projectNames: this.#projectNames,
      sessionNames: this.#sessionNames,
    };
  }

  docLength(doc: number): number {
    checkDoc(doc, this.#count);
    return this.#lengths[doc]!;
  }

  id(doc: number): string {
    checkDoc(doc, this.#count);
    return this.#ids[doc]!;
  }

  meta(doc: number): DocMeta {
    checkDoc(doc, this.#count);
    return metaFromColumns(this.columns(), doc, this.#ids[doc]!);
  }

  isCjkWord(word: string): boolean {
    return this.cjkWords.has(word);
  }
}
