import { classifyDrift, type DriftClassification, type LineRange } from '@aiwg-cite/core';
import type { BlobHashes } from './blob-hash-cache.ts';
import type { ArtifactVersion, CommitInfo, GitHistory } from './history.ts';

/** A versioned citation to explain. */
export interface BlameInput {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  /** The cited artifact, normalised and relative to the check root. */
  readonly artifact: string;
  readonly hash: string;
  readonly lines: LineRange | null;
  /** The path whose history to read when it differs from `artifact` (a symlink's target). */
  readonly historyPath?: string;
}

/** The artifact as it is now in the working tree, or `null` when it is gone. */
export interface CurrentArtifact {
  readonly bytes: Uint8Array;
  readonly hash: string;
}

/** The drift classes of `aiwg-cite blame` (issue #6, SPEC §10.1). */
export type BlameDrift = 'moved' | 'whitespace' | 'changed' | 'deleted' | 'uncommitted' | 'unknown-hash' | 'shallow';

/** One object of `blame --format json`: a stable shape, every key always present. */
export interface BlameEntry {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  readonly artifact: string;
  readonly hash: string;
  readonly pinned: { readonly sha: string; readonly date: string } | null;
  readonly staling: CommitInfo | null;
  readonly region: CommitInfo | null;
  readonly drift: BlameDrift;
  readonly newLines: string | null;
  /** For `deleted`: the commit that removed the artifact (`null` when it is gone only from the working tree). */
  readonly deletedBy: CommitInfo | null;
}

/** Where the pinned content was found. */
export type PinSource = 'head' | 'other-branch' | 'index' | 'none';

/** A blame result with what `pretty` output and `stamp` need beyond the JSON. */
export interface BlameDetail {
  readonly entry: BlameEntry;
  readonly pinSource: PinSource;
  /** How the cited lines fare from the pinned content to the working tree (`null` when either is unknown). */
  readonly classification: DriftClassification | null;
  /** The working tree's hash, or `null` when the artifact is gone. */
  readonly currentHash: string | null;
  /** For `deleted`: where the deleting commit renamed the artifact to, if it did. */
  readonly renamedTo: string | null;
  /** True when git has never tracked the artifact. */
  readonly untracked: boolean;
  /** The cited line range as written (`L3-5`), or `null` for a whole-file citation. */
  readonly citedLines: string | null;
}

const decoder = new TextDecoder('utf-8');

/**
 * Explains one stale (or deleted) versioned citation: the pinned version (the newest commit whose
 * version of the artifact hashes to the cited hash, following renames), the staling commit (the
 * first change after it), the region commit (the first change to the cited lines themselves) and
 * the drift class. The cited lines are located in each later version against the pinned one
 * directly, not version to version, so merges and reverts cannot mislead the walk.
 */
export async function blameCitation(history: GitHistory, input: BlameInput, current: CurrentArtifact | null): Promise<BlameDetail> {
  const path = input.historyPath ?? input.artifact;
  const versions = history.versions(path, 'head');
  const pinIndex = await newestMatch(history, versions, input.hash);
  if (pinIndex !== -1) {
    const pin = versions[pinIndex] as ArtifactVersion;
    const later = versions.slice(0, pinIndex).reverse();
    return explainPinned(history, input, current, pin, later, 'head');
  }

  const index = await history.readIndex(path);
  if (index !== null && matches((await history.hashBlobs([index.oid])).get(index.oid), input.hash)) {
    const classification = current === null ? null : classifyDrift(decoder.decode(index.bytes), decoder.decode(current.bytes), input.lines);
    return {
      entry: entryOf(input, { pinned: null, staling: null, region: null, drift: 'uncommitted', classification, deletedBy: null }),
      pinSource: 'index',
      classification,
      currentHash: current?.hash ?? null,
      renamedTo: null,
      untracked: false,
      citedLines: input.lines?.text ?? null,
    };
  }

  const everywhere = history.versions(path, 'all');
  const elsewhere = everywhere[await newestMatch(history, everywhere, input.hash)];
  if (elsewhere !== undefined) {
    const since = new Set(history.commitsSince(elsewhere.commit.sha, path));
    const later = versions.filter((version) => since.has(version.commit.sha)).reverse();
    return explainPinned(history, input, current, elsewhere, later, 'other-branch');
  }

  const untracked = everywhere.length === 0 && index === null;
  const drift: BlameDrift = history.isShallow ? 'shallow' : 'unknown-hash';
  return {
    entry: entryOf(input, { pinned: null, staling: null, region: null, drift, classification: null, deletedBy: null }),
    pinSource: 'none',
    classification: null,
    currentHash: current?.hash ?? null,
    renamedTo: null,
    untracked,
    citedLines: input.lines?.text ?? null,
  };
}

