import { describe, expect, it } from 'vitest';
import { scanMarkdown } from '../markdown/scan.ts';
import { extractRlm } from './extract.ts';

const HASH = 'a8f9c2d4e5f60718';

function extract(markdown: string, includeCode = false) {
  return extractRlm(scanMarkdown(markdown, { includeCode }));
}

function ids(markdown: string, includeCode = false): string[] {
  return extract(markdown, includeCode).citations.map(
    (citation) => `${citation.id}|${citation.hash ?? '-'}|${citation.lines?.text ?? '-'}`,
  );
}

describe('RLM grammar: the three inline forms', () => {
  it('parses a versioned citation with a range, with its 1-based line and column', () => {
    const [citation] = extract(`# T\n\nSee [src/auth/login.ts@${HASH}, L42-58] here.\n`).citations;
    expect(citation).toMatchObject({
      id: 'src/auth/login.ts',
      hash: HASH,
      lines: { start: 42, end: 58, text: 'L42-58' },
      form: 'versioned',
      line: 3,
      column: 5,
      text: `[src/auth/login.ts@${HASH}, L42-58]`,
    });
  });

  it('parses path-only and bare forms, and versioned without lines', () => {
    expect(ids(`[src/legacy/auth.py, L88] [src/a.ts] [src/b.ts@${HASH}]`)).toEqual([
      'src/legacy/auth.py|-|L88',
      'src/a.ts|-|-',
      `src/b.ts|${HASH}|-`,
    ]);
  });

  it('does not repeat aiwg’s regex bug: `[src/legacy/auth.py, L88]` has id `src/legacy/auth.py`', () => {
    const [citation] = extract('[src/legacy/auth.py, L88]').citations;
    expect(citation?.id).toBe('src/legacy/auth.py');
    expect(citation?.lines?.text).toBe('L88');
  });

  it('finds several citations on one line, including adjacent brackets', () => {
    expect(ids(`[a.ts@${HASH}, L1][b.ts@${HASH}, L2] and [c.ts, L3]`)).toEqual([`a.ts|${HASH}|L1`, `b.ts|${HASH}|L2`, 'c.ts|-|L3']);
  });

  it('accepts ids with spaces in the versioned form', () => {
    expect(ids(`[docs/My Notes.md@${HASH}, L3]`)).toEqual([`docs/My Notes.md|${HASH}|L3`]);
  });

  it('marks a bare name without a slash as needing an existing file', () => {
    const { citations } = extract('[README.md] and [docs/guide.md]');
    expect(citations.map((citation) => [citation.id, citation.needsExistingFile])).toEqual([
      ['README.md', true],
      ['docs/guide.md', false],
    ]);
  });

  it('counts columns in UTF-16 code units after astral characters', () => {
    const [citation] = extract(`😀 [src/a.ts, L1]`).citations;
    expect(citation?.column).toBe(4);
  });
});

