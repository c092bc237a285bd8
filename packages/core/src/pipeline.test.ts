import { describe, expect, it } from 'vitest';
import { ArtifactCache } from './artifacts.ts';
import { type DocumentChecker, type ResultPort, rlmChecker } from './check.ts';
import { contentHash } from './hash.ts';
import { type HistoryFacts, pinKey } from './history-verdict.ts';
import { verdictJsonWriter, writeOkJson } from './interop/verdict-model.ts';
import { createMemoryFileSystem } from './memory-fs.ts';
import { type BatchHelper, type BatchShare, checkDocumentShare, type RunStage, runPipeline } from './pipeline.ts';
import { createConfinedReader } from './reader.ts';
import { type Finding, inReportOrder } from './report.ts';
import { memoryResultStorage, ResultCache } from './result-cache.ts';

const reader = createConfinedReader(
  createMemoryFileSystem({ '/repo/a.md': 'See [src/gone.ts, L1-2] and [src/also-gone.ts].\n', '/repo/b.md': 'Nothing cited.\n' }),
  '/repo',
);

describe('runPipeline: run-level stages feed the one report (issue 12)', () => {
  it('takes revised findings, settles added ones and keeps notes in stage order, all in the single build', async () => {
    const seen: number[] = [];
    const corpus: RunStage = {
      run(findings) {
        seen.push(findings.length);
        const revised = findings.map((finding) =>
          finding.text.includes('also-gone') ? { ...finding, severity: 'info' as const } : finding,
        );
        const first = findings[0] as Finding;
        const added: Finding = {
          ...first,
          kind: 'corpus',
          status: 'absent',
          rule: 'corpus/absent',
          severity: 'warning',
          message: 'run-level',
        };
        return { revised, findings: [added], notes: ['corpus: a note'] };
      },
    };
    const online: RunStage = {
      run(findings) {
        seen.push(findings.length);
        return { notes: ['online: 0 requests'] };
      },
    };
    const result = await runPipeline({
      ports: { discover: () => ['a.md', 'b.md'], reader, corpus, online },
      options: { severityOverrides: { 'corpus/absent': 'error' } },
    });
    // The online stage saw the corpus stage's finding: stages run in order over one list.
    expect(seen).toEqual([2, 3]);
    const { report } = result;
    expect(report.citations.map((finding) => `${finding.rule}:${finding.severity}:${finding.text}`)).toEqual([
      'corpus/absent:error:[src/gone.ts, L1-2]',
      'rlm/missing:error:[src/gone.ts, L1-2]',
      'rlm/missing:info:[src/also-gone.ts]',
    ]);
    expect(report.summary).toMatchObject({ files: 2, citations: 3, errors: 2, warnings: 0, infos: 1 });
    expect(report.verdict).toBe('FAIL');
    expect(report.coverage.notes).toEqual(['corpus: a note', 'online: 0 requests']);
  });
});

describe('runPipeline with countOk: citations that check out are counted, not kept (issue 18)', () => {
  const encoder = new TextEncoder();
  const source = 'one\ntwo\nthree\n';

  async function files(): Promise<Record<string, string>> {
    const hash = await contentHash(encoder.encode(source));
    return {
      '/repo/src/a.ts': source,
      '/repo/fresh.md': `Fresh [src/a.ts@${hash}, L1-2] and again [src/a.ts@${hash}, L2-3].\n`,
      '/repo/mixed.md': `Fresh [src/a.ts@${hash}, L1], unversioned [src/a.ts, L1] and gone [src/gone.ts].\n`,
      // A suppression comment may hide a citation that checks out: this document keeps its own.
      '/repo/quiet.md': `<!-- aiwg-cite-disable-next-line rlm/missing -->\nGone [src/gone.ts], fresh [src/a.ts@${hash}, L3].\n`,
    };
  }

  function memoryResults(): ResultPort {
    return { cache: new ResultCache(memoryResultStorage(), 'test') };
  }

  async function run(countOk: boolean, results?: ResultPort) {
    const reader = createConfinedReader(createMemoryFileSystem(await files()), '/repo');
    return runPipeline({
      ports: { discover: () => ['fresh.md', 'mixed.md', 'quiet.md'], reader, ...(results === undefined ? {} : { results }) },
      countOk,
    });
  }

  it('gives the summary of a run that keeps them, and the same other citations', async () => {
    const kept = await run(false);
    const okFindings = kept.report.citations.filter((finding) => finding.severity === 'ok');
    expect(okFindings.map((finding) => finding.file)).toEqual(['fresh.md', 'fresh.md', 'mixed.md', 'quiet.md']);
    const results = memoryResults();
    // Checked, then every document answered from the cache: the same report both times.
    for (const pass of ['checked', 'cached']) {
      const counted = await run(true, results);
      expect(counted.report.summary, pass).toEqual(kept.report.summary);
      expect(counted.report.verdict).toBe(kept.report.verdict);
      expect(counted.report.coverage).toEqual(kept.report.coverage);
      const fromCache = pass === 'cached';
      // From the cache a suppressed document's stored findings are settled already: its fresh one is counted too.
      expect(counted.report.citations).toEqual(
        kept.report.citations.filter((finding) => finding.severity !== 'ok' || (!fromCache && finding.file === 'quiet.md')),
      );
      expect([...counted.ok]).toEqual([['rlm\u0000fresh\u0000rlm/fresh', fromCache ? 4 : 3]]);
    }
    expect(results.cache.stats).toEqual({ hits: 3, misses: 3, unstored: 0, onTree: 0 });
    expect((await run(false)).ok.size).toBe(0);
  });
});

