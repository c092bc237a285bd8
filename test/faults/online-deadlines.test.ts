/**
 * Issue 15 item 11: deadlines per request and per run, with defaults that suit a commit hook.
 * A black-holed API (connections accepted, never answered) and a service that answers 429 with a
 * long Retry-After forever both end in "unverified"/"unconfirmed" within seconds, with the
 * default settings.
 */
import { gitRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../online-helpers.ts';
import { hostileServer, type JsonReport } from './hostile-server.ts';

describe('online-deadlines', () => {
  it('a black-holed API costs the default run budget at most, not minutes', async () => {
    const server = await hostileServer(() => undefined);
    const dois = Array.from({ length: 6 }, (_, index) => `doi:10.5555/hole.${index}`).join(', ');
    const repo = gitRepo({ 'paper.md': `Sources: ${dois}, arXiv:1706.03762 and [a page](${server.origin}/page).\n` });
    const started = Date.now();
    const run = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env: server.env });
    const elapsed = Date.now() - started;
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    const online = report.citations.filter((finding) => ['doi', 'arxiv', 'url'].includes(finding.kind));
    expect(online).toHaveLength(8);
    expect(new Set(online.map((finding) => finding.status))).toEqual(new Set(['unverified', 'unconfirmed']));
    expect(elapsed).toBeLessThan(30_000);
  });

  it('persistent 429s with a long Retry-After end in unconfirmed at once', async () => {
    const server = await hostileServer((_request, response) => {
      response.writeHead(429, { 'retry-after': '30' }).end('Too Many Requests');
    });
    const repo = gitRepo({ 'paper.md': `See [a page](${server.origin}/page) and [another](${server.origin}/other).\n` });
    const started = Date.now();
    const run = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env: server.env });
    expect(Date.now() - started).toBeLessThan(15_000);
    const urls = (JSON.parse(run.stdout) as JsonReport).citations.filter((finding) => finding.kind === 'url');
    expect(urls.map((finding) => finding.status)).toEqual(['unconfirmed', 'unconfirmed']);
    expect(urls[0]?.message).toMatch(/rate limit/);
  });
});
