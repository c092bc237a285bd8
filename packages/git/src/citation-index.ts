import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  codeUnitHash,
  decodeDocument,
  extractRlm,
  forEachLimited,
  fromDocumentFolder,
  normaliseArtifactPath,
  parseLineRange,
  type RlmCitation,
  type RlmForm,
  type Suppression,
  scanMarkdown,
} from '@aiwg-cite/core';
import { removeOwnFile } from '@aiwg-cite/node';
import { BlobSet } from './blob-set.ts';
import type { CatFileBatch } from './cat-file.ts';
import { type IndexSnapshot, isRegularFileMode } from './index-entries.ts';
import { IndexFileEntries } from './index-file.ts';

/**
 * Bumped whenever the stored shape or the extraction changes, so old files are rebuilt. 3: the
 * index is kept split by cited artifact ({@link IndexPart}) instead of as one file keyed by blob.
 * 4: documents new since the parts were written are kept beside them ({@link IndexDelta}); a tool
 * of format 3 would take the summary's list of blobs for the parts' and miss their citations. The
 * summary keeps its blobs as one string of hex ({@link BlobSet}), read on every commit.
 */
const FORMAT_VERSION = 4;

/**
 * One citation as stored: `[artifact, id, hash, line, column, offset, text, lines, form]`, with
 * the artifact path already normalised so that a lookup is a string comparison. Tuples keep the
 * parts small: one is read on every commit that changes a file it holds.
 */
type StoredCitation = [string, string, string | null, number, number, number, string, string | null, RlmForm];

/** What the index keeps of one markdown blob: its well-formed RLM citations and its suppressions. */
export interface IndexedBlob {
  /** Citations, each with its normalised artifact path. */
  readonly c: readonly StoredCitation[];
  /** Suppressions as `[line, rules]`. */
  readonly s: readonly [number, readonly string[]][];
}

/** A citation of a changed artifact, found through the index. */
export interface CitingEntry {
  /** The citing document, root-relative. */
  readonly document: string;
  /** The artifact it cites, normalised root-relative. */
  readonly artifact: string;
  readonly citation: RlmCitation;
  readonly suppressions: readonly Suppression[];
}

/** Options of {@link findCitingEntries}. */
export interface CitationIndexOptions {
  /**
   * Names where the index is kept, e.g. `$(git rev-parse --git-dir)/aiwg-cite/citations.json`: its
   * summary ({@link summaryPath}) and parts ({@link indexPartPath}) are beside it. The file itself
   * is the index of format 2 and earlier, removed when the index is next written.
   */
  readonly file: string;
  readonly snapshot: IndexSnapshot;
  readonly batch: CatFileBatch;
  /** Whether citations inside code count (a different extraction, so a different index). */
  readonly includeCode: boolean;
  /**
   * Writes one file of the index (a part, a delta, the summary) atomically, returning `false` when
   * it could not; when absent the index is built in memory and not kept.
   */
  readonly writeFile?: WriteFile;
}

type WriteFile = (path: string, contents: string) => boolean | undefined;

const MARKDOWN = /\.(md|markdown)$/i;

/** True when a path names a markdown document. */
export function isMarkdownName(path: string): boolean {
  // The expression runs only on names ending in `d` or `n`: most of a large index is not markdown,
  // and the hook asks this of every entry.
  const last = path.charCodeAt(path.length - 1) | 0x20;
  return (last === 0x64 || last === 0x6e) && MARKDOWN.test(path);
}

/**
 * Finds the citations, in the index's markdown documents, of any of `artifacts`. The citations of
 * every markdown blob are kept under the git directory, so a run re-extracts only the blobs it has
 * not seen: a commit in a large repository reads a handful of documents, not all of them. They are
 * kept split by cited artifact ({@link IndexPart}), so a commit that changes a cited file reads the
 * part that holds it, and a summary names every blob and every cited artifact, so a commit that
 * changes none reads no part at all. A missing, corrupt or mismatched part or summary is rebuilt.
 *
 * `fromFolders`: paths that came or went (deleted, added) whose names relative to a document's
 * folder count too: a bare `[src/index.ts]` in `packages/foo/README.md` is a reference to
 * `packages/foo/src/index.ts` while that file exists, and a citation of the root's `src/index.ts`
 * once it is gone. Such an entry names the path it reached (`packages/foo/src/index.ts`).
 */