describe('runPipeline with okJson: citations that check out kept as their report text (issue 13)', () => {
  const encoder = new TextEncoder();
  const source = 'one\ntwo\nthree\n';

  /** Findings of a kind of their own beside the RLM ones: one that checks out where a warning of the same kind stands. */
  const sameSpot: DocumentChecker = {
    name: 'spot',
    async check({ file }) {
      if (file !== 'tie.md') return { findings: [] };
      const at = { file, line: 1, column: 1, kind: 'spot', text: 'x', rule: 'spot/x', message: 'm', fix: null };
      return {
        findings: [
          { ...at, status: 'seen', severity: 'warning' },
          { ...at, status: 'fine', severity: 'ok' },
        ],
      };
    },
  };

  /** A later stage that adds a finding where a citation that checked out stands (same place, same kind). */
  const addsAtFresh: RunStage = {
    run: () => ({
      findings: [
        {
          file: 'b.md',
          line: 1,
          column: 7,
          kind: 'rlm',
          text: 'added',
          status: 'missing',
          severity: 'error',
          rule: 'rlm/missing',
          message: 'added',
          fix: null,
        },
      ],
    }),
  };

  async function run(okJson: boolean, results?: ResultPort) {
    const hash = await contentHash(encoder.encode(source));
    const files = {
      '/repo/src/a.ts': source,
      '/repo/b.md': `Fresh [src/a.ts@${hash}, L1-2], gone [src/gone.ts] and fresh [src/a.ts@${hash}, L3].\nAgain [src/a.ts@${hash}, L2].\n`,
      '/repo/a.md': `Unversioned [src/a.ts, L1] then fresh [src/a.ts@${hash}, L1].\n`,
      '/repo/only-fresh.md': `Fresh [src/a.ts@${hash}, L1].\n`,
      '/repo/quiet.md': `<!-- aiwg-cite-disable-next-line rlm/missing -->\nGone [src/gone.ts], fresh [src/a.ts@${hash}, L3].\n`,
      '/repo/tie.md': 'Nothing cited.\n',
    };
    const reader = createConfinedReader(createMemoryFileSystem(files), '/repo');
    return runPipeline({
      ports: {
        discover: () => ['only-fresh.md', 'b.md', 'tie.md', 'a.md', 'quiet.md'],
        reader,
        corpus: addsAtFresh,
        ...(results === undefined ? {} : { results }),
      },
      checkers: [rlmChecker, sameSpot],
      countOk: okJson,
      okJson,
    });
  }

  /** The citations as `check --format json` writes them, texts placed among the findings. */
  function citationsJson(result: Awaited<ReturnType<typeof run>>): string {
    const write = verdictJsonWriter();
    const pieces: string[] = [];
    inReportOrder(
      result.report.citations,
      result.okJson,
      (finding) => pieces.push(write(finding)),
      (texts, from, to) =>
        writeOkJson(texts, from, to, (text) => pieces.push(typeof text === 'string' ? text : new TextDecoder().decode(text))),
    );
    return pieces.join(',');
  }

  it('writes the report a run that keeps them writes: citations, order, summary (kinds in report order), checked and from the cache', async () => {
    const kept = await run(false);
    expect(kept.okJson.size).toBe(0);
    const keptJson = citationsJson(kept);
    // The added finding stands where b.md's first fresh citation stands: after it, as a full sort puts it.
    expect(kept.report.citations.filter((finding) => finding.file === 'b.md').map((finding) => finding.status)).toEqual([
      'fresh',
      'missing',
      'missing',
      'fresh',
      'fresh',
    ]);
    const results: ResultPort = { cache: new ResultCache(memoryResultStorage(), 'test') };
    for (const pass of ['no cache', 'checked', 'cached']) {
      const texts = await run(true, pass === 'no cache' ? undefined : results);
      expect(citationsJson(texts), pass).toBe(keptJson);
      expect(JSON.stringify(texts.report.summary), pass).toBe(JSON.stringify(kept.report.summary));
      expect(texts.report.verdict).toBe(kept.report.verdict);
      // tie.md's finding that checked out shares its place and kind with a warning: kept as a finding, like quiet.md's.
      expect([...texts.okJson.keys()].sort(), pass).toEqual(
        pass === 'cached' ? ['a.md', 'b.md', 'only-fresh.md', 'quiet.md'] : ['a.md', 'b.md', 'only-fresh.md'],
      );
      expect(texts.report.citations.filter((finding) => finding.severity === 'ok').map((finding) => finding.file)).toEqual(
        pass === 'cached' ? ['tie.md'] : ['quiet.md', 'tie.md'],
      );
    }
    expect(results.cache.stats).toEqual({ hits: 5, misses: 5, unstored: 0, onTree: 0 });
  });
});

