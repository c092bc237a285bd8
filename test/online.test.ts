import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServices, startFakeServices } from '../packages/online/test/fake-services.ts';
import { runCliAsync } from './online-helpers.ts';

let fake: FakeServices;
beforeAll(async () => {
  fake = await startFakeServices({ slowMs: 1500 });
});
afterAll(async () => {
  await fake.close();
});

const seedDocument = (origin: string) =>
  [
    '# Seed 001',
    '',
    'Vaswani et al. (2017) introduced the Transformer in "Attention Is All You Need" (arXiv:1706.03762).',
    '',
    'Hashimoto et al. (2024) proved diffusion-model convergence in Foundations of Score-Based Generative Modeling, JACM 71(4), DOI 10.1145/3676932.3676933.',
    '',
    'A successor appeared as arXiv:2509.99999.',
    '',
    'Lewis et al. introduced GPT-3 (arXiv:2005.14165).',
    '',
    'Wakefield et al. (1998) linked the MMR vaccine to autism (doi:10.1016/S0140-6736(97)11096-0).',
    '',
    `The [agency page](${origin}/web/ok) is up; the [old report](${origin}/web/gone) is not.`,
    '',
  ].join('\n');

interface JsonReport {
  verdict: string;
  summary: { errors: number; warnings: number };
  coverage: { notes: string[] };
  citations: {
    kind: string;
    text: string;
    status: string;
    severity: string;
    rule: string;
    message: string;
    source?: string;
    checkedAt?: string;
  }[];
}

/** A repository holding the seed document: the online cache lives under its git directory. */
function project(): string {
  const dir = tempDir();
  writeTree(dir, { 'paper.md': seedDocument(fake.origin) });
  execFileSync('git', ['init', '-q'], { cwd: dir, env: { ...process.env, ...GIT_ENV } });
  return dir;
}

const cacheFile = (dir: string) => join(dir, '.git', 'aiwg-cite', 'online-cache.jsonl');

/** The findings of the online kinds; other checkers (corpus, RLM) may add their own. */
const online = (report: JsonReport) => report.citations.filter((finding) => ['doi', 'arxiv', 'url'].includes(finding.kind));
const statuses = (report: JsonReport) =>
  online(report).map((finding) => [finding.kind, finding.text.replace(fake.origin, ''), finding.status]);

const EXPECTED = [
  ['arxiv', '1706.03762', 'verified'],
  ['doi', '10.1145/3676932.3676933', 'fabricated'],
  ['arxiv', '2509.99999', 'fabricated'],
  ['arxiv', '2005.14165', 'misattributed'],
  ['doi', '10.1016/S0140-6736(97)11096-0', 'retracted'],
  ['url', '/web/ok', 'alive'],
  ['url', '/web/gone', 'dead'],
];