export async function findCitingEntries(
  options: CitationIndexOptions,
  artifacts: ReadonlySet<string>,
  excludeDocuments: ReadonlySet<string>,
  fromFolders: ReadonlySet<string> = new Set(),
): Promise<CitingEntry[]> {
  if (fromFolders.size === 0) return findCitingEntriesOf(options, artifacts, excludeDocuments);
  // A bare `[src/index.ts]` in `packages/foo/README.md` names `packages/foo/src/index.ts` from
  // its document's folder (core `readFromDocumentFolder`): the index keeps it under `src/index.ts`.
  const names = new Set(artifacts);
  for (const path of fromFolders) for (const name of namesFromFolders(path)) names.add(name);
  const entries = await findCitingEntriesOf(options, names, excludeDocuments);
  return entries.flatMap((entry) => {
    if (artifacts.has(entry.artifact)) return [entry];
    const path = entry.citation.form === 'bare' ? fromDocumentFolder(entry.document, entry.artifact) : null;
    return path !== null && fromFolders.has(path) ? [{ ...entry, artifact: path }] : [];
  });
}

/**
 * The names a document in a folder above `path` gives it relative to its own folder, each with a
 * `/` as a bare citation needs: `a/b/c.ts` is `b/c.ts` from `a/`.
 */
function namesFromFolders(path: string): string[] {
  const names: string[] = [];
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    const name = path.slice(slash + 1);
    if (name.includes('/')) names.push(name);
  }
  return names;
}

async function findCitingEntriesOf(
  options: CitationIndexOptions,
  artifacts: ReadonlySet<string>,
  excludeDocuments: ReadonlySet<string>,
): Promise<CitingEntry[]> {
  const extracted = new Map<string, IndexedBlob>();
  // A window of reads in flight, not every one at once: a first build of a large index would
  // otherwise hold the bytes of every document git sent before they were extracted.
  const extract = (oids: readonly string[]) =>
    forEachLimited(oids, READS_IN_FLIGHT, async (oid) => {
      const object = await options.batch.read(oid);
      if (object !== null && object.type === 'blob') extracted.set(oid, extractBlob(decodeDocument(object.bytes), options.includeCode));
    });

  // Fast path: the small summary names every artifact its blobs cite. When none of the changed
  // paths is among them (a commit of documents only, say), no part is read. When some are, the
  // parts that hold them answer, if they are the ones written with the summary; every part is
  // read only when they are not, or when too many documents are new to the summary. Documents
  // committed since the parts were written are extracted, and once there are a few of them kept
  // in a delta beside the parts, so that no run extracts them again.
  let summary = loadSummary(summaryPath(options.file), options.includeCode);
  if (summary !== null) {
    const unseen = unseenBlobs(options.snapshot, excludeDocuments, summary.oids);
    const room = deltaRoom(summary);
    if (unseen.length <= Math.max(MAX_UNSEEN_FOR_SUMMARY, room)) {
      await extract(unseen);
      // `extracted` holds exactly the unseen blobs git could give.
      if (options.writeFile !== undefined && extracted.size >= DELTA_AT && extracted.size <= room) {
        summary = writeDelta(options.file, options.includeCode, summary, extracted, options.writeFile) ?? summary;
      }
      const known = summary;
      const cited = (artifact: string) =>
        known.artifacts.has(artifact) || [...extracted.values()].some((blob) => blob.c.some((stored) => stored[0] === artifact));
      if (![...artifacts].some(cited)) return [];
      const deltas = loadDeltas(options.file, options.includeCode, known);
      if (deltas !== null) {
        for (const [oid, blob] of extracted) deltas.set(oid, blob);
        const fromParts = citingFromParts(options, known, artifacts, excludeDocuments, deltas);
        if (fromParts !== null) return fromParts;
      }
    }
  }

  // The full answer: every markdown blob of the index, as the parts hold it or extracted now.
  const documents = markdownDocuments(options.snapshot);
  const wanted = new Set(documents.map(([, oid]) => oid));
  const stored = summary === null ? null : loadAllParts(options.file, options.includeCode, summary);
  const blobs = new Map<string, IndexedBlob>();
  for (const oid of wanted) {
    const known = stored?.get(oid) ?? extracted.get(oid);
    if (known !== undefined) blobs.set(oid, known);
  }
  const unseen = [...wanted].filter((oid) => !blobs.has(oid));
  await extract(unseen);
  for (const oid of unseen) {
    const blob = extracted.get(oid);
    if (blob !== undefined) blobs.set(oid, blob);
  }
  const added = [...wanted].some((oid) => stored?.has(oid) !== true);
  const pruned = stored !== null && [...stored.keys()].some((oid) => !wanted.has(oid));
  if (options.writeFile !== undefined && (stored === null || added || pruned)) writeIndex(options, options.writeFile, blobs);

  const out: CitingEntry[] = [];
  if (artifacts.size === 0) return out;
  for (const [document, oid] of documents) {
    if (excludeDocuments.has(document)) continue;
    const blob = blobs.get(oid);
    if (blob === undefined) continue;
    for (const stored of blob.c) {
      if (!artifacts.has(stored[0])) continue;
      const suppressions = blob.s.map(([line, rules]) => ({ line, rules }));
      out.push({ document, artifact: stored[0], citation: toCitation(stored), suppressions });
    }
  }
  return out;
}

