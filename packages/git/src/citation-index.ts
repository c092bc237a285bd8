import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  decodeDocument,
  extractRlm,
  normaliseArtifactPath,
  parseLineRange,
  type RlmCitation,
  type RlmForm,
  type Suppression,
  scanMarkdown,
} from '@aiwg-cite/core';
import type { CatFileBatch } from './cat-file.ts';
import { type IndexSnapshot, isRegularFileMode } from './index-entries.ts';
import { IndexFileEntries } from './index-file.ts';

/** Bumped whenever the stored shape or the extraction changes, so old files are rebuilt. */
const FORMAT_VERSION = 2;

/**
 * One citation as stored: `[artifact, id, hash, line, column, offset, text, lines, form]`, with
 * the artifact path already normalised so that a lookup is a string comparison. Tuples keep the
 * file small: it is read on every commit that changes a cited file.
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
  /** Where the index is kept, e.g. `$(git rev-parse --git-dir)/aiwg-cite/citations.json`. */
  readonly file: string;
  readonly snapshot: IndexSnapshot;
  readonly batch: CatFileBatch;
  /** Whether citations inside code count (a different extraction, so a different index). */
  readonly includeCode: boolean;
  /** Writes the index atomically; when absent the index is rebuilt in memory and not kept. */
  readonly writeFile?: (path: string, contents: string) => void;
}

interface StoredIndex {
  readonly version: number;
  readonly includeCode: boolean;
  /** Keyed by blob oid, so a document is re-extracted only when its content changes. */
  readonly blobs: Record<string, IndexedBlob>;
}

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
 * every markdown blob are kept in a file keyed by blob oid: a run re-extracts only the blobs it has
 * not seen, so a commit in a large repository reads a handful of documents, not all of them. A
 * missing or corrupt index file is rebuilt.
 */
export async function findCitingEntries(
  options: CitationIndexOptions,
  artifacts: ReadonlySet<string>,
  excludeDocuments: ReadonlySet<string>,
): Promise<CitingEntry[]> {
  const extracted = new Map<string, IndexedBlob>();
  const extract = (oids: readonly string[]) =>
    Promise.all(
      oids.map(async (oid) => {
        const object = await options.batch.read(oid);
        if (object !== null && object.type === 'blob') extracted.set(oid, extractBlob(decodeDocument(object.bytes), options.includeCode));
      }),
    );

  // Fast path: the small summary names every artifact its blobs cite. When none of the changed
  // paths is among them (a commit of documents only, say), the full index is never read.
  const summary = loadSummary(summaryPath(options.file), options.includeCode);
  if (summary !== null) {
    const unseen = unseenBlobs(options.snapshot, excludeDocuments, summary.oids);
    if (unseen.length <= MAX_UNSEEN_FOR_SUMMARY) {
      await extract(unseen);
      const cited = (artifact: string) =>
        summary.artifacts.has(artifact) || [...extracted.values()].some((blob) => blob.c.some((stored) => stored[0] === artifact));
      if (![...artifacts].some(cited)) return [];
    }
  }

  const documents = markdownDocuments(options.snapshot);
  const wanted = new Set(documents.map(([, oid]) => oid));
  const stored = loadIndex(options.file, options.includeCode);
  const blobs: Record<string, IndexedBlob> = {};
  for (const oid of wanted) {
    const known = stored.blobs[oid] ?? extracted.get(oid);
    if (known !== undefined) blobs[oid] = known;
  }
  const unseen = [...wanted].filter((oid) => blobs[oid] === undefined);
  await extract(unseen);
  for (const oid of unseen) {
    const blob = extracted.get(oid);
    if (blob !== undefined) blobs[oid] = blob;
  }
  const added = [...wanted].some((oid) => stored.blobs[oid] === undefined);
  const pruned = Object.keys(stored.blobs).some((oid) => !wanted.has(oid));
  if (options.writeFile !== undefined && (added || pruned || summary === null)) {
    mkdirSync(dirname(options.file), { recursive: true });
    options.writeFile(options.file, JSON.stringify({ version: FORMAT_VERSION, includeCode: options.includeCode, blobs }));
    // Written second: a summary never claims a blob the index file lacks.
    const citedArtifacts = new Set<string>();
    for (const blob of Object.values(blobs)) for (const stored of blob.c) citedArtifacts.add(stored[0]);
    options.writeFile(
      summaryPath(options.file),
      JSON.stringify({
        version: FORMAT_VERSION,
        includeCode: options.includeCode,
        oids: Object.keys(blobs),
        artifacts: [...citedArtifacts],
      }),
    );
  }

  const out: CitingEntry[] = [];
  if (artifacts.size === 0) return out;
  for (const [document, oid] of documents) {
    if (excludeDocuments.has(document)) continue;
    const blob = blobs[oid];
    if (blob === undefined) continue;
    for (const stored of blob.c) {
      if (!artifacts.has(stored[0])) continue;
      const suppressions = blob.s.map(([line, rules]) => ({ line, rules }));
      out.push({ document, artifact: stored[0], citation: toCitation(stored), suppressions });
    }
  }
  return out;
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
 * The blobs of the index's markdown documents that the summary does not know (`known`: its oids,
 * hex), in index order. A blob only excluded documents hold (the staged documents themselves,
 * checked from the index) can add no citing entry: it is not read for this question. An index
 * file's oids are compared as their bytes (latin1 strings cut from the file), the summary's
 * decoded once: converting each document's oid to hex cost more than the rest of this question.
 */
