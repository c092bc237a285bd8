/**
 * Issue 15 item 9: a transient failure (a DNS resolver that cannot answer right now, a reset
 * connection, a timeout) makes a source "unconfirmed", never "dead", and is never cached.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocuments, createConfinedReader, createMemoryFileSystem } from '@aiwg-cite/core';
import { createOnlineChecker, HttpClient, Resolvers, ResultCache, resolveServiceUrls } from '@aiwg-cite/online';
import { gitRepo, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../online-helpers.ts';
import { hostileServer, type JsonReport } from './hostile-server.ts';

describe('online-transient', () => {
  it('EAI_AGAIN while other hosts answer: unconfirmed, not dead, and nothing cached', async () => {
    const server = await hostileServer((_request, response) => response.writeHead(200).end('ok'));
    const flaky = 'https://flaky.example/page';
    // The one thing no test machine can produce on demand is a resolver that fails for now: the
    // failure comes as undici reports it, every other host is the real server.
    const client = new HttpClient({
      userAgent: 'aiwg-cite-test',
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        if (String(input).startsWith(flaky)) {
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.example'), { code: 'EAI_AGAIN' }),
          });
        }
        return fetch(input, init);
      }) as typeof fetch,
    });
    const cache = ResultCache.load(join(tempDir(), 'cache.jsonl'), { warn: () => {}, secret: new Uint8Array(32).fill(1) });
    const resolvers = new Resolvers({ client, cache, urls: resolveServiceUrls(server.env), now: () => new Date() });
    const text = `See [one](${server.origin}/a) and [two](${flaky}).\n`;
    const reader = createConfinedReader(createMemoryFileSystem({ '/r/doc.md': text }), '/r');
    const report = await checkDocuments({
      reader,
      documents: ['doc.md'],
      checkers: [createOnlineChecker({ resolvers, now: { year: 2026, month: 11 } })],
    });
    const statuses = report.citations.filter((finding) => finding.kind === 'url').map((finding) => [finding.text, finding.status]);
    expect(statuses).toEqual([
      [`${server.origin}/a`, 'alive'],
      [flaky, 'unconfirmed'],
    ]);
    expect(cacheKeys(cache)).toEqual([`url:${server.origin}/a`]);
  });

  it('a reset connection and a hanging server: unconfirmed, and a second run asks again', async () => {
    const server = await hostileServer((request, response, path) => {
      if (path === '/reset') request.socket.destroy();
      else if (path === '/hang') response.on('close', () => undefined);
      else response.writeHead(200).end('ok');
    });
    const repo = gitRepo({ 'paper.md': `See [reset](${server.origin}/reset) and [hang](${server.origin}/hang).\n` });
    const env = { ...server.env, AIWG_CITE_HTTP_TIMEOUT_MS: '300' };
    const first = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env });
    const urls = (JSON.parse(first.stdout) as JsonReport).citations.filter((finding) => finding.kind === 'url');
    expect(urls.map((finding) => finding.status)).toEqual(['unconfirmed', 'unconfirmed']);
    expect(first.code).toBe(0);
    const before = server.log.length;
    await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env });
    expect(server.log.filter((line) => line.includes('/reset')).length).toBeGreaterThan(
      server.log.slice(0, before).filter((line) => line.includes('/reset')).length,
    );
  });
});

/** The keys the cache holds on disk after saving. */
function cacheKeys(cache: ResultCache): string[] {
  cache.save();
  if (!existsSync(cache.path)) return [];
  return readFileSync(cache.path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { key: string }).key);
}