/**
 * A part of the index, which is split by cited artifact so that a commit changing a cited file
 * reads the part that holds it (a sixty-fourth of the citations) instead of the whole index: in a
 * repository of 100,000 documents the index is about 200 MB. Each part lists, per artifact, `[oid, at,
 * citation]` (the blob, the citation's place among the blob's, as stored) and the suppressions of
 * those blobs. All parts are written together, under the generation the summary then names.
 */
interface IndexPart {
  readonly version: number;
  readonly includeCode: boolean;
  readonly generation: string;
  readonly cited: readonly (readonly [string, readonly (readonly [string, number, StoredCitation])[]])[];
  readonly suppressions: Record<string, IndexedBlob['s']>;
}

/** How many parts the index by cited artifact is split into. */
const PARTS = 64;

/** Which part holds an artifact's citations, the same in every run. */
function partOf(artifact: string): number {
  return codeUnitHash(artifact) % PARTS;
}

/** Where a part is kept: `citations.json` → `by-artifact/07.json`. */
export function indexPartPath(indexFile: string, part: number): string {
  return join(partsDirectory(indexFile), `${String(part).padStart(2, '0')}.json`);
}

/** The directory of the parts and deltas: `citations.json` → `by-artifact/`. */
function partsDirectory(indexFile: string): string {
  return join(dirname(indexFile), 'by-artifact');
}

function writeParts(
  indexFile: string,
  includeCode: boolean,
  generation: string,
  blobs: ReadonlyMap<string, IndexedBlob>,
  writeFile: WriteFile,
): boolean {
  const parts = Array.from({ length: PARTS }, () => ({
    cited: new Map<string, [string, number, StoredCitation][]>(),
    suppressions: {} as Record<string, IndexedBlob['s']>,
  }));
  for (const [oid, blob] of blobs) {
    blob.c.forEach((stored, at) => {
      const part = parts[partOf(stored[0])] as (typeof parts)[number];
      let entries = part.cited.get(stored[0]);
      if (entries === undefined) {
        entries = [];
        part.cited.set(stored[0], entries);
      }
      entries.push([oid, at, stored]);
      if (blob.s.length > 0) part.suppressions[oid] = blob.s;
    });
  }
  try {
    mkdirSync(partsDirectory(indexFile), { recursive: true });
  } catch {
    // No directory to keep the parts in: `writeFile` fails on each, and the next run builds them.
  }
  let written = true;
  parts.forEach((part, index) => {
    const stored: IndexPart = { version: FORMAT_VERSION, includeCode, generation, cited: [...part.cited], suppressions: part.suppressions };
    if (writeFile(indexPartPath(indexFile, index), JSON.stringify(stored)) === false) written = false;
  });
  return written;
}

/**
 * Blobs of markdown documents new since the parts were written, kept whole in one file beside
 * them, so that a run after many new commits (a pull, a merge, or 16 commits of documents) neither
 * extracts them again nor rewrites the parts: at 100,000 documents the parts take about 200 MB.
 * The summary names each delta of its generation; one it does not name is never read.
 */
