// Issue 7: `aiwg-cite watch` on 2,000 markdown documents holding 50,000 RLM citations to 5,000
// source files. Measures, from this process: start-up to the first summary (the daemon prints
// it once every document is checked; the watcher starts right after and catches up on anything
// saved meanwhile), beside a whole `check` of the same tree; and the latency from saving a cited file (write a temporary file, rename it over)
// to the updated counts on the daemon's stdout, over 100 saves, beside the floor of a bare
// `fs.watch` seeing the same kind of save. Memory: the daemon's resident set after start, after
// the 100 saves and after 1,000 more; and, because a resident set only shows what V8 has not
// collected yet, the heap after a forced GC of the same daemon driven in-process (bundled from
// source with esbuild, run with --expose-gc) over 3,000 saves.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateRlmCorpus } from './corpus-gen.mjs';
import { CLI, ms, ROOT, scratch, summarise, table, timeCommand } from './lib.mjs';

const SAVES = 100;

/** Starts `watch --no-tui` and collects its stdout lines. */
function startWatch(dir) {
  const child = spawn(process.execPath, [CLI, 'watch', '--no-tui'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const lines = [];
  const waiters = [];
  let partial = '';
  child.stdout.on('data', (chunk) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) waiter();
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves with the time (ms, hrtime) at which the `count`-th summary line arrived. */
  const summaryNumber = (count) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const summaries = lines.filter((line) => /^(PASS|FAIL): /.test(line));
        if (summaries.length >= count) {
          waiters.splice(waiters.indexOf(check), 1);
          resolve(Number(process.hrtime.bigint()) / 1e6);
        }
      };
      waiters.push(check);
      exited.then((code) => reject(new Error(`watch exited ${code}: ${stderr.slice(0, 500)}`)));
      const timer = setTimeout(
        () => reject(new Error(`no summary #${count} within 60 s; last lines:\n${lines.slice(-5).join('\n')}`)),
        60_000,
      );
      timer.unref();
      check();
    });
  const rss = () => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
  };
  const stop = async () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { child, lines, summaryNumber, rss, stop };
}

