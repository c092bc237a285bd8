import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServices, startFakeServices } from '../packages/online/test/fake-services.ts';
import { runCliAsync } from './online-helpers.ts';

let fake: FakeServices;
beforeAll(async () => {
  fake = await startFakeServices();
});
afterAll(async () => {
  await fake.close();
});

const CERTIFICATE = 'qa-outputs/citation-verification-certificate.md';

/** A memo: prose sections with GFM markers, definitions collected under `## Footnotes`. */
function memo(notes: readonly (readonly [section: string, definition: string])[]): string {
  const sections = [...new Set(notes.map(([section]) => section))];
  const out = ['# Memorandum', ''];
  for (const section of sections) {
    out.push(`## ${section}`, '');
    const markers = notes.flatMap(([where], index) => (where === section ? [`Claim ${index + 1}.[^${index + 1}]`] : []));
    out.push(markers.join(' '), '');
  }
  out.push('## Footnotes', '');
  notes.forEach(([, definition], index) => {
    out.push(`[^${index + 1}]: ${definition}`);
  });
  return `${out.join('\n')}\n`;
}

const statutes = (): [string, string][] => [
  ['Background', '15 U.S.C. § 78j(b) [VERIFIED: CL-78]'],
  ['Background', '42 U.S.C. § 1395i-3(a) [INFERRED: statute - Medicare]'],
  ['Background', '17 C.F.R. § 240.10b-5 [VERIFIED: eCFR - part 240]'],
];
const pages = (origin: string, count: number, tag = 'VERIFIED'): [string, string][] =>
  Array.from({ length: count }, (_, index) => [
    'Background',
    `Agency guidance ${origin}/web/ok-${index + 1} [${tag}: ${origin}/web/ok-${index + 1}]`,
  ]);
const skippedAndUntagged = (): [string, string][] => [
  ['Analysis', 'Market size [ASSUMED: internal estimate]'],
  ['Analysis', 'Sampling frame [METHODOLOGY: stratified sample]'],
  ['Analysis', 'A note nobody tagged'],
];
/** Three that fail: a dead page (UNCONFIRMED), a 403 (ERROR) and a text footnote without identifiers (needs-search). */
const exceptions = (origin: string): [string, string][] => [
  ['Analysis', `Old report ${origin}/web/gone [VERIFIED: archived - 2019]`],
  ['Analysis', `Member portal ${origin}/web/forbidden [INFERRED: portal]`],
  ['Analysis', 'Loss, Seligman & Paredes, Securities Regulation ch. 9 (6th ed.) [VERIFIED: Westlaw - treatise]'],
];

interface Certificate {
  status: string;
  confirmed: number;
  verifiable: number;
  percent: string;
  total: number[];
  failing: string[][];
  sections: string[][];
}

function rows(markdown: string, heading: string): string[][] {
  const at = markdown.indexOf(`## ${heading}`);
  expect(at).toBeGreaterThanOrEqual(0);
  const block = markdown.slice(at).split('\n').slice(1);
  const out: string[][] = [];
  let seen = false;
  for (const line of block) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('|')) {
      if (seen) break;
      continue;
    }
    seen = true;
    out.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return out.slice(2);
}

/** Parses a certificate the way a reader would. */
function parse(markdown: string): Certificate {
  const status = /\*\*Status:\*\* (\S+)/.exec(markdown)?.[1] ?? '';
  const rate = /\*\*Confirmed:\*\* (\d+)\/(\d+) \((\d+\.\d)%\)/.exec(markdown);
  expect(rate).not.toBeNull();
  const category = rows(markdown, 'By category');
  const total = (category.find((row) => row[0] === '**Total verifiable**') ?? []).slice(1).map(Number);
  return {
    status,
    confirmed: Number(rate?.[1]),
    verifiable: Number(rate?.[2]),
    percent: rate?.[3] ?? '',
    total,
    failing: markdown.includes('None: every verifiable footnote was confirmed.') ? [] : rows(markdown, 'Unconfirmed and error citations'),
    sections: rows(markdown, 'By section'),
  };
}

/** Recomputes the rate and status from the certificate's own tables and checks they agree with what it claims. */
function recompute(certificate: Certificate): void {
  const [items, confirmed, unconfirmed, errors] = certificate.total as [number, number, number, number];
  expect(items).toBe(certificate.verifiable);
  expect(certificate.failing).toHaveLength(unconfirmed + errors);
  expect(items - certificate.failing.length).toBe(certificate.confirmed);
  expect(confirmed).toBe(certificate.confirmed);
  const sum = (column: number) => certificate.sections.reduce((total, row) => total + Number(row[column]), 0);
  expect([sum(1), sum(2), sum(3), sum(4)]).toEqual([items, confirmed, unconfirmed, errors]);
  const tenths = Math.floor((certificate.confirmed * 1000) / certificate.verifiable);
  expect(certificate.percent).toBe(`${Math.floor(tenths / 10)}.${tenths % 10}`);
  const fabricated = certificate.failing.some((row) => row[4] === 'LIKELY-FABRICATED');
  const ratio = certificate.confirmed / certificate.verifiable;
  const expected = fabricated ? 'HARD_FAIL' : ratio >= 0.95 ? 'PASS' : ratio >= 0.85 ? 'PASS_WITH_EXCEPTIONS' : 'HARD_FAIL';
  expect(certificate.status).toBe(expected);
}

