import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactReader, ReadResult } from '@aiwg-cite/core';
import { type GitEnv, gitAsync, knownGitDirectory } from '@aiwg-cite/node';
import { readReasons } from './messages.ts';

/** Options of {@link createWorktreeReader}. */
export interface WorktreeReaderOptions {
  /** The git top level (absolute, canonical). */
  readonly root: string;
  readonly env?: GitEnv;
}

interface Pending {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly resolve: (bytes: Uint8Array) => void;
}

/**
 * The working tree as git would store it (issue 15, item 1). With `core.autocrlf=true` or a
 * `text`/`eol` attribute, the file on disk (CRLF) is not what git commits (LF): a citation must pin
 * the content git stores, so that `check`, `check --staged`, `stamp` and `watch` agree. Files
 * with a CR byte, and only they, are asked about, in one `git hash-object --stdin-paths` per
 * batch: when git's clean filters change a file, its stored content is taken (CRLF→LF when that
 * gives git's object id, else the object itself when git has it); otherwise the bytes on disk.
 * A path inside a submodule that is not checked out reads as `unchecked`, never missing; one
 * missing from a checked-out submodule is missing, as `check --staged` reads it. In a sparse
 * checkout, a tracked file outside the checked-out cone (git's skip-worktree bit) is read from the
 * index, as `check --staged` reads it: it is in the repository, only not on disk.
 */
export function createWorktreeReader(inner: ArtifactReader, options: WorktreeReaderOptions): ArtifactReader {
  let queue: Pending[] = [];
  let submodules: readonly string[] | null = null;
  let skipWorktree: Promise<ReadonlyMap<string, string>> | null = null;
  const gitOptions = options.env === undefined ? {} : { env: options.env };

  const flush = async (batch: Pending[]): Promise<void> => {
    const usable = batch.filter((entry) => !entry.path.includes('\n'));
    let ids: string[] = [];
    try {
      const input = usable.map((entry) => `${entry.path}\n`).join('');
      ids = (
        await gitAsync(options.root, ['hash-object', '--stdin-paths'], {
          ...(options.env === undefined ? {} : { env: options.env }),
          input,
        })
      )
        .toString('utf8')
        .split('\n');
    } catch {
      ids = [];
    }
    await Promise.all(
      batch.map(async (entry) => {
        const at = usable.indexOf(entry);
        const stored = at === -1 ? undefined : ids[at];
        entry.resolve(stored === undefined || stored === '' ? entry.bytes : await storedContent(entry.bytes, stored));
      }),
    );
  };

  const storedContent = async (bytes: Uint8Array, oid: string): Promise<Uint8Array> => {
    if (blobId(bytes, oid.length) === oid) return bytes;
    const normalised = crlfToLf(bytes);
    if (blobId(normalised, oid.length) === oid) return normalised;
    // Another filter (ident, a clean driver): the object itself, when git has it (a staged file).
    try {
      return new Uint8Array(await gitAsync(options.root, ['cat-file', 'blob', oid], options.env === undefined ? {} : { env: options.env }));
    } catch {
      return bytes;
    }
  };

  const cleaned = (path: string, bytes: Uint8Array): Promise<Uint8Array> =>
    new Promise((resolve) => {
      if (queue.length === 0) {
        setImmediate(() => {
          const batch = queue;
          queue = [];
          void flush(batch);
        });
      }
      queue.push({ path, bytes, resolve });
    });

  const submoduleOf = (path: string): string | null => {
    submodules ??= readSubmodulePaths(options.root);
    return submodules.find((sub) => path.startsWith(`${sub}/`)) ?? null;
  };

  /** The blob of a tracked file a sparse checkout left off the disk, or `null`. */
  const outsideSparseCone = async (path: string): Promise<Uint8Array | null> => {
    skipWorktree ??= skipWorktreeBlobs(options.root, gitOptions);
    const oid = (await skipWorktree).get(path);
    if (oid === undefined) return null;
    try {
      return new Uint8Array(await gitAsync(options.root, ['cat-file', 'blob', oid], gitOptions));
    } catch {
      return null;
    }
  };

  return {
    async read(path: string): Promise<ReadResult> {
      const read = await inner.read(path);
      if (read.kind === 'missing') {
        // Missing from a checked-out submodule is missing; only one never checked out is unknown.
        const submodule = submoduleOf(path);
        if (submodule !== null && !isCheckedOut(options.root, submodule))
          return { kind: 'unchecked', reason: readReasons.submoduleNotCheckedOut(submodule) };
        const stored = submodule === null ? await outsideSparseCone(path) : null;
        return stored === null ? read : { kind: 'file', bytes: stored };
      }
      if (read.kind !== 'file' || !read.bytes.includes(13)) return read;
      return { kind: 'file', bytes: await cleaned(path, read.bytes) };
    },
  };
}

