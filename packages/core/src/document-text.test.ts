import { describe, expect, it } from 'vitest';
import { editableText } from './document-text.ts';

/** The UTF-16 code units of `text`, little- or big-endian. */
function utf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let at = 0; at < text.length; at += 1) new DataView(bytes.buffer).setUint16(at * 2, text.charCodeAt(at), littleEndian);
  return bytes;
}
const le = (text: string) => utf16(text, true);
const be = (text: string) => utf16(text, false);
const same = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && a.length === b.length && a.every((byte, at) => byte === b[at]);

describe('editableText', () => {
  it('gives back the very bytes it read, in UTF-8 (BOM or not) and UTF-16 of either order', () => {
    for (const bytes of [
      new TextEncoder().encode('# T\n\u00e9 \u{1F600}\n'),
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('# T\n')]),
      le('\ufeff# T\r\n\u00e9 \u{1F600}\n'),
      be('\ufeff# T\r\n\u00e9 \u{1F600}\n'),
    ]) {
      const editable = editableText(bytes);
      expect(editable).not.toBeNull();
      expect(same(editable?.encode(editable.text), bytes)).toBe(true);
    }
  });

  it('keeps the byte-order mark as U+FEFF, and an edit stays in the encoding', () => {
    const editable = editableText(le('\ufeffSee [a.ts, L1].\n'));
    expect(editable?.text).toBe('\ufeffSee [a.ts, L1].\n');
    expect(same(editable?.encode('\ufeffSee [a.ts@0123456789abcdef, L1].\n'), le('\ufeffSee [a.ts@0123456789abcdef, L1].\n'))).toBe(true);
  });

  it('refuses what would not survive a round trip: Latin-1, a lone surrogate, an odd UTF-16 length', () => {
    expect(editableText(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x0a]))).toBeNull();
    expect(editableText(le('\ufeffa\ud800b'))).toBeNull();
    expect(editableText(new Uint8Array([...le('\ufeffab'), 0x41]))).toBeNull();
  });
});