interface IndexDelta {
  readonly version: number;
  readonly includeCode: boolean;
  /** The parts' generation, which the summary names. */
  readonly generation: string;
  readonly id: string;
  readonly blobs: readonly (readonly [string, IndexedBlob['c'], IndexedBlob['s']])[];
}

/** Where a delta is kept: `citations.json` → `by-artifact/delta-<id>.json`. */
function deltaPath(indexFile: string, id: string): string {
  return join(partsDirectory(indexFile), `delta-${id}.json`);
}

/** New blobs at which a run keeps them in a delta instead of extracting them again next time. */
const DELTA_AT = 16;

/** Deltas kept before the next one takes them all in. */
const MAX_DELTAS = 16;

/**
 * How many more blobs the deltas may hold before the parts are written again: a sixteenth of the
 * parts' blobs (at least 64), so that reading them all stays a small share of reading the whole
 * index, and the full write, which also drops the blobs no document holds any more, is paid once
 * per that many new documents.
 */
function deltaRoom(summary: Summary): number {
  const held = summary.deltas.reduce((sum, [, count]) => sum + count, 0);
  return Math.max(MAX_UNSEEN_FOR_SUMMARY, Math.floor((summary.oids.size - held) / 16)) - held;
}

/**
 * Keeps `fresh` (blobs the summary does not name) in a new delta and writes the summary naming it:
 * the delta first, so a summary never names a delta that is not there. Past {@link MAX_DELTAS} the
 * new delta takes in the others, which are removed after. The new summary, or `null` when a write
 * failed or a delta to take in is unreadable (the run goes on with the old summary).
 */
function writeDelta(
  indexFile: string,
  includeCode: boolean,
  summary: Summary,
  fresh: ReadonlyMap<string, IndexedBlob>,
  writeFile: WriteFile,
): Summary | null {
  const merging = summary.deltas.length >= MAX_DELTAS;
  let blobs: ReadonlyMap<string, IndexedBlob> = fresh;
  if (merging) {
    const held = loadDeltas(indexFile, includeCode, summary);
    if (held === null) return null;
    for (const [oid, blob] of fresh) held.set(oid, blob);
    blobs = held;
  }
  const id = randomBytes(8).toString('hex');
  const delta: IndexDelta = {
    version: FORMAT_VERSION,
    includeCode,
    generation: summary.generation,
    id,
    blobs: [...blobs].map(([oid, blob]) => [oid, blob.c, blob.s] as const),
  };
  if (writeFile(deltaPath(indexFile, id), JSON.stringify(delta)) === false) return null;
  const artifacts = new Set(summary.artifacts);
  for (const blob of fresh.values()) for (const stored of blob.c) artifacts.add(stored[0]);
  const next: Summary = {
    generation: summary.generation,
    deltas: [...(merging ? [] : summary.deltas), [id, blobs.size]],
    oids: summary.oids.with(fresh.keys()),
    artifacts,
  };
  if (writeFile(summaryPath(indexFile), summaryJson(includeCode, next)) === false) return null;
  if (merging) for (const [old] of summary.deltas) removeOwnFile(deltaPath(indexFile, old));
  return next;
}

/** Every blob the summary's deltas hold; `null` when one is missing, unreadable, malformed or not the one named. */
function loadDeltas(indexFile: string, includeCode: boolean, summary: Summary): Map<string, IndexedBlob> | null {
  const blobs = new Map<string, IndexedBlob>();
  for (const [id, count] of summary.deltas) {
    let parsed: Partial<IndexDelta> | null;
    try {
      parsed = JSON.parse(readFileSync(deltaPath(indexFile, id), 'utf8')) as Partial<IndexDelta> | null;
    } catch {
      return null;
    }
    if (typeof parsed !== 'object' || parsed === null || parsed.version !== FORMAT_VERSION) return null;
    if (parsed.includeCode !== includeCode || parsed.generation !== summary.generation || parsed.id !== id) return null;
    if (!Array.isArray(parsed.blobs) || parsed.blobs.length !== count) return null;
    for (const entry of parsed.blobs as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) return null;
      if (!entry[1].every((stored: unknown) => isStoredCitation(stored)) || !isSuppressionList(entry[2])) return null;
      blobs.set(entry[0], { c: entry[1] as StoredCitation[], s: entry[2] });
    }
  }
  return blobs;
}

