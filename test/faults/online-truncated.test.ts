/**
 * Issue 15 item 10: a truncated or malformed API answer (an Atom feed cut mid-entry, JSON cut
 * mid-object, a body shorter than its announced length) is "unverified", never "fabricated", and
 * is not cached.
 */
import { gitRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../online-helpers.ts';
import { hostileServer, type JsonReport } from './hostile-server.ts';

const FEED_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>arXiv Query: id_list=1706.03762</title>
`;

describe('online-truncated', () => {
  it('an Atom feed cut mid-entry, or cut before </feed>, is unverified', async () => {
    const cuts: Record<string, string> = {
      '1706.03762': `${FEED_HEAD}  <entry>\n    <id>http://arxiv.org/abs/1706.03762v1</id>\n    <title>Attention Is`,
      '2005.14165': FEED_HEAD,
    };
    const server = await hostileServer((_request, response, path) => {
      const id = new URL(path, 'http://x').searchParams.get('id_list') ?? '';
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(cuts[id] ?? '');
    });
    const repo = gitRepo({ 'paper.md': 'Transformers (arXiv:1706.03762) and GPT-3 (arXiv:2005.14165).\n' });
    const run = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env: server.env });
    const arxiv = (JSON.parse(run.stdout) as JsonReport).citations.filter((finding) => finding.kind === 'arxiv');
    expect(arxiv.map((finding) => [finding.text, finding.status])).toEqual([
      ['1706.03762', 'unverified'],
      ['2005.14165', 'unverified'],
    ]);
    expect(run.code).toBe(0);
    // Not cached: the next run asks again.
    const asked = server.log.length;
    await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env: server.env });
    expect(server.log.length).toBeGreaterThan(asked);
  });

  it('a handle answer cut short of its content-length, or cut mid-JSON, is unverified', async () => {
    const server = await hostileServer((request, response, path) => {
      if (path.includes('short-body')) {
        response.writeHead(404, { 'content-type': 'application/json', 'content-length': '200' });
        response.write('{"responseCode":100,');
        setTimeout(() => request.socket.destroy(), 20);
        return;
      }
      if (path.includes('half-json')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"responseCode":10');
        return;
      }
      response.writeHead(404).end();
    });
    const repo = gitRepo({ 'paper.md': 'See doi:10.5555/short-body and doi:10.5555/half-json.\n' });
    const run = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env: server.env });
    const dois = (JSON.parse(run.stdout) as JsonReport).citations.filter((finding) => finding.kind === 'doi');
    expect(dois.map((finding) => finding.status)).toEqual(['unverified', 'unverified']);
  });
});
