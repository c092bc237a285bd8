// `pnpm bench`: runs every bench/*.bench.mjs (or those named on the command line) as its own
// process, prints their markdown sections, and writes them to BENCHMARKS.md with the machine
// and commit they were measured on. Timings live here and only here, never in unit tests.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const only = process.argv.slice(2);
/** Benches that run only when named: HALLMARK's replay takes minutes and has `pnpm bench:refs`. */
const ON_DEMAND = new Set(['refs.bench.mjs']);
const cases = readdirSync(join(ROOT, 'bench'))
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => (only.length === 0 ? !ON_DEMAND.has(name) : only.some((wanted) => name.startsWith(wanted))))
  .sort();

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const header = [
  '# Benchmarks',
  '',
  'Written by `pnpm bench` (bench/run.mjs). Whole-process wall-clock timings; medians of several runs',
  'after a warm-up, each beside a baseline measured on the same machine in the same run.',
  '',
  `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  `- Commit: ${commit}; date: ${new Date().toISOString().slice(0, 10)}`,
  '',
].join('\n');

const sections = [];
let failed = false;
for (const name of cases) {
  process.stderr.write(`bench: ${name}\n`);
  const result = spawnSync(process.execPath, [join(ROOT, 'bench', name)], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) {
    failed = true;
    sections.push(`## ${name}\n\nFAILED (exit ${result.status}).\n`);
  } else {
    sections.push(result.stdout.trim());
  }
  process.stdout.write(`${result.stdout}\n`);
}
/**
 * Sections of BENCHMARKS.md that no bench writes (the hand-reviewed precision table of
 * `pnpm realworld`, say) carry the marker below their heading; a full run keeps them, after its own.
 */
const KEPT = '<!-- kept by pnpm bench: not written by a bench -->';
function keptSections() {
  const file = join(ROOT, 'BENCHMARKS.md');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(/^(?=## )/m)
    .filter((section) => section.startsWith('## ') && section.includes(KEPT))
    .map((section) => section.trim());
}
if (only.length === 0) {
  const kept = keptSections();
  writeFileSync(join(ROOT, 'BENCHMARKS.md'), `${header}\n${[...sections, ...kept].join('\n\n')}\n`);
}
process.exitCode = failed ? 1 : 0;
