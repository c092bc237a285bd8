import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedCorpus } from '@aiwg-cite/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from './online-helpers.ts';

/**
 * aiwg-cite run on real aiwg 2026.5.1 documents as a user of that project would (issue #3 item 6).
 * The corpus is read in place, never copied. Findings were reviewed by hand; the pinned counts
 * guard that review, and the oracles below recompute the expected status independently.
 */
const CORPUS = sharedCorpus('aiwg-2026.5.1', 'the real-corpus tests');
const ROOT = CORPUS ?? '';
const ENV = { AIWG_CITE_DATE: '2026-11-22' };

interface Finding {
  file: string;
  line: number;
  column: number;
  kind: string;
  text: string;
  status: string;
  severity: string;
  rule: string;
  path?: string;
}
interface Report {
  verdict: string;
  summary: { files: number; errors: number; warnings: number; kinds: Record<string, Record<string, number>> };
  citations: Finding[];
}

/**
 * The CLI on the corpus, as a real process that does not block the test worker (a check of the
 * whole corpus takes seconds; a synchronous spawn that long starves vitest's RPC under load).
 */
async function runLarge(args: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  const run = await runCliAsync(args, { cwd: ROOT, env });
  return { code: run.code, stdout: run.stdout };
}

let report: Report;
let withAiwgRoot: Report;

beforeAll(async () => {
  if (CORPUS === undefined) return;
  const run = await runLarge(['check', '--root', ROOT, '--format', 'json'], ENV);
  expect(run.code).toBe(1);
  report = JSON.parse(run.stdout) as Report;
  const mentions = await runLarge(['check', '--root', ROOT, '--format', 'json', '--corpus-only'], { ...ENV, AIWG_ROOT: ROOT });
  withAiwgRoot = JSON.parse(mentions.stdout) as Report;
}, 300_000);

const at = (file: string, text: string) => report.citations.filter((finding) => finding.file === file && finding.text === text);

