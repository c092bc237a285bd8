import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyInner, hasPathWithExtension, isClassified, PATH_SHAPED, parseLineRange } from './grammar.ts';

/** The pattern as first written; it accepts the same ids but backtracks exponentially. */
const NESTED = /^(?:~(?=\/|$)|\.{1,2}(?=\/))?(?:[/\\]?[\p{L}\p{N}_.+-]+)+$/u;

describe('a path with an extension', () => {
  it('is what the regex /\\/.*\\.[A-Za-z0-9]{1,10}$/ says', () => {
    const regex = /\/.*\.[A-Za-z0-9]{1,10}$/;
    const pieces = ['/', '.', 'a', 'Z', '9', '\n', '\u2028', '\\', ' ', 'é', 'abcdefghijk', '.ts', '..'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const id = parts.join('');
        expect(hasPathWithExtension(id)).toBe(regex.test(id));
      }),
      { numRuns: 20_000, seed: 7 },
    );
  });

  it('answers at once for a long run of slashes without an extension', () => {
    // The regex needed a pass per `/`: quadratic.
    expect(hasPathWithExtension('a/'.repeat(50_000))).toBe(false);
    expect(hasPathWithExtension(`${'a/'.repeat(50_000)}b.md`)).toBe(true);
  });
});

describe('the path-shaped id pattern', () => {
  it('accepts exactly what the nested pattern accepted', () => {
    const pieces = ['a', 'é', '1', '_', '.', '+', '-', '/', '\\', '~', ' ', '!', '|', '中', '😀', '..', './', '~/'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), (parts) => {
        const id = parts.join('');
        expect(PATH_SHAPED.test(id)).toBe(NESTED.test(id));
      }),
      { numRuns: 20_000, seed: 7 },
    );
  });

  it('answers at once for a long run of name characters before one that fails', () => {
    // The nested pattern needed about 2^n steps here.
    expect(classifyInner(`${'a'.repeat(60)}!`).type).toBe('none');
    expect(classifyInner(`docs/${'b'.repeat(60)}|x`).type).not.toBe('citation');
  });
});

describe('line ranges', () => {
  it('reads line numbers as parseInt does, long ones included', () => {
    for (const text of ['L0', 'L007-8', 'L999999999999999', 'L12345678901234567890-1', 'L1-99999999999999999999']) {
      const dash = text.indexOf('-');
      const start = Number.parseInt(text.slice(1, dash === -1 ? undefined : dash), 10);
      const end = dash === -1 ? start : Number.parseInt(text.slice(dash + 1), 10);
      expect(parseLineRange(text)).toEqual({ start, end, text });
    }
  });
});

describe('counting a candidate in code', () => {
  it('says what classifyInner says, without building its result', () => {
    const pieces = [
      'src/a.ts',
      'a',
      '/',
      '/mo',
      ' ',
      ',',
      ', ',
      '@',
      'a8f9c2d4e5f60718',
      'A8F9',
      'L',
      'l',
      '12',
      '-',
      '–',
      '.',
      '~/',
      'x!',
      '\\',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), (parts) => {
        const inner = parts.join('');
        expect(isClassified(inner)).toBe(classifyInner(inner).type !== 'none');
      }),
      { numRuns: 30_000, seed: 7 },
    );
  });
});
