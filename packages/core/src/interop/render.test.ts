import { describe, expect, it } from 'vitest';
import { removeInsertions } from '../edits.ts';
import type { Finding } from '../report.ts';
import { type AnnotationMark, annotateMarkdown, marksFromAggregate, marksFromFindings, REPORT_MARKER } from './render.ts';
import type { AggregatedVerdict, SourceCheckVerdict } from './schema.ts';

const encoder = new TextEncoder();

function mark(text: string, needle: string, verdict: SourceCheckVerdict, verifier = 'web'): AnnotationMark {
  const start = text.indexOf(needle);
  if (start === -1) throw new Error(`fixture has no ${needle}`);
  const label =
    verdict === 'VERIFIED' || verdict === 'GROUNDED'
      ? 'verified'
      : verdict === 'CONTRADICTED' || verdict === 'UNGROUNDED'
        ? 'contradicted'
        : 'unknown';
  return {
    start,
    end: start + needle.length,
    verdict,
    label,
    verifier,
    claim: needle,
    isCitation: false,
    rationale: 'because',
    evidence: [],
  };
}

describe('annotate: badges (SPEC §8.3)', () => {
  const doc = 'Alpha is true.\n\nBeta is false.\n\n> Gamma in a quote.\n\n```\nDelta in code.\n```\n\nEpsilon.\n';

  it('inserts a badge after each claim, with the issue’s icons, and appends the report', () => {
    const out = annotateMarkdown(doc, [
      mark(doc, 'Alpha is true.', 'VERIFIED'),
      mark(doc, 'Beta is false.', 'CONTRADICTED', 'law'),
      mark(doc, 'Epsilon.', 'INSUFFICIENT_EVIDENCE'),
    ]);
    expect(out.text.startsWith('Alpha is true. **[✅ web]**\n\nBeta is false. **[❌ law]**\n')).toBe(true);
    expect(out.text).toContain('\nEpsilon. **[🔵 web]**\n');
    expect(out.text).toContain(`\n\n${REPORT_MARKER}\n\n## Audit Report\n\n### Claim 1\n\n- Verdict: ✅ VERIFIED (verified)\n`);
    expect(out.badges).toBe(3);
  });

  it('puts no badge inside a fence or a > quote, but still reports the claim', () => {
    const out = annotateMarkdown(doc, [mark(doc, 'Gamma in a quote.', 'VERIFIED'), mark(doc, 'Delta in code.', 'CONTRADICTED')]);
    expect(out.text.slice(0, doc.length)).toBe(doc);
    expect(out.skipped).toBe(2);
    expect(out.text.match(/- Badge: no badge/g)).toHaveLength(2);
  });

  it('finds code blocks with the markdown model: a fence in a list item, indented code, and not a fence-like line in a paragraph', () => {
    const text =
      '- Item one.\n\n    ```\n    Zeta in list code.\n    ```\n\nPara text.\n\n        Eta in indented code.\n\nTheta before ``` and after.\n\nIota.\n';
    const out = annotateMarkdown(text, [
      mark(text, 'Zeta in list code.', 'VERIFIED'),
      mark(text, 'Eta in indented code.', 'VERIFIED'),
      mark(text, 'Theta before', 'VERIFIED'),
      mark(text, 'Iota.', 'VERIFIED'),
    ]);
    expect(out.skipped).toBe(2);
    expect(out.text).toContain('Theta before **[✅ web]** ``` and after.');
    expect(out.text).toContain('Iota. **[✅ web]**');
    expect(removeInsertions(out.text, out.ranges)).toBe(text);
  });

  it('uses every icon: partial/warning ⚠️, grounded 🔒, ungrounded 🔓', () => {
    const text = 'a b c d e f g\n';
    const marks = (
      ['VERIFIED', 'PARTIALLY_VERIFIED', 'CONTRADICTED', 'INSUFFICIENT_EVIDENCE', 'GROUNDED', 'UNGROUNDED', 'PARTIALLY_GROUNDED'] as const
    ).map((verdict, at) => mark(text, 'abcdefg'[at] as string, verdict, 'v'));
    const line = annotateMarkdown(text, marks).text.split('\n')[0];
    expect(line).toBe('a **[✅ v]** b **[⚠️ v]** c **[❌ v]** d **[🔵 v]** e **[🔒 v]** f **[🔓 v]** g **[⚠️ v]**');
  });

  it('puts a badge after a link destination the mark ends inside, never inside the URL', () => {
    const text = 'See [the paper](https://doi.org/10.1000/xyz) now.\n';
    const url = mark(text, 'https://doi.org/10.1000/xyz', 'VERIFIED', 'doi/verified');
    expect(annotateMarkdown(text, [url]).text.split('\n')[0]).toBe(
      'See [the paper](https://doi.org/10.1000/xyz) **[✅ doi/verified]** now.',
    );
  });

  it('append mode marks only failures, then appends a table with | escaped', () => {
    const text = 'Alpha is true.\n\nBeta | is false.\n\nGamma maybe.\n';
    const out = annotateMarkdown(
      text,
      [
        mark(text, 'Alpha is true.', 'VERIFIED'),
        mark(text, 'Beta | is false.', 'CONTRADICTED'),
        mark(text, 'Gamma maybe.', 'INSUFFICIENT_EVIDENCE'),
      ],
      'append',
    );
    expect(out.text.startsWith('Alpha is true.\n\nBeta | is false. [Unverified]\n\nGamma maybe. [Partially Unverified]\n\n')).toBe(true);
    expect(out.text).toContain('| 2 | Beta \\| is false. | ❌ CONTRADICTED | web | — |');
    expect(out.text).toContain(`${REPORT_MARKER}\n\n---\n\n## Audit Appendix\n`);
  });

  it('is idempotent: a second run on its own output changes nothing', () => {
    const marks = [mark(doc, 'Alpha is true.', 'VERIFIED'), mark(doc, 'Beta is false.', 'CONTRADICTED')];
    const once = annotateMarkdown(doc, marks);
    // Marks recomputed on the annotated text (as a re-check does) find their badges in place.
    const again = [mark(once.text, 'Alpha is true.', 'VERIFIED'), mark(once.text, 'Beta is false.', 'CONTRADICTED')];
    const twice = annotateMarkdown(once.text, again);
    expect(twice.text).toBe(once.text);
    expect(twice.edits).toEqual([]);
    expect(twice.replacedReport).toBe(true);
  });

  it('does not repeat any of several badges at one point on a re-run', () => {
    const text = 'Alpha is true.\n';
    const marks = (t: string) => [mark(t, 'Alpha is true.', 'VERIFIED', 'a'), mark(t, 'Alpha is true.', 'CONTRADICTED', 'b')];
    const once = annotateMarkdown(text, marks(text));
    expect(once.text.startsWith('Alpha is true. **[✅ a]** **[❌ b]**\n')).toBe(true);
    expect(annotateMarkdown(once.text, marks(once.text)).text).toBe(once.text);
    const append = annotateMarkdown(text, marks(text), 'append');
    expect(annotateMarkdown(append.text, marks(append.text), 'append').text).toBe(append.text);
  });

  it('re-finds a verifier claim whose span moved, so annotating twice with one verdicts file is idempotent', () => {
    const text = 'Alpha is true.\n\nBeta is false.\n';
    const claim = {
      text: 'Beta is false.',
      sentence_span: { start: 16, end: 30 },
      claim_type: 'factual' as const,
      suggested_verifier: null,
    };
    const aggregated: AggregatedVerdict[] = [
      { claim, verdict: { claim, label: 'contradicted', verifier_name: 'law', authority: 1, rationale: 'no', evidence: [] } },
    ];
    const once = annotateMarkdown(text, [mark(text, 'Alpha is true.', 'VERIFIED'), ...marksFromAggregate(text, aggregated)]);
    expect(once.text.startsWith('Alpha is true. **[✅ web]**\n\nBeta is false. **[❌ law]**\n')).toBe(true);
    const twice = annotateMarkdown(once.text, [
      mark(once.text, 'Alpha is true.', 'VERIFIED'),
      ...marksFromAggregate(once.text, aggregated),
    ]);
    expect(twice.text).toBe(once.text);
  });

  it('maps aggregate spans from code points, past astral characters', () => {
    const text = '😀😀 The rocket 🚀 flew. Next.\n';
    const sentence = 'The rocket 🚀 flew.';
    const start = [...text.slice(0, text.indexOf(sentence))].length;
    const aggregated: AggregatedVerdict[] = [
      {
        claim: {
          text: sentence,
          sentence_span: { start, end: start + [...sentence].length },
          claim_type: 'factual',
          suggested_verifier: null,
        },
        verdict: {
          claim: { text: sentence, sentence_span: { start: 0, end: 0 }, claim_type: 'factual', suggested_verifier: null },
          label: 'verified',
          verifier_name: 'web',
          authority: 0.5,
          rationale: '',
          evidence: [],
        },
      },
    ];
    expect(annotateMarkdown(text, marksFromAggregate(text, aggregated)).text.split('\n')[0]).toBe(
      '😀😀 The rocket 🚀 flew. **[✅ web]** Next.',
    );
  });

  it('places finding badges by line and UTF-16 column, a BOM included, and quotes the citation as code', () => {
    const text = '\uFEFFIntro.\r\nSee [a.ts@0123456789abcdef, L1] here.\r\n';
    const finding: Finding = {
      file: 'doc.md',
      line: 2,
      column: 5,
      kind: 'rlm',
      text: '[a.ts@0123456789abcdef, L1]',
      status: 'stale',
      severity: 'warning',
      rule: 'rlm/stale',
      message: '`a.ts` changed',
      fix: 'run `aiwg-cite stamp`',
    };
    const out = annotateMarkdown(text, marksFromFindings(text, [finding]));
    expect(out.text.startsWith('\uFEFFIntro.\r\nSee [a.ts@0123456789abcdef, L1] **[⚠️ rlm/stale]** here.\r\n\r\n')).toBe(true);
    expect(out.text).toContain('- Claim: `[a.ts@0123456789abcdef, L1]` at doc.md:2\r\n');
    expect(out.text).toContain('- Verdict: ⚠️ PARTIALLY_GROUNDED (unknown)\r\n');
    expect(out.text.endsWith('\r\n')).toBe(true);
  });
});