describe.skipIf(CORPUS === undefined)('the aiwg 2026.5.1 corpus', () => {
  // Reviewed again after the issue-14 precision rules (finding by finding against the 0.1 report):
  // 9 identical copies (docs/addons/rlm/*, docs/frameworks/sdlc-complete/*) are checked once, at
  // the first, which takes 10 REF-089 errors, 52 mentions and 17 heuristic findings with them;
  // 7 documents that are not research writing lose their 20 heuristic findings (profile note);
  // 24 author-year findings on lines whose REF id names the source are held to that source (all
  // were REF-089/REF-169/REF-07x lines, ids reported missing themselves, or template text such as
  // "(Smith & Doe, 2023)"); 201 statistics were ranges, specification numbers, weights and SLAs
  // ("Low (11-30%)", "(100% accuracy)", "Flexibility (20%)"). Nothing true was lost but the
  // heuristic findings of the 7 non-research documents, which `--profile research` still shows.
  // Then 235 -> 186 statistics: the 47 gone (reviewed by sample) stand inside quotation marks
  // (quoted marketing copy, example claims, a quoted paper's "3× cheaper") or on a planned change
  // ("Canary rollout: 5% → 25% → 100%"); none was a claim the document makes itself.
  // Then 186 -> 165 statistics, all reviewed: 18 open tasks (success criteria "- [ ] 95% citation
  // accuracy", WCAG's "- [ ] Content works at 200% zoom"), one more zoom level, a rule of thumb's
  // condition ("If estimated total file size exceeds 50% of context window") and a progress bar;
  // and one mention found beside its document (`@REF-006-cognitive-load-theory.md` in
  // docs/references/, a sibling file).
  // Then 165 -> 146 statistics, all 19 reviewed: the example numbers of templates (the worked
  // Constitutional AI note in literature-note-template.md and REF-XXX-template.md, a gap report's
  // "+8% date diversity", "[95% CI: X-Y]", templates/summary.md's sample findings). The templates'
  // author-year citations stay checked (complex.md's "REF-001: Bandara et al. (2024)" below).
  it('gives the reviewed summary', () => {
    expect(report.summary.files).toBe(320);
    expect(report.summary.kinds).toEqual({
      ref: { found: 937, 'not-in-corpus': 135 },
      mention: { unresolvable: 1487, missing: 89, found: 53 },
      'author-year': { found: 285, 'year-mismatch': 63, 'author-not-in-corpus': 125 },
      statistic: { unsourced: 146 },
      arxiv: { unverified: 19, verified: 49 },
      doi: { unverified: 10, verified: 6 },
      grade: { unassessed: 26 },
      quote: { found: 18, 'missing-page': 4, 'not-found': 1 },
    });
  });

  it('passes exactly the REF ids that have a file in docs/references (independent oracle)', () => {
    const present = new Set(readdirSync(join(ROOT, 'docs/references')).flatMap((name) => /^(REF-\d{3})-/.exec(name)?.[1] ?? []));
    const refs = report.citations.filter((finding) => finding.kind === 'ref');
    expect(refs.length).toBeGreaterThan(1000);
    for (const finding of refs) {
      const stem = /^REF-\d{3}/.exec(finding.text)?.[0] ?? finding.text;
      expect(`${finding.text}:${finding.status}`).toBe(`${finding.text}:${present.has(stem) ? 'found' : 'not-in-corpus'}`);
      expect(finding.severity).toBe(present.has(stem) ? 'ok' : 'error');
    }
  });

  it('reports REF ids cited but absent from the corpus (true positives), once per document and not per copy', () => {
    const rlm = at('agentic/code/addons/rlm/rules/rlm-context-management.md', 'REF-086');
    expect(rlm.length).toBeGreaterThan(0);
    expect(rlm.every((finding) => finding.rule === 'ref/not-in-corpus')).toBe(true);
    const rlm089 = report.citations.filter((finding) => finding.text === 'REF-089' && finding.status === 'not-in-corpus');
    expect(rlm089.length).toBe(53);
    // docs/addons/rlm/ holds byte-identical copies of agentic/code/addons/rlm/docs/: checked at the first only.
    expect(rlm089.some((finding) => finding.file.startsWith('docs/addons/rlm/'))).toBe(false);
    expect(rlm089.some((finding) => finding.file === 'agentic/code/addons/rlm/docs/multi-provider-guide.md')).toBe(true);
  });

  it('never treats placeholders, ranges, paths or code as REF citations (true negatives)', () => {
    const texts = new Set(report.citations.filter((finding) => finding.kind === 'ref').map((finding) => finding.text));
    for (const placeholder of ['REF-XXX', 'REF-NNN', 'REF-YYY', 'REF-ZZZ', 'REF-XXX-template']) expect(texts.has(placeholder)).toBe(false);
    expect(at('AGENTS.md', 'REF-999').filter((finding) => finding.line === 31235)).toEqual([]);
    expect(report.citations.some((finding) => finding.kind === 'ref' && /REF-\d+\.md/.test(finding.text))).toBe(false);
  });

  it('reports .aiwg/ mentions as unresolvable by design (the directory was never committed), never as missing', () => {
    const aiwg = report.citations.filter((finding) => finding.kind === 'mention' && finding.text.startsWith('@.aiwg/'));
    expect(aiwg.length).toBeGreaterThan(300);
    expect(new Set(aiwg.map((finding) => `${finding.status}:${finding.severity}`))).toEqual(new Set(['unresolvable:info']));
    const unset = report.citations.filter((finding) => finding.kind === 'mention' && finding.text.startsWith('@$AIWG_ROOT/'));
    expect(new Set(unset.map((finding) => finding.status))).toEqual(new Set(['unresolvable']));
  });

  it('resolves @$AIWG_ROOT mentions against the files that exist when AIWG_ROOT is set (independent oracle)', () => {
    const mentions = withAiwgRoot.citations.filter((finding) => finding.text.startsWith('@$AIWG_ROOT/'));
    expect(mentions.length).toBeGreaterThan(1000);
    for (const finding of mentions) {
      const exists = existsSync(join(ROOT, finding.text.slice('@$AIWG_ROOT/'.length)));
      expect(`${finding.text}:${finding.status}`).toBe(`${finding.text}:${exists ? 'found' : 'missing'}`);
    }
    expect(new Set(withAiwgRoot.citations.map((finding) => finding.kind))).toEqual(new Set(['mention']));
  });

  it('flags a mention of a corpus PDF that is not there as an error (research path)', () => {
    const pdf = report.citations.find((finding) => finding.text === '@docs/references/pdfs/REF-005-miller-1956-magical-seven.pdf');
    expect(pdf).toMatchObject({ status: 'missing', severity: 'error' });
    expect(existsSync(join(ROOT, 'docs/references/pdfs/REF-005-miller-1956-magical-seven.pdf'))).toBe(false);
  });

  it('checks author-year citations against the APA lines of the corpus, and against the source a REF id on the line names', () => {
    expect(at('docs/releases/v2024.12.1-announcement.md', 'Bandara et al. (2025)')[0]?.status).toBe('found');
    const wrongYear = at('templates/agent-scaffolding/complex.md', 'Bandara et al. (2024)')[0];
    // "- REF-001: Bandara et al. (2024)": REF-001 is Bandara et al. (2025).
    expect(wrongYear).toMatchObject({ status: 'year-mismatch', severity: 'warning' });
    expect(readFileSync(join(ROOT, 'docs/references/REF-001-production-grade-agentic-workflows.md'), 'utf8')).toContain(
      'Loganathan, N. (2025)',
    );
    const found = report.citations
      .filter((finding) => finding.kind === 'author-year' && finding.status === 'found')
      .map((finding) => finding.text);
    for (const citation of ['Yao et al. (2023)', 'Miller (1956)', 'Sweller (1988)', 'Wei et al., 2022']) expect(found).toContain(citation);
    const notAuthors = report.citations.filter((finding) => finding.kind === 'author-year').map((finding) => finding.text);
    for (const title of ['Manifesto (2001)', 'Learners (2023)', 'ReAct (2023)', 'MetaGPT (2024)']) expect(notAuthors).not.toContain(title);
  });

  it("reports the corpus sources' own references as info, and author-year problems elsewhere as warnings", () => {
    const problems = report.citations.filter((finding) => finding.kind === 'author-year' && finding.status !== 'found');
    const own = problems.filter((finding) => finding.file.startsWith('docs/references/REF-'));
    expect(own.length).toBeGreaterThan(100);
    expect(new Set(own.map((finding) => finding.severity))).toEqual(new Set(['info']));
    const elsewhere = problems.filter((finding) => !finding.file.startsWith('docs/references/REF-'));
    expect(elsewhere.length).toBeGreaterThan(40);
    expect(new Set(elsewhere.map((finding) => finding.severity))).toEqual(new Set(['warning']));
  });

  it('finds a real quote in its source and catches a spliced, reordered one', () => {
    const quotes = report.citations.filter(
      (finding) => finding.file === 'docs/research/research-background.md' && finding.kind === 'quote',
    );
    expect(quotes.find((finding) => finding.line === 58)).toMatchObject({ status: 'found' });
    expect(quotes.find((finding) => finding.line === 121)).toMatchObject({ status: 'not-found', severity: 'error' });
  });

  it('verifies the DOIs and arXiv ids the corpus records and leaves unknown ones unverified', () => {
    const verified = report.citations
      .filter((finding) => finding.kind === 'doi' && finding.status === 'verified')
      .map((finding) => finding.text);
    expect(verified).toContain('10.1037/h0043158');
    expect(report.citations.find((finding) => finding.kind === 'arxiv' && finding.text === '2301.12345')).toMatchObject({
      status: 'unverified',
      severity: 'warning',
    });
    expect(report.citations.some((finding) => finding.kind === 'arxiv' && finding.status === 'malformed')).toBe(false);
  });
});
