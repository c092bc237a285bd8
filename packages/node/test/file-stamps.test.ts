import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { stampSegmentOf, stampsFile } from '../src/file-stamps.ts';
import { createNodeReader, FileStamps, SignedFile } from '../src/index.ts';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const secret = randomBytes(32);
/** A clock a minute ahead: every file written by the test has "long" stopped changing. */
const later = () => Date.now() + 60_000;

function setup() {
  const root = realpathSync.native(tempDir());
  const cache = tempDir();
  const open = (now: () => number = later, splitFrom?: number) => new FileStamps(root, cache, secret, now, splitFrom);
  const readWith = async (stamps: FileStamps, path: string) => stamps.wrapReader(createNodeReader(root)).read(path);
  return { root, cache, open, readWith };
}

/** Two paths whose stamps share a segment, and a third in another. */
const [A, B] = (() => {
  for (let n = 0; ; n += 1) if (stampSegmentOf(`b${n}.md`) === stampSegmentOf('a.md')) return ['a.md', `b${n}.md`];
})();
const ELSEWHERE = (() => {
  for (let n = 0; ; n += 1) if (stampSegmentOf(`c${n}.md`) !== stampSegmentOf(A)) return `c${n}.md`;
})();

/**
 * {@link setup} with A and B written, read through one run's stamps and saved after a run over
 * every document; split into segments from `splitFrom` stamps on (two: split).
 */
async function setupWithTwoStamped(splitFrom?: number) {
  const context = setup();
  writeFileSync(join(context.root, A), 'alpha\n');
  writeFileSync(join(context.root, B), 'beta\n');
  const stamps = context.open(later, splitFrom);
  await context.readWith(stamps, A);
  await context.readWith(stamps, B);
  stamps.save(true);
  return context;
}

