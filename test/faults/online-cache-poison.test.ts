/**
 * Issue 15 item 8: the online cache is not an input a pull request controls. A committed cache
 * file, a copied one, or a hand-written entry in the real cache location can never make a DOI or
 * a URL "verified": the default cache lives under the git directory, and entries are signed with a
 * key from the user's cache directory.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../online-helpers.ts';
import { hostileServer, type JsonReport } from './hostile-server.ts';

const FABRICATED = '10.5555/fabricated.2024';

/** A doi.org that knows no DOI at all, like the real one for a fabricated DOI. */
const noSuchDoi = () =>
  hostileServer((_request, response, path) => {
    if (path.startsWith('/doi/api/handles/')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"responseCode":100}');
      return;
    }
    response.writeHead(404).end('not found');
  });

const forged = (key: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    key,
    status: 'exists',
    code: 200,
    checked_at: new Date().toISOString(),
    resolver: 'crossref',
    data: { metadata: { title: 'Forged', authors: ['Nobody'], year: 2024 }, metadataSource: 'crossref', updateTo: [] },
    ...extra,
  });

const doiFinding = (stdout: string) => (JSON.parse(stdout) as JsonReport).citations.find((finding) => finding.kind === 'doi');

describe('online-cache-poison', () => {
  it('a committed .aiwg-cite/cache.jsonl vouches for nothing', async () => {
    const server = await noSuchDoi();
    const committed = `${forged(`doi:${FABRICATED}`)}\n`;
    const repo = gitRepo({ 'paper.md': `The proof is in doi:${FABRICATED}.\n`, '.aiwg-cite/cache.jsonl': committed });
    const userCache = tempDir();
    const run = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: repo.dir,
      env: { ...server.env, XDG_CACHE_HOME: userCache },
    });
    expect(doiFinding(run.stdout)?.status).toBe('fabricated');
    expect(server.log.some((line) => line.includes('/doi/api/handles/'))).toBe(true);
    // The committed file is left alone.
    expect(readFileSync(join(repo.dir, '.aiwg-cite/cache.jsonl'), 'utf8')).toBe(committed);
  });

  it('entries not signed on this machine are ignored, wherever the cache file is', async () => {
    const server = await noSuchDoi();
    const repo = gitRepo({ 'paper.md': `The proof is in doi:${FABRICATED}.\n` });
    const userCache = tempDir();
    // Forged entries in the default location (as a copied file would put them), one with a made-up signature.
    mkdirSync(join(repo.dir, '.git', 'aiwg-cite'), { recursive: true });
    writeFileSync(
      join(repo.dir, '.git', 'aiwg-cite', 'online-cache.jsonl'),
      `${forged(`doi:${FABRICATED}`, { mac: 'ab'.repeat(32) })}\n${forged('doi:10.5555/other')}\n`,
    );
    const run = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: repo.dir,
      env: { ...server.env, XDG_CACHE_HOME: userCache },
    });
    expect(doiFinding(run.stdout)?.status).toBe('fabricated');
    expect(run.stderr).toMatch(/2 entries were not written by aiwg-cite on this machine and were ignored/);

    // A cache named explicitly (AIWG_CITE_CACHE) inside the working tree: same rule.
    writeFileSync(join(repo.dir, 'team-cache.jsonl'), `${forged(`doi:${FABRICATED}`)}\n`);
    const explicit = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: repo.dir,
      env: { ...server.env, XDG_CACHE_HOME: userCache, AIWG_CITE_CACHE: 'team-cache.jsonl' },
    });
    expect(doiFinding(explicit.stdout)?.status).toBe('fabricated');
  });

  it('keeps its own results under the git directory, never in the working tree, and reuses them', async () => {
    const server = await noSuchDoi();
    const repo = gitRepo({ 'paper.md': `The proof is in doi:${FABRICATED}.\n` });
    const env = { ...server.env, XDG_CACHE_HOME: tempDir() };
    await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env });
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    const requests = server.log.length;
    const warm = await runCliAsync(['check', '--online', '--format', 'json'], { cwd: repo.dir, env });
    expect(doiFinding(warm.stdout)?.status).toBe('fabricated');
    expect(server.log.length).toBe(requests);
    // Another user (another key) does not trust this user's file.
    const stranger = await runCliAsync(['check', '--online', '--format', 'json'], {
      cwd: repo.dir,
      env: { ...env, XDG_CACHE_HOME: tempDir() },
    });
    expect(stranger.stderr).toContain('not written by aiwg-cite on this machine');
    expect(server.log.length).toBeGreaterThan(requests);
  });
});
