/**
 * Issue 15, item 4: `watch` and `check` gave different verdicts for one citation (a fabricated
 * hash was STALE in the dashboard and UNKNOWN-HASH in `check`). Both now run the pipeline's
 * stages 2–6 with the same ports, so every citation has one status in every surface.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { CLI_ENTRY, GIT_ENV, gitRepo, runCli, sha16 } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const SOURCE = 'export const a = 1;\nexport const b = 2;\n';

/** Starts `watch --format ndjson`, returns the statuses of its first summary (the load), then stops it. */
async function watchStatuses(cwd: string): Promise<Record<string, Record<string, number>>> {
  const child: ChildProcess = spawn(process.execPath, [CLI_ENTRY, 'watch', '--format', 'ndjson'], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let buffer = '';
  const summary = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no summary from watch; got: ${buffer}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (const line of buffer.split('\n')) {
        if (line.trim() === '') continue;
        const object = JSON.parse(line) as Record<string, unknown>;
        if (object.type === 'summary') {
          clearTimeout(timer);
          resolve(object);
          return;
        }
      }
    });
  });
  child.kill('SIGTERM');
  return (summary.summary as { kinds: Record<string, Record<string, number>> }).kinds;
}

describe('fault 15.4: watch and check give one verdict', () => {
  it('a fabricated hash is unknown-hash in the watch summary as in check, and a real old pin is stale in both', async () => {
    const repo = gitRepo({ 'src/a.ts': 'export const a = 0;\n' });
    const old = sha16('export const a = 0;\n');
    repo.write({ 'src/a.ts': SOURCE });
    repo.commit('change a');
    repo.write({
      'docs/a.md': [
        `Made up [src/a.ts@0123456789abcdef, L1].`,
        '',
        `Old [src/a.ts@${old}, L1].`,
        '',
        `Now [src/a.ts@${sha16(SOURCE)}, L2].`,
        '',
      ].join('\n'),
    });
    repo.commit('docs');

    const check = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const checkKinds = (JSON.parse(check.stdout) as { summary: { kinds: Record<string, Record<string, number>> } }).summary.kinds;
    expect(checkKinds.rlm).toEqual({ 'unknown-hash': 1, stale: 1, fresh: 1 });

    const watchKinds = await watchStatuses(repo.dir);
    expect(watchKinds.rlm).toEqual(checkKinds.rlm);
  });
});