describe('checkDocumentBatch with a helper thread: its share taken as the run’s own (issues 13 and 18)', () => {
  const encoder = new TextEncoder();
  const source = 'one\ntwo\nthree\n';

  async function tree(): Promise<Record<string, string | Uint8Array>> {
    const hash = await contentHash(encoder.encode(source));
    const documents: Record<string, string | Uint8Array> = {
      '/repo/src/a.ts': source,
      // UTF-16 with a byte-order mark (a coverage note), and a binary file (skipped): the first
      // two of the queue, so the helper's first batch.
      '/repo/a-wide.md': new Uint8Array([0xff, 0xfe, ...[...'Gone [src/w.ts].\n'].flatMap((char) => [char.charCodeAt(0), 0])]),
      '/repo/binary.md': new Uint8Array([0x47, 0x00, 0x01, 0x02]),
    };
    for (let at = 0; at < 24; at += 1) {
      documents[`/repo/d${String(at).padStart(2, '0')}.md`] =
        at % 4 === 0
          ? `<!-- aiwg-cite-disable-next-line rlm/missing -->\nGone [src/gone${at}.ts], fresh [src/a.ts@${hash}, L3].\n`
          : `Fresh [src/a.ts@${hash}, L1-2], made up [src/a.ts@0123456789abcdef, L1], gone [src/gone${at}.ts].\n`;
    }
    return documents;
  }

  /** A helper in this thread, over its own reader and ports: it takes batches of two from the shared queue. */
  function inProcessHelper(documents: Record<string, string | Uint8Array>, plan: { countOk: boolean; okJson: boolean }, fail = false) {
    const taken: string[] = [];
    const helper: BatchHelper = {
      minimum: 1,
      start(files) {
        let at = 0;
        let begun = (): void => undefined;
        const started = new Promise<void>((resolve) => {
          begun = resolve;
        });
        const ports = { reader: createConfinedReader(createMemoryFileSystem(documents), '/repo'), ...plan };
        const artifacts = new ArtifactCache(ports.reader);
        const take = () => {
          const batch = files.slice(at, at + 2);
          at += batch.length;
          taken.push(...batch);
          begun();
          return batch;
        };
        const parts: BatchShare[] = [];
        const done = checkDocumentShare(take, { ...ports, artifactsFor: () => artifacts }, (part) => parts.push(part)).then(() => {
          if (fail) throw new Error('the helper is gone');
          return parts;
        });
        // This thread stops for a turn of the event loop every third document it checks.
        let checked = 0;
        const pause = () => (++checked % 3 === 0 ? new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => void pauses++) : null);
        return { next: () => files[at++], done, started, pause };
      },
    };
    let pauses = 0;
    return { helper, taken, pauses: () => pauses };
  }

  it('gives the report of a run on one thread, keeping, counting or writing the citations that check out, and when the helper fails', async () => {
    const documents = await tree();
    const names = Object.keys(documents)
      .filter((path) => path.endsWith('.md'))
      .map((path) => path.slice('/repo/'.length))
      .sort();
    for (const plan of [
      { countOk: false, okJson: false },
      { countOk: true, okJson: false },
      { countOk: true, okJson: true },
    ]) {
      const run = (helper?: BatchHelper) =>
        runPipeline({
          ports: {
            discover: () => names,
            reader: createConfinedReader(createMemoryFileSystem(documents), '/repo'),
            ...(helper === undefined ? {} : { helper }),
          },
          ...plan,
        });
      const alone = await run();
      expect(alone.report.coverage.notes.join('\n')).toContain('a-wide.md');
      for (const fail of [false, true]) {
        const { helper, taken, pauses } = inProcessHelper(documents, plan, fail);
        const helped = await run(helper);
        expect(pauses()).toBeGreaterThan(0);
        // The helper took documents (its first batch before this thread took any), and not all of them.
        expect(taken.length).toBeGreaterThanOrEqual(2);
        expect(taken.length).toBeLessThan(names.length);
        expect(helped.report, `${JSON.stringify(plan)} fail=${fail}`).toEqual(alone.report);
        expect([...helped.ok]).toEqual([...alone.ok]);
        expect([...helped.okJson]).toEqual([...alone.okJson]);
      }
    }
  });
});