function project(notes: readonly (readonly [string, string])[]): string {
  const dir = tempDir();
  writeTree(dir, { 'memo.md': memo(notes) });
  return dir;
}

describe('certify', () => {
  it('PASS_WITH_EXCEPTIONS at exactly 85%: 17 of 20 confirmed; per-section counts; exit 0, 1 under --strict', async () => {
    const dir = project([...statutes(), ...pages(fake.origin, 14), ...exceptions(fake.origin), ...skippedAndUntagged()]);
    const run = await runCliAsync(['certify', 'memo.md', '--online'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`PASS_WITH_EXCEPTIONS: 17/20 (85.0%) confirmed; certificate written to ${CERTIFICATE}`);
    const markdown = readFileSync(join(dir, CERTIFICATE), 'utf8');
    const certificate = parse(markdown);
    recompute(certificate);
    expect(certificate.status).toBe('PASS_WITH_EXCEPTIONS');
    expect(certificate.failing.map((row) => [row[0], row[1], row[2], row[4]])).toEqual([
      ['18', 'Analysis', 'VERIFIED', 'UNCONFIRMED'],
      ['19', 'Analysis', 'INFERRED', 'ERROR'],
      ['20', 'Analysis', 'VERIFIED', 'UNCONFIRMED'],
    ]);
    expect(certificate.failing[2]?.[6]).toContain('needs-search');
    expect(certificate.sections).toEqual([
      ['Background', '17', '17', '0', '0', '0', '0'],
      ['Analysis', '3', '0', '2', '1', '2', '1'],
    ]);
    expect(markdown).toContain('| Statutory (structural) | 3 | 3 | 0 | 0 |');
    expect(markdown).toContain('| Skipped (ASSUMED / METHODOLOGY) | 2 | - | - | - |');
    expect(markdown).toContain('footnote/missing-tag');
    expect(markdown).toMatch(/- \*\*SHA-256:\*\* `[0-9a-f]{64}`/);

    const strict = await runCliAsync(['certify', 'memo.md', '--online', '--strict'], { cwd: dir, env: fake.env });
    expect(strict.code).toBe(1);
  });

  it('PASS at 95% or more, exit 0', async () => {
    const dir = project([...statutes(), ...pages(fake.origin, 16), ['Analysis', `Gone ${fake.origin}/web/gone [INFERRED: page]`]]);
    const run = await runCliAsync(['certify', 'memo.md', '--online'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(0);
    const certificate = parse(readFileSync(join(dir, CERTIFICATE), 'utf8'));
    recompute(certificate);
    expect([certificate.status, certificate.confirmed, certificate.verifiable]).toEqual(['PASS', 19, 20]);
  });

  it('HARD_FAIL on the seed 001 citations: a likely-fabricated DOI forces it even at a high rate', async () => {
    const notes: [string, string][] = [
      ...statutes(),
      ...pages(fake.origin, 30),
      ['Literature', 'Vaswani et al. (2017), "Attention Is All You Need", arXiv:1706.03762 [VERIFIED: arXiv - abs page]'],
      ['Literature', 'Hashimoto et al. (2024), JACM 71(4), DOI 10.1145/3676932.3676933 [VERIFIED: ACM DL - JACM]'],
      ['Literature', 'Lewis et al. (2020), GPT-3, arXiv:2005.14165 [INFERRED: arXiv - listing]'],
      ['Literature', 'Wakefield et al. (1998), The Lancet, doi:10.1016/S0140-6736(97)11096-0 [VERIFIED: Lancet - 351(9103)]'],
    ];
    const dir = project(notes);
    const run = await runCliAsync(['certify', 'memo.md', '--online', '--output', 'out/cert.md'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('HARD_FAIL: 34/37 (91.8%) confirmed; certificate written to out/cert.md');
    const markdown = readFileSync(join(dir, 'out/cert.md'), 'utf8');
    const certificate = parse(markdown);
    recompute(certificate);
    const reasons = Object.fromEntries(certificate.failing.map((row) => [row[0], [row[4], row[6]]]));
    expect(reasons['35']?.[0]).toBe('LIKELY-FABRICATED');
    expect(reasons['36']).toEqual(['UNCONFIRMED', expect.stringContaining('the first author is Brown')]);
    expect(reasons['37']).toEqual(['UNCONFIRMED', expect.stringContaining('retracted')]);
    expect(reasons['34']).toBeUndefined();
  });

  it('offline, URL footnotes count as ERROR and statutes still confirm by structure', async () => {
    const dir = project([...statutes(), ...pages(fake.origin, 2)]);
    const before = fake.count();
    const run = await runCliAsync(['certify', 'memo.md'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(1);
    expect(fake.count()).toBe(before);
    const markdown = readFileSync(join(dir, CERTIFICATE), 'utf8');
    const certificate = parse(markdown);
    recompute(certificate);
    expect([certificate.confirmed, certificate.verifiable]).toEqual([3, 5]);
    expect(certificate.failing.every((row) => row[4] === 'ERROR' && row[6]?.includes('run with --online'))).toBe(true);
    expect(markdown).toContain('- **Mode:** offline');
    expect(run.stdout).toContain('(offline: 2 URL, DOI or arXiv footnotes were not fetched and count as ERROR; run with --online)');
  });

  it('never passes on nothing: untagged footnotes alone, or a statute that cannot exist even untagged, HARD_FAIL', async () => {
    const untagged = project([
      ['Background', '42 U.S.C. § 1983 (2018).'],
      ['Background', 'Harlow v. Fitzgerald, 457 U.S. 800, 818 (1982).'],
    ]);
    const none = await runCliAsync(['certify', 'memo.md'], { cwd: untagged, env: fake.env });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('HARD_FAIL: 0/0 confirmed');
    expect(none.stdout).toContain('no footnote carries a VERIFIED or INFERRED tag, so nothing was verified');
    expect(readFileSync(join(untagged, CERTIFICATE), 'utf8')).toContain(
      'Determination: **HARD_FAIL** (no footnote carries a VERIFIED or INFERRED tag)',
    );

    const impossible = project([...statutes(), ['Background', '99 U.S.C. § 1 (a title that does not exist)']]);
    const run = await runCliAsync(['certify', 'memo.md'], { cwd: impossible, env: fake.env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('U.S.C. title 99 does not exist');
    expect(run.stdout).toContain('HARD_FAIL: 3/3 (100.0%) confirmed');
    expect(run.stdout).toContain('1 structural error above');

    // Only skipped footnotes (ASSUMED, METHODOLOGY): nothing needed verifying, so nothing fails.
    const skipped = project(skippedAndUntagged().slice(0, 2));
    expect((await runCliAsync(['certify', 'memo.md'], { cwd: skipped, env: fake.env })).code).toBe(0);
  });

  it('--state resumes without repeating requests, re-checks ERROR items and changed footnotes only', async () => {
    const notes: [string, string][] = [...pages(fake.origin, 4), ['Analysis', `Portal ${fake.origin}/web/forbidden [INFERRED: portal]`]];
    const dir = project(notes);
    const first = await runCliAsync(['certify', 'memo.md', '--online', '--no-cache', '--state', '.aiwg-cite/state/memo.json'], {
      cwd: dir,
      env: fake.env,
    });
    expect(first.code).toBe(1);
    const state = JSON.parse(readFileSync(join(dir, '.aiwg-cite/state/memo.json'), 'utf8'));
    expect(state).toMatchObject({
      version: 1,
      document: 'memo.md',
      status: 'complete',
      metrics: { verifiable: 5, confirmed: 4, checked: 5 },
    });
    expect(Object.keys(state.items)).toHaveLength(5);
    expect(state.errors).toHaveLength(1);

    const okBefore = fake.countOf('/web/ok-');
    const forbiddenBefore = fake.countOf('/web/forbidden');
    const second = await runCliAsync(['certify', 'memo.md', '--online', '--no-cache', '--state', '.aiwg-cite/state/memo.json'], {
      cwd: dir,
      env: fake.env,
    });
    expect(second.code).toBe(1);
    expect(fake.countOf('/web/ok-')).toBe(okBefore);
    expect(fake.countOf('/web/forbidden')).toBeGreaterThan(forbiddenBefore);
    const resumed = JSON.parse(readFileSync(join(dir, '.aiwg-cite/state/memo.json'), 'utf8'));
    expect(resumed.metrics).toMatchObject({ reused: 4, checked: 1 });
    expect(readFileSync(join(dir, CERTIFICATE), 'utf8')).toContain('url/unconfirmed: could not confirm the page: HTTP 403');

    notes[1] = ['Background', `Agency guidance ${fake.origin}/web/ok-moved [VERIFIED: ${fake.origin}/web/ok-moved]`];
    writeFileSync(join(dir, 'memo.md'), memo(notes));
    const third = await runCliAsync(['certify', 'memo.md', '--online', '--no-cache', '--state', '.aiwg-cite/state/memo.json'], {
      cwd: dir,
      env: fake.env,
    });
    expect(third.code).toBe(1);
    expect(fake.countOf('/web/ok-')).toBe(okBefore + 1);
    expect(fake.log.at(-3)).toBe('HEAD /web/ok-moved');
  });

  it('matches text footnotes against the corpus and bibliographies: REF ids, author-year, quoted titles', async () => {
    const dir = project([
      ['Literature', 'REF-001 on attention [VERIFIED: corpus - REF-001]'],
      ['Literature', 'LeCun et al. (2015) on deep learning [VERIFIED: library - catalogue]'],
      ['Literature', '"Attention Is All You Need" [INFERRED: title - memory]'],
      ['Literature', 'REF-099 on something else [VERIFIED: corpus - REF-099]'],
      ['Literature', 'LeCun et al. (2009) on convolution [VERIFIED: library - catalogue]'],
      ['Literature', 'Nobody et al. (2019) on nothing [INFERRED: memory - recall]'],
      ['Literature', 'Vaswani et al. (2017), arXiv:1706.03762 [VERIFIED: arXiv - listing]'],
    ]);
    writeTree(dir, {
      '.aiwg/research/sources/REF-001-attention.md': [
        '---',
        'ref: REF-001',
        'title: Attention Is All You Need',
        'authors: [Ashish Vaswani, Noam Shazeer]',
        'year: 2017',
        'arxiv: "1706.03762"',
        '---',
        '# REF-001: Attention Is All You Need',
        '',
      ].join('\n'),
      'refs.bib':
        '@article{lecun2015, author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey}, title = {Deep learning}, year = {2015}}\n',
    });
    const run = await runCliAsync(['certify', 'memo.md'], { cwd: dir, env: fake.env });
    const markdown = readFileSync(join(dir, CERTIFICATE), 'utf8');
    const certificate = parse(markdown);
    recompute(certificate);
    expect(run.code).toBe(1);
    expect([certificate.confirmed, certificate.verifiable]).toEqual([4, 7]);
    expect(certificate.failing.map((row) => [row[0], row[4], row[6]])).toEqual([
      ['4', 'UNCONFIRMED', '`REF-099` is not in the corpus'],
      ['5', 'UNCONFIRMED', expect.stringContaining('the corpus has LeCun only for 2015')],
      ['6', 'UNCONFIRMED', expect.stringContaining('needs-search')],
    ]);
  });

  it('an interrupted run resumes from --state without repeating a request it already made', async () => {
    const slow = await startFakeServices({ slowMs: 60_000 });
    try {
      const notes: [string, string][] = [...pages(slow.origin, 5), ['Analysis', `Slow site ${slow.origin}/web/slow [INFERRED: page]`]];
      const dir = project(notes);
      const statePath = join(dir, '.aiwg-cite/state/memo.json');
      const child = spawn(process.execPath, [CLI_ENTRY, 'certify', 'memo.md', '--online', '--no-cache', '--state', statePath], {
        cwd: dir,
        env: { ...process.env, ...slow.env, NO_COLOR: '1' },
        stdio: 'ignore',
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const deadline = Date.now() + 30_000;
      let saved = 0;
      while (Date.now() < deadline) {
        try {
          saved = Object.keys(JSON.parse(readFileSync(statePath, 'utf8')).items).length;
        } catch {
          saved = 0;
        }
        if (saved === 5 && slow.countOf('/web/slow') > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(saved).toBe(5);
      child.kill('SIGTERM');
      await closed;
      expect(() => readFileSync(join(dir, CERTIFICATE))).toThrow();

      const pagesBefore = slow.countOf('/web/ok-');
      const resumed = await runCliAsync(['certify', 'memo.md', '--online', '--no-cache', '--state', statePath], {
        cwd: dir,
        env: { ...slow.env, AIWG_CITE_HTTP_TIMEOUT_MS: '100' },
      });
      expect(slow.countOf('/web/ok-')).toBe(pagesBefore);
      expect(resumed.code).toBe(1);
      const certificate = parse(readFileSync(join(dir, CERTIFICATE), 'utf8'));
      recompute(certificate);
      expect([certificate.confirmed, certificate.verifiable]).toEqual([5, 6]);
      expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({ status: 'complete', metrics: { reused: 5, checked: 1 } });
    } finally {
      await slow.close();
    }
  });

  it('usage and input errors exit 2 with one clear line', async () => {
    const dir = project(statutes());
    const none = await runCliAsync(['certify'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name exactly one markdown file');
    const missing = await runCliAsync(['certify', 'nope.md'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.md: cannot read (no such file)');
    writeTree(dir, { 'state.json': '{"version": 7}' });
    const badState = await runCliAsync(['certify', 'memo.md', '--state', 'state.json'], { cwd: dir });
    expect(badState.code).toBe(2);
    expect(badState.stderr).toContain('not a certify state file');
  });
});
