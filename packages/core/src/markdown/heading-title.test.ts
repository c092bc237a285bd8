import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingTitle } from './model.ts';

/** The title as first written, with three replacements. */
function byRegex(text: string, start: number, end: number): string {
  let line = text.slice(start, end);
  const newline = line.search(/\r\n?|\n/);
  if (newline !== -1) line = line.slice(0, newline);
  return line
    .replace(/^#{1,6}(?=[ \t]|$)/, '')
    .replace(/[ \t]+#+[ \t]*$/, '')
    .replace(/^#+[ \t]*$/, '')
    .trim();
}

describe('a heading title', () => {
  it('is what the replacements made of it', () => {
    const pieces = ['#', '##', '#######', ' ', '\t', 'a', 'b c', '\r', '\n', '\r\n', '\u00a0', '\u3000', '\\'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), fc.nat(3), fc.nat(3), (parts, before, after) => {
        const body = parts.join('');
        const text = `${'x'.repeat(before)}${body}${'y'.repeat(after)}`;
        expect(headingTitle(text, before, before + body.length)).toBe(byRegex(text, before, before + body.length));
      }),
      { numRuns: 50_000, seed: 7 },
    );
  });
});
