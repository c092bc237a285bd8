// `aiwg-cite blame` over a long history (issue #6): an artifact with 2,000 commits, built in one
// `git fast-import`, and a citation pinned at its oldest version whose lines never change, so the
// tool must hash every version to find the pin and read every later version to rule out a region
// change. Baseline: the naive loop, `git show REV:path | sha256sum` for every commit of the path.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_GIT_ENV, CLI, ms, scratch, table, timeCommand } from './lib.mjs';

const COMMITS = 2000;
const ARTIFACT = 'src/engine.ts';
const gitEnv = { ...process.env, ...BENCH_GIT_ENV };

/** Version `n` of the artifact: 200 lines; the first 20 never change, one line per commit does. */
function version(n) {
  const lines = [];
  for (let at = 0; at < 20; at += 1) lines.push(`export const stable${at} = ${at}; // cited, never changes`);
  for (let at = 20; at < 200; at += 1)
    lines.push(`export const value${at} = ${at === 20 + (n % 180) ? n : 0}; // revision ${at === 20 + (n % 180) ? n : 'base'}`);
  return `${lines.join('\n')}\n`;
}

const dir = scratch('blame');
execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: gitEnv });
execFileSync('git', ['config', 'gc.auto', '0'], { cwd: dir, env: gitEnv });
const chunks = [];
for (let n = 0; n < COMMITS; n += 1) {
  const data = Buffer.from(version(n));
  const message = `revision ${n}\n`;
  const when = 1_767_225_600 + n * 60;
  chunks.push(Buffer.from(`blob\nmark :${2 * n + 1}\ndata ${data.length}\n`), data, Buffer.from('\n'));
  chunks.push(
    Buffer.from(
      `commit refs/heads/main\nmark :${2 * n + 2}\nauthor Bench <bench@example.test> ${when} +0000\ncommitter Bench <bench@example.test> ${when} +0000\ndata ${Buffer.byteLength(message)}\n${message}${n === 0 ? '' : `from :${2 * n}\n`}M 100644 :${2 * n + 1} ${ARTIFACT}\n\n`,
    ),
  );
}
execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env: gitEnv, input: Buffer.concat(chunks) });
execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: dir, env: gitEnv });
const pinnedHash = createHash('sha256').update(version(0)).digest('hex').slice(0, 16);
writeFileSync(join(dir, 'doc.md'), `# Engine\n\nThe stable block is [${ARTIFACT}@${pinnedHash}, L1-20].\n`);

// Sanity: the tool finds the oldest commit as the pin and calls the lines moved (intact).
const probe = spawnSync(process.execPath, [CLI, 'blame', 'doc.md', '--format', 'json'], { cwd: dir, env: gitEnv, encoding: 'utf8' });
const [entry] = JSON.parse(probe.stdout);
const oldest = execFileSync('git', ['rev-list', '--max-parents=0', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
if (entry?.pinned?.sha !== oldest || entry.drift !== 'moved' || entry.region !== null) {
  throw new Error(`unexpected blame result: ${probe.stdout.slice(0, 400)}`);
}

const cacheFile = join(
  execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: dir, encoding: 'utf8' }).trim(),
  'aiwg-cite',
  'blob-hashes-v1',
);
const coldSamples = [];
for (let run = 0; run < 5; run += 1) {
  rmSync(cacheFile, { force: true });
  coldSamples.push(
    timeCommand(process.execPath, [CLI, 'blame', 'doc.md', '--format', 'json'], { cwd: dir, env: BENCH_GIT_ENV, runs: 1, warmup: 0 })
      .median,
  );
}
if (!existsSync(cacheFile)) throw new Error('blame wrote no blob-hash cache');
const cold = coldSamples.sort((a, b) => a - b)[Math.floor(coldSamples.length / 2)];
const warm = timeCommand(process.execPath, [CLI, 'blame', 'doc.md', '--format', 'json'], {
  cwd: dir,
  env: BENCH_GIT_ENV,
  runs: 7,
  warmup: 1,
});
const check = timeCommand(process.execPath, [CLI, 'check', 'doc.md', '--format', 'json'], {
  cwd: dir,
  env: BENCH_GIT_ENV,
  runs: 7,
  warmup: 1,
});
const naiveScript = `for rev in $(git rev-list HEAD -- ${ARTIFACT}); do git show "$rev:${ARTIFACT}" | sha256sum; done | grep -c ${pinnedHash}`;
const naive = timeCommand('bash', ['-c', naiveScript], { cwd: dir, env: BENCH_GIT_ENV, runs: 3, warmup: 0 });

const speedup = (value) => `${(naive.median / value).toFixed(1)}×`;
console.log(`## blame over ${COMMITS.toLocaleString('en-US')} commits`);
console.log('');
console.log(
  `One artifact (200 lines) changed by each of ${COMMITS} commits; a citation pinned at the oldest version, cited lines intact, so every version is hashed and every later version searched. Target: under 1.5 s and at least 10× faster than the naive loop.`,
);
console.log('');
console.log(
  table(
    ['Run', 'Median', 'p95', 'Runs', 'vs naive'],
    [
      ['`aiwg-cite blame`, cold (no blob-hash cache)', ms(cold), ms(Math.max(...coldSamples)), String(coldSamples.length), speedup(cold)],
      ['`aiwg-cite blame`, warm cache', ms(warm.median), ms(warm.p95), String(warm.runs), speedup(warm.median)],
      [
        '`aiwg-cite check` (stale → history pass for unknown-hash), warm',
        ms(check.median),
        ms(check.p95),
        String(check.runs),
        speedup(check.median),
      ],
      ['naive: `git show REV:path \\| sha256sum` per commit', ms(naive.median), ms(naive.p95), String(naive.runs), '1.0×'],
    ],
  ),
);
