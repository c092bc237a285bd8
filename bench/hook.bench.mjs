// Issue 5: the commit hook. A repository of 10,000 files (8,000 source files, 2,000 markdown
// documents) citing 2,000 distinct artifacts, one of them cited by 500 documents. Times the whole
// `aiwg-cite check --staged` process for (a) 10 staged markdown files and (b) a staged change to the
// heavily cited artifact, each beside `git diff --cached --name-only` on the same index (the floor).
// Each scenario has its own index file (GIT_INDEX_FILE), exactly as `git commit -a` runs the hook.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_GIT_ENV, CLI, ms, scratch, table, timeCommand } from './lib.mjs';

const SOURCES = 8000;
const DOCUMENTS = 2000;
const CITED = 2000;
const HOT_CITERS = 500;

const dir = scratch('hook-repo');
const gitEnv = {
  ...BENCH_GIT_ENV,
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};
const git = (args, env = {}, input) =>
  execFileSync('git', args, { cwd: dir, env: { ...process.env, ...gitEnv, ...env }, input, encoding: 'utf8', maxBuffer: 1 << 28 });
const hash16 = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

const sources = [];
for (let index = 0; index < SOURCES; index += 1) {
  const body = `export function f${index}(x: number): number {\n  return x + ${index};\n}\n// filler ${'x'.repeat(index % 200)}\n`;
  sources.push({ path: `src/m${Math.floor(index / 100)}/f${index}.ts`, body });
}
for (const { path, body } of sources) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), body);
}
const hot = sources[0];
const cite = (source) => `[${source.path}@${hash16(source.body)}, L1-3]`;
mkdirSync(join(dir, 'docs'), { recursive: true });
const documentText = (index, extra = '') => {
  const cited = [sources[(index * 7) % CITED], sources[(index * 13 + 1) % CITED], sources[(index * 31 + 2) % CITED]];
  const lines = [`# Document ${index}`, '', ...cited.map((source) => `The function is defined in ${cite(source)}.`)];
  if (index < HOT_CITERS) lines.push('', `It builds on ${cite(hot)}.`);
  return `${lines.join('\n')}\n${extra}`;
};
let hotCitations = 0;
for (let index = 0; index < DOCUMENTS; index += 1) {
  const text = documentText(index);
  hotCitations += text.split(`[${hot.path}@`).length - 1;
  writeFileSync(join(dir, `docs/d${index}.md`), text);
}
git(['init', '-q', '-b', 'main']);
git(['config', 'gc.auto', '0']);
git(['add', '-A']);
git(['commit', '-q', '-m', 'corpus']);
const files = git(['ls-files']).split('\n').filter(Boolean).length;

// (a) 10 staged markdown files, each with one more citation; (b) the hot artifact changed.
const stageBlob = (index, path, text) => {
  const oid = git(['hash-object', '-w', '--stdin'], {}, text).trim();
  git(['update-index', '--cacheinfo', `100644,${oid},${path}`], { GIT_INDEX_FILE: index });
};
const docsIndex = join(dir, '.git', 'index-docs');
const hotIndex = join(dir, '.git', 'index-hot');
copyFileSync(join(dir, '.git', 'index'), docsIndex);
copyFileSync(join(dir, '.git', 'index'), hotIndex);
for (let index = 1000; index < 1010; index += 1) {
  stageBlob(docsIndex, `docs/d${index}.md`, documentText(index, `\nAlso ${cite(sources[(index * 3) % CITED])}.\n`));
}
stageBlob(hotIndex, hot.path, `${hot.body}// changed\n`);

const cliArgs = [CLI, 'check', '--staged'];
const floorArgs = ['diff', '--cached', '--name-only'];
const runs = 9;

