import { type ArtifactReader, normaliseArtifactPath, type ReadResult } from '@aiwg-cite/core';
import type { CatFileBatch } from './cat-file.ts';
import { type IndexSnapshot, isRegularFileMode, SYMLINK_MODE } from './index-entries.ts';
import { readReasons } from './messages.ts';

/** Symlink hops followed before giving up (SPEC §2.3 item 6). */
export const MAX_SYMLINK_HOPS = 8;

const SUBMODULE_MODE = '160000';

/** Options of {@link createIndexReader}. */
export interface IndexReaderOptions {
  /** The stage-0 index entries. */
  readonly snapshot: IndexSnapshot;
  /** The one `git cat-file --batch` process that serves every blob. */
  readonly batch: CatFileBatch;
  /**
   * Reads the working tree. Used for `.aiwg/` paths that the index does not hold (SPEC §2.3
   * item 8: `.aiwg/` is usually gitignored). Every other path absent from the index is missing,
   * because the commit would publish a dangling citation; the working tree only tells whether
   * the file is there unstaged, so that the finding says so.
   */
  readonly workingTree?: ArtifactReader;
  /**
   * Reads `path` inside the submodule at `submodule`, at the commit the index records for it.
   * Without it, such paths read as `unchecked` (never missing: the superproject does not hold them).
   */
  readonly submodule?: (submodule: string, commit: string, path: string) => Promise<ReadResult>;
}

/**
 * An {@link ArtifactReader} over the git index: what the next commit will contain. Blobs are
 * read by the oid of their stage-0 entry; a staged deletion is missing; symlinks (mode 120000)
 * are resolved inside the root, at most {@link MAX_SYMLINK_HOPS} hops, including links in a
 * leading directory.
 */
export function createIndexReader(options: IndexReaderOptions): ArtifactReader {
  const { snapshot, batch, workingTree, submodule } = options;
  const entries = snapshot.entries;
  let directories: Set<string> | null = null;
  let folded: Map<string, string> | null = null;

  const isDirectory = (path: string): boolean => {
    if (directories === null) {
      directories = new Set();
      for (const key of entries.keys()) {
        for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) directories.add(key.slice(0, slash));
      }
    }
    return directories.has(path);
  };

  const caseSuggestion = (path: string): string | undefined => {
    if (folded === null) {
      folded = new Map();
      for (const key of entries.keys()) if (!folded.has(key.toLowerCase())) folded.set(key.toLowerCase(), key);
    }
    return folded.get(path.toLowerCase());
  };

  const readBlob = async (oid: string): Promise<Uint8Array | null> => {
    const object = await batch.read(oid);
    return object === null || object.type !== 'blob' ? null : object.bytes;
  };

  /** Where a symlink at `linkPath` with target `target` points, root-relative, or `null` when outside. */
  const followLink = async (linkPath: string, oid: string): Promise<string | null | 'unreadable'> => {
    const bytes = await readBlob(oid);
    if (bytes === null) return 'unreadable';
    const target = new TextDecoder().decode(bytes);
    if (target.startsWith('/')) return null;
    const slash = linkPath.lastIndexOf('/');
    const joined = slash === -1 ? target : `${linkPath.slice(0, slash)}/${target}`;
    const normalised = normaliseArtifactPath(joined);
    return normalised.ok ? normalised.path : null;
  };

  const resolve = async (path: string, hops: number): Promise<ReadResult> => {
    const entry = entries.get(path);
    if (entry !== undefined) {
      if (isRegularFileMode(entry.mode)) {
        const bytes = await readBlob(entry.oid);
        return bytes === null ? { kind: 'unreadable', reason: readReasons.blobMissing(entry.oid) } : { kind: 'file', bytes };
      }
      if (entry.mode === SUBMODULE_MODE) return { kind: 'directory' };
      if (entry.mode !== SYMLINK_MODE) return { kind: 'unreadable', reason: readReasons.unsupportedMode(entry.mode) };
      if (hops >= MAX_SYMLINK_HOPS) return { kind: 'unreadable', reason: readReasons.tooManySymlinkHops(MAX_SYMLINK_HOPS) };
      const next = await followLink(path, entry.oid);
      if (next === 'unreadable') return { kind: 'unreadable', reason: readReasons.blobMissing(entry.oid) };
      return next === null ? { kind: 'outside-root' } : resolve(next, hops + 1);
    }
    // A symlinked leading directory: `link/file.ts` where `link` is a staged symlink.
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const prefix = entries.get(path.slice(0, slash));
      if (prefix === undefined) continue;
      if (prefix.mode === SUBMODULE_MODE) {
        const name = path.slice(0, slash);
        const inner = path.slice(slash + 1);
        return submodule === undefined
          ? { kind: 'unchecked', reason: readReasons.insideSubmodule(name) }
          : submodule(name, prefix.oid, inner);
      }
      if (prefix.mode !== SYMLINK_MODE) break;
      if (hops >= MAX_SYMLINK_HOPS) return { kind: 'unreadable', reason: readReasons.tooManySymlinkHops(MAX_SYMLINK_HOPS) };
      const next = await followLink(path.slice(0, slash), prefix.oid);
      if (next === 'unreadable') return { kind: 'unreadable', reason: readReasons.blobMissing(prefix.oid) };
      if (next === null) return { kind: 'outside-root' };
      const rest = normaliseArtifactPath(`${next}/${path.slice(slash + 1)}`);
      return rest.ok ? resolve(rest.path, hops + 1) : { kind: 'outside-root' };
    }
    if (isDirectory(path)) return { kind: 'directory' };
    if (workingTree !== undefined && (path === '.aiwg' || path.startsWith('.aiwg/'))) return workingTree.read(path);
    const suggestion = caseSuggestion(path);
    if (suggestion !== undefined && suggestion !== path) return { kind: 'missing', suggestion };
    // Here but not staged (untracked, or ignored): still missing from the commit, and said so.
    if (workingTree !== undefined && (await workingTree.read(path)).kind === 'file') return { kind: 'missing', untracked: true };
    return { kind: 'missing' };
  };

  return {
    read: (relativePath) => resolve(relativePath, 0),
  };
}
