// `pnpm bench:refs`: replays HALLMARK's dev split (../shared/hallmark, read in place) offline
// through `aiwg-cite refs FILE.bib --online --format json`, against fake_scholarly.py's stand-ins
// of doi.org, Crossref, OpenAlex, arXiv, DBLP and Semantic Scholar, and scores the verdicts with
// HALLMARK's own score.py (DR, FPR, F1, per-type detection, beside the baselines). Then the same
// with `--noise realistic --latency-ms 200`: the score, and the time for 1,000 entries cold and
// with a warm cache. Labels are never read here: score.py reads them, aiwg-cite sees the .bib only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI, ROOT, scratch } from './lib.mjs';

const shared = resolve(process.env.AIWG_CITE_SHARED ?? join(ROOT, '..', 'shared'));
const hallmark = join(shared, 'hallmark');
if (!existsSync(join(hallmark, 'fake_scholarly.py'))) {
  console.log(`bench:refs: skipped: ${hallmark} is absent (HALLMARK is read in place from ../shared, never copied into the repository)`);
  process.exit(0);
}
if (!existsSync(CLI)) {
  console.error('bench:refs: build first (pnpm build)');
  process.exit(2);
}
const work = scratch('refs');
const devBib = join(hallmark, 'inputs', 'dev_public.bib');

/** Starts fake_scholarly.py on a free port with per-service ports; resolves with the base URLs and a stop function. */
function startServices(extra) {
  return new Promise((resolvePromise, reject) => {
    const base = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn('python3', [join(hallmark, 'fake_scholarly.py'), '--port', String(base), '--per-service-ports', ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      if (output.includes('works on http://')) {
        const env = {
          AIWG_CITE_DOI_URL: `http://127.0.0.1:${base + 1}`,
          AIWG_CITE_CROSSREF_URL: `http://127.0.0.1:${base + 2}`,
          AIWG_CITE_OPENALEX_URL: `http://127.0.0.1:${base + 3}`,
          AIWG_CITE_ARXIV_URL: `http://127.0.0.1:${base + 4}/api`,
          AIWG_CITE_DBLP_URL: `http://127.0.0.1:${base + 5}`,
          AIWG_CITE_S2_URL: `http://127.0.0.1:${base + 6}/graph/v1`,
        };
        resolvePromise({ env, stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`fake_scholarly.py exited ${code}: ${output}`)));
  });
}

/** Runs `refs` on a .bib; returns the verdicts by key and the wall time. */
function runRefs(bib, env, cache) {
  const start = process.hrtime.bigint();
  const result = spawnSync('node', [CLI, 'refs', bib, '--online', '--format', 'json'], {
    cwd: work,
    env: { ...process.env, ...env, AIWG_CITE_CACHE: cache, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && result.status !== 1) throw new Error(`refs exited ${result.status}: ${result.stderr}`);
  const report = JSON.parse(result.stdout);
  const verdicts = Object.fromEntries(report.entries.map((entry) => [entry.key, entry.verdict]));
  return { verdicts, ms, summary: report.summary };
}

function score(verdicts, name) {
  const file = join(work, `${name}.verdicts.json`);
  const json = join(work, `${name}.score.json`);
  writeFileSync(file, JSON.stringify(verdicts));
  const result = spawnSync('python3', [join(hallmark, 'score.py'), file, '--split', 'dev_public', '--bar', '--json', json], {
    encoding: 'utf8',
  });
  return { text: result.stdout, numbers: JSON.parse(readFileSync(json, 'utf8')) };
}

/** The first `count` entries of a .bib (entries start at a line beginning with `@`). */
function firstEntries(bib, count, out) {
  const text = readFileSync(bib, 'utf8');
  const parts = text.split(/\n(?=@)/).filter((part) => part.trimStart().startsWith('@'));
  writeFileSync(out, `${parts.slice(0, count).join('\n')}\n`);
  return Math.min(count, parts.length);
}

/** Runs `body` with the stand-in services started with `args`, and stops them whatever happens. */
async function withServices(args, body) {
  const services = await startServices(args);
  try {
    return body(services.env);
  } finally {
    services.stop();
  }
}

const cleanRun = await withServices([], (env) => runRefs(devBib, env, join(work, 'clean.cache.jsonl')));
const cleanScore = score(cleanRun.verdicts, 'clean');
console.log('## HALLMARK dev, offline stand-ins, no noise\n');
console.log(cleanScore.text);

const thousand = join(work, 'first-1000.bib');
const count = firstEntries(devBib, 1000, thousand);
const { cold, warm, noisyFull } = await withServices(['--noise', 'realistic', '--latency-ms', '200'], (env) => ({
  cold: runRefs(thousand, env, join(work, 'noisy-1000.cache.jsonl')),
  warm: runRefs(thousand, env, join(work, 'noisy-1000.cache.jsonl')),
  noisyFull: runRefs(devBib, env, join(work, 'noisy-full.cache.jsonl')),
}));
const noisyScore = score(noisyFull.verdicts, 'noisy');
console.log('## HALLMARK dev, --noise realistic --latency-ms 200\n');
console.log(noisyScore.text);
console.log(
  `time for ${count} entries (realistic noise, 200 ms latency, default rate limits): cold ${(cold.ms / 1000).toFixed(1)} s, warm cache ${(warm.ms / 1000).toFixed(2)} s`,
);

const strict = (numbers) => numbers.results.all.strict;
const row = (name, numbers) => {
  const m = strict(numbers);
  return `| ${name} | ${m.detection_rate.toFixed(3)} | ${m.false_positive_rate.toFixed(3)} | ${m.f1_hallucination.toFixed(3)} | ${m.uncertain} |`;
};
const types = Object.keys(strict(cleanScore.numbers).per_type_detection_rate);
const btu = cleanScore.numbers.results.all['bibtexupdater_v1.2.0'];
const table = [
  '| run (dev split, strict) | DR | FPR | F1 | uncertain |',
  '|---|---|---|---|---|',
  row('aiwg-cite refs, no noise', cleanScore.numbers),
  row('aiwg-cite refs, realistic noise + 200 ms', noisyScore.numbers),
  btu === undefined
    ? null
    : `| bibtex-updater 1.2.0 (HALLMARK per-entry verdicts) | ${btu.detection_rate.toFixed(3)} | ${btu.false_positive_rate.toFixed(3)} | ${btu.f1_hallucination.toFixed(3)} | |`,
  '',
  '| type | n | no noise | realistic | bibtex-updater |',
  '|---|---|---|---|---|',
  ...types.map(
    (type) =>
      `| ${type} | ${strict(cleanScore.numbers).per_type_count[type]} | ${strict(cleanScore.numbers).per_type_detection_rate[type].toFixed(3)} | ${(strict(noisyScore.numbers).per_type_detection_rate[type] ?? 0).toFixed(3)} | ${btu?.per_type_detection_rate[type]?.toFixed(3) ?? '—'} |`,
  ),
  '',
  `Time for ${count} entries with realistic noise and 200 ms latency: cold ${(cold.ms / 1000).toFixed(1)} s, warm cache ${(warm.ms / 1000).toFixed(2)} s.`,
].filter((line) => line !== null);
writeFileSync(join(work, 'table.md'), `${table.join('\n')}\n`);
console.log(`\n${table.join('\n')}`);