describe('check --online (seed 001 against the fake services)', () => {
  it('gives the right statuses, then repeats from the cache with zero requests', async () => {
    const dir = project();
    const before = fake.count();
    const cold = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: dir, env: fake.env });
    expect(cold.code).toBe(1);
    const first = JSON.parse(cold.stdout) as JsonReport;
    expect(statuses(first)).toEqual(EXPECTED);
    expect(first.citations.find((finding) => finding.text === '2005.14165')?.message).toContain('the first author is Brown');
    for (const finding of online(first)) {
      expect(finding.source).toMatch(/^(doi\.org|crossref|arxiv|http)$/);
      expect(Number.isNaN(Date.parse(String(finding.checkedAt)))).toBe(false);
    }
    expect(fake.count()).toBeGreaterThan(before);
    expect(cold.stderr).toContain('aiwg-cite online: doi');
    expect(readFileSync(cacheFile(dir), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(7);

    const warmBefore = fake.count();
    const warm = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: dir, env: fake.env });
    expect(warm.code).toBe(1);
    expect(fake.count()).toBe(warmBefore);
    const second = JSON.parse(warm.stdout) as JsonReport;
    expect(statuses(second)).toEqual(EXPECTED);
    expect(second.coverage.notes).toContain('online: 0 requests, 8 from cache');
  });

  it('--no-cache asks the services again and leaves no cache file', async () => {
    const dir = project();
    const before = fake.count();
    const run = await runCliAsync(['check', '--online', '--no-cache', '--format', 'json'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(1);
    expect(statuses(JSON.parse(run.stdout) as JsonReport)).toEqual(EXPECTED);
    expect(fake.count()).toBeGreaterThan(before);
    expect(() => readFileSync(cacheFile(dir))).toThrow();
  });

  it('keeps the cache where AIWG_CITE_CACHE says (relative to the root)', async () => {
    const dir = project();
    const run = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: dir,
      env: { ...fake.env, AIWG_CITE_CACHE: 'tmp/online-cache.jsonl' },
    });
    expect(run.code).toBe(1);
    expect(readFileSync(join(dir, 'tmp', 'online-cache.jsonl'), 'utf8')).toContain('"key":"doi:10.1145/3676932.3676933"');
    expect(() => readFileSync(cacheFile(dir))).toThrow();
  });

  it('never touches the network without --online', async () => {
    const dir = project();
    const before = fake.count();
    const run = await runCliAsync(['check', '--format', 'json'], { cwd: dir, env: fake.env });
    expect([0, 1]).toContain(run.code);
    expect(fake.count()).toBe(before);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(online(report).some((finding) => finding.kind === 'url')).toBe(false);
    expect(online(report).every((finding) => finding.status !== 'fabricated' && finding.checkedAt === undefined)).toBe(true);
  });

  it('discards a corrupt cache with a warning and rewrites it', async () => {
    const dir = project();
    writeTree(dir, { '.git/aiwg-cite/online-cache.jsonl': '{"key":"doi:10.1038/x","status":"exists"\n' });
    const run = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is corrupt (line 1 is not JSON); it was discarded');
    expect(statuses(JSON.parse(run.stdout) as JsonReport)).toEqual(EXPECTED);
    const lines = readFileSync(cacheFile(dir), 'utf8').trim().split('\n');
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('checked_at');
  });

  it('degrades to unverified warnings on an offline machine and exits 0', async () => {
    const closed = await startFakeServices();
    const env = closed.env;
    await closed.close();
    const dir = tempDir();
    writeTree(dir, {
      'paper.md': 'Lewis et al. introduced GPT-3 (arXiv:2005.14165); see DOI 10.1145/3676932.3676933 and http://127.0.0.1:9/page.\n',
    });
    const run = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: dir, env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(online(report).map((finding) => [finding.kind, finding.status, finding.severity])).toEqual([
      ['arxiv', 'unverified', 'warning'],
      ['doi', 'unverified', 'warning'],
      ['url', 'unconfirmed', 'warning'],
    ]);
    expect(online(report)[0]?.message).toContain('cannot connect');
  });

  it('bounds each request: a slow service ends in unverified findings that say why, not a hang', async () => {
    const dir = tempDir();
    writeTree(dir, { 'paper.md': 'See 10.9999/handle-slow and the [slow page](URL/web/slow).\n'.replace('URL', fake.origin) });
    const run = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: dir,
      env: { ...fake.env, AIWG_CITE_HTTP_TIMEOUT_MS: '200', AIWG_CITE_ONLINE_BUDGET_MS: '5000' },
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(online(report).map((finding) => finding.status)).toEqual(['unverified', 'unconfirmed']);
    expect(
      online(report)
        .map((finding) => finding.message)
        .join(' '),
    ).toContain('no answer within 0.2 s');
  });

  it('bounds the whole run: past its budget the lookups end unverified and a coverage note says so', async () => {
    const dir = tempDir();
    writeTree(dir, { 'paper.md': 'See 10.9999/handle-slow and the [slow page](URL/web/slow).\n'.replace('URL', fake.origin) });
    const run = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: dir,
      env: { ...fake.env, AIWG_CITE_HTTP_TIMEOUT_MS: '10000', AIWG_CITE_ONLINE_BUDGET_MS: '700' },
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(online(report).map((finding) => finding.status)).toEqual(['unverified', 'unconfirmed']);
    expect(report.coverage.notes.join(' ')).toContain('ran out of their 0.7 s budget');
  });

  it('rejects contradictory or misplaced flags with exit 2', async () => {
    const dir = project();
    const both = await runCliAsync(['check', '--online', '--offline'], { cwd: dir, env: fake.env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--online and --offline contradict');
    const shardStaged = await runCliAsync(['check', '--staged', '--shard', '1/2'], { cwd: dir, env: fake.env });
    expect(shardStaged.code).toBe(2);
    expect(shardStaged.stderr).toContain('--shard');
    const badUrl = await runCliAsync(['check', '--online'], { cwd: dir, env: { ...fake.env, AIWG_CITE_DOI_URL: 'gopher://x' } });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('AIWG_CITE_DOI_URL');
    const offline = await runCliAsync(['check', '--offline', '--format', 'json'], { cwd: dir, env: fake.env });
    expect([0, 1]).toContain(offline.code);
  });

  it('the commit hook path stays offline: --staged refuses --online', async () => {
    const repo = gitRepo({ 'paper.md': seedDocument(fake.origin) });
    const before = fake.count();
    const run = await runCliAsync(['check', '--staged', '--online'], { cwd: repo.dir, env: fake.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--online is not available with --staged');
    expect(fake.count()).toBe(before);
  });

  it('shows listr2 progress on a real terminal (util-linux script gives the run a pty)', async () => {
    const dir = project();
    const command = `stty cols 120 rows 40; ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_ENTRY)} check --online`;
    const run = await new Promise<{ code: number; output: string }>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: dir,
        env: { ...process.env, ...fake.env, NO_COLOR: '1', TERM: 'xterm' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
      });
      child.on('error', (error) => reject(new Error(`the pty test needs util-linux \`script\` on PATH: ${error.message}`)));
      child.on('close', (code) => resolve({ code: code ?? -1, output }));
    });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/doi: 2 resolved, 0 remaining/);
    expect(run.output).toMatch(/arxiv: 3 resolved, 0 remaining/);
    expect(run.output).toMatch(/url: 2 resolved, 0 remaining/);
    expect(run.output).not.toContain('aiwg-cite online:');
    expect(run.output).toContain('FAIL (');
  });

  it('prints the online findings in the pretty report with the request count', async () => {
    const dir = project();
    writeFileSync(join(dir, 'paper.md'), seedDocument(fake.origin));
    const run = await runCliAsync(['check', '--online'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('attribution/author-mismatch');
    expect(run.stdout).toContain('RETRACTED 10.1016/S0140-6736(97)11096-0');
    expect(run.stdout).toMatch(/online: \d+ requests, 0 from cache/);
  });
});

