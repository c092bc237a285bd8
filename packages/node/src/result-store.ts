import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultStorage } from '@aiwg-cite/core';
import { runGit } from './git-files.ts';

/**
 * Where the result cache of a project lives: `AIWG_CITE_RESULT_CACHE` when set, else
 * `<git dir>/aiwg-cite/results` in a repository, else `<root>/node_modules/.cache/aiwg-cite/results`.
 * Never a tracked path, so no commit carries it.
 */
export function resultCacheDir(root: string, isGit: boolean, env: Readonly<Record<string, string | undefined>>): string {
  const named = env.AIWG_CITE_RESULT_CACHE;
  if (named !== undefined && named !== '') return named;
  if (isGit) {
    const gitDir = gitDirOf(root);
    if (gitDir !== null) return join(gitDir, 'aiwg-cite', 'results');
  }
  return join(root, 'node_modules', '.cache', 'aiwg-cite', 'results');
}

function gitDirOf(root: string): string | null {
  const dotGit = join(root, '.git');
  if (lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory() === true) return dotGit;
  const out = runGit(root, ['rev-parse', '--absolute-git-dir']);
  return out === null || out.trim() === '' ? null : out.trim();
}

const MAC_LENGTH = 64;
/** A temporary file older than this is a crashed run's leftover, not a write in flight. */
const LEFTOVER_MS = 60_000;

/**
 * One file signed with the user's key: a line with the HMAC-SHA256 of the body, then the body.
 * Read whole or not at all: a file that is absent, short, corrupt or signed under another key
 * reads as `null`. Written to a temporary file renamed into place, so a reader sees the old file
 * or the whole new one, never a torn one, however many runs share the directory.
 */
export class SignedFile {
  readonly #path: string;
  readonly #secret: Uint8Array;

  constructor(path: string, secret: Uint8Array) {
    this.#path = path;
    this.#secret = secret;
  }

  /** The body, if the file is there and its signature holds. */
  read(): string | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.#path);
    } catch {
      return null;
    }
    if (bytes.length <= MAC_LENGTH || bytes[MAC_LENGTH] !== 0x0a) return null;
    const body = bytes.subarray(MAC_LENGTH + 1);
    const given = bytes.subarray(0, MAC_LENGTH);
    return timingSafeEqual(Buffer.from(this.#mac(body), 'latin1'), given) ? body.toString('utf8') : null;
  }

  /** Replaces the file atomically; a failure leaves the old file and no temporary file behind. */
  write(body: string): void {
    const directory = join(this.#path, '..');
    mkdirSync(directory, { recursive: true });
    const encoded = Buffer.from(body, 'utf8');
    const temporary = `${this.#path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temporary, Buffer.concat([Buffer.from(`${this.#mac(encoded)}\n`, 'latin1'), encoded]));
      renameSync(temporary, this.#path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  #mac(body: Uint8Array): string {
    return createHmac('sha256', this.#secret).update(body).digest('hex');
  }
}

interface PackEntry {
  readonly file: string;
  readonly value: string;
}

/**
 * The result cache as one signed pack, `<dir>/pack` ({@link SignedFile}): one entry per line,
 * `key TAB file (JSON) TAB entry`. It is read once, on the first lookup of a run, and written once,
 * when the run is over and changed something. Reading one file instead of one file per document is
 * what makes a warm run over 100,000 documents cheap; a pack that does not verify is ignored as a
 * whole, so every document is checked again and the pack rewritten. A file copied from another
 * machine or brought by a pull request is never trusted: it is signed under another user's key.
 */
export class PackResultStorage implements ResultStorage {
  readonly #dir: string;
  readonly #pack: SignedFile;
  #entries: Map<string, PackEntry> | null = null;
  readonly #written = new Map<string, PackEntry>();
  readonly #hits = new Set<string>();

  constructor(dir: string, secret: Uint8Array) {
    this.#dir = dir;
    this.#pack = new SignedFile(join(dir, 'pack'), secret);
  }

  read(key: string): string | null {
    const entry = this.#load().get(key);
    if (entry === undefined) return null;
    this.#hits.add(key);
    return entry.value;
  }

  write(key: string, file: string, value: string): void {
    this.#written.set(key, { file, value });
  }

  /**
   * Writes the pack when the run changed it: the entries this run used or wrote, and, unless the
   * run covered every document, the other entries of documents it did not look at (another
   * shard's, or those a `check FILE` left alone). An entry of an older version of a document the
   * run checked is dropped, so the pack holds about one entry per document. Returns the entries kept.
   */
  flush(fullRun: boolean): number {
    const old = this.#load();
    const kept = new Map<string, PackEntry>();
    const touched = new Set<string>();
    for (const entry of this.#written.values()) touched.add(entry.file);
    for (const key of this.#hits) {
      const entry = old.get(key);
      if (entry !== undefined) touched.add(entry.file);
    }
    for (const [key, entry] of old) {
      if (this.#hits.has(key) || (!fullRun && !touched.has(entry.file))) kept.set(key, entry);
    }
    for (const [key, entry] of this.#written) kept.set(key, entry);
    const unchanged = this.#written.size === 0 && kept.size === old.size;
    if (unchanged) return kept.size;
    const lines: string[] = [];
    for (const [key, entry] of kept) lines.push(`${key}\t${JSON.stringify(entry.file)}\t${entry.value}\n`);
    this.#pack.write(lines.join(''));
    this.#entries = kept;
    this.#written.clear();
    this.#removeLeftovers();
    return kept.size;
  }

  #load(): Map<string, PackEntry> {
    if (this.#entries !== null) return this.#entries;
    const entries = new Map<string, PackEntry>();
    const body = this.#pack.read();
    if (body !== null) {
      for (const line of body.split('\n')) {
        const first = line.indexOf('\t');
        const second = line.indexOf('\t', first + 1);
        if (first <= 0 || second === -1) continue;
        let file: unknown;
        try {
          file = JSON.parse(line.slice(first + 1, second));
        } catch {
          continue;
        }
        if (typeof file === 'string') entries.set(line.slice(0, first), { file, value: line.slice(second + 1) });
      }
    }
    this.#entries = entries;
    return entries;
  }

  /** Temporary files of crashed runs, and the per-document entry files of versions before the pack. */
  #removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.#dir, name);
      if (/^[0-9a-f]{2}$/.test(name)) rmSync(path, { recursive: true, force: true });
      else if (name.endsWith('.tmp') && Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > LEFTOVER_MS) {
        rmSync(path, { force: true });
      }
    }
  }
}
