import { describe, expect, it } from 'vitest';
import { type CertificateItem, decideGate, formatPercent, renderCertificate } from './certificate.ts';
import { classifyFootnotes } from './classify.ts';
import { parseFootnotes } from './parse.ts';
import { findStatutes, formatStatute } from './statutes.ts';
import { evidenceQuality, findPlaceholder, findTags } from './tags.ts';

const NOW = { year: 2026, month: 11 };

describe('tags', () => {
  it('reads every tag kind case-insensitively with a trimmed payload', () => {
    const tags = findTags('Text [verified:  https://x.test/a ] and [INFERRED: Smith - treatise] [Assumed: market size]');
    expect(tags.map((tag) => [tag.kind, tag.payload, tag.evidence])).toEqual([
      ['VERIFIED', 'https://x.test/a', 'full'],
      ['INFERRED', 'Smith - treatise', 'partial'],
      ['ASSUMED', 'market size', 'none'],
    ]);
  });

  it('grades record ids, Westlaw cites and dockets as full evidence and a bare name as none', () => {
    expect(evidenceQuality('CL-4593878')).toBe('full');
    expect(evidenceQuality('2019 WL 123456')).toBe('full');
    expect(evidenceQuality('No. 21-01234')).toBe('full');
    expect(evidenceQuality('CourtListener Opinion IDs 4593878')).toBe('full');
    expect(evidenceQuality('Westlaw')).toBe('none');
  });

  it('finds placeholders, including a bare section sign, but not a section sign with a number', () => {
    expect(findPlaceholder('See [TBD].')).toBe('[TBD]');
    expect(findPlaceholder('See [CITATION NEEDED]')).toBe('[CITATION NEEDED]');
    expect(findPlaceholder('15 U.S.C. § ')).toBe('§');
    expect(findPlaceholder('15 U.S.C. §§ 78j(b)')).toBeNull();
    expect(findPlaceholder('[VERIFIED: https://a.test] Smith v. Jones')).toBeNull();
  });
});

describe('statutes', () => {
  it('keeps section suffixes: 78j(b), 1395i-3 and 240.10b-5', () => {
    const found = findStatutes('15 U.S.C. § 78j(b); 42 USC 1395i-3(a)(1); 17 C.F.R. § 240.10b-5.');
    expect(
      found.map((statute) => [statute.code, statute.title, statute.section, statute.subpart, statute.subsections, statute.problem]),
    ).toEqual([
      ['usc', 15, '78j', null, ['b'], null],
      ['usc', 42, '1395i-3', null, ['a', '1'], null],
      ['cfr', 17, '240', '10b-5', [], null],
    ]);
    expect(found.map(formatStatute)).toEqual(['15 U.S.C. § 78j(b)', '42 U.S.C. § 1395i-3(a)(1)', '17 C.F.R. § 240.10b-5']);
  });

  it('rejects titles out of range, warns on the reserved title 53, and flags unreadable mentions', () => {
    const [high, reserved, cfr] = findStatutes('99 U.S.C. § 1; 53 U.S.C. § 2; 51 C.F.R. Part 3');
    expect(high?.problem).toMatchObject({ rule: 'statute/title-range', severity: 'error' });
    expect(reserved?.problem).toMatchObject({ rule: 'statute/title-range', severity: 'warning' });
    expect(cfr?.problem).toMatchObject({ rule: 'statute/title-range', severity: 'error' });
    const [malformed] = findStatutes('as the U.S.C. requires');
    expect(malformed?.problem?.rule).toBe('statute/malformed');
  });
});

