/**
 * The contract between the pure core and its hosts (Node, Deno, git index, memory).
 * Paths given to a port are absolute POSIX paths; the core never touches disk itself.
 */

/** A value that a port may return directly or as a promise. */
export type MaybePromise<T> = T | Promise<T>;

/** What a path is, after following symlinks. */
export type EntryKind = 'file' | 'directory' | 'other';

/** Low-level file access a host provides. Every method takes an absolute POSIX path. */
export interface FileSystem {
  /** The canonical path with every symlink resolved, or `null` when the path does not exist. */
  realpath(path: string): MaybePromise<string | null>;
  /** The kind of entry at a canonical path, or `null` when it does not exist. */
  stat(path: string): MaybePromise<EntryKind | null>;
  /** The raw bytes of a file at a canonical path. */
  readFile(path: string): MaybePromise<Uint8Array>;
  /** The names in a directory, used to confirm the exact case of a path. */
  readdir(path: string): MaybePromise<string[]>;
}

/** Hashes bytes to lowercase hex SHA-256. Hosts inject a fast native one; the core falls back to Web Crypto. */
export type Sha256 = (bytes: Uint8Array) => MaybePromise<string>;

/** The outcome of reading a root-relative path through a confined reader. */
export type ReadResult =
  | { readonly kind: 'file'; readonly bytes: Uint8Array }
  | {
      readonly kind: 'missing';
      readonly suggestion?: string;
      /** The path is a file in the working tree, but not in what is read (the index a commit is made from). */
      readonly untracked?: true;
    }
  | { readonly kind: 'directory' }
  | { readonly kind: 'outside-root' }
  | { readonly kind: 'unreadable'; readonly reason: string }
  /** A path the host knows of but cannot check (inside a submodule that is not available): a note, never missing. */
  | { readonly kind: 'unchecked'; readonly reason: string };

/** Reads root-relative paths and never returns bytes from outside the root. */
export interface ArtifactReader {
  read(relativePath: string): Promise<ReadResult>;
}
