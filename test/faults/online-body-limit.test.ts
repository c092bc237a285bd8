/**
 * Issue 15 item 6: response bodies are read as streams with a limit. A service that answers with
 * an oversized or endless body costs at most the limit in memory and ends in a one-line
 * "unverified" finding; the limit is configurable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../online-helpers.ts';
import { hostileServer, type JsonReport } from './hostile-server.ts';

const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** A server whose doi.org handle API streams `total` bytes of JSON-ish padding; counts what it sent. */
async function oversized(total: number) {
  const sent = { bytes: 0, finished: false };
  const server = await hostileServer((_request, response, path) => {
    if (!path.startsWith('/doi/api/handles/')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (sent.bytes < total) {
        sent.bytes += CHUNK.length;
        if (!response.write(CHUNK)) {
          response.once('drain', pump);
          return;
        }
      }
      sent.finished = true;
      response.end();
    };
    response.on('close', () => response.removeAllListeners('drain'));
    pump();
  });
  return { server, sent };
}

function project(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'paper.md'), 'The result is in doi:10.5555/oversized.\n');
  return dir;
}

describe('online-body-limit', () => {
  it('stops reading an oversized API answer at the default limit and reports it in one line', async () => {
    const total = 48 * 1024 * 1024;
    const { server, sent } = await oversized(total);
    const run = await runCliAsync(['check', '--online', '--no-cache', '--format', 'json'], { cwd: project(), env: server.env });
    expect(run.code).toBe(0);
    const finding = (JSON.parse(run.stdout) as JsonReport).citations.find((entry) => entry.kind === 'doi');
    expect(finding?.status).toBe('unverified');
    expect(finding?.message).toMatch(/larger than 4 MiB/);
    expect(finding?.message).not.toContain('\n');
    // The client hung up: the server never got to send the whole body.
    expect(sent.finished).toBe(false);
    expect(sent.bytes).toBeLessThan(total);
  });

  it('takes its limit from AIWG_CITE_MAX_BODY_BYTES', async () => {
    const { server } = await oversized(2 * 1024 * 1024);
    const small = await runCliAsync(['check', '--online', '--no-cache', '--format', 'json'], {
      cwd: project(),
      env: { ...server.env, AIWG_CITE_MAX_BODY_BYTES: String(512 * 1024) },
    });
    const finding = (JSON.parse(small.stdout) as JsonReport).citations.find((entry) => entry.kind === 'doi');
    expect(finding?.message).toMatch(/larger than 512 KiB/);
    const large = await runCliAsync(['check', '--online', '--no-cache', '--format', 'json'], { cwd: project(), env: server.env });
    const read = (JSON.parse(large.stdout) as JsonReport).citations.find((entry) => entry.kind === 'doi');
    // Read whole (2 MiB is under the default 4 MiB): it is simply not handle JSON.
    expect(read?.status).toBe('unverified');
    expect(read?.message).toContain('not handle JSON');
  });
});
