import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocuments, createConfinedReader, createMemoryFileSystem, type Finding } from '@aiwg-cite/core';
import {
  classifyNetworkError,
  compareAttribution,
  createOnlineChecker,
  createPlainProgress,
  HttpClient,
  parseRetryAfter,
  Resolvers,
  ResultCache,
  readAttribution,
  resolveServiceUrls,
  titleSimilarity,
} from '@aiwg-cite/online';
import { tempDir } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServices, startFakeServices } from './fake-services.ts';

let fake: FakeServices;
beforeAll(async () => {
  fake = await startFakeServices({ slowMs: 2000 });
});
afterAll(async () => {
  await fake.close();
});

const NOW = new Date('2026-11-22T08:00:00Z');
const SECRET = new Uint8Array(32).fill(7);

function setup(options: { cache?: ResultCache | null; timeoutMs?: number; signal?: AbortSignal; env?: Record<string, string> } = {}) {
  const client = new HttpClient({
    userAgent: 'aiwg-cite-test',
    timeoutMs: options.timeoutMs ?? 5000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const resolvers = new Resolvers({
    client,
    cache: options.cache ?? null,
    urls: resolveServiceUrls(options.env ?? fake.env),
    now: () => NOW,
  });
  return { client, resolvers };
}

async function check(text: string, resolvers: Resolvers): Promise<Finding[]> {
  const reader = createConfinedReader(createMemoryFileSystem({ '/r/doc.md': text }), '/r');
  const checker = createOnlineChecker({ resolvers, now: { year: 2026, month: 11 } });
  const report = await checkDocuments({ reader, documents: ['doc.md'], checkers: [checker] });
  return [...report.citations];
}

const SEED_001 = [
  '# Claims',
  '',
  'Vaswani et al. (2017) introduced the Transformer in "Attention Is All You Need" (arXiv:1706.03762).',
  '',
  'Hashimoto et al. (2024) proved diffusion-model convergence in Foundations of Score-Based Generative Modeling, JACM 71(4), DOI 10.1145/3676932.3676933.',
  '',
  'A later model is described in arXiv:2509.99999.',
  '',
  'Lewis et al. introduced GPT-3 (arXiv:2005.14165).',
  '',
  'Wakefield et al. (1998) linked the MMR vaccine to autism (doi:10.1016/S0140-6736(97)11096-0).',
  '',
].join('\n');

describe('seed 001 citations against the fake services', () => {
  it('verifies, flags fabrications, the misattribution and the retraction, each with source and checkedAt', async () => {
    const { resolvers } = setup();
    const findings = await check(SEED_001, resolvers);
    const byText = new Map(findings.map((finding) => [finding.text, finding]));
    expect(findings.map((finding) => [finding.kind, finding.text, finding.status, finding.severity, finding.rule])).toEqual([
      ['arxiv', '1706.03762', 'verified', 'ok', 'arxiv/verified'],
      ['doi', '10.1145/3676932.3676933', 'fabricated', 'error', 'doi/fabricated'],
      ['arxiv', '2509.99999', 'fabricated', 'error', 'arxiv/fabricated'],
      ['arxiv', '2005.14165', 'misattributed', 'error', 'attribution/author-mismatch'],
      ['doi', '10.1016/S0140-6736(97)11096-0', 'retracted', 'error', 'doi/retracted'],
    ]);
    expect(byText.get('2005.14165')?.message).toContain('the first author is Brown');
    expect(byText.get('2005.14165')?.firstAuthor).toBe('Brown');
    expect(byText.get('10.1016/S0140-6736(97)11096-0')?.message).toContain('10.1016/S0140-6736(10)60175-4');
    expect(byText.get('10.1016/S0140-6736(97)11096-0')?.source).toBe('crossref');
    expect(byText.get('10.1145/3676932.3676933')?.source).toBe('doi.org');
    for (const finding of findings) expect(finding.checkedAt).toBe(NOW.toISOString());
  });

  it('verifies a DataCite DOI through content negotiation after Crossref answers 404', async () => {
    const { resolvers } = setup();
    const [finding] = await check('Okafor (2023) published the traces (doi:10.5281/zenodo.1234567).\n', resolvers);
    expect(finding).toMatchObject({
      status: 'verified',
      severity: 'ok',
      source: 'doi.org',
      title: 'Benchmark traces for citation checking',
    });
    expect(fake.log.some((line) => line.startsWith('GET /datacite/dois/'))).toBe(true);
  });

  it('keeps a correction as a note on a verified DOI', async () => {
    const { resolvers } = setup();
    const [finding] = await check('LeCun et al. (2015) reviewed deep learning (doi:10.1038/nature14539).\n', resolvers);
    expect(finding).toMatchObject({ status: 'verified', source: 'crossref' });
    expect(finding?.message).toContain('correction');
  });
});

describe('retraction sources and notices', () => {
  it('an expression of concern warns, a cited notice is info, an OpenAlex-only retraction is an error', async () => {
    const { resolvers } = setup();
    const findings = await check('A 10.9999/concern. B doi:10.1016/S0140-6736(10)60175-4. C 10.9999/openalex-retracted.\n', resolvers);
    expect(findings.map((finding) => [finding.text, finding.status, finding.severity, finding.rule, finding.source])).toEqual([
      ['10.9999/concern', 'verified', 'warning', 'doi/expression-of-concern', 'crossref'],
      ['10.1016/S0140-6736(10)60175-4', 'verified', 'info', 'doi/is-notice', 'crossref'],
      ['10.9999/openalex-retracted', 'retracted', 'error', 'doi/retracted', 'openalex'],
    ]);
    expect(findings[1]?.message).toContain('10.1016/S0140-6736(97)11096-0');
  });
});

describe('retraction through notices (Crossref reverse query)', () => {
  it('finds a retraction that only the notice records, and names the notice', async () => {
    const { resolvers } = setup();
    const [finding] = await check('Park (2019) is cited as doi:10.9999/notice-only here.\n', resolvers);
    expect(finding).toMatchObject({ status: 'retracted', severity: 'error', rule: 'doi/retracted', source: 'crossref' });
    expect(finding?.message).toContain('10.9999/notice-only-retraction');
    expect(fake.log.some((line) => line.startsWith('GET /crossref/works?filter=updates'))).toBe(true);
  });

  it('a failed notice query is never taken as "not retracted"', async () => {
    const { resolvers } = setup();
    const [finding] = await check('Berg (2020) doi:10.9999/reverse-broken is cited.\n', resolvers);
    expect(finding?.status).toBe('verified');
    expect(finding?.message).toMatch(/retraction status unknown \(Crossref notices: HTTP 500/);
  });
});

describe('faults never read as fabrication', () => {
  it('a handle API 500, malformed JSON and a timeout give unverified warnings', async () => {
    const { resolvers } = setup({ timeoutMs: 300 });
    const findings = await check('See 10.9999/handle-error and 10.9999/handle-malformed and 10.9999/handle-slow.\n', resolvers);
    expect(findings.map((finding) => [finding.text, finding.status, finding.severity])).toEqual([
      ['10.9999/handle-error', 'unverified', 'warning'],
      ['10.9999/handle-malformed', 'unverified', 'warning'],
      ['10.9999/handle-slow', 'unverified', 'warning'],
    ]);
    expect(findings[0]?.message).toContain('HTTP 500');
    expect(findings[1]?.message).toContain('not handle JSON');
    expect(findings[2]?.message).toContain('no answer within 0.3 s');
  });

  it('retries a 500 twice before giving up', async () => {
    const before = fake.countOf('/doi/api/handles/10.9999/handle-error');
    const { resolvers } = setup();
    await check('See 10.9999/handle-error.\n', resolvers);
    expect(fake.countOf('/doi/api/handles/10.9999/handle-error') - before).toBe(3);
  });

  it('broken Crossref JSON leaves the DOI verified by doi.org without metadata', async () => {
    const { resolvers } = setup();
    const [finding] = await check('See doi:10.9999/crossref-broken.\n', resolvers);
    expect(finding).toMatchObject({ status: 'verified', source: 'doi.org' });
    expect(finding?.message).toContain('no metadata');
  });

  it('an unreachable service gives unverified findings quickly, one connection attempt per host', async () => {
    const closed = await startFakeServices();
    const env = closed.env;
    await closed.close();
    const { client, resolvers } = setup({ env });
    const findings = await check(
      '10.1038/nature14539 and 10.5281/zenodo.1234567 and arXiv:1706.03762 and http://127.0.0.1:9/web/ok\n',
      resolvers,
    );
    expect(findings.map((finding) => finding.status)).toEqual(['unverified', 'unverified', 'unverified', 'unconfirmed']);
    expect(findings[0]?.message).toContain('cannot connect');
    expect(client.requests).toBeLessThanOrEqual(4);
  });

  it('the run budget aborts everything still waiting', async () => {
    const budget = new AbortController();
    const { resolvers } = setup({ signal: budget.signal });
    const pending = check(`See ${fake.origin}/web/slow for details.\n`, resolvers);
    budget.abort(new Error('budget'));
    const [finding] = await pending;
    expect(finding).toMatchObject({ status: 'unconfirmed', severity: 'warning' });
    expect(finding?.message).toContain('ran out of time');
  });
});

describe('URL liveness', () => {
  it('maps statuses: 2xx alive, 404/410 dead, 403/500/loops/resets unconfirmed, HEAD 405 falls back to GET', async () => {
    const { resolvers } = setup();
    const pages = ['ok', 'gone', 'removed', 'forbidden', 'server-error', 'no-head', 'loop', 'moved', 'chain/0', 'reset'];
    const text = pages.map((page) => `- [${page}](${fake.origin}/web/${page})`).join('\n');
    const findings = await check(`${text}\n`, resolvers);
    expect(findings.map((finding) => [finding.text.replace(fake.origin, ''), finding.status])).toEqual([
      ['/web/ok', 'alive'],
      ['/web/gone', 'dead'],
      ['/web/removed', 'dead'],
      ['/web/forbidden', 'unconfirmed'],
      ['/web/server-error', 'unconfirmed'],
      ['/web/no-head', 'alive'],
      ['/web/loop', 'unconfirmed'],
      ['/web/moved', 'alive'],
      ['/web/chain/0', 'unconfirmed'],
      ['/web/reset', 'unconfirmed'],
    ]);
    expect(findings[1]).toMatchObject({ severity: 'error', rule: 'url/dead' });
    expect(findings[3]?.message).toContain('not deadness');
    expect(findings[6]?.message).toContain('redirect loop');
    expect(findings[7]?.message).toContain('/web/hop/3');
    expect(findings[8]?.message).toContain('more than 10 redirects');
    expect(fake.log).toContain('GET /web/no-head');
  });

  it('waits out a 429 with Retry-After and gives up on a demanded wait over 60 s', async () => {
    const { resolvers } = setup();
    const findings = await check(`- ${fake.origin}/web/busy\n- ${fake.origin}/web/busy-long\n`, resolvers);
    expect(findings.map((finding) => finding.status)).toEqual(['alive', 'unconfirmed']);
    expect(findings[1]?.message).toContain('3600 s');
    expect(fake.countOf('/web/busy-long')).toBe(1);
  });

  it('sends at most two requests at once to one host', async () => {
    const { resolvers } = setup();
    const text = Array.from({ length: 6 }, (_, index) => `- ${fake.origin}/web/parallel/${index}`).join('\n');
    fake.resetMaxInFlight();
    const findings = await check(`${text}\n`, resolvers);
    expect(findings.map((finding) => finding.status)).toEqual(Array(6).fill('alive'));
    expect(fake.maxInFlight()).toBe(2);
  });

  it('fetches only http and https and skips code', async () => {
    const { client, resolvers } = setup();
    const findings = await check(
      'ftp://example.test/x and `http://127.0.0.1:9/in-code`\n\n```\nhttp://127.0.0.1:9/fenced\n```\n',
      resolvers,
    );
    expect(findings).toEqual([]);
    expect(client.requests).toBe(0);
  });
});

describe('cache', () => {
  it('a warm second run makes zero requests and reports cached results', async () => {
    const dir = tempDir();
    const path = join(dir, '.aiwg-cite', 'cache.jsonl');
    const warn = (message: string) => {
      throw new Error(message);
    };
    const cold = ResultCache.load(path, { warn, secret: SECRET });
    const first = await check(SEED_001, setup({ cache: cold }).resolvers);
    cold.save(NOW.getTime());
    expect(readFileSync(join(dir, '.aiwg-cite', '.gitignore'), 'utf8')).toBe('*\n');

    const before = fake.count();
    const warm = ResultCache.load(path, { warn, secret: SECRET });
    const { client, resolvers } = setup({ cache: warm });
    const second = await check(SEED_001, resolvers);
    expect(client.requests).toBe(0);
    expect(fake.count()).toBe(before);
    expect(second.map((finding) => [finding.text, finding.status, finding.checkedAt])).toEqual(
      first.map((finding) => [finding.text, finding.status, finding.checkedAt]),
    );
    expect(second.every((finding) => finding.cached === true)).toBe(true);
  });

  it('never caches transient failures', async () => {
    const dir = tempDir();
    const cache = ResultCache.load(join(dir, 'cache.jsonl'), { warn: () => {}, secret: SECRET });
    await check(
      `See 10.9999/handle-error and ${fake.origin}/web/server-error and ${fake.origin}/web/forbidden.\n`,
      setup({ cache }).resolvers,
    );
    expect(cache.written).toBe(0);
  });

  it('discards a corrupt or half-written file with a warning and merges concurrent writers', async () => {
    const dir = tempDir();
    const path = join(dir, 'cache.jsonl');
    writeFileSync(
      path,
      '{"key":"url:http://a.test/","status":"alive","code":200,"checked_at":"2026-11-22T00:00:00Z","resolver":"http","data":{}}\n{"key":"url:http://b',
    );
    const warnings: string[] = [];
    const cache = ResultCache.load(path, { warn: (message) => warnings.push(message), secret: SECRET });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('line 2 is not JSON');
    expect(cache.get('url:http://a.test/', NOW.getTime())).toBeUndefined();

    const entry = (key: string, checked: string) => ({
      key,
      status: 'alive',
      code: 200,
      checked_at: checked,
      resolver: 'http',
      data: { who: key },
    });
    const one = ResultCache.load(path, { warn: () => {}, secret: SECRET });
    const two = ResultCache.load(path, { warn: () => {}, secret: SECRET });
    one.set(entry('url:http://one.test/', '2026-11-22T07:00:00Z'));
    one.set(entry('url:http://both.test/', '2026-11-22T07:30:00Z'));
    two.set(entry('url:http://two.test/', '2026-11-22T07:00:00Z'));
    two.set({ ...entry('url:http://both.test/', '2026-11-22T07:00:00Z'), status: 'dead' });
    one.save(NOW.getTime());
    two.save(NOW.getTime());
    const merged = ResultCache.load(path, { warn: () => {}, secret: SECRET });
    expect(merged.get('url:http://one.test/', NOW.getTime())?.status).toBe('alive');
    expect(merged.get('url:http://two.test/', NOW.getTime())?.status).toBe('alive');
    expect(merged.get('url:http://both.test/', NOW.getTime())?.status).toBe('alive');
  });

  it('drops expired entries from the file when it saves', () => {
    const dir = tempDir();
    const path = join(dir, 'cache.jsonl');
    const old = { key: 'url:http://old.test/', status: 'alive', code: 200, checked_at: '2026-10-01T00:00:00Z', resolver: 'http', data: {} };
    const writer = ResultCache.load(path, { warn: () => {}, secret: SECRET });
    writer.set(old);
    writer.save(Date.parse('2026-10-01T01:00:00Z'));
    const cache = ResultCache.load(path, { warn: () => {}, secret: SECRET });
    cache.set({ ...old, key: 'url:http://new.test/', checked_at: NOW.toISOString() });
    cache.save(NOW.getTime());
    const keys = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).key);
    expect(keys).toEqual(['url:http://new.test/']);
  });

  it('expires entries by outcome: not-found after a day, exists after 30 days', () => {
    const dir = tempDir();
    const cache = ResultCache.load(join(dir, 'cache.jsonl'), { warn: () => {}, secret: SECRET });
    cache.set({ key: 'doi:10.1/a', status: 'exists', code: 200, checked_at: '2026-11-01T00:00:00Z', resolver: 'crossref', data: {} });
    cache.set({ key: 'doi:10.1/b', status: 'not-found', code: 404, checked_at: '2026-11-20T00:00:00Z', resolver: 'doi.org', data: {} });
    expect(cache.get('doi:10.1/a', NOW.getTime())).toBeDefined();
    expect(cache.get('doi:10.1/b', NOW.getTime())).toBeUndefined();
  });
});

describe('attribution', () => {
  it('reads surnames and years in the common author-year forms', () => {
    expect(readAttribution('Lewis et al. introduced GPT-3 (arXiv:', 36)).toMatchObject({ surnames: ['Lewis'], year: null });
    expect(readAttribution('as shown (Smith, 2019) in ', 20)).toMatchObject({ surnames: ['Smith'], year: 2019 });
    expect(readAttribution('Smith and Jones (2020) argue ', 25)).toMatchObject({ surnames: ['Smith', 'Jones'], year: 2020 });
    expect(readAttribution('In 2019 the paper ', 10)).toMatchObject({ surnames: [], year: null });
    expect(readAttribution('Lewis et al. introduced it in 2019 ', 30)).toMatchObject({ surnames: ['Lewis'], year: 2019 });
  });

  it('compares with metadata: author mismatch, overlap, year and title', () => {
    const work = { title: 'Language Models are Few-Shot Learners', authors: ['Brown', 'Mann', 'Ryder'], year: 2020 };
    expect(compareAttribution({ surnames: ['Lewis'], year: null, title: null }, work)).toEqual({
      kind: 'author-mismatch',
      firstAuthor: 'Brown',
    });
    expect(compareAttribution({ surnames: ['Brown'], year: 2020, title: null }, work)).toEqual({ kind: 'ok' });
    expect(compareAttribution({ surnames: ['Brown'], year: 2017, title: null }, work)).toEqual({ kind: 'year', cited: 2017, actual: 2020 });
    expect(compareAttribution({ surnames: ['Mann', 'Brown'], year: 2020, title: null }, work)).toEqual({ kind: 'ok' });
    expect(compareAttribution({ surnames: ['Brown', 'Smith', 'Jones'], year: 2020, title: null }, work).kind).toBe('author-overlap');
    expect(compareAttribution({ surnames: ['Smith', 'Brown'], year: 2020, title: null }, work).kind).toBe('author-overlap');
    expect(compareAttribution({ surnames: ['Lewis'], year: null, title: 'Retrieval-augmented generation for NLP' }, work).kind).toBe(
      'different-work',
    );
    expect(titleSimilarity('Attention Is All You Need', 'attention is all you need.')).toBe(1);
  });
});

describe('configuration', () => {
  it('rejects a base URL that is not http(s) and parses Retry-After forms', () => {
    expect(() => resolveServiceUrls({ AIWG_CITE_CROSSREF_URL: 'ftp://mirror.test' })).toThrow(/AIWG_CITE_CROSSREF_URL/);
    expect(resolveServiceUrls({}).arxiv).toBe('https://export.arxiv.org/api');
    expect(parseRetryAfter('5', 0)).toBe(5000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 0)).toBe(10_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});

describe('network errors and progress', () => {
  it('classifies undici causes: refused, DNS, TLS, reset', () => {
    const wrap = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
    expect(classifyNetworkError(wrap(new AggregateError([{ code: 'ECONNREFUSED' }, { code: 'ECONNREFUSED' }]))).failure).toBe('refused');
    expect(classifyNetworkError(wrap({ code: 'ENOTFOUND' })).failure).toBe('dns');
    expect(classifyNetworkError(wrap({ code: 'CERT_HAS_EXPIRED' })).failure).toBe('tls');
    expect(classifyNetworkError(wrap({ code: 'UND_ERR_SOCKET' })).failure).toBe('reset');
    expect(classifyNetworkError(new Error('odd')).failure).toBe('network');
  });

  it('plain progress writes nothing per lookup and one line of totals at the end', async () => {
    const lines: string[] = [];
    const progress = createPlainProgress({ write: (text: string) => lines.push(text) });
    const client = new HttpClient({ userAgent: 'aiwg-cite-test' });
    const resolvers = new Resolvers({
      client,
      cache: null,
      urls: resolveServiceUrls(fake.env),
      now: () => NOW,
      listener: progress.listener,
    });
    await check(`Vaswani et al. (2017), arXiv:1706.03762, and ${fake.origin}/web/ok.\n`, resolvers);
    await progress.stop();
    expect(lines).toEqual(['aiwg-cite online: arxiv: 1 resolved, 0 remaining; url: 1 resolved, 0 remaining\n']);
  });

  it('plain progress says in one line when the network answered nothing', async () => {
    const lines: string[] = [];
    const progress = createPlainProgress({ write: (text: string) => lines.push(text) });
    for (const resolver of ['doi', 'url', 'url'] as const) {
      progress.listener(resolver, 'start', { cached: false });
      progress.listener(resolver, 'done', { cached: false, outcome: 'unknown' });
    }
    await progress.stop();
    expect(lines).toEqual(['aiwg-cite online: no answer from the network for 3 lookups (offline?); they are reported as unknown\n']);
  });
});
