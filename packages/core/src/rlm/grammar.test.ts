import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyInner, PATH_SHAPED } from './grammar.ts';

/** The pattern as first written; it accepts the same ids but backtracks exponentially. */
const NESTED = /^(?:~(?=\/|$)|\.{1,2}(?=\/))?(?:[/\\]?[\p{L}\p{N}_.+-]+)+$/u;

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
