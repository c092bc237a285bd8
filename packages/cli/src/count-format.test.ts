import { describe, expect, it } from 'vitest';
import { formatCount } from './count-format.ts';

describe('formatCount', () => {
  it("groups whole numbers exactly as toLocaleString('en-US') does", () => {
    const values = [0, 1, 12, 123, 999, 1000, 1234, 12345, 123456, 1234567, 100000000, -1, -1000, -987654321, Number.MAX_SAFE_INTEGER];
    for (const value of values) expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
  });

  it('leaves fractions and non-finite numbers to toLocaleString', () => {
    for (const value of [1234.5678, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
    }
  });
});