describe('runPipeline with stored results: git judges a stale pin before the settle stage does (issue 18)', () => {
  const source = 'one\ntwo\n';
  const files = {
    '/repo/src/a.ts': source,
    '/repo/made-up.md': 'Made up [src/a.ts@0123456789abcdef, L1].\n',
    // A suppression naming `rlm/stale` hides the pin while it is stale, not once git calls it unknown.
    '/repo/named.md': '<!-- aiwg-cite-disable-next-line rlm/stale -->\nMade up [src/a.ts@0123456789abcdef, L2].\n',
    // The same comment over a pin git knows: it stays stale, and the comment hides it.
    '/repo/older.md': '<!-- aiwg-cite-disable-next-line rlm/stale -->\nOlder [src/a.ts@ffffffffffffffff, L2].\n',
  };
  /** Git as a port: it knows one version of `src/a.ts` besides the current one, `ffffffffffffffff`. */
  const history: HistoryFacts = {
    lookup: async (pins) => ({
      kind: 'facts',
      facts: new Map(pins.map((pin) => [pinKey(pin), { tracked: true, known: pin.hash === 'ffffffffffffffff', workingTree: false }])),
      searched: ['history'],
    }),
  };

  it('turns `rlm/stale` off and still reports the unknown hash when the result comes from the cache', async () => {
    const results: ResultPort = { cache: new ResultCache(memoryResultStorage(), 'test') };
    const run = (withResults: boolean) =>
      runPipeline({
        ports: {
          discover: () => ['made-up.md', 'named.md', 'older.md'],
          reader: createConfinedReader(createMemoryFileSystem(files), '/repo'),
          history,
          ...(withResults ? { results } : {}),
        },
        options: { severityOverrides: { 'rlm/stale': 'off' } },
        countOk: true,
      });
    const uncached = await run(false);
    expect(uncached.report.citations.map((finding) => `${finding.file} ${finding.rule}`)).toEqual([
      'made-up.md rlm/unknown-hash',
      'named.md rlm/unknown-hash',
    ]);
    expect(uncached.report.coverage.suppressed).toBe(1);
    for (const pass of ['checked', 'cached']) expect((await run(true)).report, pass).toEqual(uncached.report);
    // Every document is stored, and answered from the cache the second time: the comment on a
    // stale pin's line is stored with it and applied after git's answer, as without the cache.
    expect(results.cache.stats).toEqual({ hits: 3, misses: 3, unstored: 0, onTree: 0 });
  });
});
