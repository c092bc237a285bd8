import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobSet } from '../src/blob-set.ts';

const hexId = (bytes = 20) => randomBytes(bytes).toString('hex');
/** An id's bytes standing inside a larger buffer, as the git index file holds them: `[bytes, at]`. */
const inFile = (hex: string): [Uint8Array, number] => [Buffer.concat([randomBytes(7), Buffer.from(hex, 'hex'), randomBytes(3)]), 7];

describe('BlobSet: the citation index summary’s blobs', () => {
  it('holds exactly its ids, asked as the bytes the git index file gives', () => {
    const ids = Array.from({ length: 5000 }, () => hexId());
    // Ids that share their first four bytes (the table's key) with one held, and differ after.
    const twins = ids.slice(0, 50).map((id) => `${id.slice(0, 8)}${hexId(16)}`);
    const set = BlobSet.parse(BlobSet.of(ids).hex, 40);
    expect(set?.size).toBe(5000);
    for (const id of ids) expect(set?.hasBytes(...inFile(id))).toBe(true);
    for (const id of [...twins, ...Array.from({ length: 500 }, () => hexId())]) expect(set?.hasBytes(...inFile(id))).toBe(false);
    expect(set?.hasBytes(Buffer.from(ids[0] as string, 'hex').subarray(0, 19), 0)).toBe(false);
    expect(set?.ids()).toEqual(ids);
  });

  it('adds ids after its own, and is empty without any', () => {
    const [a, b, c] = [hexId(), hexId(), hexId()];
    const grown = BlobSet.of([a, b]).with([c]);
    expect(grown.ids()).toEqual([a, b, c]);
    expect(grown.hasBytes(...inFile(c))).toBe(true);
    const empty = BlobSet.of([]);
    expect(empty.size).toBe(0);
    expect(empty.hasBytes(...inFile(a))).toBe(false);
  });

  it('keeps SHA-256 ids too', () => {
    const ids = [hexId(32), hexId(32)];
    const set = BlobSet.parse(BlobSet.of(ids).hex, 64);
    expect(set?.width).toBe(64);
    expect(BlobSet.of([]).with(ids).width).toBe(64);
    expect(set?.hasBytes(...inFile(ids[1] as string))).toBe(true);
    expect(set?.hasBytes(...inFile(hexId(32)))).toBe(false);
  });

  it('refuses stored ids that are not whole lowercase hex of the width named', () => {
    const hex = `${hexId()}${hexId()}`;
    expect(BlobSet.parse(hex, 40)?.size).toBe(2);
    expect(BlobSet.parse(hex.slice(1), 40)).toBeNull();
    expect(BlobSet.parse(hex.toUpperCase(), 40)).toBeNull();
    expect(BlobSet.parse(`${hex.slice(0, 40)}${'g'.repeat(40)}`, 40)).toBeNull();
    expect(BlobSet.parse(hex, 32)).toBeNull();
    expect(BlobSet.parse([hex], 40)).toBeNull();
    expect(BlobSet.parse('', 40)?.size).toBe(0);
  });
});
