import { isAscii } from 'node:buffer';
import { type CipherGCM, createCipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
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

/**
 * The tag is a GMAC: AES-256-GCM with the body as additional data and nothing to encrypt, under a
 * key derived from the user's, with a fresh random 96-bit nonce per file (written beside the tag).
 * With AES and carry-less multiply instructions it runs at several GB/s, about 17 times
 * HMAC-SHA-512/256 on this project's test machine (a warm run verifies every segment it reads, a
 * cold one signs every byte it writes). A random nonce repeats once in about 2^48 files signed
 * under one key, far beyond what a user's runs write.
 */
const MAC_CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The last line: the nonce, then the tag, in hex. */
const TRAILER_LENGTH = 2 * (NONCE_BYTES + TAG_BYTES) + 1;
/**
 * Names this use of the user's key; a new trailer layout takes a new label, so files signed under
 * an old layout never verify (the HMAC trailer before this one cannot: another length, another key).
 */
const KEY_LABEL = 'aiwg-cite signed file, GMAC 1';
/** A temporary file older than this is a crashed run's leftover, not a write in flight. */
const LEFTOVER_MS = 600_000;

/** The GMAC of some bytes, fed in as they come. */
function gmac(key: Uint8Array, nonce: Uint8Array): CipherGCM {
  return createCipheriv(MAC_CIPHER, key, nonce, { authTagLength: TAG_BYTES });
}

/**
 * One file signed with the user's key: the body, then a last line with the nonce and the GMAC of
 * the body (a trailer, so a long body is signed as it is written). Read whole or not at all: a file
 * that is absent, short, corrupt or signed under another key reads as `null`. Written to a
 * temporary file renamed into place, so a reader sees the old file or the whole new one, never a
 * torn one, however many runs share the directory.
 */
export class SignedFile {
  readonly #path: string;
  readonly #key: Buffer;

  constructor(path: string, secret: Uint8Array) {
    this.#path = path;
    this.#key = createHmac('sha256', secret).update(KEY_LABEL).digest();
  }

  /** The body, if the file is there and its signature holds. */
  read(): string | null {
    const bytes = this.readBytes();
    return bytes === null ? null : decodeUtf8(bytes);
  }

  /** {@link read}, as bytes. */
  readBytes(): Buffer | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.#path);
    } catch {
      return null;
    }
    if (bytes.length < TRAILER_LENGTH || bytes[bytes.length - 1] !== 0x0a) return null;
    const bodyEnd = bytes.length - TRAILER_LENGTH;
    const nonce = Buffer.from(bytes.toString('latin1', bodyEnd, bodyEnd + 2 * NONCE_BYTES), 'hex');
    const given = Buffer.from(bytes.toString('latin1', bodyEnd + 2 * NONCE_BYTES, bytes.length - 1), 'hex');
    // Hex that does not decode whole is no trailer of ours.
    if (nonce.length !== NONCE_BYTES || given.length !== TAG_BYTES) return null;
    const body = bytes.subarray(0, bodyEnd);
    const mac = gmac(this.#key, nonce);
    mac.setAAD(body);
    mac.final();
    return timingSafeEqual(mac.getAuthTag(), given) ? body : null;
  }

  /** Replaces the file atomically; a failure leaves the old file and no temporary file behind. */
  write(body: string): void {
    const writer = this.writer();
    try {
      writer.append(body);
      writer.commit();
    } catch (error) {
      writer.abort();
      throw error;
    }
  }

  /** A replacement written piece by piece (signed as it goes), put in place by `commit`. */
  writer(): SignedFileWriter {
    mkdirSync(join(this.#path, '..'), { recursive: true });
    const temporary = `${this.#path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const descriptor = openSync(temporary, 'wx');
    const nonce = randomBytes(NONCE_BYTES);
    const mac = gmac(this.#key, nonce);
    let open = true;
    const close = () => {
      if (open) closeSync(descriptor);
      open = false;
    };
    return {
      append(text) {
        const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
        writeSync(descriptor, bytes);
        mac.setAAD(bytes);
      },
      commit: () => {
        mac.final();
        writeSync(descriptor, `${nonce.toString('hex')}${mac.getAuthTag().toString('hex')}\n`);
        close();
        renameSync(temporary, this.#path);
      },
      abort() {
        close();
        rmSync(temporary, { force: true });
      },
    };
  }
}

/** A {@link SignedFile} being replaced. */
export interface SignedFileWriter {
  /** Appends text (as UTF-8) or bytes; the bytes are written and signed at once, not kept. */
  append(text: string | Uint8Array): void;
  /** Signs what was appended and puts it in place of the file. */
  commit(): void;
  /** Drops what was appended; the file stays as it was. */
  abort(): void;
}

/**
 * New entries of one segment: their bytes not yet written, and the replacement they go to. Lines
 * are encoded straight into `bytes`, which is written and signed as it is (no joined string, no
 * Buffer per line).
 */
interface Pending {
  readonly segment: number;
  writer: SignedFileWriter | null;
  bytes: Buffer | null;
  size: number;
}

/**
 * A segment as read: its verified body as one string (a value is a slice of it, no copy per
 * entry), and per key the index of its line in `starts`, `values` and `ends` (where the line
 * starts, where its value starts, where its newline is), found once when the segment is read.
 */
interface Segment {
  readonly text: string;
  readonly lines: Map<string, number>;
  readonly starts: number[];
  readonly values: number[];
  readonly ends: number[];
  /** Per line, 1 once the run looked its key up: a full run keeps those lines. */
  hits: Uint8Array;
}

/**
 * UTF-8 bytes as a string; ASCII (most of a cache: paths, hashes, JSON) is copied a byte a
 * character, which Node 20 does several times faster than it decodes UTF-8.
 */
function decodeUtf8(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** How many segments the pack is cut into, by the first bits of an entry's key. */
const SEGMENTS = 64;
/** Bytes of new lines a segment keeps in memory before they are appended to its replacement. */
const PENDING_BYTES = 1 << 16;
const TAB = 0x09;
const NEWLINE = 0x0a;
/** The most UTF-8 bytes one UTF-16 code unit encodes to. */
const MAX_UTF8_PER_UNIT = 3;

/** A hexadecimal digit's value from its character code; anything else counts as 0. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : 0;
}

/** The segment of a key: its first two hexadecimal digits, modulo {@link SEGMENTS} (read as codes: no substring, no parse). */
function segmentOf(key: string): number {
  return ((hexValue(key.charCodeAt(0)) << 4) | hexValue(key.charCodeAt(1))) % SEGMENTS;
}

/**
 * The result cache as a pack of signed segments, `<dir>/pack-NN` ({@link SignedFile}; 64 of
 * them, by the key's first bits): one entry per line, `key TAB file (JSON) TAB entry`. A segment is
 * read once, when a run first looks up a key in it; a run's new entries are appended to the
 * segment's replacement as they come, and the replacement is put in place when the run is over. One read per segment instead of one file per document is what makes a warm run over
 * many documents cheap, and segments keep each file, and each string read from it, small: a run
 * that changed one document rewrites one segment. A segment that does not verify is ignored
 * whole, so its documents are checked again and it is rewritten; a file copied from another
 * machine or brought by a pull request is never trusted: another user's key signed it.
 */
export class PackResultStorage implements ResultStorage {
  readonly #dir: string;
  readonly #secret: Uint8Array;
  readonly #segments = new Map<number, Segment>();
  readonly #pending = new Map<number, Pending>();
  readonly #written = new Set<string>();

  constructor(dir: string, secret: Uint8Array) {
    this.#dir = dir;
    this.#secret = secret;
  }

  read(key: string): string | null {
    const segment = this.#load(segmentOf(key));
    const line = segment.lines.get(key);
    if (line === undefined) return null;
    segment.hits[line] = 1;
    return segment.text.slice(segment.values[line], segment.ends[line]);
  }

  /**
   * Writes go to the segment's replacement as they come (a run over many documents keeps none in
   * memory). The line is `key TAB file (JSON) TAB value NEWLINE`.
   */
  write(key: string, file: string, value: string): void {
    const segment = segmentOf(key);
    let pending = this.#pending.get(segment);
    if (pending === undefined) {
      pending = { segment, writer: null, bytes: null, size: 0 };
      this.#pending.set(segment, pending);
    }
    this.#written.add(key);
    const name = JSON.stringify(file);
    const bytes = this.#room(pending, key.length + name.length + value.length + 3);
    if (bytes === null) {
      (pending.writer as SignedFileWriter).append(`${key}\t${name}\t${value}\n`);
      return;
    }
    let size = pending.size;
    size += bytes.write(key, size);
    bytes[size++] = TAB;
    size += bytes.write(name, size);
    bytes[size++] = TAB;
    size += bytes.write(value, size);
    bytes[size++] = NEWLINE;
    pending.size = size;
  }

  /**
   * Puts the segments the run changed in place. After a run over every document, each segment
   * keeps the entries that run used or wrote and drops the rest (older versions of documents,
   * deleted documents, other configurations), so the pack holds about one entry per document. A
   * partial run (`check FILE`, `--staged`, a shard) adds its entries to the segments they fall in
   * and drops nothing: the other documents' entries are still good.
   */
  flush(fullRun: boolean): void {
    const segments = new Set<number>(this.#pending.keys());
    if (fullRun) for (let segment = 0; segment < SEGMENTS; segment += 1) segments.add(segment);
    try {
      for (const segment of segments) {
        const { text, lines, starts, ends, hits } = this.#load(segment);
        // Kept lines are copied as they were read, runs of adjacent lines at once.
        const kept: [number, number][] = [];
        let count = 0;
        for (const [key, line] of lines) {
          if ((fullRun && hits[line] !== 1) || this.#written.has(key)) continue;
          count += 1;
          const start = starts[line] as number;
          const end = (ends[line] as number) + 1;
          const last = kept[kept.length - 1];
          if (last !== undefined && last[1] === start) last[1] = end;
          else kept.push([start, end]);
        }
        let pending = this.#pending.get(segment);
        if (pending === undefined) {
          if (count === lines.size) continue;
          pending = { segment, writer: null, bytes: null, size: 0 };
          this.#pending.set(segment, pending);
        }
        for (const [start, end] of kept) this.#put(pending, text.slice(start, end));
        this.#drain(pending).commit();
        this.#pending.delete(segment);
        this.#segments.delete(segment);
      }
    } finally {
      for (const pending of this.#pending.values()) pending.writer?.abort();
      this.#pending.clear();
      this.#written.clear();
    }
    if (segments.size > 0) this.#removeLeftovers();
  }

  /**
   * The segment's pending bytes, with room for text of `length` UTF-16 code units at
   * `pending.size` (what was pending is appended to the replacement first when they are too full);
   * `null` when the text is longer than all of them: it goes straight to the replacement.
   */
  #room(pending: Pending, length: number): Buffer | null {
    const bound = length * MAX_UTF8_PER_UNIT;
    pending.bytes ??= Buffer.allocUnsafe(PENDING_BYTES);
    if (pending.size + bound <= pending.bytes.length) return pending.bytes;
    this.#drain(pending);
    return bound <= pending.bytes.length ? pending.bytes : null;
  }

  /** Encodes text into the segment's pending bytes. */
  #put(pending: Pending, text: string): void {
    const bytes = this.#room(pending, text.length);
    if (bytes === null) (pending.writer as SignedFileWriter).append(text);
    else pending.size += bytes.write(text, pending.size);
  }

  /** Appends a segment's pending bytes to its replacement, opened on the first of them. */
  #drain(pending: Pending): SignedFileWriter {
    pending.writer ??= this.#file(pending.segment).writer();
    if (pending.bytes !== null && pending.size > 0) pending.writer.append(pending.bytes.subarray(0, pending.size));
    pending.size = 0;
    return pending.writer;
  }

  #file(segment: number): SignedFile {
    return new SignedFile(join(this.#dir, `pack-${segment.toString().padStart(2, '0')}`), this.#secret);
  }

  /**
   * One segment, verified, with where each line starts: a line is decoded only when its key is
   * looked up, and copied as bytes when a rewrite keeps it.
   */
  #load(segment: number): Segment {
    let loaded = this.#segments.get(segment);
    if (loaded !== undefined) return loaded;
    // One string per segment: decoded in one pass, its bytes released at once, each key and
    // value a slice of it.
    const bytes = this.#file(segment).readBytes();
    const text = bytes === null ? '' : decodeUtf8(bytes);
    loaded = { text, lines: new Map(), starts: [], values: [], ends: [], hits: new Uint8Array(0) };
    this.#segments.set(segment, loaded);
    const { lines, starts, values, ends } = loaded;
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf('\n', start);
      // A last line without its newline is left out: a rewrite copies whole lines.
      if (end === -1) break;
      const first = text.indexOf('\t', start);
      const second = first === -1 || first >= end ? -1 : text.indexOf('\t', first + 1);
      // A line without its three fields is left out (and dropped by the next rewrite).
      if (first > start && second !== -1 && second < end) {
        lines.set(text.slice(start, first), starts.length);
        starts.push(start);
        values.push(second + 1);
        ends.push(end);
      }
      start = end + 1;
    }
    loaded.hits = new Uint8Array(starts.length);
    return loaded;
  }

  /** Temporary files of crashed runs, and the entry files of versions before the segmented pack. */
  #removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.#dir, name);
      if (/^[0-9a-f]{2}$/.test(name) || name === 'pack') rmSync(path, { recursive: true, force: true });
      else if (name.endsWith('.tmp') && Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > LEFTOVER_MS) {
        rmSync(path, { force: true });
      }
    }
  }
}
