// Issue 4: what `--online` costs when the cache is warm, and how fast it degrades on an offline
// machine. A document with 300 external citations (150 DOIs, 75 arXiv ids, 75 URLs) and a cache
// that already holds every answer. The services point at a closed port on 127.0.0.1, so the warm
// run proves it makes no request (its coverage note must say `0 requests`) and the --no-cache run
// measures the offline-machine path (every connection refused, every finding unverified).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadCacheSecret, ResultCache } from '../packages/online/dist/index.js';
import { CLI, ms, scratch, table, timeCommand } from './lib.mjs';

const DOIS = 150;
const ARXIV = 75;
const URLS = 75;
// URLs name distinct hosts under the reserved .example domain (RFC 2606), which never resolves.

const dir = scratch('online');
const now = new Date().toISOString();
const lines = ['# Literature review', ''];
const cache = [];
const entry = (key, status, resolver, data) => ({ key, status, code: 200, checked_at: now, resolver, data });
for (let index = 0; index < DOIS; index += 1) {
  const doi = `10.5555/bench.${index}`;
  lines.push(`Author${index} et al. (2020) studied case ${index} (doi:${doi}).`, '');
  cache.push(
    entry(`doi:${doi}`, 'exists', 'crossref', {
      metadata: { title: `Case ${index}`, authors: [`Author${index}`], year: 2020 },
      metadataSource: 'crossref',
      updateTo: [],
    }),
  );
  cache.push(
    entry(`retraction:${doi}`, 'not-found', 'crossref+openalex', { retracted: false, notices: [], sources: ['crossref', 'openalex'] }),
  );
}
for (let index = 0; index < ARXIV; index += 1) {
  const id = `2101.${String(10000 + index)}`;
  lines.push(`Writer${index} et al. (2021) proposed method ${index} (arXiv:${id}).`, '');
  cache.push(entry(`arxiv:${id}`, 'exists', 'arxiv', { title: `Method ${index}`, authors: [`Writer${index}`], year: 2021 }));
}
for (let index = 0; index < URLS; index += 1) {
  const url = `https://site${index}.example/page`;
  lines.push(`See [page ${index}](${url}).`, '');
  cache.push(entry(`url:${url}`, 'alive', 'http', { status: 200, finalUrl: url }));
}
writeFileSync(join(dir, 'review.md'), `${lines.join('\n')}\n`);
// The cache is signed with this machine's key (here a scratch user cache dir), as a real run writes it.
const userCache = join(dir, 'user-cache');
const cachePath = join(dir, 'online-cache.jsonl');
const warmCache = ResultCache.load(cachePath, { warn: () => {}, secret: loadCacheSecret({ XDG_CACHE_HOME: userCache }) });
for (const value of cache) warmCache.set(value);
warmCache.save();

// A port that was just free: nothing listens there, so every connection is refused.
const closed = await new Promise((resolve) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(`http://127.0.0.1:${port}`));
  });
});
const env = {
  AIWG_CITE_DOI_URL: closed,
  AIWG_CITE_CROSSREF_URL: `${closed}/crossref`,
  AIWG_CITE_OPENALEX_URL: `${closed}/openalex`,
  AIWG_CITE_ARXIV_URL: `${closed}/arxiv`,
  AIWG_CITE_ARXIV_INTERVAL_MS: '0',
  AIWG_CITE_CACHE: cachePath,
  XDG_CACHE_HOME: userCache,
  NO_COLOR: '1',
};
// --root: the scratch directory sits inside this repository, whose top level would otherwise be the root.
const args = (...extra) => [CLI, 'check', 'review.md', '--root', '.', '--format', 'json', ...extra];

// The figures only count if the runs did what they claim.
const report = (extra) => {
  try {
    return JSON.parse(
      execFileSync(process.execPath, args(...extra), {
        cwd: dir,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
  } catch (error) {
    return JSON.parse(error.stdout);
  }
};
const warmReport = report(['--online']);
const warmNote = warmReport.coverage.notes.find((note) => note.startsWith('online:')) ?? '';
const online = warmReport.citations.filter((finding) => ['doi', 'arxiv', 'url'].includes(finding.kind));
if (!warmNote.startsWith('online: 0 requests')) throw new Error(`the warm run made requests: ${warmNote}`);
if (online.length !== DOIS + ARXIV + URLS || online.some((finding) => finding.status !== 'verified' && finding.status !== 'alive')) {
  throw new Error(`the warm run did not verify every citation from the cache (${online.length} online findings)`);
}
const coldReport = report(['--online', '--no-cache']);
const coldOnline = coldReport.citations.filter((finding) => ['doi', 'arxiv', 'url'].includes(finding.kind));
if (coldOnline.some((finding) => finding.status !== 'unverified' && finding.status !== 'unconfirmed')) {
  throw new Error('the offline-machine run reported something other than unverified/unconfirmed');
}

const runs = 7;
const offline = timeCommand(process.execPath, args(), { cwd: dir, env, runs });
const warm = timeCommand(process.execPath, args('--online'), { cwd: dir, env, runs });
const refused = timeCommand(process.execPath, args('--online', '--no-cache'), { cwd: dir, env, runs });

const row = (name, summary) => [
  name,
  ms(summary.median),
  ms(summary.p95),
  `${(summary.median / offline.median).toFixed(2)}×`,
  String(summary.runs),
];
console.log(`## Online checks: warm cache and offline machine (issue 4)

One document with ${DOIS + ARXIV + URLS} external citations (${DOIS} DOIs, ${ARXIV} arXiv ids, ${URLS} URLs). Whole-process wall time of \`aiwg-cite check review.md --format json\`; the baseline is the same command without \`--online\`. The warm run answers every lookup from the signed online cache (${cache.length} entries) and made no request (\`${warmNote}\`); the offline-machine run bypasses the cache and every service refuses the connection.

${table(
  ['run', 'median', 'p95', 'vs offline', 'runs'],
  [
    row('offline (baseline, no --online)', offline),
    row('--online, warm cache (0 requests)', warm),
    row('--online --no-cache, services unreachable (all unverified)', refused),
  ],
)}
`);