describe('parseFootnotes', () => {
  it('links GFM markers to definitions, with continuation lines and the section of the first marker', () => {
    const text = [
      '# Memo',
      '',
      '## Facts',
      '',
      'The rule applies.[^a] Also here.[^missing] Index x[3] is no marker here.',
      '',
      '```',
      'code [^a] is not a marker',
      '```',
      '',
      '## Notes',
      '',
      '[^a]: 15 U.S.C. § 78j(b)',
      '    [VERIFIED: CL-1234]',
      '',
    ].join('\n');
    const parsed = parseFootnotes(text);
    expect(parsed.definitions).toHaveLength(1);
    expect(parsed.definitions[0]).toMatchObject({ key: '^a', section: 'Facts', line: 13, column: 7, references: 1 });
    expect(parsed.definitions[0]?.text).toBe('15 U.S.C. § 78j(b)\n[VERIFIED: CL-1234]');
    expect(parsed.markers.map((marker) => [marker.label, marker.line, marker.definition])).toEqual([
      ['a', 5, '^a'],
      ['missing', 5, null],
    ]);
  });

  it('reads numbered lists under per-section Footnotes headings and resolves [N] and <sup>N</sup> within the section', () => {
    const text = [
      '## Alpha',
      'Claim one [1] and two<sup>2</sup>.',
      '### Footnotes',
      '1. First [VERIFIED: https://a.test/1]',
      '2. Second [ASSUMED: estimate]',
      '## Beta',
      'Claim [1].',
      '### Footnotes',
      '1. Beta first [INFERRED: https://b.test/1]',
      '',
    ].join('\n');
    const parsed = parseFootnotes(text);
    expect(parsed.definitions.map((definition) => [definition.key, definition.section, definition.references])).toEqual([
      ['Alpha#1', 'Alpha', 1],
      ['Alpha#2', 'Alpha', 1],
      ['Beta#1', 'Beta', 1],
    ]);
    expect(parsed.markers.map((marker) => marker.definition)).toEqual(['Alpha#1', 'Alpha#2', 'Beta#1']);
  });

  it('reads a consolidated footnotes file: numbered lists under H2 sections of a "Consolidated Footnotes" H1', () => {
    const text = [
      '# Consolidated Footnotes',
      '',
      '## I. Securities Fraud',
      '',
      '1. 15 U.S.C. § 78j(b) [VERIFIED: https://law.test/78j]',
      '2. Basic Inc. v. Levinson, 485 U.S. 224 (1988)',
      '   [VERIFIED: CourtListener Opinion IDs 4593878]',
      '',
      '## II. Medicare',
      '',
      '3. 42 U.S.C. § 1395i-3(b)(2) [INFERRED: statute - nursing facilities]',
      '',
    ].join('\n');
    const parsed = parseFootnotes(text);
    expect(parsed.markers).toEqual([]);
    expect(parsed.definitions.map((definition) => [definition.label, definition.section, definition.text])).toEqual([
      ['1', 'I. Securities Fraud', '15 U.S.C. § 78j(b) [VERIFIED: https://law.test/78j]'],
      ['2', 'I. Securities Fraud', 'Basic Inc. v. Levinson, 485 U.S. 224 (1988)\n[VERIFIED: CourtListener Opinion IDs 4593878]'],
      ['3', 'II. Medicare', '42 U.S.C. § 1395i-3(b)(2) [INFERRED: statute - nursing facilities]'],
    ]);
  });

  it('gives footnotes listed under one closing "## Footnotes" the section of their marker', () => {
    const text = [
      '## Facts',
      'A claim [1].',
      '## Law',
      'A rule<sup>2</sup> and [3].',
      '## Footnotes',
      '1. One [VERIFIED: CL-1]',
      '2. Two [VERIFIED: CL-2]',
      '',
    ].join('\n');
    const parsed = parseFootnotes(text);
    expect(parsed.definitions.map((definition) => [definition.key, definition.section])).toEqual([
      ['#1', 'Facts'],
      ['#2', 'Law'],
    ]);
    expect(parsed.markers.map((marker) => [marker.label, marker.definition])).toEqual([
      ['1', '#1'],
      ['2', '#2'],
      ['3', null],
    ]);
  });

  it('counts bare numerals only when asked', () => {
    const text = '## A\nThe recovery.6 went on.\n## Footnotes\n6. Source [VERIFIED: CL-1]\n';
    expect(parseFootnotes(text).markers).toHaveLength(0);
    const parsed = parseFootnotes(text, { bareNumerals: true });
    expect(parsed.markers.map((marker) => [marker.label, marker.definition])).toEqual([['6', '#6']]);
    expect(parsed.definitions[0]?.section).toBe('A');
  });
});

