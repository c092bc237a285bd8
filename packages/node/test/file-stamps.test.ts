import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { createNodeReader, FileStamps, SignedFile } from '../src/index.ts';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const secret = randomBytes(32);
/** A clock a minute ahead: every file written by the test has "long" stopped changing. */
const later = () => Date.now() + 60_000;

function setup() {
  const root = realpathSync.native(tempDir());
  const cache = tempDir();
  const open = (now: () => number = later) => new FileStamps(root, cache, secret, now);
  const readWith = async (stamps: FileStamps, path: string) => stamps.wrapReader(createNodeReader(root)).read(path);
  return { root, cache, open, readWith };
}

/** {@link setup} with a.md and b.md written, read through one run's stamps and saved after a run over every document. */
async function setupWithTwoStamped() {
  const context = setup();
  writeFileSync(join(context.root, 'a.md'), 'alpha\n');
  writeFileSync(join(context.root, 'b.md'), 'beta\n');
  const stamps = context.open();
  await context.readWith(stamps, 'a.md');
  await context.readWith(stamps, 'b.md');
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
    const path = join(cache, 'stamps');
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

  it('trusts only whole stamps of this layout: columns of other lengths, an older layout and a malformed signature are not taken', async () => {
    const { root, cache, open } = await setupWithTwoStamped();
    const file = new SignedFile(join(cache, 'stamps'), secret);
    const stored = JSON.parse(file.read() ?? 'null');
    expect(stored).toMatchObject({ format: 3, root, paths: ['a.md', 'b.md'], digests: [sha('alpha\n'), sha('beta\n')] });
    const rewrite = (value: unknown) => {
      file.write(JSON.stringify(value));
      const next = open();
      return [next.digestOf('a.md'), next.digestOf('b.md')];
    };
    expect(rewrite(stored)).toEqual([sha('alpha\n'), sha('beta\n')]);
    // One signature number short: the columns no longer line up, so none is taken.
    expect(rewrite({ ...stored, signatures: stored.signatures.slice(1) })).toEqual([null, null]);
    expect(rewrite({ ...stored, digests: [sha('alpha\n')] })).toEqual([null, null]);
    // A signature part that is not a number: that stamp alone is left out.
    const signatures = [...stored.signatures];
    signatures[6] = String(signatures[6]);
    expect(rewrite({ ...stored, signatures })).toEqual([sha('alpha\n'), null]);
    // The layout before (an object keyed by path), even signed with this key: ignored.
    const files = { 'a.md': [stored.signatures.slice(0, 5), sha('alpha\n'), {}] };
    expect(rewrite({ format: 2, root, files })).toEqual([null, null]);
    expect(rewrite({ ...stored, format: 2 })).toEqual([null, null]);
  });

  it('forgets, after a run over every document, the paths that run did not look at', async () => {
    const { open } = await setupWithTwoStamped();
    const partial = open();
    expect(partial.digestOf('a.md')).not.toBeNull();
    partial.save(false);
    expect(open().digestOf('b.md')).not.toBeNull();
    const full = open();
    expect(full.digestOf('a.md')).not.toBeNull();
    full.save(true);
    expect(open().digestOf('b.md')).toBeNull();
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