function unseenBlobs(snapshot: IndexSnapshot, excludeDocuments: ReadonlySet<string>, known: readonly string[]): string[] {
  const joined = known.join('');
  if (snapshot.entries instanceof IndexFileEntries && joined.length === known.length * 40 && /^[0-9a-f]*$/.test(joined)) {
    const bytes = Buffer.from(joined, 'hex').toString('latin1');
    const seen = new Set<string>();
    for (let at = 0; at < bytes.length; at += 20) seen.add(bytes.slice(at, at + 20));
    const unseen = new Set<string>();
    for (const [path, oid] of snapshot.entries.regularFilesWhere(isMarkdownName, 'dn', 'binary')) {
      if (!excludeDocuments.has(path) && !seen.has(oid)) unseen.add(oid);
    }
    return [...unseen].map((oid) => Buffer.from(oid, 'latin1').toString('hex'));
  }
  const seen = new Set(known);
  const counted = new Set<string>();
  for (const [path, oid] of markdownDocuments(snapshot)) if (!excludeDocuments.has(path)) counted.add(oid);
  return [...counted].filter((oid) => !seen.has(oid));
}

/** More unseen documents than this and the run reads (and rewrites) the full index instead. */
const MAX_UNSEEN_FOR_SUMMARY = 64;

/** The summary file beside the index: `citations.json` → `cited.json`. */
export function summaryPath(indexFile: string): string {
  return join(dirname(indexFile), 'cited.json');
}

function loadSummary(file: string, includeCode: boolean): { oids: readonly string[]; artifacts: Set<string> } | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as {
      version?: unknown;
      includeCode?: unknown;
      oids?: unknown;
      artifacts?: unknown;
    };
    if (parsed.version !== FORMAT_VERSION || parsed.includeCode !== includeCode) return null;
    if (!Array.isArray(parsed.oids) || !Array.isArray(parsed.artifacts)) return null;
    if (!parsed.oids.every((oid) => typeof oid === 'string') || !parsed.artifacts.every((path) => typeof path === 'string')) return null;
    return { oids: parsed.oids as string[], artifacts: new Set(parsed.artifacts as string[]) };
  } catch {
    return null;
  }
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

function loadIndex(file: string, includeCode: boolean): StoredIndex {
  const empty: StoredIndex = { version: FORMAT_VERSION, includeCode, blobs: {} };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return empty;
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredIndex> | null;
    if (
      parsed === null ||
      typeof parsed !== 'object' ||
      parsed.version !== FORMAT_VERSION ||
      parsed.includeCode !== includeCode ||
      typeof parsed.blobs !== 'object' ||
      parsed.blobs === null
    ) {
      return empty;
    }
    for (const blob of Object.values(parsed.blobs)) {
      if (typeof blob !== 'object' || blob === null || !Array.isArray(blob.c) || !Array.isArray(blob.s)) return empty;
    }
    return parsed as StoredIndex;
  } catch {
    return empty;
  }
}