/**
 * Writes the index: the parts under a generation only this write uses, then the summary naming
 * it, so that parts left by a write that did not finish (or by another run) are never taken for
 * this one's. The one-file index of format 2, if any, is removed after.
 */
function writeIndex(options: CitationIndexOptions, writeFile: WriteFile, blobs: ReadonlyMap<string, IndexedBlob>): void {
  const generation = randomBytes(8).toString('hex');
  // A summary is written only over parts that all are: one naming a part that is not there would
  // send every run to build the index again.
  if (!writeParts(options.file, options.includeCode, generation, blobs, writeFile)) return;
  const artifacts = new Set<string>();
  for (const blob of blobs.values()) for (const stored of blob.c) artifacts.add(stored[0]);
  const summary: Summary = { generation, deltas: [], oids: BlobSet.of(blobs.keys()), artifacts };
  if (writeFile(summaryPath(options.file), summaryJson(options.includeCode, summary)) === false) return;
  removeOwnFile(options.file);
  // The parts now hold every blob: deltas of earlier generations are no longer named.
  let names: string[] = [];
  try {
    names = readdirSync(partsDirectory(options.file));
  } catch {
    // No directory: nothing to remove.
  }
  for (const name of names) if (/^delta-[0-9a-f]{16}\.json$/.test(name)) removeOwnFile(join(partsDirectory(options.file), name));
}

/**
 * Every blob the summary names, as the parts of its generation hold them; `null` when a part is
 * missing, unreadable, malformed or of another generation, or when the parts and the summary
 * disagree (a citation of a blob it does not name, or a blob's citations with a gap).
 */
function loadAllParts(file: string, includeCode: boolean, summary: Summary): Map<string, IndexedBlob> | null {
  const deltas = loadDeltas(file, includeCode, summary);
  if (deltas === null) return null;
  const placed = new Map<string, [number, StoredCitation][]>();
  const suppressions = new Map<string, IndexedBlob['s']>();
  for (const oid of summary.oids.ids()) placed.set(oid, []);
  for (let index = 0; index < PARTS; index += 1) {
    const part = loadPart(indexPartPath(file, index), includeCode, summary.generation);
    if (part === null) return null;
    for (const [, entries] of part.cited) {
      for (const [oid, at, stored] of entries) {
        const citations = placed.get(oid);
        if (citations === undefined) return null;
        citations.push([at, stored]);
        if (!suppressions.has(oid) && Object.hasOwn(part.suppressions, oid)) {
          suppressions.set(oid, part.suppressions[oid] as IndexedBlob['s']);
        }
      }
    }
  }
  const blobs = new Map<string, IndexedBlob>();
  for (const [oid, citations] of placed) {
    citations.sort((a, b) => a[0] - b[0]);
    // Each place once, none missing: 0, 1, 2, ...
    if (citations.some(([at], position) => at !== position)) return null;
    blobs.set(oid, { c: citations.map(([, stored]) => stored), s: suppressions.get(oid) ?? [] });
  }
  for (const [oid, blob] of deltas) blobs.set(oid, blob);
  return blobs;
}

/**
 * The citing entries of `artifacts` from the parts that hold them and the blobs `apart` from them
 * (the deltas', and those extracted this run), in the order the full index gives them: documents in index
 * order, each one's citations in the order they stand. `null` when a part is missing, unreadable,
 * malformed or not of the summary's generation: then every part is read, and the index built again.
 */