describe('FileStamps: what a run knows of files without reading them', () => {
  it('knows the digest of a file read by an earlier run, until the file changes', async () => {
    const { root, open, readWith } = setup();
    writeFileSync(join(root, 'a.md'), 'alpha\n');
    const first = open();
    expect(first.digestOf('a.md')).toBeNull();
    expect((await readWith(first, 'a.md')).kind).toBe('file');
    first.save(true);
    expect(open().digestOf('a.md')).toBe(sha('alpha\n'));
    // Same size, other bytes: the change time moved, so the stamp no longer holds.
    writeFileSync(join(root, 'a.md'), 'omega\n');
    expect(open().digestOf('a.md')).toBeNull();
  });

  it('does not stamp a file that changed just before it was looked at (a write in the same tick could hide)', async () => {
    const { root, open, readWith } = setup();
    writeFileSync(join(root, 'a.md'), 'alpha\n');
    const now = open(Date.now);
    await readWith(now, 'a.md');
    now.save(true);
    expect(open().digestOf('a.md')).toBeNull();
  });

  it('never stamps bytes the worktree reader may change (CR, UTF-16) nor a path through a symbolic link', async () => {
    const { root, open, readWith } = setup();
    writeFileSync(join(root, 'crlf.md'), 'one\r\ntwo\r\n');
    writeFileSync(join(root, 'utf16.md'), Buffer.from([0xff, 0xfe, 0x61, 0x00]));
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real', 'b.md'), 'beta\n');
    symlinkSync(join(root, 'real'), join(root, 'linked'));
    const stamps = open();
    for (const path of ['crlf.md', 'utf16.md', 'linked/b.md', 'real/b.md']) expect((await readWith(stamps, path)).kind).toBe('file');
    stamps.save(true);
    const next = open();
    expect(next.digestOf('crlf.md')).toBeNull();
    expect(next.digestOf('utf16.md')).toBeNull();
    expect(next.digestOf('linked/b.md')).toBeNull();
    expect(next.digestOf('real/b.md')).toBe(sha('beta\n'));
  });

  it('keeps derived values beside the digest, and reads the file again when it changed', () => {
    const { root, open } = setup();
    writeFileSync(join(root, 'a.md'), 'alpha\n');
    let computed = 0;
    const length = (bytes: Buffer) => {
      computed += 1;
      return String(bytes.length);
    };
    const first = open();
    expect(first.derived('a.md', 'length', length)).toBe('6');
    first.save(true);
    const second = open();
    expect(second.derived('a.md', 'length', length)).toBe('6');
    expect(computed).toBe(1);
    // The digest is the reader's to stamp (it hashes what it reads anyway): none from a derived value alone.
    expect(second.digestOf('a.md')).toBeNull();
    writeFileSync(join(root, 'a.md'), 'alphabet\n');
    expect(open().derived('a.md', 'length', length)).toBe('9');
    expect(computed).toBe(2);
    expect(open().derived('gone.md', 'length', length)).toBeNull();
  });

  it('trusts no stamps file it did not sign, nor one made for another root', async () => {
    const { root, cache, open, readWith } = setup();
    writeFileSync(join(root, 'a.md'), 'alpha\n');
    const stamps = open();
    await readWith(stamps, 'a.md');
    stamps.save(true);
    const path = stampsFile(cache, 0, false);
    const signed = readFileSync(path, 'utf8');
    // Another user's key, or a hand-edited body: nothing is known.
    expect(new FileStamps(root, cache, randomBytes(32), later).digestOf('a.md')).toBeNull();
    writeFileSync(path, signed.replace(sha('alpha\n'), sha('forged\n')));
    expect(open().digestOf('a.md')).toBeNull();
    writeFileSync(path, signed);
    expect(open().digestOf('a.md')).toBe(sha('alpha\n'));
    const elsewhere = realpathSync.native(tempDir());
    writeFileSync(join(elsewhere, 'a.md'), 'alpha\n');
    expect(new FileStamps(elsewhere, cache, secret, later).digestOf('a.md')).toBeNull();
  });

  it('keeps many stamps split by path, reads only the segments of the paths a run asks about, and writes only those it changed', async () => {
    const { root, cache, open: openAny, readWith } = await setupWithTwoStamped(2);
    const open = () => openAny(later, 2);
    expect(existsSync(stampsFile(cache, 0, false))).toBe(false);
    writeFileSync(join(root, ELSEWHERE), 'gamma\n');
    const first = open();
    await readWith(first, ELSEWHERE);
    first.save(false);
    const segments = readdirSync(cache).filter((name) => name.startsWith('stamps-'));
    expect(segments.sort()).toEqual([stampsFile('', stampSegmentOf(A)), stampsFile('', stampSegmentOf(ELSEWHERE))].sort());
    // The other segment is corrupt: a run that asks about A alone still knows it, and leaves that one be.
    const holding = stampsFile(cache, stampSegmentOf(A));
    const before = readFileSync(holding, 'utf8');
    writeFileSync(stampsFile(cache, stampSegmentOf(ELSEWHERE)), 'corrupt on purpose');
    expect(open().digestOf(A)).toBe(sha('alpha\n'));
    writeFileSync(join(root, A), 'alphabet\n');
    const second = open();
    expect(second.digestOf(A)).toBeNull();
    await readWith(second, A);
    second.save(false);
    expect(readFileSync(stampsFile(cache, stampSegmentOf(ELSEWHERE)), 'utf8')).toBe('corrupt on purpose');
    expect(readFileSync(holding, 'utf8')).not.toBe(before);
    expect(open().digestOf(A)).toBe(sha('alphabet\n'));
    expect(open().digestOf(B)).toBe(sha('beta\n'));
    expect(open().digestOf(ELSEWHERE)).toBeNull();
    // A segment under another segment's name, or of the other layout, is not taken.
    const signed = readFileSync(holding, 'utf8');
    writeFileSync(stampsFile(cache, (stampSegmentOf(A) + 1) % 64), signed);
    writeFileSync(holding, '');
    expect(open().digestOf(A)).toBeNull();
    writeFileSync(stampsFile(cache, 0, false), signed);
    expect(open().digestOf(A)).toBeNull();
  });

  it('splits the stamps when a run over every file keeps many, joins them when it keeps few, and leaves no file of the other layout', async () => {
    const { root, cache, open, readWith } = setup();
    // The one file of format 3, which a run of this version refuses.
    writeFileSync(join(cache, 'stamps'), 'the one file of format 3');
    const segmentFiles = () => readdirSync(cache).filter((name) => name.startsWith('stamps-'));
    for (const [path, text] of [
      [A, 'alpha\n'],
      [B, 'beta\n'],
      [ELSEWHERE, 'gamma\n'],
    ] as const)
      writeFileSync(join(root, path), text);
    const run = async (paths: readonly string[]) => {
      const stamps = open(later, 3);
      for (const path of paths) await readWith(stamps, path);
      stamps.save(true);
    };
    await run([A, B]);
    expect(segmentFiles()).toEqual([]);
    expect(JSON.parse(new SignedFile(stampsFile(cache, 0, false), secret).read() ?? 'null')).toMatchObject({
      format: 4,
      split: false,
      paths: [A, B],
    });
    await run([A, B, ELSEWHERE]);
    expect(existsSync(stampsFile(cache, 0, false))).toBe(false);
    expect(segmentFiles().sort()).toEqual([stampsFile('', stampSegmentOf(A)), stampsFile('', stampSegmentOf(ELSEWHERE))].sort());
    for (const [path, text] of [
      [A, 'alpha\n'],
      [B, 'beta\n'],
      [ELSEWHERE, 'gamma\n'],
    ] as const)
      expect(open(later, 3).digestOf(path)).toBe(sha(text));
    await run([A, ELSEWHERE]);
    expect(segmentFiles()).toEqual([]);
    expect(open(later, 3).digestOf(ELSEWHERE)).toBe(sha('gamma\n'));
    expect(open(later, 3).digestOf(B)).toBeNull();
  });

  it('trusts only whole stamps of this layout: columns of other lengths, an older layout and a malformed signature are not taken', async () => {
    const { root, cache, open } = await setupWithTwoStamped();
    const file = new SignedFile(stampsFile(cache, 0, false), secret);
    const stored = JSON.parse(file.read() ?? 'null');
    expect(stored).toMatchObject({ format: 4, root, segment: 0, split: false, paths: [A, B], digests: [sha('alpha\n'), sha('beta\n')] });
    const rewrite = (value: unknown) => {
      file.write(JSON.stringify(value));
      const next = open();
      return [next.digestOf(A), next.digestOf(B)];
    };
    expect(rewrite(stored)).toEqual([sha('alpha\n'), sha('beta\n')]);
    // One signature number short: the columns no longer line up, so none is taken.
    expect(rewrite({ ...stored, signatures: stored.signatures.slice(1) })).toEqual([null, null]);
    expect(rewrite({ ...stored, digests: [sha('alpha\n')] })).toEqual([null, null]);
    // A signature part that is not a number: that stamp alone is left out.
    const signatures = [...stored.signatures];
    signatures[6] = String(signatures[6]);
    expect(rewrite({ ...stored, signatures })).toEqual([sha('alpha\n'), null]);
    // The layouts before (an object keyed by path; one file of columns), even signed with this key: ignored.
    const files = { [A]: [stored.signatures.slice(0, 5), sha('alpha\n'), {}] };
    expect(rewrite({ format: 2, root, files })).toEqual([null, null]);
    expect(rewrite({ ...stored, format: 3 })).toEqual([null, null]);
    // A file that says it is a segment of the split layout, or another segment: not taken.
    expect(rewrite({ ...stored, split: true })).toEqual([null, null]);
    expect(rewrite({ ...stored, segment: 1 })).toEqual([null, null]);
  });

  it('takes what a helper thread’s run stamped and looked at (changes, adopt) as its own, through a clone', async () => {
    const { root, open, readWith } = await setupWithTwoStamped();
    writeFileSync(join(root, ELSEWHERE), 'gamma\n');
    const main = open();
    await readWith(main, A);
    const helper = open();
    helper.trackChanges();
    // The helper reads B (stamped by an earlier run: nothing to change), hands that on, then reads
    // ELSEWHERE (new): each part holds what came since the one before.
    await readWith(helper, B);
    const first = structuredClone(helper.changes());
    expect(first).toEqual({ stamps: [], seen: [B] });
    await readWith(helper, ELSEWHERE);
    const second = structuredClone(helper.changes());
    expect(second.stamps.map(([path]) => path)).toEqual([ELSEWHERE]);
    expect(second.seen).toEqual([ELSEWHERE]);
    expect(helper.changes()).toEqual({ stamps: [], seen: [] });
    main.adopt(first);
    main.adopt(second);
    // A run over every document keeps what either thread looked at, and knows the new file next time.
    main.save(true);
    const next = open();
    expect([A, B, ELSEWHERE].map((path) => next.digestOf(path))).toEqual([sha('alpha\n'), sha('beta\n'), sha('gamma\n')]);
    // Without the helper's paths, the same save would have forgotten B.
    const alone = open();
    await readWith(alone, A);
    alone.save(true);
    expect(open().digestOf(B)).toBeNull();
  });

  it('forgets, after a run over every document, the paths that run did not look at', async () => {
    const { open } = await setupWithTwoStamped();
    const partial = open();
    expect(partial.digestOf(A)).not.toBeNull();
    partial.save(false);
    expect(open().digestOf(B)).not.toBeNull();
    const full = open();
    expect(full.digestOf(A)).not.toBeNull();
    full.save(true);
    expect(open().digestOf(B)).toBeNull();
  });

  it('stamps a value derived from bytes the run read (deriveFrom) while the stamp holds, for the next run to know unread', async () => {
    const { root, open, readWith } = setup();
    writeFileSync(join(root, 'a.md'), 'alpha\n');
    const first = open();
    const read = await readWith(first, 'a.md');
    if (read.kind !== 'file') throw new Error('not read');
    expect(first.deriveFrom('a.md', 'length', read.bytes, (bytes) => String(bytes.length))).toBe('6');
    first.save(true);
    let computed = 0;
    const second = open();
    expect(second.digestOf('a.md')).toBe(sha('alpha\n'));
    expect(
      second.derived('a.md', 'length', () => {
        computed += 1;
        return 'read again';
      }),
    ).toBe('6');
    expect(computed).toBe(0);
  });
});
