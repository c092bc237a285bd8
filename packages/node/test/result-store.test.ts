import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { PackResultStorage, type SignedBody, SignedFile } from '../src/index.ts';

const secret = randomBytes(32);
const key = (at: number) => at.toString(16).padStart(2, '0').repeat(32);

/** A value read, as text (a tail of ASCII comes as its bytes). */
const text = (value: string | Uint8Array | null) => (value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value);

/** A verified body handed on in chunks, each copied as it comes (the chunks are read over), as text; `null` for none. */
function piped(body: SignedBody | null): string | null {
  if (body === null) return null;
  const chunks: Buffer[] = [];
  body.pipe((chunk) => {
    chunks.push(Buffer.from(chunk));
    return true;
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** Partial runs write the segments they touch, not the journal (the segments' own tests). */
const NO_JOURNAL = { journalLimit: 0 };

/** One run that stores `value` under key 1 (segment 1) and puts its files in place; the bytes of one of them after. */
function storeOne(dir: string, value: string, file: 'pack-01' | 'text-01'): Buffer {
  const run = new PackResultStorage(dir, secret, NO_JOURNAL);
  run.write(key(1), 'a.md', value);
  run.flush(false);
  return readFileSync(join(dir, file));
}

describe('PackResultStorage: the result cache as signed segments', () => {
  it('reads back what a run wrote, from one file per segment', () => {
    const dir = tempDir();
    const first = new PackResultStorage(dir, secret);
    for (let at = 0; at < 100; at += 1) first.write(key(at), `docs/d${at}.md`, `{"n":${at},"text":"tab\\there"}`);
    first.flush(true);
    expect(readdirSync(dir).filter((name) => name.startsWith('pack-')).length).toBe(64);
    const second = new PackResultStorage(dir, secret);
    for (let at = 0; at < 100; at += 1) expect(second.read(key(at))).toBe(`{"n":${at},"text":"tab\\there"}`);
    expect(second.read(key(200))).toBeNull();
  });

  it('a partial run adds entries and drops none; a full run keeps only what it used or wrote', () => {
    const dir = tempDir();
    const first = new PackResultStorage(dir, secret);
    first.write(key(1), 'a.md', '1');
    first.write(key(2), 'b.md', '2');
    first.flush(true);
    const partial = new PackResultStorage(dir, secret);
    partial.write(key(3), 'a.md', '3');
    partial.flush(false);
    const full = new PackResultStorage(dir, secret);
    expect([full.read(key(1)), full.read(key(2)), full.read(key(3))]).toEqual(['1', '2', '3']);
    const next = new PackResultStorage(dir, secret);
    expect(next.read(key(3))).toBe('3');
    next.flush(true);
    const after = new PackResultStorage(dir, secret);
    expect([after.read(key(1)), after.read(key(2)), after.read(key(3))]).toEqual([null, null, '3']);
  });

  it('trusts no segment it did not sign: a tampered one is read as empty, the others still serve', () => {
    const dir = tempDir();
    const first = new PackResultStorage(dir, secret);
    first.write(key(1), 'a.md', '{"findings":[1]}');
    first.write(key(2), 'b.md', '{"findings":[2]}');
    first.flush(true);
    const segment = join(dir, 'pack-01');
    writeFileSync(segment, readFileSync(segment, 'utf8').replace('[1]', '[]'));
    const second = new PackResultStorage(dir, secret);
    expect(second.read(key(1))).toBeNull();
    expect(second.read(key(2))).toBe('{"findings":[2]}');
    expect(new PackResultStorage(dir, randomBytes(32)).read(key(2))).toBeNull();
  });

  it('streams large writes to the segment replacement and leaves nothing behind when a run never flushes', () => {
    const dir = tempDir();
    const big = 'x'.repeat(300_000);
    const first = new PackResultStorage(dir, secret);
    // Ten entries of 300 kB in one segment: more than is held in memory before it is appended.
    for (let at = 0; at < 10; at += 1) first.write(`00${String(at).padStart(62, '0')}`, `d${at}.md`, `"${big}${at}"`);
    first.flush(true);
    const second = new PackResultStorage(dir, secret);
    for (let at = 0; at < 10; at += 1) expect(second.read(`00${String(at).padStart(62, '0')}`)).toBe(`"${big}${at}"`);
    // A run that writes and then stops without flushing (a crash) changes no segment; a small one
    // leaves no file either (its lines were still in memory), a large one a temporary file.
    const crashed = new PackResultStorage(dir, secret);
    crashed.write(key(0), 'a.md', '"lost"');
    expect(readdirSync(dir)).toEqual(['pack-00']);
    for (let at = 0; at < 5; at += 1) crashed.write(`00${String(at).padStart(62, '1')}`, `e${at}.md`, `"${big}"`);
    const third = new PackResultStorage(dir, secret);
    expect(third.read(key(0))).toBe(`"${big}0"`);
    expect(readdirSync(dir).filter((name) => !name.endsWith('.tmp'))).toEqual(['pack-00']);
  });

  it('reads back, byte for byte, many entries of one segment holding multi-byte text, tabs and record separators', () => {
    const dir = tempDir();
    const value = (at: number) => `{"at":${at},"t":"é→😀\t\u001e${'ü'.repeat(at % 700)}"}`;
    const keyAt = (at: number) => `00${String(at).padStart(62, '0')}`;
    const first = new PackResultStorage(dir, secret);
    // About 1.4 MB in segment 0: its pending bytes are appended many times, lines falling across them.
    for (let at = 0; at < 2000; at += 1) first.write(keyAt(at), `docs/ä${at}.md`, value(at));
    first.flush(true);
    const second = new PackResultStorage(dir, secret);
    for (let at = 0; at < 2000; at += 1) expect(second.read(keyAt(at))).toBe(value(at));
    second.flush(true);
    // Each value split at its first tab: the head in pack-00 (marked by a last tab), the tail in text-00.
    const heads = new SignedFile(join(dir, 'pack-00'), secret).read() ?? '';
    const tails = new SignedFile(join(dir, 'text-00'), secret).read() ?? '';
    expect(heads.split('\n').length).toBe(2001);
    expect(tails.split('\n').length).toBe(2001);
    const tag = /^[^\t]+\t"docs\/ä0\.md"\t\{"at":0,"t":"é→😀\t([0-9a-z]+)\n/.exec(heads)?.[1];
    expect(tag).toBe(createHash('sha1').update(value(0)).digest('hex').slice(0, 16));
    expect(tails.startsWith(`${keyAt(0)}\t${tag}\t\u001e"}\n`)).toBe(true);
  });

  it('reads a head alone without the texts, and no whole value whose tail is gone', () => {
    const dir = tempDir();
    const first = new PackResultStorage(dir, secret);
    first.write(key(1), 'a.md', 'head one\tstored\ttexts');
    first.write(key(2), 'b.md', 'no tab at all');
    first.flush(true);
    expect(readdirSync(dir).sort()).toEqual(['pack-01', 'pack-02', 'text-01']);
    rmSync(join(dir, 'text-01'));
    const second = new PackResultStorage(dir, secret);
    expect(second.read(key(1), 'head')).toBe('head one');
    expect(second.read(key(1), 'tail')).toBeNull();
    expect(second.read(key(1))).toBeNull();
    expect(second.read(key(2))).toBe('no tab at all');
    expect(second.read(key(2), 'head')).toBe('no tab at all');
    expect(second.read(key(2), 'tail')).toBeNull();
  });

  it('reads no whole value from a head and a tail that two runs wrote for one key', () => {
    const dir = tempDir();
    // Two runs store the same key with different values (the document's artifacts changed between
    // them) and put their files in place in between each other: the heads of one, the tails of the other.
    const heads = storeOne(dir, 'head one\ttail one', 'pack-01');
    storeOne(dir, 'head two\ttail two', 'pack-01');
    writeFileSync(join(dir, 'pack-01'), heads);
    const mixed = new PackResultStorage(dir, secret, NO_JOURNAL);
    expect(mixed.read(key(1), 'head')).toBe('head one');
    expect(mixed.read(key(1), 'tail')).toBeNull();
    expect(mixed.read(key(1))).toBeNull();
    // The next rewrite of the segment drops the tail that matches no head.
    mixed.write(key(0x41), 'b.md', 'other\tits tail');
    mixed.flush(false);
    expect(new SignedFile(join(dir, 'text-01'), secret).read()).not.toContain('tail two');
    expect(new PackResultStorage(dir, secret).read(key(0x41))).toBe('other\tits tail');
  });

  it('reads the whole value from a head and a tail that two runs wrote for one key with the same value', () => {
    const dir = tempDir();
    // Concurrent runs over the same documents store the same values; one puts its texts in place,
    // the other its texts and heads, then the first its heads: the heads of one, the tails of the other.
    const tails = storeOne(dir, 'same head\tsame tail', 'text-01');
    // Another signature: the second run's file, not the first one's.
    expect(storeOne(dir, 'same head\tsame tail', 'text-01')).not.toEqual(tails);
    writeFileSync(join(dir, 'text-01'), tails);
    const mixed = new PackResultStorage(dir, secret);
    expect(mixed.read(key(1))).toBe('same head\tsame tail');
    expect(text(mixed.read(key(1), 'tail'))).toBe('same tail');
  });

  it("rewrites a segment's texts with its heads: the tails of dropped entries go, a segment left without tails has no text file", () => {
    const dir = tempDir();
    const first = new PackResultStorage(dir, secret);
    first.write(key(1), 'a.md', 'a\tone');
    first.write(key(0x41), 'b.md', 'b\ttwo');
    first.flush(true);
    // A full run that uses only the first entry (by its head) drops the second, head and tail.
    const second = new PackResultStorage(dir, secret);
    expect(second.read(key(1), 'head')).toBe('a');
    second.flush(true);
    expect(new SignedFile(join(dir, 'text-01'), secret).read()).toMatch(new RegExp(`^${key(1)}\t[0-9a-f]{16}\tone\n$`));
    const third = new PackResultStorage(dir, secret, NO_JOURNAL);
    expect([third.read(key(1)), text(third.read(key(1), 'tail')), third.read(key(0x41))]).toEqual(['a\tone', 'one', null]);
    // The entry written again without a tail: the texts of its segment go.
    third.write(key(1), 'a.md', 'a alone');
    third.flush(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('text-'))).toEqual([]);
    expect(new PackResultStorage(dir, secret).read(key(1))).toBe('a alone');
  });

  it('reads a tail of ASCII as its bytes and one with other text as a string; rewrites and the journal copy both unchanged', () => {
    const dir = tempDir();
    const first = new PackResultStorage(dir, secret);
    // Keys 01 and 41 share segment 1 (tails all ASCII); 02 and 42 share segment 2 (one tail is not).
    first.write(key(1), 'a.md', 'a\t{"m":"plain"}');
    first.write(key(0x41), 'b.md', 'b\t{"m":"dropped"}');
    first.write(key(2), 'c.md', 'c\t{"m":"é"}');
    first.write(key(0x42), 'd.md', 'd\t{"m":"plain too"}');
    first.flush(true);
    const second = new PackResultStorage(dir, secret);
    const ascii = second.read(key(1), 'tail');
    expect(ascii).toBeInstanceOf(Uint8Array);
    expect(text(ascii)).toBe('{"m":"plain"}');
    expect(second.read(key(1))).toBe('a\t{"m":"plain"}');
    expect(second.read(key(2), 'tail')).toBe('{"m":"é"}');
    expect(second.read(key(0x42), 'tail')).toBe('{"m":"plain too"}');
    // A full run that drops key 41 rewrites segment 1's texts from the bytes it read.
    second.flush(true);
    const textOne = new SignedFile(join(dir, 'text-01'), secret).read() ?? '';
    expect(textOne).toMatch(new RegExp(`^${key(1)}\t[0-9a-f]{16}\t\\{"m":"plain"\\}\n$`));
    // A partial run's journal holds an ASCII tail; the next full run folds it into segment 2, whose texts are not ASCII.
    const partial = new PackResultStorage(dir, secret);
    partial.write(key(0x82), 'e.md', 'e\t{"m":"journal"}');
    partial.flush(false);
    const full = new PackResultStorage(dir, secret);
    for (const at of [1, 2, 0x42, 0x82]) full.read(key(at));
    expect(text(full.read(key(0x82), 'tail'))).toBe('{"m":"journal"}');
    full.flush(true);
    const after = new PackResultStorage(dir, secret);
    expect([1, 2, 0x41, 0x42, 0x82].map((at) => after.read(key(at)))).toEqual([
      'a\t{"m":"plain"}',
      'c\t{"m":"é"}',
      null,
      'd\t{"m":"plain too"}',
      'e\t{"m":"journal"}',
    ]);
    expect(readdirSync(dir).filter((name) => name.startsWith('journal-'))).toEqual([]);
  });

  it('serves the good lines of a signed segment, drops malformed ones on the next rewrite and copies kept lines unchanged', () => {
    const dir = tempDir();
    const good = (at: number, value: string) => `${key(at)}\t"d${at}.md"\t${value}\n`;
    // Segment 1 (keys starting 01 and 41): a good line, one without its fields, one with a tab in the value, a last one without its newline.
    new SignedFile(join(dir, 'pack-01'), secret).write(
      `${good(1, '{"a":"é"}')}no fields here\n${good(0x41, 'x\ty\tz')}${key(0x81).slice(0, 2)}${'1'.repeat(62)}\t"e.md"\tlast`,
    );
    const first = new PackResultStorage(dir, secret, NO_JOURNAL);
    expect(first.read(key(1))).toBe('{"a":"é"}');
    // A head holds no tab but the one before its tag (which says its tail is in the texts): a
    // line of the layout before heads and tails were kept apart is no entry.
    expect(first.read(key(0x41))).toBeNull();
    expect(first.read(`01${'1'.repeat(62)}`)).toBeNull();
    first.write(key(0xc1), 'f.md', 'new');
    first.flush(false);
    expect(new SignedFile(join(dir, 'pack-01'), secret).read()).toBe(`${key(0xc1)}\t"f.md"\tnew\n${good(1, '{"a":"é"}')}`);
  });
});

describe('PackResultStorage: the journal of partial runs', () => {
  const segmentFiles = (dir: string) =>
    Object.fromEntries(
      readdirSync(dir)
        .filter((name) => /^(pack|text)-\d\d$/.test(name))
        .map((name) => [name, readFileSync(join(dir, name))]),
    );

  /** One partial run that stores each `[key number, file, value]` and puts its files in place. */
  function partialRun(dir: string, entries: readonly (readonly [number, string, string])[], journalLimit?: number): void {
    const run = new PackResultStorage(dir, secret, journalLimit === undefined ? {} : { journalLimit });
    for (const [at, file, value] of entries) run.write(key(at), file, value);
    run.flush(false);
  }

  /** A cache a full run filled: keys 0..15 (segments 0..15), each value with a tail. */
  function filled(dir: string): void {
    const full = new PackResultStorage(dir, secret);
    for (let at = 0; at < 16; at += 1) full.write(key(at), `d${at}.md`, `head ${at}\ttail ${at}`);
    full.flush(true);
  }

  it("takes a partial run's few entries in two small files and leaves every segment as it was", () => {
    const dir = tempDir();
    filled(dir);
    const before = segmentFiles(dir);
    const partial = new PackResultStorage(dir, secret);
    expect(partial.read(key(3))).toBe('head 3\ttail 3');
    partial.write(key(3), 'd3.md', 'head 3 again\ttail 3 again');
    partial.write(key(0x41), 'new.md', 'new head\tnew tail');
    partial.write(key(0x42), 'plain.md', 'no tail');
    partial.flush(false);
    expect(segmentFiles(dir)).toEqual(before);
    expect(
      readdirSync(dir)
        .filter((name) => name.startsWith('journal-'))
        .sort(),
    ).toEqual(['journal-pack', 'journal-text']);
    const next = new PackResultStorage(dir, secret);
    // The journal's value of a key is the newer one, whole or in parts.
    expect(next.read(key(3))).toBe('head 3 again\ttail 3 again');
    expect(next.read(key(3), 'head')).toBe('head 3 again');
    expect(text(next.read(key(3), 'tail'))).toBe('tail 3 again');
    expect(next.read(key(0x41))).toBe('new head\tnew tail');
    expect(next.read(key(0x42))).toBe('no tail');
    expect(next.read(key(4))).toBe('head 4\ttail 4');
    // A partial run that stores nothing writes nothing.
    const journal = readFileSync(join(dir, 'journal-pack'));
    next.flush(false);
    expect(readFileSync(join(dir, 'journal-pack'))).toEqual(journal);
  });

  it('keeps the entries of earlier partial runs, each key with its last value', () => {
    const dir = tempDir();
    filled(dir);
    partialRun(dir, [
      [0x41, 'a.md', 'one\tfirst'],
      [0x42, 'b.md', 'two\tsecond'],
    ]);
    partialRun(dir, [
      [0x42, 'b.md', 'two again\tsecond again'],
      [0x43, 'c.md', 'three'],
    ]);
    const third = new PackResultStorage(dir, secret);
    expect([third.read(key(0x41)), third.read(key(0x42)), third.read(key(0x43)), third.read(key(1))]).toEqual([
      'one\tfirst',
      'two again\tsecond again',
      'three',
      'head 1\ttail 1',
    ]);
    expect(new SignedFile(join(dir, 'journal-pack'), secret).read()?.split('\n').length).toBe(4);
  });

  it('is folded into the segments by a full run, which keeps what it used; the journal files go', () => {
    const dir = tempDir();
    filled(dir);
    partialRun(dir, [
      [1, 'd1.md', 'head 1 new\ttail 1 new'],
      [0x41, 'a.md', 'used\tits tail'],
      [0x42, 'b.md', 'unused\tits tail'],
    ]);
    const full = new PackResultStorage(dir, secret);
    expect(full.read(key(1))).toBe('head 1 new\ttail 1 new');
    expect(full.read(key(0x41))).toBe('used\tits tail');
    expect(full.read(key(2))).toBe('head 2\ttail 2');
    full.flush(true);
    expect(readdirSync(dir).filter((name) => name.startsWith('journal-'))).toEqual([]);
    const segment = new SignedFile(join(dir, 'pack-01'), secret).read() ?? '';
    expect(segment).toContain('head 1 new');
    expect(segment).not.toContain('head 1\t');
    expect(segment).toContain('used');
    expect(new SignedFile(join(dir, 'pack-02'), secret).read()).not.toContain('unused');
    const after = new PackResultStorage(dir, secret);
    expect([after.read(key(1)), after.read(key(0x41)), after.read(key(0x42)), after.read(key(2)), after.read(key(3))]).toEqual([
      'head 1 new\ttail 1 new',
      'used\tits tail',
      null,
      'head 2\ttail 2',
      null,
    ]);
  });

  it('is folded by a partial run that would take it past its limit, dropping nothing', () => {
    const dir = tempDir();
    filled(dir);
    partialRun(
      dir,
      [
        [0x41, 'a.md', 'first\tjournalled'],
        [1, 'd1.md', 'head 1 newer\ttail 1 newer'],
      ],
      400,
    );
    expect(readdirSync(dir)).toContain('journal-pack');
    partialRun(dir, [[0x42, 'b.md', `big\t${'x'.repeat(400)}`]], 400);
    expect(readdirSync(dir).filter((name) => name.startsWith('journal-'))).toEqual([]);
    const after = new PackResultStorage(dir, secret);
    expect([after.read(key(0x41)), after.read(key(0x42)), after.read(key(1)), after.read(key(2))]).toEqual([
      'first\tjournalled',
      `big\t${'x'.repeat(400)}`,
      'head 1 newer\ttail 1 newer',
      'head 2\ttail 2',
    ]);
    // The journal's value of a key replaced the segment's: the key is in its segment once.
    const segment = new SignedFile(join(dir, 'pack-01'), secret).read() ?? '';
    expect(segment.split('\n').filter((line) => line.startsWith(key(1))).length).toBe(1);
  });

  it('trusts no journal it did not sign: its entries read as absent, the segments still serve', () => {
    const dir = tempDir();
    filled(dir);
    partialRun(dir, [[1, 'd1.md', 'forged?\tno']]);
    const bytes = readFileSync(join(dir, 'journal-pack'));
    bytes[5] = bytes[5] === 0x30 ? 0x31 : 0x30;
    writeFileSync(join(dir, 'journal-pack'), bytes);
    const next = new PackResultStorage(dir, secret);
    expect(next.read(key(1))).toBe('head 1\ttail 1');
    // The next partial run writes the journal anew, without the entries it could not trust.
    next.write(key(0x41), 'a.md', 'fresh');
    next.flush(false);
    const after = new PackResultStorage(dir, secret);
    expect([after.read(key(0x41)), after.read(key(1))]).toEqual(['fresh', 'head 1\ttail 1']);
  });
});

describe('SignedFile: one file signed with the user key', () => {
  const trailerLength = 2 * (12 + 16) + 1;

  it('reads back a body written in pieces, and nothing when the file is gone', () => {
    const path = join(tempDir(), 'signed');
    expect(new SignedFile(path, secret).read()).toBeNull();
    const writer = new SignedFile(path, secret).writer();
    writer.append('first ');
    writer.append(Buffer.from('sécond\tpiece\u001e\n'));
    writer.commit();
    expect(new SignedFile(path, secret).read()).toBe('first sécond\tpiece\u001e\n');
    expect(readdirSync(join(path, '..'))).toEqual(['signed']);
  });

  it('signs each replacement afresh: the same body twice gives two trailers', () => {
    const path = join(tempDir(), 'signed');
    new SignedFile(path, secret).write('body\n');
    const first = readFileSync(path, 'latin1');
    new SignedFile(path, secret).write('body\n');
    const second = readFileSync(path, 'latin1');
    expect(first.slice(0, 5)).toBe(second.slice(0, 5));
    expect(first.slice(5)).not.toBe(second.slice(5));
    expect(new SignedFile(path, secret).read()).toBe('body\n');
  });

  it('refuses a changed body, a changed nonce or tag, a trailer that is not hex, another key and a file too short', () => {
    const path = join(tempDir(), 'signed');
    new SignedFile(path, secret).write('alpha beta\n');
    const good = readFileSync(path, 'latin1');
    const trailerAt = good.length - trailerLength;
    const flip = (at: number) => good.slice(0, at) + (good[at] === '0' ? '1' : '0') + good.slice(at + 1);
    // Read whole and read in chunks (openBody) agree on every file.
    const refused = (text: string) => {
      writeFileSync(path, text, 'latin1');
      const whole = new SignedFile(path, secret).read();
      expect(piped(new SignedFile(path, secret).openBody(() => 0))).toBe(whole);
      return whole;
    };
    expect(refused(good)).toBe('alpha beta\n');
    expect(refused(`alpha bet4\n${good.slice(trailerAt)}`)).toBeNull();
    // Nonce (first 24 hex digits of the trailer), then tag.
    expect(refused(flip(trailerAt))).toBeNull();
    expect(refused(flip(trailerAt + 30))).toBeNull();
    expect(refused(`${good.slice(0, trailerAt)}zz${good.slice(trailerAt + 2)}`)).toBeNull();
    expect(refused(good.slice(0, -1))).toBeNull();
    expect(refused(good.slice(trailerAt + 1))).toBeNull();
    writeFileSync(path, good, 'latin1');
    expect(new SignedFile(path, randomBytes(32)).read()).toBeNull();
  });

  it('hands a large body on in chunks once it is verified, from where the caller says, held chunks untouched', () => {
    const path = join(tempDir(), 'signed');
    // Over three chunks of 1 MiB, with characters of two to four bytes that chunks split.
    const body = `id-line\n${'é€😀 text\n'.repeat(250_000)}`;
    new SignedFile(path, secret).write(body);
    const past = (first: Buffer) => (first.toString('latin1', 0, 8) === 'id-line\n' ? 8 : null);
    const held: Buffer[] = [];
    new SignedFile(path, secret).openBody(past)?.pipe((chunk) => {
      held.push(chunk);
      return false;
    });
    expect(held.length).toBeGreaterThan(3);
    expect(Buffer.concat(held).toString('utf8')).toBe(body.slice(8));
    expect(piped(new SignedFile(path, secret).openBody(past))).toBe(body.slice(8));
    expect(new SignedFile(path, secret).openBody(past)?.length).toBe(Buffer.byteLength(body) - 8);
    // Not the caller's file, not one at all, or changed in its last chunk.
    expect(new SignedFile(path, secret).openBody(() => null)).toBeNull();
    expect(new SignedFile(`${path}-gone`, secret).openBody(past)).toBeNull();
    const bytes = readFileSync(path);
    bytes[bytes.length - 200] = 0x21;
    writeFileSync(path, bytes);
    expect(new SignedFile(path, secret).openBody(past)).toBeNull();
  });

  it('hands on parts of a verified body and single bytes, from the file it verified, until it is closed', () => {
    const path = join(tempDir(), 'signed');
    // Over two chunks of 1 MiB, with characters of two to four bytes that a part or a chunk splits.
    const text = `${'é€😀 text\n'.repeat(120_000)}end`;
    const bytes = Buffer.from(text, 'utf8');
    new SignedFile(path, secret).write(`id-line\n${text}`);
    const body = new SignedFile(path, secret).openBody((first) => (first.toString('latin1', 0, 8) === 'id-line\n' ? 8 : null));
    if (body === null) throw new Error('not verified');
    expect(body.length).toBe(bytes.length);
    const part = (start: number, end: number, hold = false) => {
      const chunks: Buffer[] = [];
      body.copy(start, end, (chunk) => {
        chunks.push(hold ? chunk : Buffer.from(chunk));
        return !hold;
      });
      return Buffer.concat(chunks);
    };
    // A replacement renamed into place does not change what the open body reads.
    new SignedFile(path, secret).write('id-line\nanother body');
    for (const [start, end] of [
      [0, 0],
      [0, 5],
      [3, 1_500_000],
      [1_048_570, 1_048_590],
      [bytes.length - 3, bytes.length],
      [0, bytes.length],
    ] as const) {
      expect(part(start, end).equals(bytes.subarray(start, end))).toBe(true);
      expect(part(start, end, true).equals(bytes.subarray(start, end))).toBe(true);
    }
    for (const at of [0, 1, 4095, 4096, 4097, 70_000, 3, bytes.length - 1, 0]) expect(body.byteAt(at)).toBe(bytes[at]);
    expect(() => body.copy(0, bytes.length + 1, () => true)).toThrow(RangeError);
    expect(() => body.copy(5, 4, () => true)).toThrow(RangeError);
    expect(() => body.byteAt(bytes.length)).toThrow(RangeError);
    expect(() => body.byteAt(-1)).toThrow(RangeError);
    body.close();
    body.close();
    expect(() => body.byteAt(0)).toThrow('closed');
    expect(() => body.copy(0, 1, () => true)).toThrow('closed');
  });

  it('refuses a file signed the way earlier versions did (HMAC trailer)', () => {
    const path = join(tempDir(), 'signed');
    const body = 'old body\n';
    writeFileSync(path, `${body}${createHmac('sha512-256', secret).update(body).digest('hex')}\n`);
    expect(new SignedFile(path, secret).read()).toBeNull();
  });
});