function citingFromParts(
  options: CitationIndexOptions,
  summary: Summary,
  artifacts: ReadonlySet<string>,
  excludeDocuments: ReadonlySet<string>,
  apart: ReadonlyMap<string, IndexedBlob>,
): CitingEntry[] | null {
  // Per blob: its citations of the artifacts, by their place among its citations. A part of the
  // summary's generation was written from the blobs the summary names, and only from those.
  const found = new Map<string, [number, StoredCitation][]>();
  const suppressions = new Map<string, IndexedBlob['s']>();
  // Only the parts of cited artifacts: the summary names every artifact the parts hold.
  for (const index of new Set([...artifacts].filter((artifact) => summary.artifacts.has(artifact)).map(partOf))) {
    const part = loadPart(indexPartPath(options.file, index), options.includeCode, summary.generation);
    if (part === null) return null;
    for (const [artifact, entries] of part.cited) {
      if (!artifacts.has(artifact)) continue;
      for (const [oid, at, stored] of entries) {
        let citations = found.get(oid);
        if (citations === undefined) {
          citations = [];
          found.set(oid, citations);
          suppressions.set(oid, Object.hasOwn(part.suppressions, oid) ? (part.suppressions[oid] as IndexedBlob['s']) : []);
        }
        citations.push([at, stored]);
      }
    }
  }
  const out: CitingEntry[] = [];
  const push = (document: string, stored: StoredCitation, s: IndexedBlob['s']) =>
    out.push({ document, artifact: stored[0], citation: toCitation(stored), suppressions: s.map(([line, rules]) => ({ line, rules })) });
  for (const [document, oid] of markdownDocuments(options.snapshot)) {
    const citations = found.get(oid);
    // A blob the parts do not hold is in a delta or was extracted this run (never in both).
    const blob = citations === undefined ? apart.get(oid) : undefined;
    if ((citations === undefined && blob === undefined) || excludeDocuments.has(document)) continue;
    if (blob !== undefined) {
      for (const stored of blob.c) if (artifacts.has(stored[0])) push(document, stored, blob.s);
      continue;
    }
    // A blob cited from several parts lists its citations part by part: put them back in place.
    const inPlace = (citations as [number, StoredCitation][]).sort((a, b) => a[0] - b[0]);
    for (const [, stored] of inPlace) push(document, stored, suppressions.get(oid) ?? []);
  }
  return out;
}

/** A part of the index, if it is one of this generation; shapes checked where the lookup reads them. */
function loadPart(file: string, includeCode: boolean, generation: string): IndexPart | null {
  let parsed: Partial<IndexPart> | null;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<IndexPart> | null;
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  if (parsed.version !== FORMAT_VERSION || parsed.includeCode !== includeCode || parsed.generation !== generation) return null;
  const { cited, suppressions } = parsed;
  if (!Array.isArray(cited) || typeof suppressions !== 'object' || suppressions === null || Array.isArray(suppressions)) return null;
  for (const pair of cited as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || !Array.isArray(pair[1])) return null;
    for (const entry of pair[1] as unknown[]) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isInteger(entry[1]) || !isStoredCitation(entry[2], pair[0]))
        return null;
    }
  }
  for (const value of Object.values(suppressions) as unknown[]) if (!isSuppressionList(value)) return null;
  return parsed as IndexPart;
}

/** Whether a value is a blob's suppressions as stored, `[line, rules]` each. */
function isSuppressionList(value: unknown): value is IndexedBlob['s'] {
  return (
    Array.isArray(value) &&
    value.every(
      (one) =>
        Array.isArray(one) &&
        one.length === 2 &&
        Number.isInteger(one[0]) &&
        Array.isArray(one[1]) &&
        one[1].every((rule: unknown) => typeof rule === 'string'),
    )
  );
}

/** Whether a value is a {@link StoredCitation} (of `artifact`, when given). */
function isStoredCitation(value: unknown, artifact?: string): value is StoredCitation {
  return (
    Array.isArray(value) &&
    value.length === 9 &&
    typeof value[0] === 'string' &&
    (artifact === undefined || value[0] === artifact) &&
    typeof value[1] === 'string' &&
    (value[2] === null || typeof value[2] === 'string') &&
    Number.isInteger(value[3]) &&
    Number.isInteger(value[4]) &&
    Number.isInteger(value[5]) &&
    typeof value[6] === 'string' &&
    (value[7] === null || typeof value[7] === 'string') &&
    typeof value[8] === 'string'
  );
}

/** The index's markdown documents as `[path, oid]`, in index order; an index file's without reading the other entries. */
function markdownDocuments(snapshot: IndexSnapshot): [string, string][] {
  if (snapshot.entries instanceof IndexFileEntries) return snapshot.entries.regularFilesWhere(isMarkdownName, 'dn');
  const documents: [string, string][] = [];
  for (const [path, entry] of snapshot.entries) {
    if (isRegularFileMode(entry.mode) && isMarkdownName(path)) documents.push([path, entry.oid]);
  }
  return documents;
}

