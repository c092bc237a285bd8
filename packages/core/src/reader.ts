import { joinRoot, relativeToRoot } from './paths.ts';
import type { ArtifactReader, FileSystem, ReadResult } from './ports.ts';

/**
 * A reader confined to `root` (an absolute, canonical POSIX path). It resolves symlinks and
 * refuses any path whose target lies outside the root, without reading it. Names match
 * case-exactly on every file system: a case-only difference is `missing`, with the real
 * name as a suggestion. Callers pass paths already normalised by `normaliseArtifactPath`.
 */
export function createConfinedReader(fs: FileSystem, root: string): ArtifactReader {
  return {
    async read(relativePath: string): Promise<ReadResult> {
      const requested = joinRoot(root, relativePath);
      let real: string | null;
      try {
        real = await fs.realpath(requested);
      } catch (error) {
        return { kind: 'unreadable', reason: describe(error) };
      }
      if (real === null) return { kind: 'missing' };
      if (real !== requested) {
        if (relativeToRoot(root, real) === null) return { kind: 'outside-root' };
        const mismatch = await findCaseMismatch(fs, root, relativePath);
        if (mismatch !== null) return mismatch;
      }
      try {
        return { kind: 'file', bytes: await fs.readFile(real) };
      } catch (error) {
        return classifyReadFailure(fs, real, error);
      }
    },
  };
}

/**
 * Walks the requested path one component at a time and checks that each name exists with
 * exactly this case. Only needed when the canonical path differs from the requested one
 * (a symlink, or a case-insensitive file system).
 */
async function findCaseMismatch(fs: FileSystem, root: string, relativePath: string): Promise<ReadResult | null> {
  let directory = root;
  let mismatched = false;
  const actual: string[] = [];
  for (const part of relativePath.split('/')) {
    let names: string[];
    try {
      names = await fs.readdir(directory);
    } catch {
      return mismatched ? { kind: 'missing' } : null;
    }
    let name = part;
    if (!names.includes(part)) {
      const folded = names.find((candidate) => candidate.toLowerCase() === part.toLowerCase());
      if (folded === undefined) return { kind: 'missing' };
      mismatched = true;
      name = folded;
    }
    actual.push(name);
    directory = joinRoot(directory, name);
  }
  return mismatched ? { kind: 'missing', suggestion: actual.join('/') } : null;
}

/** Reading failed: find out whether the path is a directory or something else unreadable. */
async function classifyReadFailure(fs: FileSystem, path: string, error: unknown): Promise<ReadResult> {
  try {
    const kind = await fs.stat(path);
    if (kind === null) return { kind: 'missing' };
    if (kind === 'directory') return { kind: 'directory' };
    if (kind !== 'file') return { kind: 'unreadable', reason: 'not a regular file' };
  } catch {
    // fall through to the original error
  }
  return { kind: 'unreadable', reason: describe(error) };
}

function describe(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) return String((error as { code: unknown }).code);
  return error instanceof Error ? error.message : String(error);
}