/** A small deterministic PRNG (mulberry32), so the property test is reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('annotate: byte-range insertions only (SPEC §8.4 property)', () => {
  const pieces = [
    'Claim one holds.',
    'A 🚀 claim.',
    '  trailing spaces   ',
    '> quoted claim',
    '```',
    'code line',
    '# Heading',
    '- item',
    '',
    'plain text',
    '数学 text',
  ];
  const verdicts: SourceCheckVerdict[] = [
    'VERIFIED',
    'CONTRADICTED',
    'PARTIALLY_VERIFIED',
    'INSUFFICIENT_EVIDENCE',
    'GROUNDED',
    'UNGROUNDED',
  ];

  it('removing the inserted ranges restores the input bytes exactly (BOM, CRLF, no final newline)', () => {
    const next = random(8);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    let runs = 0;
    for (let round = 0; round < 300; round += 1) {
      const eol = next() < 0.5 ? '\r\n' : '\n';
      const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(pieces));
      let text = (next() < 0.3 ? '\uFEFF' : '') + lines.join(eol);
      if (next() < 0.5) text += eol;
      const marks: AnnotationMark[] = [];
      for (let count = Math.floor(next() * 6); count > 0; count -= 1) {
        const a = Math.floor(next() * (text.length + 1));
        const b = Math.floor(next() * (text.length + 1));
        const start = Math.min(a, b);
        const end = Math.max(a, b);
        marks.push({ ...mark(text || ' ', (text || ' ').slice(0, 0), pick(verdicts)), start, end, claim: 'c' });
      }
      for (const mode of ['inline', 'append'] as const) {
        const out = annotateMarkdown(text, marks, mode);
        const restored = removeInsertions(out.text, out.ranges);
        expect(encoder.encode(restored)).toEqual(encoder.encode(text));
        expect(out.edits.every((edit) => edit.start === edit.end)).toBe(true);
        runs += 1;
      }
    }
    expect(runs).toBe(600);
  });
});