describe('RLM grammar: what is not a citation', () => {
  const notCitations: Record<string, string> = {
    'markdown link': '[src/a.ts](src/a.ts)',
    image: '![src/a.png](src/a.png)',
    'full reference link with a defined label': '[src/a.ts][ref]\n\n[ref]: https://example.com',
    'collapsed reference link': '[src/a.ts][]',
    'shortcut reference to a defined label': '[src/a.ts]\n\n[src/a.ts]: https://example.com',
    'reference definition': '[src/a.ts, L1]: https://example.com',
    'task box (empty)': '- [ ] do it',
    'task box (done)': '- [x] done\n- [X] also',
    'bare REF id': 'see [REF-013] for details',
    'stale marker': `[src/a.ts@${HASH}] [STALE: hash mismatch]`.replace(`[src/a.ts@${HASH}] `, ''),
    'un-versioned marker': 'src/a.ts (L1) [un-versioned]',
    'legal tag': '[VERIFIED:eCFR.gov]',
    footnote: 'text[^1]\n\n[^1]: note',
    mention: '[@src/a.ts]',
    url: '[https://example.com/a.ts]',
    'fenced code (backticks)': '```ts\n[src/a.ts, L1]\n```',
    'fenced code (tildes, longer closer)': '~~~\n[src/a.ts, L1]\n~~~~',
    'unclosed fence runs to the end': '```\n[src/a.ts, L1]\n',
    'indented code': 'para\n\n    [src/a.ts, L1]\n',
    'inline code': 'use `[src/a.ts, L1]` literally',
    'double-backtick code span': 'use ``a ` [src/a.ts, L1]`` literally',
    'html block': '<div>\n[src/a.ts, L1]\n</div>',
    'html comment': '<!-- [src/a.ts, L1] -->',
    'inline html comment': 'text <!-- [src/a.ts, L1] --> more',
    frontmatter: '---\nsource: [src/a.ts, L1]\n---\n# Title',
    'escaped bracket': '\\[src/a.ts, L1]',
    'nested brackets': '[[src/a.ts, L1]]',
    'fence inside a list item': '- item\n\n    ```\n    [src/a.ts, L1]\n    ```\n',
  };
  for (const [name, markdown] of Object.entries(notCitations)) {
    it(`ignores a ${name}`, () => {
      const result = extract(markdown);
      expect(result.citations).toEqual([]);
      expect(result.malformed).toEqual([]);
    });
  }

  it('keeps the second of two adjacent brackets when its label is not defined', () => {
    expect(ids(`[a.ts, L1][undefined-label]`)).toEqual(['a.ts|-|L1', 'undefined-label|-|-']);
  });

  it('checks code only when asked, and counts what it skipped', () => {
    const markdown = '```\n[src/a.ts, L1]\n```\n\nand `[src/b.ts, L2]`';
    expect(extract(markdown).skippedInCode).toBe(2);
    expect(ids(markdown, true)).toEqual(['src/a.ts|-|L1', 'src/b.ts|-|L2']);
  });

  it('treats an unmatched backtick as literal text', () => {
    expect(ids('a ` b [src/a.ts, L1]')).toEqual(['src/a.ts|-|L1']);
  });
});

describe('RLM grammar: near-misses are MALFORMED, never dropped (SPEC §2.2)', () => {
  const cases: [string, RegExp, string][] = [
    ['[x.ts@A8F9C2D4E5F60718]', /uppercase/, '[x.ts@a8f9c2d4e5f60718]'],
    ['[x.ts@deadbeef]', /8 hex characters, not 16/, '[x.ts]'],
    [`[x.ts@${'a'.repeat(64)}]`, /64 hex characters/, '[x.ts]'],
    [`[x.ts@${HASH}, L42–58]`, /`–`/, `[x.ts@${HASH}, L42-58]`],
    ['[a.ts,L1]', /separator/, '[a.ts, L1]'],
    ['[x.ts, L42-L58]', /takes no `L`/, '[x.ts, L42-58]'],
    ['[x.ts, l5]', /uppercase `L`/, '[x.ts, L5]'],
  ];
  it('a short hash after a name that is no file is a git ref, not a near-miss; with a line range it is one', () => {
    const refs = 'Merged [main@a1b2c3d], tagged [v2.0.0@3f4e5d6a], pinned [actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11].';
    expect(extract(refs).malformed).toEqual([]);
    expect(extract('See [src/build@a1b2c3d, L3].').malformed.map((miss) => miss.text)).toEqual(['[src/build@a1b2c3d, L3]']);
  });

  for (const [text, defect, normalised] of cases) {
    it(`reports ${text}`, async () => {
      const { citations, malformed } = extract(`See ${text} here.`);
      expect(citations).toEqual([]);
      expect(malformed).toHaveLength(1);
      expect(malformed[0]?.text).toBe(text);
      expect(malformed[0]?.defects.join('; ')).toMatch(defect);
      const { formatCitation } = await import('./grammar.ts');
      expect(formatCitation(malformed[0]?.normalised ?? { id: '', hash: null, lines: null })).toBe(normalised);
    });
  }

  it('does not mistake prose in brackets for a near-miss', () => {
    const result = extract('[Smith, 2020] [see below] [note@home] [1] [a, b]');
    expect(result.malformed).toEqual([]);
  });
});