/**
 * The blobs of the index's markdown documents that the summary does not know (`known`), in index
 * order. A blob only excluded documents hold (the staged documents themselves, checked from the
 * index) can add no citing entry: it is not read for this question. An index file's oids are
 * looked up as their bytes where the file holds them: converting each document's oid to hex, or
 * the summary's to a set of strings, cost more than the rest of this question.
 */
function unseenBlobs(snapshot: IndexSnapshot, excludeDocuments: ReadonlySet<string>, known: BlobSet): string[] {
  if (snapshot.entries instanceof IndexFileEntries && known.width === 40) {
    const unseen = new Set<string>();
    for (const [path, oid] of snapshot.entries.regularFilesWhere(isMarkdownName, 'dn', (bytes, at) => known.hasBytes(bytes, at))) {
      if (!excludeDocuments.has(path)) unseen.add(oid);
    }
    return [...unseen];
  }
  const seen = new Set(known.ids());
  const counted = new Set<string>();
  for (const [path, oid] of markdownDocuments(snapshot)) if (!excludeDocuments.has(path)) counted.add(oid);
  return [...counted].filter((oid) => !seen.has(oid));
}

/** How many blob reads a build of the index keeps in flight through `cat-file --batch`. */
const READS_IN_FLIGHT = 64;

/** More unseen documents than this and the run reads (and rewrites) the full index instead. */
const MAX_UNSEEN_FOR_SUMMARY = 64;

/** The summary file beside the index: `citations.json` → `cited.json`. */
export function summaryPath(indexFile: string): string {
  return join(dirname(indexFile), 'cited.json');
}

/**
 * The summary beside the index: every blob it holds (the parts' and the deltas'), every artifact
 * they cite, the generation of its parts, and its deltas with how many blobs each holds.
 */
interface Summary {
  readonly oids: BlobSet;
  readonly artifacts: ReadonlySet<string>;
  /** The generation of the parts written with it. */
  readonly generation: string;
  readonly deltas: readonly (readonly [string, number])[];
}

function loadSummary(file: string, includeCode: boolean): Summary | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as {
      version?: unknown;
      includeCode?: unknown;
      generation?: unknown;
      deltas?: unknown;
      oids?: unknown;
      oidWidth?: unknown;
      artifacts?: unknown;
    };
    if (parsed.version !== FORMAT_VERSION || parsed.includeCode !== includeCode) return null;
    const oids = BlobSet.parse(parsed.oids, parsed.oidWidth);
    if (oids === null || !Array.isArray(parsed.artifacts) || !Array.isArray(parsed.deltas)) return null;
    if (!parsed.artifacts.every((path) => typeof path === 'string')) return null;
    if (!parsed.deltas.every((delta) => Array.isArray(delta) && typeof delta[0] === 'string' && Number.isInteger(delta[1]))) return null;
    if (typeof parsed.generation !== 'string') return null;
    return {
      oids,
      artifacts: new Set(parsed.artifacts as string[]),
      generation: parsed.generation,
      deltas: parsed.deltas as [string, number][],
    };
  } catch {
    return null;
  }
}

function summaryJson(includeCode: boolean, summary: Summary): string {
  const { generation, deltas, oids, artifacts } = summary;
  return JSON.stringify({
    version: FORMAT_VERSION,
    includeCode,
    generation,
    deltas,
    oidWidth: oids.width,
    oids: oids.hex,
    artifacts: [...artifacts],
  });
}

/** The citations a markdown text holds, as the index keeps them. */
export function extractBlob(text: string, includeCode: boolean): IndexedBlob {
  const document = scanMarkdown(text, includeCode ? { includeCode: true } : {});
  const c: StoredCitation[] = [];
  for (const citation of extractRlm(document).citations) {
    if (citation.needsExistingFile) continue;
    const normalised = normaliseArtifactPath(citation.id);
    if (!normalised.ok) continue;
    const { id, hash, line, column, offset, text: raw, lines, form } = citation;
    c.push([normalised.path, id, hash, line, column, offset, raw, lines?.text ?? null, form]);
  }
  return { c, s: document.suppressions.map((suppression): [number, readonly string[]] => [suppression.line, suppression.rules]) };
}

function toCitation(stored: StoredCitation): RlmCitation {
  const [, id, hash, line, column, offset, text, lines, form] = stored;
  return { id, hash, line, column, offset, text, lines: lines === null ? null : parseLineRange(lines), form, needsExistingFile: false };
}
