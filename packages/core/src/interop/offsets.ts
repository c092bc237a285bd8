/**
 * Offsets between the two index spaces of the claim pipeline (SPEC §8): agent skills written in
 * Python count Unicode code points, JavaScript strings count UTF-16 code units. The two differ by
 * one for every astral character (emoji, rare CJK, mathematical letters) before the offset.
 */
import { countBelow } from '../arrays.ts';

/** Converts offsets of one string between UTF-16 code units and code points. */
export interface OffsetIndex {
  /** Length of the string in code points. */
  readonly codePointLength: number;
  /** The code-point offset of a UTF-16 offset; an offset inside a surrogate pair counts the pair as passed. */
  toCodePoint(utf16: number): number;
  /** The UTF-16 offset of a code-point offset, clamped to the string. */
  toUtf16(codePoint: number): number;
}

/** Builds an {@link OffsetIndex}; strings without astral characters need no table. */
export function createOffsetIndex(text: string): OffsetIndex {
  const astral: number[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
      const low = text.charCodeAt(at + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        astral.push(at);
        at += 1;
      }
    }
  }
  const codePointLength = text.length - astral.length;
  if (astral.length === 0) {
    return {
      codePointLength,
      toCodePoint: (utf16) => clamp(utf16, text.length),
      toUtf16: (codePoint) => clamp(codePoint, text.length),
    };
  }
  return {
    codePointLength,
    toCodePoint(utf16) {
      const offset = clamp(utf16, text.length);
      // Pairs that start before `offset`; a pair split by the offset counts as one code point passed.
      return offset - countBelow(astral, offset - 1);
    },
    toUtf16(codePoint) {
      const target = clamp(codePoint, codePointLength);
      // The n-th astral pair (0-based) starts at code point astral[n] - n.
      let low = 0;
      let high = astral.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if ((astral[mid] as number) - mid < target) low = mid + 1;
        else high = mid;
      }
      return target + low;
    },
  };
}

function clamp(value: number, max: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return value >= max ? max : Math.floor(value);
}