describe('classifyFootnotes', () => {
  it('classifies by tag and content and reports structural problems', () => {
    const text = [
      '## S',
      'a[^1] b[^2] c[^3] d[^4] e[^5] f[^6] g[^7] h[^8] i[^9]',
      '',
      '[^1]: 15 U.S.C. § 78j(b) [VERIFIED: CL-1]',
      '[^2]: https://example.test/page [INFERRED: page]',
      '[^3]: Vaswani et al., arXiv:1706.03762 [VERIFIED: Westlaw]',
      '[^4]: Market estimate [ASSUMED: internal]',
      '[^5]: Our approach [METHODOLOGY: sampling]',
      '[^6]: Some source',
      '[^7]: Id.',
      '[^8]: Rumour [UNVERIFIED: none]',
      '[^9]: See [TBD] [VERIFIED: CL-9]',
    ].join('\n');
    const { footnotes, findings } = classifyFootnotes('memo.md', parseFootnotes(text), NOW);
    expect(footnotes.map((footnote) => [footnote.definition.label, footnote.disposition, footnote.category])).toEqual([
      ['1', 'checked', 'statutory'],
      ['2', 'checked', 'url-inferred'],
      ['3', 'checked', 'text-verified'],
      ['4', 'skipped', null],
      ['5', 'skipped', null],
      ['6', 'untagged', null],
      ['7', 'untagged', null],
      ['8', 'unverifiable', null],
      ['9', 'checked', 'text-verified'],
    ]);
    expect(footnotes[2]?.arxiv.map((id) => id.key)).toEqual(['1706.03762']);
    expect(findings.map((finding) => [finding.footnote, finding.rule, finding.severity])).toEqual([
      ['3', 'footnote/tag-without-evidence', 'warning'],
      ['6', 'footnote/missing-tag', 'warning'],
      ['8', 'footnote/unverified', 'warning'],
      ['9', 'footnote/placeholder', 'error'],
    ]);
  });
});

describe('certificate', () => {
  const item = (number: string, outcome: CertificateItem['outcome'], section = 'S'): CertificateItem => ({
    number,
    section,
    tag: 'VERIFIED',
    category: 'url-verified',
    citation: `cite ${number} | piped`,
    outcome,
    reason: outcome === 'confirmed' ? 'HTTP 200' : 'HTTP 404',
  });
  const many = (confirmed: number, unconfirmed: number) => [
    ...Array.from({ length: confirmed }, (_, index) => item(String(index + 1), 'confirmed')),
    ...Array.from({ length: unconfirmed }, (_, index) => item(String(confirmed + index + 1), 'unconfirmed')),
  ];

  it('decides the gate on exact rationals at the 95% and 85% boundaries', () => {
    expect(decideGate(many(19, 1)).status).toBe('PASS');
    expect(decideGate(many(94, 5)).status).toBe('PASS_WITH_EXCEPTIONS');
    expect(decideGate(many(17, 3)).status).toBe('PASS_WITH_EXCEPTIONS');
    expect(decideGate(many(84, 16)).status).toBe('HARD_FAIL');
    expect(decideGate([...many(99, 0), item('x', 'fabricated')]).status).toBe('HARD_FAIL');
    expect(decideGate(many(20, 0), { structuralErrors: 1 }).status).toBe('HARD_FAIL');
    expect(decideGate([], { notCounted: 3 })).toMatchObject({ status: 'HARD_FAIL', nothingVerified: true, percent: null });
    expect(decideGate([], { notCounted: 0 }).status).toBe('PASS');
    expect(decideGate(many(20, 0), { notCounted: 3 }).status).toBe('PASS');
  });

  it('rounds the shown percentage down so it never claims a threshold the rate misses', () => {
    expect(formatPercent(1899, 2000)).toBe('94.9');
    expect(formatPercent(17, 20)).toBe('85.0');
  });

  it('lists every non-confirmed item with escaped cells', () => {
    const markdown = renderCertificate({
      document: 'memo.md',
      sha256: 'ab'.repeat(32),
      date: '2026-11-22T00:00:00.000Z',
      toolVersion: '0.1.0',
      mode: 'online',
      items: many(17, 3),
      unchecked: [{ section: 'S', tag: 'ASSUMED', disposition: 'skipped' }],
      findings: [],
    });
    expect(markdown).toContain('**Status:** PASS_WITH_EXCEPTIONS');
    expect(markdown).toContain('**Confirmed:** 17/20 (85.0%)');
    expect(markdown).toContain('| 18 | S | VERIFIED | URL VERIFIED | UNCONFIRMED | cite 18 \\| piped | HTTP 404 |');
    expect(markdown).toContain('| Skipped (ASSUMED / METHODOLOGY) | 1 | - | - | - |');
  });
});