/**
 * The regular files git's index marks skip-worktree (`S` in `git ls-files -t`), by path, with their
 * blob ids: empty unless `core.sparseCheckout` is on. A repository whose git directory is known and
 * holds no `info/sparse-checkout` (never sparse) is not asked at all; else one `git config` asks.
 */
export function skipWorktreeBlobs(root: string, gitOptions: { env?: GitEnv } = {}): Promise<ReadonlyMap<string, string>> {
  // Asked once per process and repository: the working-tree reader and the mention resolver share it.
  const key = `${root}\0${gitOptions.env?.GIT_DIR ?? ''}\0${gitOptions.env?.GIT_INDEX_FILE ?? ''}`;
  let blobs = skipWorktreeAnswers.get(key);
  if (blobs === undefined) {
    blobs = readSkipWorktreeBlobs(root, gitOptions);
    skipWorktreeAnswers.set(key, blobs);
  }
  return blobs;
}

const skipWorktreeAnswers = new Map<string, Promise<ReadonlyMap<string, string>>>();

async function readSkipWorktreeBlobs(root: string, gitOptions: { env?: GitEnv }): Promise<ReadonlyMap<string, string>> {
  const blobs = new Map<string, string>();
  const gitDir = knownGitDirectory(root, gitOptions.env);
  if (gitDir !== undefined && !existsSync(join(gitDir, 'info', 'sparse-checkout'))) return blobs;
  try {
    const sparse = (await gitAsync(root, ['config', '--bool', 'core.sparseCheckout'], gitOptions)).toString('utf8').trim();
    if (sparse !== 'true') return blobs;
    // `S 100644 <oid> 0\t<path>`, NUL-terminated.
    for (const line of (await gitAsync(root, ['ls-files', '-t', '-s', '-z'], gitOptions)).toString('utf8').split('\0')) {
      const match = /^S (100644|100755) ([0-9a-f]+) 0\t(.*)$/s.exec(line);
      if (match !== null) blobs.set(match[3] as string, match[2] as string);
    }
  } catch {
    // `git config` exits 1 when the key is unset: no sparse checkout.
  }
  return blobs;
}

/** Whether a submodule's working tree is there: its directory holds a `.git` (a file or a directory). */
function isCheckedOut(root: string, submodule: string): boolean {
  return existsSync(join(root, submodule, '.git'));
}

/** The submodule paths that `.gitmodules` declares (git-config syntax: `path = vendor/lib`). */
export function readSubmodulePaths(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, '.gitmodules'), 'utf8');
  } catch {
    return [];
  }
  const paths: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*path\s*=\s*(.+?)\s*$/.exec(line);
    if (match !== null) paths.push((match[1] as string).replace(/^"(.*)"$/, '$1').replace(/\/+$/, ''));
  }
  return paths;
}

/** git's object id of a blob with these bytes (SHA-1, or SHA-256 in a SHA-256 repository). */
function blobId(bytes: Uint8Array, length: number): string {
  const hash = createHash(length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex');
}

function crlfToLf(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at] as number;
    if (byte === 13 && bytes[at + 1] === 10) continue;
    out[length] = byte;
    length += 1;
  }
  return out.subarray(0, length);
}
