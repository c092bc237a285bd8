import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from './github.ts';
import { sampleReport } from './sample-report.ts';

describe('formatGithub', () => {
  it('escapes %, CR and LF in data, and also : and , in properties', () => {
    expect(escapeData('100% a:b,c\r\nd')).toBe('100%25 a:b,c%0D%0Ad');
    expect(escapeProperty('100% a:b,c\r\nd')).toBe('100%25 a%3Ab%2Cc%0D%0Ad');
  });

  it('writes one workflow command per finding that needs attention, then the verdict', () => {
    const lines = formatGithub(sampleReport()).trimEnd().split('\n');
    expect(lines).toEqual([
      '::error file=docs/a b.md,line=3,col=5,endLine=3,endColumn=19,title=rlm/missing::[src/x.ts, L1]: `src/x.ts` does not exist%0Afix: cite a file that exists',
      '::warning file=docs/a b.md,line=9,col=1,endLine=9,endColumn=28,title=rlm/stale::[src/a.ts@0123456789abcdef]: 100%25 changed: a, b%0Asecond line <&"\'>',
      '::notice file=docs/c.md,line=2,col=2,endLine=2,endColumn=3,title=statistic/unsourced::x: no source',
      'aiwg-cite: FAIL (1 errors, 1 warnings in 2 files)',
    ]);
  });
});
