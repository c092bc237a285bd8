import { describe, expect, it } from 'vitest';
import { codeUnitHash, contentHash, isValidUtf8, replacementContentHash } from './hash.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array => {
  const chunks = parts.map((part) => (typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part)));
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

describe('content hash (SPEC §2.4 test vectors)', () => {
  it.each([
    ['hello\\n', bytes('hello\n'), '5891b5b522d5df08'],
    ['hello\\r\\n', bytes('hello\r\n'), 'cd2eca3535741f27'],
    ['BOM + hello\\n', bytes([0xef, 0xbb, 0xbf], 'hello\n'), '42c1e65b2c948bb7'],
    ['empty', bytes(), 'e3b0c44298fc1c14'],
    ['Latin-1 caf\\xe9\\n (raw)', bytes('caf', [0xe9], '\n'), '9e4efed0ff1dbcf3'],
  ])('hashes %s', async (_name, input, expected) => {
    expect(await contentHash(input)).toBe(expected);
  });

  it('computes aiwg’s U+FFFD variant only for invalid UTF-8', async () => {
    expect(await replacementContentHash(bytes('caf', [0xe9], '\n'))).toBe('7df8989b95a06d73');
    expect(await replacementContentHash(bytes('hello\n'))).toBeNull();
    expect(isValidUtf8(bytes([0xef, 0xbb, 0xbf], 'ok'))).toBe(true);
  });

  it('codeUnitHash is FNV-1a over UTF-16 code units: the layouts of files on disk depend on its values', () => {
    // The published FNV-1a (32-bit) values for ASCII, where code units are the bytes.
    expect(codeUnitHash('')).toBe(0x811c9dc5);
    expect(codeUnitHash('a')).toBe(0xe40c292c);
    expect(codeUnitHash('foobar')).toBe(0xbf9cf968);
    expect(codeUnitHash('é')).toBe(Math.imul(0x811c9dc5 ^ 0xe9, 0x01000193) >>> 0);
  });
});
