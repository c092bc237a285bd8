// Issue 15 item 12: every pattern that sees document text must be linear. One 1 MB document per
// pathological shape (a 200 KB line of one character, then 4 KB lines of it between ordinary
// words), checked with the scholarly checks on, against a baseline 1 MB document of ordinary
// prose. Each shape must check in under 1 s; before the fix `.`, `?`, `[`, `“` and `[a](` took
// minutes (quadratic regexes), and in the markdown model a run of `<` took 23 s (each `<` searched
// the rest of its paragraph for `>` and `@`) and `[[a](b)` walked the bracket stack per link. The
// start-up row shows how much of each row the process start costs on this machine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ms, scratch, table, timeCommand } from './lib.mjs';

const MB = 1024 * 1024;
const LIMIT_MS = 1000;
const SHAPES = [
  ['dots', '.'],
  ['question marks', '?'],
  ['spaces', ' '],
  ['open brackets', '['],
  ['curly quotes', '\u201c'],
  ['hashes', '#'],
  ['straight quotes', '"'],
  ['links', '[a]('],
  ['angle brackets', '<'],
  ['backslashes', '\\'],
  ['links after open brackets', '[[a](b)'],
  ['backticks', '`'],
  ['sentence ends', '. '],
];

const dir = scratch('pathological');
const documentOf = (unit) => {
  const long = `Smith (2020) said ${unit.repeat(Math.ceil((200 * 1024) / unit.length))}x\n`;
  const line = `Lee et al. (2021) wrote ${unit.repeat(Math.ceil(4000 / unit.length))} doi:10.1234/x\n`;
  return long + line.repeat(Math.ceil((MB - long.length) / line.length));
};
const baselineLine = 'Smith et al. (2020) measured a 12% gain on the benchmark, as "the authors report in detail" [^1].\n';
writeFileSync(join(dir, 'baseline.md'), baselineLine.repeat(Math.ceil(MB / baselineLine.length)));
for (const [name, unit] of SHAPES) writeFileSync(join(dir, `${name.replace(/ /g, '-')}.md`), documentOf(unit));

const run = (file) =>
  timeCommand(process.execPath, [CLI, 'check', file, '--root', '.', '--format', 'json'], { cwd: dir, runs: 3, env: { NO_COLOR: '1' } });
const startup = timeCommand(process.execPath, [CLI, '--version'], { cwd: dir, runs: 3 });
const baseline = run('baseline.md');
const rows = [
  ['start-up alone: `aiwg-cite --version` (what every row pays before reading)', ms(startup.median), '', ''],
  ['ordinary prose (baseline)', ms(baseline.median), '1.00x', ''],
];
let failed = false;
for (const [name] of SHAPES) {
  const result = run(`${name.replace(/ /g, '-')}.md`);
  const ok = result.median < LIMIT_MS;
  if (!ok) failed = true;
  rows.push([`runs of ${name}`, ms(result.median), `${(result.median / baseline.median).toFixed(2)}x`, ok ? 'yes' : 'NO']);
}

console.log(`## Pathological documents (issue 15 item 12)

Whole-process wall time (median of 3 after a warm-up) of \`aiwg-cite check DOC.md --format json\` on one 1 MB document per shape: a 200 KB line of the shape, then 4 KB runs of it between ordinary words. Target: under ${LIMIT_MS} ms each.

${table(['document', 'median', 'vs baseline', `under ${LIMIT_MS} ms`], rows)}
`);
process.exitCode = failed ? 1 : 0;