describe('the `## Sources` footer', () => {
  it('parses versioned and un-versioned bullets until the next level-2 heading', () => {
    const markdown = [
      '# Report',
      '',
      '## Sources',
      '',
      `- src/auth/login.ts@${HASH} (L42-58)`,
      `- src/auth/session.ts@${HASH}`,
      '- src/legacy/auth.py (L88) [un-versioned]',
      '- some prose bullet',
      '',
      '## Appendix',
      '',
      `- src/after.ts@${HASH} (L1)`,
    ].join('\n');
    const { citations } = extract(markdown);
    expect(citations.map((citation) => [citation.id, citation.hash, citation.lines?.text ?? null, citation.line, citation.column])).toEqual(
      [
        ['src/auth/login.ts', HASH, 'L42-58', 5, 3],
        ['src/auth/session.ts', HASH, null, 6, 3],
        ['src/legacy/auth.py', null, 'L88', 7, 3],
      ],
    );
  });
});

describe('suppression comments', () => {
  it('records the line a disable-next-line directive silences, with its rules', () => {
    const scanned = scanMarkdown(
      '<!-- aiwg-cite-disable-next-line rlm/missing -->\n[src/a.ts, L1]\n\n<!-- aiwg-cite-disable-next-line -->\n[b.ts]',
    );
    expect(scanned.suppressions).toEqual([
      { line: 2, rules: ['rlm/missing'] },
      { line: 5, rules: [] },
    ]);
  });
});

describe('generated content', () => {
  it('ignores everything below an `aiwg-cite annotate` audit report marker', () => {
    const markdown = '[gone/a.ts, L1]\n\n<!-- aiwg-cite:audit-report -->\n## Audit Report\n\n[gone/b.ts, L1] doi:10.1234/x\n';
    expect(ids(markdown)).toEqual(['gone/a.ts|-|L1']);
  });
});

describe('path-only citations: the model and the grammar together', () => {
  it('takes an absolute or `~` path in brackets as a citation that needs no existing file (it is judged outside-root)', () => {
    const citations = extract('See [/etc/hostname] and [~/notes/plan.md].\n').citations;
    expect(citations.map((citation) => [citation.id, citation.needsExistingFile])).toEqual([
      ['/etc/hostname', false],
      ['~/notes/plan.md', false],
    ]);
  });

  it('does not take a slash word (`[/mo]`, `[/help]`) or a bare bracket glued to `$` or an ASCII word', () => {
    const markdown = 'Plans: $5[/mo], $[/mo], $[/etc/hostname], 50 USD [/yr], type [/help], argv[docs/a.md], x[/etc/hostname].\n';
    expect(ids(markdown)).toEqual([]);
  });

  it('still takes `[/etc/hostname]`, `[/.bashrc]` and `[~/notes]` after a space, and versioned or ranged forms glued to a word', () => {
    const markdown =
      'See [/etc/hostname], [/.bashrc], [~/notes] and 详见[docs/a.md]; code[src/a.ts, L1] and code[src/b.ts@0123456789abcdef].\n';
    expect(ids(markdown)).toEqual([
      '/etc/hostname|-|-',
      '/.bashrc|-|-',
      '~/notes|-|-',
      'docs/a.md|-|-',
      'src/a.ts|-|L1',
      'src/b.ts|0123456789abcdef|-',
    ]);
  });

  it('does not take bracket text that is not path-shaped', () => {
    expect(ids('Rated [>4.0/5.0], status [a|b.md], range [>1/2, L3].\n')).toEqual([]);
  });

  it('takes `[n/a]` only when such a file exists', () => {
    expect(extract('Owner: [n/a]\n').citations.map((citation) => citation.needsExistingFile)).toEqual([true]);
  });

  it('does not take the display title of a VitePress or Docusaurus snippet include', () => {
    expect(ids('<<< @/snippets/a.ts#region [src/a.ts]\n\n  <<< ./b.ts{2} [docs/b.md]\n\nText [src/c.ts]\n')).toEqual(['src/c.ts|-|-']);
  });

  it('reads brackets in a list item, a table cell and a block quote, not in indented code inside a list', () => {
    const markdown = '- item [src/a.ts]\n\n      [src/code.ts]\n\n| cell |\n| --- |\n| [src/b.ts] |\n\n> [src/c.ts]\n';
    expect(ids(markdown)).toEqual(['src/a.ts|-|-', 'src/b.ts|-|-', 'src/c.ts|-|-']);
  });

  it('takes a bare CR as a line break', () => {
    const [citation] = extract('first\rsecond [src/a.ts]\r').citations;
    expect([citation?.line, citation?.column]).toEqual([2, 8]);
  });
});