async function explainPinned(
  history: GitHistory,
  input: BlameInput,
  current: CurrentArtifact | null,
  pin: ArtifactVersion,
  later: readonly ArtifactVersion[],
  pinSource: PinSource,
): Promise<BlameDetail> {
  const pinnedText = (await history.readText(pin.blob as string)) ?? '';
  const staling = later[0]?.commit ?? null;
  const region = input.lines === null ? staling : await firstRegionChange(history, pinnedText, input.lines, later);

  if (current === null) {
    const newest = later[later.length - 1];
    const deletion = newest !== undefined && newest.status === 'D' ? newest.commit : null;
    return {
      entry: entryOf(input, {
        pinned: { sha: pin.commit.sha, date: pin.commit.date },
        staling,
        region: region ?? deletion,
        drift: 'deleted',
        classification: null,
        deletedBy: deletion,
      }),
      pinSource,
      classification: null,
      currentHash: null,
      renamedTo: deletion === null ? null : history.renamedTo(deletion.sha, input.historyPath ?? input.artifact),
      untracked: false,
      citedLines: input.lines?.text ?? null,
    };
  }

  const classification = classifyDrift(pinnedText, decoder.decode(current.bytes), input.lines);
  const drift: BlameDrift = classification.drift === 'intact' ? 'moved' : classification.drift;
  return {
    entry: entryOf(input, {
      pinned: { sha: pin.commit.sha, date: pin.commit.date },
      staling,
      region,
      drift,
      classification,
      deletedBy: null,
    }),
    pinSource,
    classification,
    currentHash: current.hash,
    renamedTo: null,
    untracked: false,
    citedLines: input.lines?.text ?? null,
  };
}

/**
 * The first later version whose content no longer holds the cited lines intact (verbatim, at
 * the same or another place), or that deleted the artifact. Blobs are requested a window ahead
 * so the `cat-file` pipe stays busy.
 */
async function firstRegionChange(
  history: GitHistory,
  pinnedText: string,
  lines: LineRange,
  later: readonly ArtifactVersion[],
): Promise<CommitInfo | null> {
  const window = 32;
  const reads = later.map(() => null as Promise<string | null> | null);
  const request = (at: number): void => {
    const version = later[at];
    if (version === undefined || reads[at] !== null || version.blob === null) return;
    reads[at] = history.readText(version.blob);
  };
  for (let at = 0; at < later.length; at += 1) {
    for (let ahead = at; ahead < Math.min(later.length, at + window); ahead += 1) request(ahead);
    const version = later[at] as ArtifactVersion;
    if (version.blob === null) return version.commit;
    const text = await (reads[at] as Promise<string | null>);
    if (text === null) continue;
    const drift = classifyDrift(pinnedText, text, lines).drift;
    if (drift !== 'intact' && drift !== 'moved') return version.commit;
  }
  return null;
}

/**
 * The index of the newest version whose blob has the hash, or -1. Blobs are hashed newest first in
 * growing batches (16, 64, 256, …), so a recent pin (the usual case) costs a few blob reads and an
 * old one only a handful of round trips to `cat-file`.
 */
async function newestMatch(history: GitHistory, versions: readonly ArtifactVersion[], hash: string): Promise<number> {
  let batch = 16;
  for (let from = 0; from < versions.length; from += batch, batch *= 4) {
    const slice = versions.slice(from, from + batch);
    const hashes = await history.hashBlobs(slice.flatMap((version) => (version.blob === null ? [] : [version.blob])));
    const found = slice.findIndex((version) => version.blob !== null && matches(hashes.get(version.blob), hash));
    if (found !== -1) return from + found;
  }
  return -1;
}

function matches(hashes: BlobHashes | undefined, cited: string): boolean {
  return hashes !== undefined && (hashes.raw === cited || hashes.replacement === cited);
}

function entryOf(
  input: BlameInput,
  found: {
    pinned: BlameEntry['pinned'];
    staling: CommitInfo | null;
    region: CommitInfo | null;
    drift: BlameDrift;
    classification: DriftClassification | null;
    deletedBy: CommitInfo | null;
  },
): BlameEntry {
  const keepsLines = found.drift === 'moved' || found.drift === 'whitespace' || found.drift === 'changed' || found.drift === 'uncommitted';
  return {
    file: input.file,
    line: input.line,
    column: input.column,
    text: input.text,
    artifact: input.artifact,
    hash: input.hash,
    pinned: found.pinned,
    staling: found.staling,
    region: found.region,
    drift: found.drift,
    newLines: keepsLines ? (found.classification?.newRange?.text ?? null) : null,
    deletedBy: found.deletedBy,
  };
}
