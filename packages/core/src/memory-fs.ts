import type { EntryKind, FileSystem } from './ports.ts';

/** Entries of an in-memory tree: file contents, or a symlink target. Keys are absolute POSIX paths. */
export type MemoryEntry = string | Uint8Array | { readonly symlink: string };

const MAX_SYMLINK_HOPS = 8;

/** Options of {@link createMemoryFileSystem}. */
export interface MemoryFileSystemOptions {
  /** Resolve names case-insensitively, as macOS and Windows volumes do by default. @default false */
  readonly caseInsensitive?: boolean;
}

/**
 * An in-memory {@link FileSystem} for tests and embedders. Directories are implied by the
 * files below them; symlinks may point anywhere, absolute or relative to their directory.
 */
export function createMemoryFileSystem(entries: Record<string, MemoryEntry>, options: MemoryFileSystemOptions = {}): FileSystem {
  const encoder = new TextEncoder();
  const files = new Map<string, Uint8Array>();
  const links = new Map<string, string>();
  const directories = new Set<string>(['/']);
  for (const [path, entry] of Object.entries(entries)) {
    if (typeof entry === 'object' && 'symlink' in entry) links.set(path, entry.symlink);
    else files.set(path, typeof entry === 'string' ? encoder.encode(entry) : entry);
    for (let dir = parentOf(path); dir !== '/'; dir = parentOf(dir)) directories.add(dir);
  }

  const resolve = (path: string): string | null => {
    let resolved = '/';
    const pending = path.split('/').filter((part) => part !== '');
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.shift() as string;
      if (part === '.') continue;
      if (part === '..') {
        resolved = parentOf(resolved);
        continue;
      }
      const next = canonical(resolved === '/' ? `/${part}` : `${resolved}/${part}`);
      const target = links.get(next);
      if (target !== undefined) {
        hops += 1;
        if (hops > MAX_SYMLINK_HOPS) return null;
        pending.unshift(...target.split('/').filter((p) => p !== ''));
        if (target.startsWith('/')) resolved = '/';
        continue;
      }
      if (!files.has(next) && !directories.has(next)) return null;
      resolved = next;
    }
    return resolved;
  };

  const byFoldedPath = new Map<string, string>();
  for (const key of [...files.keys(), ...links.keys(), ...directories]) byFoldedPath.set(key.toLowerCase(), key);
  const canonical = (path: string): string =>
    options.caseInsensitive === true && !files.has(path) && !links.has(path) && !directories.has(path)
      ? (byFoldedPath.get(path.toLowerCase()) ?? path)
      : path;

  const kindOf = (path: string): EntryKind | null => (files.has(path) ? 'file' : directories.has(path) ? 'directory' : null);

  return {
    realpath: resolve,
    stat: kindOf,
    readFile(path) {
      const bytes = files.get(path);
      if (bytes === undefined) {
        const code = directories.has(path) ? 'EISDIR' : 'ENOENT';
        throw Object.assign(new Error(`${code}: ${path}`), { code });
      }
      return bytes;
    },
    readdir(path) {
      const prefix = path === '/' ? '/' : `${path}/`;
      const names = new Set<string>();
      for (const key of [...files.keys(), ...links.keys(), ...directories]) {
        if (key.startsWith(prefix) && key !== path) names.add(key.slice(prefix.length).split('/')[0] as string);
      }
      return [...names];
    },
  };
}

function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}