function atomicSave(dir, path, contents) {
  const temporary = join(dir, `${path}.tmp-save`);
  writeFileSync(temporary, contents);
  renameSync(temporary, join(dir, path));
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

// The corpus of the foundation benchmark (bench/check.bench.mjs), in a git repository as in a real
// project, so discovery is one `git ls-files`.
const dir = scratch('watch-corpus');
const corpus = generateRlmCorpus(dir);
const sources = corpus.sourceFiles.map((source) => ({ ...source, contents: readFileSync(join(dir, source.path), 'utf8') }));

// Baseline: one whole `check` of the same tree.
const check = timeCommand(process.execPath, [CLI, 'check', '--format', 'json', '--no-history'], { cwd: dir, runs: 3 });

// Start-up: spawn to the first summary line, three times.
const startups = [];
for (let run = 0; run < 3; run += 1) {
  const started = now();
  const watcher = startWatch(dir);
  startups.push((await watcher.summaryNumber(1)) - started);
  await watcher.stop();
}

process.stderr.write(`watch bench: start-up ${startups.map((value) => value.toFixed(0)).join(', ')} ms\n`);

// Latency: 100 saves of cited files, each followed by its updated counts.
const cited = sources.filter((source) => source.freshCitations > 0).slice(0, SAVES / 2);
const watcher = startWatch(dir);
await watcher.summaryNumber(1);
const rssStart = watcher.rss();
const latencies = [];
let summaries = 1;
for (let save = 0; save < SAVES; save += 1) {
  const source = cited[Math.floor(save / 2)];
  const contents = save % 2 === 0 ? `${source.contents}// edited ${save}\n` : source.contents;
  const started = now();
  atomicSave(dir, source.path, contents);
  summaries += 1;
  latencies.push((await watcher.summaryNumber(summaries)) - started);
}
const rssAfterSaves = watcher.rss();
for (let save = 0; save < 1000; save += 1) {
  // Edit then restore each file, so every save changes a verdict and prints a summary.
  const source = cited[Math.floor(save / 2) % cited.length];
  atomicSave(dir, source.path, save % 2 === 0 ? `${source.contents}// soak ${save}\n` : source.contents);
  summaries += 1;
  await watcher.summaryNumber(summaries);
}
const rssAfterSoak = watcher.rss();
const exitCode = await watcher.stop();
if (exitCode !== 0) throw new Error(`watch exited ${exitCode} on SIGTERM`);

// Floor: a bare fs.watch on the directory seeing the same kind of save.
const floorSamples = [];
const floorSource = cited[0];
for (let save = 0; save < SAVES; save += 1) {
  const directory = join(dir, dirname(floorSource.path));
  const seen = new Promise((resolve) => {
    const handle = watch(directory, () => {
      handle.close();
      resolve(now());
    });
  });
  const started = now();
  atomicSave(dir, floorSource.path, save % 2 === 0 ? `${floorSource.contents}// floor ${save}\n` : floorSource.contents);
  floorSamples.push((await seen) - started);
}
atomicSave(dir, floorSource.path, floorSource.contents);

// Heap after GC, in-process: the engine and the daemon bundled from source.
const heapDir = scratch('watch-heap');
const entry = join(heapDir, 'heap.ts');
writeFileSync(
  entry,
  `import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createNodeReader, discoverDocuments, nodeSha256, resolveWorkspace } from ${JSON.stringify(join(ROOT, 'packages/node/src/index.ts'))};
import { WatchDaemon, WatchEngine } from ${JSON.stringify(join(ROOT, 'packages/tui/src/index.ts'))};
const dir = process.argv[2];
const path = process.argv[3];
const workspace = resolveWorkspace(dir, undefined);
const engine = new WatchEngine({ reader: createNodeReader(workspace.root), sha256: nodeSha256 });
let wake = () => {};
const daemon = new WatchDaemon({ root: workspace.root, engine, discover: () => discoverDocuments(workspace, dir, []), onUpdate: () => { engine.snapshot(); wake(); } });
await daemon.start();
const original = readFileSync(dir + '/' + path, 'utf8');
const heap = () => { globalThis.gc(); return process.memoryUsage().heapUsed / 1048576; };
const samples = [heap()];
for (let save = 1; save <= 3000; save += 1) {
  const seen = new Promise((resolve) => { wake = resolve; });
  writeFileSync(dir + '/' + path + '.tmp', save % 2 === 1 ? original + '// ' + save + '\\n' : original);
  renameSync(dir + '/' + path + '.tmp', dir + '/' + path);
  await seen;
  if (save % 1000 === 0) samples.push(heap());
}
await daemon.close();
console.log(JSON.stringify(samples));
`,
);
execFileSync(join(ROOT, 'node_modules/.bin/esbuild'), [
  entry,
  '--bundle',
  '--platform=node',
  '--format=esm',
  `--outfile=${join(heapDir, 'heap.mjs')}`,
  '--conditions=aiwg-source',
  // CommonJS dependencies (yaml) bundled into ESM ask for Node's built-ins through `require`.
  "--banner:js=import { createRequire as __aiwgCreateRequire } from 'node:module'; const require = __aiwgCreateRequire(import.meta.url);",
  // The dashboard is loaded lazily and never here: leave ink and React out of the bundle.
  '--external:ink',
  '--external:react',
  '--log-level=warning',
]);
const heapSamples = JSON.parse(
  execFileSync(process.execPath, ['--expose-gc', join(heapDir, 'heap.mjs'), dir, cited[0].path], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  }).trim(),
);

const startup = summarise(startups);
const latency = summarise(latencies);
const floor = summarise(floorSamples);
console.log(`## watch: 2,000 documents, 50,000 RLM citations (issue 7)

Corpus: the foundation benchmark's, ${corpus.documents} documents with ${corpus.citations} RLM citations to ${corpus.sources} source files, ${(corpus.bytes / 1e6).toFixed(1)} MB (bench/corpus-gen.mjs, seed 42).
Latency is measured in the bench process from the atomic save (temporary file renamed over the cited file) to the
daemon's updated summary line on stdout (\`watch --no-tui\`); start-up from spawning the process to its first summary,
which it prints once every document is checked (the watcher starts right after and catches up on files saved meanwhile).

${table(
  ['Measure', 'Median', 'p95', 'Runs', 'Target'],
  [
    ['watch: save → updated counts', ms(latency.median), ms(latency.p95), String(latency.runs), '< 100 ms median, < 250 ms p95'],
    ['floor: save → bare fs.watch event', ms(floor.median), ms(floor.p95), String(floor.runs), '—'],
    ['watch: start-up to first summary', ms(startup.median), ms(startup.p95), String(startup.runs), '< 2 s'],
    ['baseline: whole `check --format json --no-history`', ms(check.median), ms(check.p95), String(check.runs), '—'],
  ],
)}

Daemon resident memory (\`watch --no-tui\` process): ${rssStart.toFixed(0)} MiB after start, ${rssAfterSaves.toFixed(0)} MiB after ${SAVES} saves, ${rssAfterSoak.toFixed(0)} MiB after 1,000 more.
Heap used after a forced GC (same daemon in-process): ${heapSamples.map((value) => `${value.toFixed(1)} MiB`).join(' → ')} (start, then every 1,000 saves up to 3,000).
`);
