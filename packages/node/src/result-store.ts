import { isAscii } from 'node:buffer';
import { type CipherGCM, createCipheriv, createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
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
/** How much of a large body {@link SignedFile.openBody} holds at once. */
const CHUNK_BYTES = 1 << 20;
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

  /** Where the file is. */
  get path(): string {
    return this.#path;
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

  /**
   * The body from where `from` says (given its first bytes; `null` refuses the file), verified
   * without holding it whole: read once through the tag a chunk at a time and, when the signature
   * holds, handed on by {@link SignedBody.pipe} (or in parts, {@link SignedBody.copy}) as read
   * again from the same open file (a replacement is renamed into place, never written over, so what
   * is handed on is what was verified). `null` when the file is absent, short or its signature does
   * not hold. A large body read whole costs its pages as fresh memory: on the project's second test
   * machine, reading a 25 MB kept answer whole, verifying it and writing it out took 150-190 ms,
   * against 19 ms through a buffer of 1 MiB (read twice).
   */
  openBody(from: (first: Buffer) => number | null): SignedBody | null {
    let descriptor: number;
    try {
      descriptor = openSync(this.#path, 'r');
    } catch {
      return null;
    }
    let handed = false;
    try {
      const size = fstatSync(descriptor).size;
      if (size < TRAILER_LENGTH) return null;
      const bodyEnd = size - TRAILER_LENGTH;
      const trailer = Buffer.alloc(TRAILER_LENGTH);
      if (readSync(descriptor, trailer, 0, TRAILER_LENGTH, bodyEnd) !== TRAILER_LENGTH || trailer[TRAILER_LENGTH - 1] !== 0x0a) return null;
      const nonce = Buffer.from(trailer.toString('latin1', 0, 2 * NONCE_BYTES), 'hex');
      const given = Buffer.from(trailer.toString('latin1', 2 * NONCE_BYTES, TRAILER_LENGTH - 1), 'hex');
      if (nonce.length !== NONCE_BYTES || given.length !== TAG_BYTES) return null;
      const mac = gmac(this.#key, nonce);
      const chunk = Buffer.allocUnsafeSlow(Math.min(CHUNK_BYTES, Math.max(bodyEnd, 1)));
      let start: number | null = null;
      for (let at = 0; at < bodyEnd; ) {
        const read = readSync(descriptor, chunk, 0, Math.min(chunk.length, bodyEnd - at), at);
        if (read === 0) return null;
        const bytes = chunk.subarray(0, read);
        if (at === 0) start = from(bytes);
        if (start === null) return null;
        mac.setAAD(bytes);
        at += read;
      }
      mac.final();
      if (bodyEnd === 0) start = from(Buffer.alloc(0));
      if (start === null || start > bodyEnd || !timingSafeEqual(mac.getAuthTag(), given)) return null;
      handed = true;
      return openedBody(descriptor, start, bodyEnd, chunk);
    } catch {
      return null;
    } finally {
      if (!handed) closeSync(descriptor);
    }
  }

  /**
   * Replaces the file atomically with the body (or its pieces, one after the other, or those a
   * function hands to `append`, each written before `append` returns); a failure leaves the old
   * file and no temporary file behind.
   */
  write(body: string | readonly (string | Uint8Array)[] | ((append: (piece: string | Uint8Array) => void) => void)): void {
    const writer = this.writer();
    try {
      if (typeof body === 'string') writer.append(body);
      else if (typeof body === 'function') body((piece) => writer.append(piece));
      else for (const piece of body) writer.append(piece);
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

/**
 * A signed file's body, verified ({@link SignedFile.openBody}), read from the file it was verified
 * in, which stays open until {@link pipe} ends or {@link close}. Places are counted from the
 * body's start (past what `from` skipped).
 */
export interface SignedBody {
  readonly length: number;
  /**
   * Hands the body on, a chunk at a time, then closes the file; `take` returns whether the chunk
   * may be read over (false: it keeps a hold on it, and the next chunk goes into a new buffer).
   */
  pipe(take: (chunk: Buffer) => boolean): void;
  /** Hands on the bytes from `start` to `end` as {@link pipe} does, and leaves the file open. */
  copy(start: number, end: number, take: (chunk: Buffer) => boolean): void;
  /** The byte at a place, read with the next 4 KiB (places asked in order within them cost no read). */
  byteAt(at: number): number;
  /** Closes the file (again: nothing). */
  close(): void;
}

/** How many bytes {@link SignedBody.byteAt} reads at once. */
const WINDOW_BYTES = 1 << 12;

/** The {@link SignedBody} of an open, verified file whose body runs from `first` to `bodyEnd`. */
function openedBody(descriptor: number, first: number, bodyEnd: number, chunk: Buffer): SignedBody {
  let open = true;
  const close = (): void => {
    if (open) closeSync(descriptor);
    open = false;
  };
  let buffer = chunk;
  const opened = (): void => {
    // A closed descriptor's number may name another file by now.
    if (!open) throw new Error('the kept body was closed');
  };
  const copy = (start: number, end: number, take: (chunk: Buffer) => boolean): void => {
    opened();
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && first + end <= bodyEnd)) {
      throw new RangeError(`not a part of the kept body: ${start} to ${end}`);
    }
    for (let at = first + start; at < first + end; ) {
      const read = readSync(descriptor, buffer, 0, Math.min(buffer.length, first + end - at), at);
      if (read === 0) throw new Error('a kept file shrank while it was read');
      at += read;
      // A chunk the taker holds on to is never read over.
      if (!take(buffer.subarray(0, read))) buffer = Buffer.allocUnsafeSlow(buffer.length);
    }
  };
  // One buffer, read again for a place outside it: places asked are far apart (the ends of a document's elements).
  const window = Buffer.allocUnsafeSlow(WINDOW_BYTES);
  let windowStart = 0;
  let windowLength = 0;
  return {
    length: bodyEnd - first,
    pipe(take) {
      try {
        copy(0, bodyEnd - first, take);
      } finally {
        close();
      }
    },
    copy,
    byteAt(at) {
      opened();
      if (!(Number.isInteger(at) && at >= 0 && first + at < bodyEnd)) throw new RangeError(`not a place in the kept body: ${at}`);
      if (at < windowStart || at >= windowStart + windowLength) {
        const length = Math.min(WINDOW_BYTES, bodyEnd - first - at);
        if (readSync(descriptor, window, 0, length, first + at) !== length) throw new Error('a kept file shrank while it was read');
        windowStart = at;
        windowLength = length;
      }
      return window[at - windowStart] as number;
    },
    close,
  };
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
 * New lines of one segment file: their bytes not yet written, and the replacement they go to. Lines
 * are encoded straight into `bytes`, which is written and signed as it is (no joined string, no
 * Buffer per line).
 */
interface Pending {
  readonly segment: number;
  readonly part: Part;
  writer: SignedFileWriter | null;
  bytes: Buffer | null;
  size: number;
}

/** Which file of a segment: the heads of its entries (`pack-NN`) or their tails (`text-NN`). */
type Part = 'head' | 'tail';

/**
 * A segment file's body as read: one string (a value is a slice of it, no copy per entry), or, for
 * a file of tails that is all ASCII, its bytes, which a JSON report copies as they are (one byte a
 * UTF-16 code unit, so offsets are the same either way). Decoding 22 MB of texts into strings, and
 * encoding them again on the way out, took 147 ms of the 1.14 s a JSON check of the bench's 2,000
 * documents spent right after an edit (BENCHMARKS.md, issue 13's section).
 */
type Body = string | Buffer;

/** Where `char` (one ASCII character) next stands in `body` from `from`, or -1. */
function find(body: Body, char: '\n' | '\t', from: number): number {
  return typeof body === 'string' ? body.indexOf(char, from) : body.indexOf(char === '\n' ? NEWLINE : TAB, from);
}

/** Part of a body as a string. */
function textOf(body: Body, from: number, to: number): string {
  return typeof body === 'string' ? body.slice(from, to) : body.toString('latin1', from, to);
}

/** Part of a body as it is: a slice of the string, or a view of the bytes (no copy). */
function partOf(body: Body, from: number, to: number): string | Buffer {
  return typeof body === 'string' ? body.slice(from, to) : body.subarray(from, to);
}

/**
 * A segment file as read: its verified body ({@link Body}), and per key the index of its line in
 * `starts`, `values` and `ends` (where the line starts, where its value starts, where its value
 * ends), found once when the segment is read.
 */
interface Segment {
  readonly text: Body;
  readonly lines: Map<string, number>;
  readonly starts: number[];
  readonly values: number[];
  readonly ends: number[];
  /**
   * Per line, where its tag starts, or -1: a head with a tail ends with a tab and a tag, and its
   * tail line starts with the same tag (a head and a tail belong together only when they match).
   */
  tags: Int32Array;
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

/** Whether a head line and a tail line carry the same tag (a head's runs to its newline, a tail's to the tab before its value). */
function sameTag(heads: Segment, line: number, tails: Segment, at: number): boolean {
  const from = heads.tags[line] as number;
  const tailFrom = tails.tags[at] as number;
  if (from === -1 || tailFrom === -1) return false;
  const to = find(heads.text, '\n', from);
  const tailTo = (tails.values[at] as number) - 1;
  return to - from === tailTo - tailFrom && textOf(heads.text, from, to) === textOf(tails.text, tailFrom, tailTo);
}

/**
 * The tag of a value stored in two parts: 64 bits of its SHA-1, in hex. Not a signature (the
 * segment files are signed); it only tells two values stored under one key apart. SHA-1 because
 * it is the fastest digest Node offers everywhere (a cold run digests every value it writes).
 */
function tagOf(value: string): string {
  return hash('sha1', value, 'hex').slice(0, 16);
}

/** How many segments the pack is cut into, by the first bits of an entry's key. */
const SEGMENTS = 64;
/** Bytes of new lines a segment keeps in memory before they are appended to its replacement. */
const PENDING_BYTES = 1 << 16;
/**
 * The journal's number among the segments: its files are `journal-pack` and `journal-text`. A
 * partial run's few new entries go there instead of into the segments they fall in.
 */
const JOURNAL = -1;
/** How large the journal may grow (UTF-16 code units of its heads and texts); past this, a run folds it into the segments. */
const JOURNAL_LIMIT = 1 << 23;
const NEWLINE = 0x0a;
const TAB = 0x09;
/** The most UTF-8 bytes one UTF-16 code unit encodes to. */
const MAX_UTF8_PER_UNIT = 3;

/** A hexadecimal digit's value from its character code; anything else counts as 0. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : 0;
}

/** A segment's whole line for `key`, its newline included (as a rewrite copies it). */
function lineOf(segment: Segment, key: string): string | Buffer {
  const line = segment.lines.get(key) as number;
  const start = segment.starts[line] as number;
  return partOf(segment.text, start, find(segment.text, '\n', segment.ends[line] as number) + 1);
}

/** The segment of a key: its first two hexadecimal digits, modulo {@link SEGMENTS} (read as codes: no substring, no parse). */
function segmentOf(key: string): number {
  return ((hexValue(key.charCodeAt(0)) << 4) | hexValue(key.charCodeAt(1))) % SEGMENTS;
}

/**
 * The result cache as a pack of signed segments ({@link SignedFile}; 64 of each, by the key's
 * first bits). A value is stored in two parts, split at its first tab: the head, which a run that
 * only counts the citations that checked out reads alone (for the result cache, the entry without
 * the texts of those citations, a quarter of its bytes), in `<dir>/pack-NN`, one line per entry,
 * `key TAB file (JSON) TAB head`, followed by `TAB tag` when the value has a tail; and the tail in
 * `<dir>/text-NN`, `key TAB tag TAB tail`, read only by a run that asks for whole values. A segment is
 * read once, when a run first looks up a key in it; a run's new entries are appended to the
 * segments' replacements as they come, and the replacements are put in place when the run is over.
 * One read per segment instead of one file per document is what makes a warm run over many
 * documents cheap, and segments keep each file, and each string read from it, small: a full run
 * that changed one document rewrites one segment of each, a partial one writes the two small files
 * of the journal (see {@link flush}). A segment that does not verify is ignored
 * whole (an entry whose tail cannot be read is no entry), so its documents are checked again and
 * it is rewritten; a file copied from another machine or brought by a pull request is never
 * trusted: another user's key signed it. A head and its tail are written with one tag, a digest
 * of the whole value, and read together only when the tags match: two runs that store one key with
 * different values (the document's artifacts changed between them) and put their files in place in
 * between each other leave a head and a tail that do not match, which read as no entry, while runs
 * that store the same value (concurrent runs over the same documents) write the same tag, so
 * whichever run's heads and tails end up in place read together.
 */
export class PackResultStorage implements ResultStorage {
  readonly #dir: string;
  readonly #secret: Uint8Array;
  readonly #heads = new Map<number, Segment>();
  readonly #tails = new Map<number, Segment>();
  readonly #pendingHeads = new Map<number, Pending>();
  readonly #pendingTails = new Map<number, Pending>();
  readonly #written = new Set<string>();
  readonly #journalLimit: number;

  /** `journalLimit`: how large the journal may grow before a run folds it into the segments (0: partial runs write the segments). */
  constructor(dir: string, secret: Uint8Array, options: { readonly journalLimit?: number } = {}) {
    this.#dir = dir;
    this.#secret = secret;
    this.#journalLimit = options.journalLimit ?? JOURNAL_LIMIT;
  }

  read(key: string, part?: 'head' | 'tail'): string | Buffer | null {
    // The journal holds a partial run's entries, newer than any of the segments'.
    let number = JOURNAL;
    let heads = this.#load(JOURNAL, 'head');
    let line = heads.lines.get(key);
    if (line === undefined) {
      number = segmentOf(key);
      heads = this.#load(number, 'head');
      line = heads.lines.get(key);
    }
    if (line === undefined) return null;
    heads.hits[line] = 1;
    // Each part is a slice of its segment's string: no copy per entry.
    const head = part === 'tail' ? '' : textOf(heads.text, heads.values[line] as number, heads.ends[line] as number);
    const tagged = heads.tags[line] !== -1;
    if (part === 'head' || (part === undefined && !tagged)) return head;
    if (!tagged) return null;
    const tails = this.#load(number, 'tail');
    const at = tails.lines.get(key);
    if (at === undefined || !sameTag(heads, line, tails, at)) return null;
    const from = tails.values[at] as number;
    const to = tails.ends[at] as number;
    // A tail alone as it was read: its bytes when they are ASCII (see `Body`).
    return part === 'tail' ? partOf(tails.text, from, to) : `${head}\t${textOf(tails.text, from, to)}`;
  }

  /**
   * Writes go to the segments' replacements as they come (a run over many documents keeps none in
   * memory): `key TAB file (JSON) TAB head [TAB tag] NEWLINE` and, for a value with a tab, `key TAB
   * tag TAB tail NEWLINE`.
   */
  write(key: string, file: string, value: string): void {
    const number = segmentOf(key);
    this.#written.add(key);
    const tab = value.indexOf('\t');
    if (tab === -1) {
      this.#append(this.#pendingOf(number, 'head'), `${key}\t${JSON.stringify(file)}\t`, value, '');
      return;
    }
    const tag = tagOf(value);
    this.#append(this.#pendingOf(number, 'head'), `${key}\t${JSON.stringify(file)}\t`, value.slice(0, tab), `\t${tag}`);
    this.#append(this.#pendingOf(number, 'tail'), `${key}\t${tag}\t`, value.slice(tab + 1), '');
  }

  /**
   * Puts the segments the run changed in place. After a run over every document, each segment
   * keeps the entries that run used or wrote and drops the rest (older versions of documents,
   * deleted documents, other configurations), so the pack holds about one entry per document. A
   * partial run (`check FILE`, `--changed`, `--staged`, a shard) drops nothing (the other
   * documents' entries are still good): it writes its few new entries to the journal, kept with
   * the journal's own (see {@link #journalTakes}), or else adds them to the segments they fall in. A
   * run that writes segments folds the journal into them and removes it. The texts of a segment
   * are rewritten with its heads, keeping the tails of the entries the heads keep.
   */
  flush(fullRun: boolean): void {
    try {
      // A partial run that stored nothing changes nothing (the journal stays as it is).
      if (!fullRun && this.#pendingHeads.size === 0) return;
      if (!fullRun && this.#journalTakes()) {
        this.#writeJournal();
        return;
      }
      const journal = this.#load(JOURNAL, 'head');
      const journalTails = this.#load(JOURNAL, 'tail');
      // The journal's keys by segment, and those that stay: what a full run used, what a partial run did not replace.
      const journalKept = this.#keptOf(journal, fullRun);
      const journalKeys = new Map<number, string[]>();
      for (const key of journal.lines.keys()) {
        const number = segmentOf(key);
        journalKeys.set(number, [...(journalKeys.get(number) ?? []), key]);
      }
      const numbers = new Set<number>([...this.#pendingHeads.keys(), ...journalKeys.keys()]);
      if (fullRun) for (let number = 0; number < SEGMENTS; number += 1) numbers.add(number);
      for (const number of numbers) {
        const heads = this.#load(number, 'head');
        const kept = this.#keptOf(heads, fullRun);
        // A key the journal holds has its newer value there.
        const inJournal = journalKeys.get(number) ?? [];
        for (const key of inJournal) kept.delete(key);
        const moved = inJournal.filter((key) => journalKept.has(key));
        if (!this.#pendingHeads.has(number) && moved.length === 0 && kept.size === heads.lines.size) continue;
        // Tails first: a run that stops between the two leaves heads whose tails are gone, which read as no entry.
        const tails = this.#load(number, 'tail');
        const keptTails = this.#tailsOf(heads, tails, kept);
        const movedTails = [...this.#tailsOf(journal, journalTails, new Set(moved))];
        this.#rewrite(
          number,
          'tail',
          tails,
          keptTails,
          movedTails.map((key) => lineOf(journalTails, key)),
        );
        this.#rewrite(
          number,
          'head',
          heads,
          kept,
          moved.map((key) => lineOf(journal, key)),
        );
      }
      // Every entry of the journal is in its segment now (or dropped): the journal goes, tails first.
      if (journal.lines.size > 0 || journalTails.lines.size > 0) {
        rmSync(this.#file(JOURNAL, 'tail').path, { force: true });
        rmSync(this.#file(JOURNAL, 'head').path, { force: true });
      }
      this.#heads.delete(JOURNAL);
      this.#tails.delete(JOURNAL);
      if (numbers.size > 0) this.#removeLeftovers();
    } finally {
      for (const pending of [...this.#pendingHeads.values(), ...this.#pendingTails.values()]) pending.writer?.abort();
      this.#pendingHeads.clear();
      this.#pendingTails.clear();
      this.#written.clear();
    }
  }

  /** The keys of a segment's lines that stay: after a full run those it used, after a partial one all; never one the run wrote anew. */
  #keptOf(segment: Segment, fullRun: boolean): Set<string> {
    const kept = new Set<string>();
    for (const [key, line] of segment.lines) if ((!fullRun || segment.hits[line] === 1) && !this.#written.has(key)) kept.add(key);
    return kept;
  }

  /** The keys of `tails` whose heads stay (`kept`) and carry the same tag. */
  #tailsOf(heads: Segment, tails: Segment, kept: ReadonlySet<string>): Set<string> {
    const keptTails = new Set<string>();
    for (const [key, at] of tails.lines) {
      const line = heads.lines.get(key);
      if (line !== undefined && kept.has(key) && sameTag(heads, line, tails, at)) keptTails.add(key);
    }
    return keptTails;
  }

  /**
   * Whether a partial run's new entries go to the journal instead of the segments they fall in:
   * when they are all still in memory (none streamed to a segment's replacement) and, with the
   * journal's own, stay under its limit ({@link JOURNAL_LIMIT} unless the constructor names
   * another). A run that adds a few documents' entries to a large cache then writes two small
   * files, not a rewrite of every segment it touched.
   */
  #journalTakes(): boolean {
    let size = this.#load(JOURNAL, 'head').text.length + this.#load(JOURNAL, 'tail').text.length;
    for (const pending of [...this.#pendingHeads.values(), ...this.#pendingTails.values()]) {
      if (pending.writer !== null) return false;
      size += pending.size;
    }
    return size <= this.#journalLimit;
  }

  /** Writes the journal anew: its entries the run did not replace, then the run's new ones (tails first, as in a segment). */
  #writeJournal(): void {
    const heads = this.#load(JOURNAL, 'head');
    const tails = this.#load(JOURNAL, 'tail');
    const kept = this.#keptOf(heads, false);
    for (const [part, segment, keys, pendings] of [
      ['tail', tails, this.#tailsOf(heads, tails, kept), this.#pendingTails],
      ['head', heads, kept, this.#pendingHeads],
    ] as const) {
      const journal: Pending = { segment: JOURNAL, part, writer: null, bytes: null, size: 0 };
      for (const pending of pendings.values()) {
        if (pending.bytes !== null && pending.size > 0) this.#drain(journal).append(pending.bytes.subarray(0, pending.size));
        pending.size = 0;
      }
      for (const key of keys) this.#put(journal, lineOf(segment, key));
      this.#drain(journal).commit();
    }
    this.#heads.delete(JOURNAL);
    this.#tails.delete(JOURNAL);
  }

  /**
   * Replaces a segment file with the run's new lines, its `kept` lines, copied as they were read,
   * and `moved` lines (from the journal); an empty one is removed.
   */
  #rewrite(number: number, part: Part, segment: Segment, kept: ReadonlySet<string>, moved: readonly (string | Buffer)[]): void {
    const pendings = part === 'head' ? this.#pendingHeads : this.#pendingTails;
    const { text, lines, starts, ends } = segment;
    // Runs of adjacent kept lines are copied at once, each to its newline (after a head's tag, if it has one).
    const runs: [number, number][] = [];
    for (const [key, line] of lines) {
      if (!kept.has(key)) continue;
      const start = starts[line] as number;
      const end = find(text, '\n', ends[line] as number) + 1;
      const last = runs[runs.length - 1];
      if (last !== undefined && last[1] === start) last[1] = end;
      else runs.push([start, end]);
    }
    let pending = pendings.get(number);
    if (pending === undefined && runs.length === 0 && moved.length === 0) {
      rmSync(this.#file(number, part).path, { force: true });
    } else {
      pending ??= this.#pendingOf(number, part);
      for (const [start, end] of runs) this.#put(pending, partOf(text, start, end));
      for (const line of moved) this.#put(pending, line);
      this.#drain(pending).commit();
    }
    pendings.delete(number);
    (part === 'head' ? this.#heads : this.#tails).delete(number);
  }

  #pendingOf(number: number, part: Part): Pending {
    const pendings = part === 'head' ? this.#pendingHeads : this.#pendingTails;
    let pending = pendings.get(number);
    if (pending === undefined) {
      pending = { segment: number, part, writer: null, bytes: null, size: 0 };
      pendings.set(number, pending);
    }
    return pending;
  }

  /** Encodes one line, `prefix value suffix NEWLINE`, into the pending bytes. */
  #append(pending: Pending, prefix: string, value: string, suffix: string): void {
    const bytes = this.#room(pending, prefix.length + value.length + suffix.length + 1);
    if (bytes === null) {
      this.#drain(pending).append(`${prefix}${value}${suffix}\n`);
      return;
    }
    let size = pending.size;
    size += bytes.write(prefix, size);
    size += bytes.write(value, size);
    if (suffix !== '') size += bytes.write(suffix, size);
    bytes[size++] = NEWLINE;
    pending.size = size;
  }

  /**
   * The segment's pending bytes, with room for `length` units of at most `perUnit` bytes each
   * (UTF-16 code units of text, 3; bytes, 1) at `pending.size` (what was pending is appended to the
   * replacement first when they are too full); `null` when that is more than all of them: it goes
   * straight to the replacement.
   */
  #room(pending: Pending, length: number, perUnit = MAX_UTF8_PER_UNIT): Buffer | null {
    const bound = length * perUnit;
    pending.bytes ??= Buffer.allocUnsafe(PENDING_BYTES);
    if (pending.size + bound <= pending.bytes.length) return pending.bytes;
    this.#drain(pending);
    return bound <= pending.bytes.length ? pending.bytes : null;
  }

  /** Encodes text into the segment's pending bytes, or copies bytes there. */
  #put(pending: Pending, text: string | Buffer): void {
    const bytes = this.#room(pending, text.length, typeof text === 'string' ? MAX_UTF8_PER_UNIT : 1);
    if (bytes === null) this.#drain(pending).append(text);
    else if (typeof text === 'string') pending.size += bytes.write(text, pending.size);
    else pending.size += text.copy(bytes, pending.size);
  }

  /** Appends a segment's pending bytes to its replacement, opened on the first of them. */
  #drain(pending: Pending): SignedFileWriter {
    pending.writer ??= this.#file(pending.segment, pending.part).writer();
    if (pending.bytes !== null && pending.size > 0) pending.writer.append(pending.bytes.subarray(0, pending.size));
    pending.size = 0;
    return pending.writer;
  }

  #file(number: number, part: Part): SignedFile {
    const name = `${part === 'head' ? 'pack' : 'text'}`;
    return new SignedFile(
      join(this.#dir, number === JOURNAL ? `journal-${name}` : `${name}-${number.toString().padStart(2, '0')}`),
      this.#secret,
    );
  }

  /**
   * One segment file, verified, with where each line starts: a line is decoded only when its key
   * is looked up, and copied as bytes when a rewrite keeps it. A head line has three fields (a
   * fourth, its tag, when it has a tail); a tail line three. Lines of any other shape are left out
   * (and dropped by the next rewrite), as is a last line without its newline.
   */
  #load(number: number, part: Part): Segment {
    const loadedSegments = part === 'head' ? this.#heads : this.#tails;
    let loaded = loadedSegments.get(number);
    if (loaded !== undefined) return loaded;
    // One string per segment (decoded in one pass, its bytes released at once, each key and value a
    // slice of it), or the bytes of tails that are all ASCII (see `Body`).
    const bytes = this.#file(number, part).readBytes();
    const text: Body = bytes === null ? '' : part === 'tail' && isAscii(bytes) ? bytes : decodeUtf8(bytes);
    loaded = { text, lines: new Map(), starts: [], values: [], ends: [], tags: new Int32Array(0), hits: new Uint8Array(0) };
    loadedSegments.set(number, loaded);
    const { lines, starts, values, ends } = loaded;
    const tags: number[] = [];
    for (let start = 0; start < text.length; ) {
      const end = find(text, '\n', start);
      if (end === -1) break;
      const first = find(text, '\t', start);
      // A head: key, file, value (no tab), then a tab and a tag (no tab) when it has a tail. A
      // tail: key, tag, then the value, the rest of the line.
      const second = first > start && first < end ? find(text, '\t', first + 1) : -1;
      let shaped = second !== -1 && second < end;
      let valueEnd = end;
      let tag = -1;
      if (shaped && part === 'head') {
        const third = find(text, '\t', second + 1);
        if (third !== -1 && third < end) {
          const fourth = find(text, '\t', third + 1);
          shaped = third + 1 < end && (fourth === -1 || fourth > end);
          valueEnd = third;
          tag = third + 1;
        }
      } else if (shaped) {
        shaped = second > first + 1;
        tag = first + 1;
      }
      if (shaped) {
        lines.set(textOf(text, start, first), starts.length);
        starts.push(start);
        values.push(second + 1);
        ends.push(valueEnd);
        tags.push(tag);
      }
      start = end + 1;
    }
    loaded.tags = Int32Array.from(tags);
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
