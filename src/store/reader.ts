/**
 * Reading the archive for ranking: the index as one Corpus (segmented_index.ts), and each hit's
 * record. The manifest and counts are read in one read transaction, so they agree with each
 * other; segment files are immutable and stay readable through their open handles (also after
 * the process revokes its permissions, and after a later collect replaced them).
 */
import { asRecord, type VerdictRecord } from "../record/record.ts";
import { RECORD_ORIGINS } from "../agents/registry.ts";
import { ANALYSIS_VERSION } from "../rank/analysis_version.ts";
import type { Corpus, NameTable } from "../rank/bm25.ts";
import { Segment } from "../rank/segment.ts";
import { SegmentedIndex } from "../rank/segmented_index.ts";
import { Archive, decodeDeletedTerms, META, NAME_PROJECT, NAME_SESSION } from "./archive.ts";
import { type Marks, readMarks } from "./marks.ts";
import type { StorePaths } from "./paths.ts";

export interface ArchiveReader {
  readonly corpus: Corpus;
  /**
   * Changes with every collect that changed the archive, and with the store's format version (a
   * newer verdict may upgrade the file in place, and this version may no longer read it).
   */
  readonly generation: string;
  /** The record of document `doc`; null when a collect removed it since this reader opened. */
  record(doc: number): VerdictRecord | null;
  /** The archive's generation now (a collect may have committed since this reader opened). */
  freshGeneration(): string;
  /** The record with id `id` as the archive holds it now, or null. */
  recordById(id: string): VerdictRecord | null;
  /**
   * What a person marked (retracted, muted, pinned), read once, at the first call: every change to
   * the marks moves the generation, so a reader kept open is replaced (freshGeneration) before it
   * could answer from old marks.
   */
  marks(): Marks;
  close(): void;
}

/** Thrown when the index cannot serve and the archive is too large to rank without it. */
export class IndexUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexUnavailableError";
  }
}

function names(archive: Archive, kind: number): NameTable {
  const ids = new Map<string, number>();
  const byId = new Map<number, string>();
  let limit = -1;
  return {
    // Asked of the archive once, while the reader's snapshot holds (no segment names a later one).
    get length() {
      if (limit < 0) limit = archive.nameLimit();
      return limit;
    },
    indexOf(name) {
      let id = ids.get(name);
      if (id === undefined) {
        id = archive.nameId(kind, name) ?? -1;
        ids.set(name, id);
      }
      return id;
    },
    at(index) {
      let name = byId.get(index);
      if (name === undefined) {
        name = archive.nameOf(index) ?? undefined;
        if (name !== undefined) byId.set(index, name);
      }
      return name;
    },
  };
}

/** The format version and the collect generation, as one string (see ArchiveReader.generation). */
function generationOf(archive: Archive): string {
  return `${archive.formatVersion()}.${archive.meta(META.generation) ?? "0"}`;
}

function parse(line: string | null): VerdictRecord | null {
  if (line === null) return null;
  return asRecord(JSON.parse(line), RECORD_ORIGINS);
}

/**
 * Opens the archive at `paths` for ranking; null when there is none yet. When its index was
 * built by another analysis (or cannot be opened), the records are ranked in memory if there are
 * at most `maxFallbackDocs` of them, else IndexUnavailableError.
 */
export async function openArchiveReader(
  paths: StorePaths,
  maxFallbackDocs = Infinity,
): Promise<ArchiveReader | null> {
  const archive = Archive.openForRead(paths);
  if (archive === null) return null;
  const opened: Segment[] = [];
  try {
    archive.db.exec("BEGIN");
    let generation: string;
    let liveDocs: number;
    let reason: string | null = null;
    const views = [];
    let liveLength = 0;
    let lexicon = "[]";
    try {
      generation = generationOf(archive);
      liveDocs = archive.metaNumber(META.liveDocs);
      liveLength = archive.metaNumber(META.liveLength);
      lexicon = archive.meta(META.lexicon) ?? "[]";
      if (archive.meta(META.analysis) !== String(ANALYSIS_VERSION)) {
        reason = "it was built by another version";
      } else {
        for (const row of archive.segmentRows()) {
          let segment: Segment;
          try {
            segment = Segment.open(archive.segmentFile(row.seg));
          } catch (err) {
            reason = `segment ${row.seg} cannot be read (${(err as Error).message})`;
            break;
          }
          opened.push(segment);
          if (segment.header.analysis !== ANALYSIS_VERSION || segment.docCount !== row.docs) {
            reason = `segment ${row.seg} does not match the manifest`;
            break;
          }
          const terms = row.deletedTerms;
          let decoded: Map<string, number> | undefined;
          views.push({
            segment,
            deleted: row.deleted > 0 ? row.deletedBitmap : null,
            deletedTerms: () => decoded ??= decodeDeletedTerms(terms),
          });
        }
      }
    } finally {
      archive.db.exec("COMMIT");
    }
    const record = (rowid: number) => parse(archive.recordLine(rowid));
    const freshGeneration = () => generationOf(archive);
    const recordById = (id: string) => parse(archive.recordById(id)?.line ?? null);
    let read: Marks | null = null;
    const marks = () => read ??= readMarks(archive);
    if (reason === null) {
      const corpus = new SegmentedIndex({
        segments: views,
        liveDocs,
        liveLength,
        lexicon: () => new Set(JSON.parse(lexicon) as string[]),
        projectNames: names(archive, NAME_PROJECT),
        sessionNames: names(archive, NAME_SESSION),
      });
      return {
        corpus,
        generation,
        record: (doc) => record(corpus.rowid(doc)),
        freshGeneration,
        recordById,
        marks,
        close: () => {
          corpus.close();
          archive.close();
        },
      };
    }
    for (const s of opened) s.close();
    opened.length = 0;
    if (liveDocs > maxFallbackDocs) {
      throw new IndexUnavailableError(
        `the index of ${paths.db} cannot be used (${reason}) and the archive is too large to rank without it; run "verdict collect"`,
      );
    }
    const list: VerdictRecord[] = [];
    for (
      const row of archive.st("SELECT line FROM records ORDER BY doc").iterate() as Iterable<{ line: string }>
    ) {
      const r = parse(row.line);
      if (r) list.push(r);
    }
    return {
      corpus: await memoryIndexOf(list),
      generation,
      record: (doc) => list[doc] ?? null,
      freshGeneration,
      recordById,
      marks,
      close: () => archive.close(),
    };
  } catch (err) {
    for (const s of opened) s.close();
    try {
      archive.close();
    } catch {
      // Already closed.
    }
    throw err;
  }
}

/** An in-memory index (loaded only here: the per-prompt path with a usable index never needs the builder). */
async function memoryIndexOf(records: readonly VerdictRecord[]): Promise<Corpus> {
  const { buildMemoryIndex } = await import("../rank/memory_index.ts");
  return buildMemoryIndex(records);
}

/** Every record of the archive, oldest first (time, then id): what `verdict export` prints. */
export function* archiveRecordLines(paths: StorePaths): Generator<string> {
  const archive = Archive.openForRead(paths);
  if (archive === null) return;
  try {
    yield* (function* () {
      for (
        const row of archive.st("SELECT line FROM records ORDER BY time, id").iterate() as Iterable<
          { line: string }
        >
      ) yield row.line;
    })();
  } finally {
    archive.close();
  }
}