const docsEnv = { ...gitEnv, GIT_INDEX_FILE: docsIndex };
// Nothing staged: the repository's own index, equal to HEAD (start-up, configuration, index read).
const nothingCheck = timeCommand(process.execPath, cliArgs, { cwd: dir, env: gitEnv, runs });
const hotEnv = { ...gitEnv, GIT_INDEX_FILE: hotIndex };
const startup = timeCommand(process.execPath, [CLI, '--version'], { cwd: dir, runs, okCodes: [0] });
const docsFloor = timeCommand('git', floorArgs, { cwd: dir, env: docsEnv, runs, okCodes: [0] });
const nodeFloor = timeCommand(process.execPath, ['-e', '0'], { cwd: dir, runs, okCodes: [0] });
const docsCheck = timeCommand(process.execPath, cliArgs, { cwd: dir, env: docsEnv, runs });
// The runs above answer from the result cache after the first (the same staged bytes each time,
// as when a commit is retried); a first attempt at a commit checks every staged document.
const docsUncached = timeCommand(process.execPath, [...cliArgs, '--no-cache'], { cwd: dir, env: docsEnv, runs });
rmSync(join(dir, '.git', 'aiwg-cite'), { recursive: true, force: true });
const hotCold = timeCommand(process.execPath, cliArgs, { cwd: dir, env: hotEnv, runs: 1, warmup: 0 });
const hotFloor = timeCommand('git', floorArgs, { cwd: dir, env: hotEnv, runs, okCodes: [0] });
const hotCheck = timeCommand(process.execPath, cliArgs, { cwd: dir, env: hotEnv, runs });

// The figures only count if the runs found what they should.
const report = (env) =>
  JSON.parse(
    execFileSync(process.execPath, [...cliArgs, '--format', 'json'], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8' }),
  );
const docsReport = report(docsEnv);
const hotReport = report(hotEnv);
const staleByCommit = hotReport.citations.filter((finding) => finding.cause === 'staged-change' && finding.status === 'stale').length;
if (docsReport.summary.files !== 10) throw new Error(`expected 10 staged documents, checked ${docsReport.summary.files}`);
if (staleByCommit !== hotCitations) throw new Error(`expected ${hotCitations} stale citations, found ${staleByCommit}`);

const row = (name, summary, floor) => [
  name,
  ms(summary.median),
  ms(summary.p95),
  floor === null ? '—' : ms(floor.median),
  String(summary.runs),
];
console.log(`## Commit hook: \`check --staged\` in a 10,000-file repository (issue 5)

${files.toLocaleString('en')} tracked files (${SOURCES.toLocaleString('en')} source, ${DOCUMENTS.toLocaleString('en')} markdown), ${CITED.toLocaleString('en')} cited artifacts; \`${hot.path}\` is cited ${hotCitations} times (by ${HOT_CITERS}+ documents). Whole-process wall time; the floor is \`git diff --cached --name-only\` on the same index, and \`aiwg-cite --version\` (Node start-up plus loading the bundle) took ${ms(startup.median)} (median) in the same run. Target: under 300 ms.

${table(
  ['scenario', 'median', 'p95', 'floor (median)', 'runs'],
  [
    row(`10 staged markdown files (${docsReport.summary.citations} citations checked), result cache warm`, docsCheck, docsFloor),
    row('same, `--no-cache` (a first attempt at the commit)', docsUncached, docsFloor),
    row(`staged change to the hot artifact: ${staleByCommit} citations made stale`, hotCheck, hotFloor),
    row('same, first run (builds the citation index under .git/aiwg-cite/)', hotCold, null),
    row('nothing staged (start-up, configuration, reading the index)', nothingCheck, null),
  ],
)}

Beside \`node -e 0\` (${ms(nodeFloor.median)} median in the same run; target: at most 2×): 10 staged documents
${(docsCheck.median / nodeFloor.median).toFixed(2)}× with the result cache warm, ${(docsUncached.median / nodeFloor.median).toFixed(2)}× with \`--no-cache\`;
nothing staged ${(nothingCheck.median / nodeFloor.median).toFixed(2)}×.
`);
