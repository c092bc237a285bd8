import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, runCli, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const HELLO_HASH = '5891b5b522d5df08';

const claim = (text: string, start: number) => ({
  text,
  sentence_span: { start, end: start + [...text].length },
  claim_type: 'citation',
  suggested_verifier: null,
});
const chunk = (text: string) => ({
  index: 0,
  text,
  segments: [{ chunk_start: 0, chunk_end: [...text].length, document_start: 0, document_end: [...text].length }],
});

function bundle(text: string, sentence: string, candidates: Record<string, unknown>[]) {
  const start = [...text.slice(0, text.indexOf(sentence))].length;
  const c = claim(sentence, start);
  return {
    chunk: chunk(text),
    claim: c,
    candidates: candidates.map((candidate) => ({ claim: c, rationale: 'r', evidence: [], ...candidate })),
  };
}

describe('aiwg-cite chunk', () => {
  it('reads standard input for -', () => {
    const run = runCli(['chunk', '-', '--max-tokens', '5'], { cwd: tempDir(), input: 'One para.\n\nTwo 😀 para.\n' });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { chunks: { text: string; segments: { document_start: number }[] }[] };
    expect(out.chunks.map((item) => item.text)).toEqual(['One para.', 'Two 😀 para.']);
    expect(out.chunks[1]?.segments[0]?.document_start).toBe(11);
  });

  it.each([
    [['chunk'], /^aiwg-cite: chunk: takes exactly one markdown file; run `aiwg-cite chunk --help`\n$/],
    [['chunk', 'doc.md', '--max-tokens', '0'], /^aiwg-cite: chunk: --max-tokens must be at least 1/],
    [['chunk', 'doc.md', '--max-tokens', 'many'], /^aiwg-cite: chunk: --max-tokens takes a whole number, not `many`\n$/],
    [['chunk', 'nope.md'], /^aiwg-cite: nope\.md: cannot read \(no such file\)\n$/],
    [['chunk', 'latin1.md'], /^aiwg-cite: latin1\.md: not valid UTF-8\n$/],
    [['chunk', 'doc.md', '--frobnicate'], /^aiwg-cite: chunk: Unknown option '--frobnicate'/],
  ])('exits 2 with one clear line for %j', (args, message) => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': 'x\n', 'latin1.md': Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const run = runCli(args, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });
});

describe('aiwg-cite aggregate', () => {
  const doc = 'Claim A is cited. Claim B is cited.';

  function run(verdicts: unknown, args: string[] = [], extra: Record<string, string> = {}) {
    const dir = tempDir();
    writeTree(dir, { 'in.json': JSON.stringify(verdicts), ...extra });
    return runCli(['aggregate', 'in.json', ...args], { cwd: dir });
  }

  it('rejects a label outside the enum with one line naming the file and the bundle (exit 2)', () => {
    const result = run({
      verdicts: [
        bundle(doc, 'Claim A is cited.', [{ verifier_name: 'a', authority: 1, label: 'verified' }]),
        bundle(doc, 'Claim B is cited.', [{ verifier_name: 'b', authority: 1, label: 'MISLEADING_WITHOUT_CONTEXT' }]),
      ],
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'aiwg-cite: in.json: verdicts[1].candidates[0].label `MISLEADING_WITHOUT_CONTEXT` is not one of verified, contradicted, unknown\n',
    );
    expect(result.stdout).toBe('');
  });

  it('rejects invalid JSON and a wrong top level (exit 2)', () => {
    const dir = tempDir();
    writeTree(dir, { 'bad.json': '{"verdicts": [', 'top.json': '{"aggregated": []}' });
    const bad = runCli(['aggregate', 'bad.json'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^aiwg-cite: bad\.json: not valid JSON \(/);
    const top = runCli(['aggregate', 'top.json'], { cwd: dir });
    expect(top.stderr).toBe('aiwg-cite: top.json: the input has no "verdicts" array\n');
    expect(runCli(['aggregate', 'top.json', '--aggregate', 'majority'], { cwd: dir }).stderr).toMatch(
      /--aggregate must be one of authority, prefer-definitive, not `majority`/,
    );
  });

  it('maps spans to the document, drops and counts invalid candidates, and takes prefer-definitive', () => {
    const input = {
      verdicts: [
        bundle(doc, 'Claim B is cited.', [
          { verifier_name: 'top', authority: 0.9, label: 'unknown' },
          { verifier_name: 'low', authority: 0.4, label: 'contradicted' },
          { verifier_name: 'broken', authority: 'high', label: 'verified' },
        ]),
      ],
    };
    const plain = run(input);
    expect(plain.code).toBe(0);
    const out = JSON.parse(plain.stdout) as {
      aggregated: { claim: { sentence_span: unknown }; verdict: { verifier_name: string } }[];
      dropped: unknown[];
    };
    expect(out.aggregated[0]?.claim.sentence_span).toEqual({ start: 18, end: 35 });
    expect(out.aggregated[0]?.verdict.verifier_name).toBe('top');
    expect(out.dropped).toHaveLength(1);
    expect(plain.stderr).toBe(
      'aiwg-cite: aggregate: dropped 1 invalid candidate\n  verdicts[0].candidates[2].authority must be a number in [0, 1]\n',
    );
    const settled = JSON.parse(run(input, ['--aggregate', 'prefer-definitive']).stdout) as typeof out;
    expect(settled.aggregated[0]?.verdict.verifier_name).toBe('low');
  });

  it('downgrades a quote that is not in the --sources text, keeps one that is, and names the reason', () => {
    const source = 'The registry lists Claim A as cited in “the 2019 edition” of the handbook.';
    const key = createHash('sha256').update('https://a.test/').digest('hex').slice(0, 16);
    const input = {
      verdicts: [
        bundle(doc, 'Claim A is cited.', [
          { verifier_name: 'a', authority: 1, label: 'verified', evidence: [{ url: 'https://a.test/', quote: '"the 2019 edition"' }] },
        ]),
        bundle(doc, 'Claim B is cited.', [
          {
            verifier_name: 'b',
            authority: 1,
            label: 'contradicted',
            evidence: [{ url: 'https://b.test/', quote: 'never printed', source: 'b.txt' }],
          },
        ]),
      ],
    };
    const result = run(input, ['--sources', 'sources'], { [`sources/${key}.txt`]: source, 'sources/b.txt': 'It was printed twice.' });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { aggregated: { verdict: { label: string; downgraded?: { reason: string } } }[] };
    expect(out.aggregated[0]?.verdict.label).toBe('verified');
    expect(out.aggregated[1]?.verdict.label).toBe('unknown');
    expect(out.aggregated[1]?.verdict.downgraded?.reason).toBe('the quote "never printed" does not occur in the text of `https://b.test/`');
    expect(result.stderr).toBe('aiwg-cite: aggregate: 1 verdict downgraded to unknown by the verbatim-quote check\n');

    // Without --sources the same quotes are left unchecked, and the run says so.
    const unchecked = run(input);
    expect((JSON.parse(unchecked.stdout) as typeof out).aggregated.map((item) => item.verdict.label)).toEqual(['verified', 'contradicted']);
    expect(unchecked.stderr).toBe('aiwg-cite: aggregate: 2 verdicts with quotes left unchecked (no source text; pass --sources DIR)\n');

    // With --sources, a quote whose source text is missing is downgraded too.
    const missing = run(input, ['--sources', 'empty'], { 'empty/.keep': '' });
    expect((JSON.parse(missing.stdout) as typeof out).aggregated.map((item) => item.verdict.label)).toEqual(['unknown', 'unknown']);
  });
});

describe('aiwg-cite annotate', () => {
  const citing = (eol: string) =>
    `Intro line.${eol}${eol}Code lives in [a.txt@${HELLO_HASH}, L1] and [gone.ts, L2].${eol}${eol}> [a.txt, L1] in a quote${eol}`;

  it('prints badges after aiwg-cite’s own findings and leaves the rest byte for byte (BOM, CRLF, no final newline)', () => {
    const dir = tempDir();
    const original = `\uFEFF${citing('\r\n').replace(/\r\n$/, '')}`;
    writeTree(dir, { 'a.txt': 'hello\n', 'doc.md': original });
    const run = runCli(['annotate', 'doc.md'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(
      run.stdout.startsWith(
        `\uFEFFIntro line.\r\n\r\nCode lives in [a.txt@${HELLO_HASH}, L1] **[🔒 rlm/fresh]** and [gone.ts, L2] **[🔓 rlm/missing]**.\r\n`,
      ),
    ).toBe(true);
    const withoutReport = run.stdout.slice(0, run.stdout.indexOf('\r\n\r\n<!-- aiwg-cite:audit-report -->'));
    expect(Buffer.from(withoutReport.replace(/ \*\*\[[^\]]*\]\*\*/g, ''))).toEqual(Buffer.from(original));
    expect(run.stdout).toContain('- Badge: no badge');
    expect(run.stdout.endsWith('\r\n')).toBe(true);
  });

  it('--write writes atomically, and a second run changes nothing', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': 'hello\n', 'doc.md': citing('\n') });
    const first = runCli(['annotate', 'doc.md', '--write'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('doc.md: 3 marks, 2 badges, 1 without a badge (code, quote or HTML); audit report appended\n');
    const once = readFileSync(join(dir, 'doc.md'));
    expect(once.toString()).toContain('**[🔓 rlm/missing]**');
    const second = runCli(['annotate', 'doc.md', '--write'], { cwd: dir });
    expect(second.stdout).toBe('doc.md: already annotated; nothing changed\n');
    expect(readFileSync(join(dir, 'doc.md'))).toEqual(once);
  });

  it('checks a file in another repository against that repository, whatever the cwd', () => {
    const repo = gitRepo({ 'a.txt': 'hello\n', 'docs/doc.md': `See [a.txt@${HELLO_HASH}, L1].\n` });
    const run = runCli(['annotate', join(repo.dir, 'docs/doc.md')], { cwd: tempDir() });
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(`See [a.txt@${HELLO_HASH}, L1] **[🔒 rlm/fresh]**.\n`)).toBe(true);
  });

  it('merges an aggregate file with the findings; append mode marks only failures', () => {
    const dir = tempDir();
    const text = citing('\n');
    const sentence = 'Intro line.';
    const aggregated = {
      aggregated: [
        {
          claim: claim(sentence, 0),
          verdict: {
            claim: claim(sentence, 0),
            label: 'contradicted',
            verifier_name: 'general-web',
            authority: 0.5,
            rationale: 'No.',
            evidence: [{ url: 'https://x.test/a|b' }],
          },
        },
      ],
    };
    writeTree(dir, { 'a.txt': 'hello\n', 'doc.md': text, 'agg.json': JSON.stringify(aggregated) });
    const inline = runCli(['annotate', 'doc.md', '--verdicts', 'agg.json'], { cwd: dir });
    expect(inline.stdout.startsWith('Intro line. **[❌ general-web]**\n')).toBe(true);
    const append = runCli(['annotate', 'doc.md', '--verdicts', 'agg.json', '--mode', 'append'], { cwd: dir });
    expect(
      append.stdout.startsWith(`Intro line. [Unverified]\n\nCode lives in [a.txt@${HELLO_HASH}, L1] and [gone.ts, L2] [Unverified].\n`),
    ).toBe(true);
    expect(append.stdout).toContain('| 1 | Intro line. | ❌ CONTRADICTED | general-web | https://x.test/a\\|b |');
    const only = runCli(['annotate', 'doc.md', '--verdicts', 'agg.json', '--no-findings'], { cwd: dir });
    expect(only.stdout).not.toContain('rlm/missing');
    expect(only.stdout).toContain('**[❌ general-web]**');
    // citation-auditor's `render FILE AGG` form gives the same output.
    expect(runCli(['annotate', 'doc.md', 'agg.json', '--no-findings'], { cwd: dir }).stdout).toBe(only.stdout);
  });

  it.each([
    [['annotate', 'doc.md', '--no-findings'], /^aiwg-cite: annotate: --no-findings needs --verdicts/],
    [
      ['annotate', '-', '--verdicts', 'raw.json', '--write'],
      /^aiwg-cite: annotate: standard input \(-\) works only with --no-findings and without --write/,
    ],
    [['annotate', 'doc.md', '--mode', 'sideways'], /^aiwg-cite: annotate: --mode must be one of inline, append, not `sideways`\n$/],
    [
      ['annotate', 'doc.md', '--verdicts', 'bad.json'],
      /^aiwg-cite: bad\.json: aggregated\[0\]\.verdict\.label `true` is not one of verified, contradicted, unknown\n$/,
    ],
    [
      ['annotate', 'doc.md', '--verdicts', 'raw.json'],
      /^aiwg-cite: raw\.json: the verdicts file has no "aggregated" array \(run `aiwg-cite aggregate` first\)\n$/,
    ],
  ])('exits 2 with one clear line for %j', (args, message) => {
    const dir = tempDir();
    const c = claim('x', 0);
    writeTree(dir, {
      'doc.md': 'x\n',
      'bad.json': JSON.stringify({
        aggregated: [{ claim: c, verdict: { claim: c, label: 'true', verifier_name: 'v', authority: 1, rationale: '', evidence: [] } }],
      }),
      'raw.json': JSON.stringify({ verdicts: [] }),
    });
    const run = runCli(args, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(readFileSync(join(dir, 'doc.md'), 'utf8')).toBe('x\n');
  });
});

describe('aiwg-cite check: the verdict model in its output', () => {
  it('adds verdicts {sourceCheck, citationAuditor, claimType} to every JSON citation, renaming nothing', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': 'hello\n', 'doc.md': `[a.txt@${HELLO_HASH}, L1] [gone.ts, L1]\n` });
    const run = runCli(['check', '--format', 'json'], { cwd: dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { citations: Record<string, unknown>[] };
    expect(report.citations.map((item) => [item.status, item.verdicts])).toEqual([
      ['fresh', { sourceCheck: 'GROUNDED', citationAuditor: 'verified', claimType: 'private' }],
      ['missing', { sourceCheck: 'UNGROUNDED', citationAuditor: 'contradicted', claimType: 'private' }],
    ]);
    expect(Object.keys(report.citations[0] ?? {})).toEqual(
      expect.arrayContaining(['file', 'line', 'column', 'kind', 'text', 'status', 'severity', 'rule', 'message', 'fix']),
    );
  });

  it('--format source-check prints one strict source-check result per citation, with the usual exit code', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': 'hello\n', 'doc.md': `[a.txt, L1] and [gone.ts, L1]\n` });
    const run = runCli(['check', '--format', 'source-check'], { cwd: dir });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as { claims: Record<string, unknown>[]; summary: string };
    expect(out.claims.map((item) => [item.claim_id, item.claim_type, item.verdict])).toEqual([
      ['doc.md:1:1', 'private', 'PARTIALLY_GROUNDED'],
      ['doc.md:1:17', 'private', 'UNGROUNDED'],
    ]);
    for (const item of out.claims) {
      expect(Object.keys(item)).toEqual(
        expect.arrayContaining(['claim_id', 'claim_text', 'claim_type', 'verdict', 'headline', 'tool_calls_made', 'criteria']),
      );
    }
    expect(out.summary).toBe(
      '[source-check: 2 claims (✅0, ⚠️1, ❌0, 🔵0, 🔒0, 🔓1); claim-types: private 2; oldest source: unknown; warnings: 1]',
    );
    const clean = tempDir();
    writeTree(clean, { 'a.txt': 'hello\n', 'doc.md': `[a.txt@${HELLO_HASH}, L1]\n` });
    expect(runCli(['check', '--format', 'source-check'], { cwd: clean }).code).toBe(0);
  });
});