describe('check --online: service base URLs from the configuration file', () => {
  const URL_VARIABLES = ['AIWG_CITE_DOI_URL', 'AIWG_CITE_CROSSREF_URL', 'AIWG_CITE_OPENALEX_URL', 'AIWG_CITE_ARXIV_URL'];
  const configured = () => {
    const dir = project();
    const online = {
      doi: `${fake.origin}/doi`,
      crossref: `${fake.origin}/crossref`,
      openalex: `${fake.origin}/openalex`,
      arxiv: `${fake.origin}/arxiv`,
    };
    writeFileSync(join(dir, 'aiwg-cite.config.json'), JSON.stringify({ online }));
    return dir;
  };
  const envWithout = (names: string[]) => Object.fromEntries(Object.entries(fake.env).filter(([name]) => !names.includes(name)));

  it('uses `online` URLs from aiwg-cite.config.json when the environment names none', async () => {
    const before = fake.count();
    const run = await runCliAsync(['check', '--online', '--no-cache', '--format', 'json'], {
      cwd: configured(),
      env: envWithout(URL_VARIABLES),
    });
    expect(statuses(JSON.parse(run.stdout) as JsonReport)).toEqual(EXPECTED);
    expect(fake.count()).toBeGreaterThan(before);
  });

  it('lets an AIWG_CITE_*_URL variable override the configuration for one run', async () => {
    const env = { ...envWithout(URL_VARIABLES), AIWG_CITE_DOI_URL: 'http://127.0.0.1:9/doi' };
    const run = await runCliAsync(['check', '--online', '--no-cache', '--format', 'json'], { cwd: configured(), env });
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(online(report).find((finding) => finding.text === '10.1145/3676932.3676933')?.status).toBe('unverified');
    expect(online(report).find((finding) => finding.text === '1706.03762')?.status).toBe('verified');
  });

  it('rejects a configured URL that is not http(s), naming the file and key', async () => {
    const dir = project();
    writeFileSync(join(dir, 'aiwg-cite.config.json'), JSON.stringify({ online: { crossref: 'ftp://mirror.example/crossref' } }));
    const run = await runCliAsync(['check', '--online'], { cwd: dir, env: envWithout(URL_VARIABLES) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/aiwg-cite\.config\.json: `online\.crossref` must be an http or https base URL/);
  });
});
