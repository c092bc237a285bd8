// Issue 13: the markdown model against a plain mdast-util-from-markdown parse and the read+sha256
// floor, on the issue 2 corpus (2,000 documents, 50,000 RLM citations, 5,000 artifacts), each a
// whole process in the same run; the alternatives measured for the model; and issue 15 item 12:
// 1 MB pathological documents (long runs of `.`, `?`, spaces, `[`, `“`, `#`) through the CLI.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRlmCorpus } from './corpus-gen.mjs';
import { CLI, ms, ROOT, scratch, table, timeCommand } from './lib.mjs';

const dir = scratch('markdown-corpus');
const stats = generateRlmCorpus(dir);

function list(directory, suffix, out = []) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && entry.name !== '.git') list(path, suffix, out);
    else if (entry.isFile() && path.endsWith(suffix)) out.push(path);
  }
  return out;
}
const markdown = list(dir, '.md');
const sources = list(dir, '.ts');
const listFile = join(dir, '.bench-files.json');
writeFileSync(listFile, JSON.stringify({ markdown, sources }));

// Each script reads the file list, then does one job over every file in one process.
const script = (body) => `
import { readFileSync } from 'node:fs';
const { markdown, sources } = JSON.parse(readFileSync(${JSON.stringify(listFile)}, 'utf8'));
let work = 0;
${body}
if (work === 0) process.exit(3);
`;
const scripts = {
  mdast: script(`
import { fromMarkdown } from 'mdast-util-from-markdown';
for (const file of markdown) work += fromMarkdown(readFileSync(file, 'utf8')).children.length;`),
  micromark: script(`
import { parse, postprocess, preprocess } from 'micromark';
for (const file of markdown) work += postprocess(parse().document().write(preprocess()(readFileSync(file, 'utf8'), undefined, true))).length;`),
  model: script(`
import { scanMarkdown } from '@aiwg-cite/core';
for (const file of markdown) work += scanMarkdown(readFileSync(file, 'utf8')).regions.length + 1;`),
  modelExtract: script(`
import { extractRlm, scanMarkdown } from '@aiwg-cite/core';
for (const file of markdown) work += extractRlm(scanMarkdown(readFileSync(file, 'utf8'))).citations.length;`),
  floor: script(`
import { createHash } from 'node:crypto';
for (const file of [...markdown, ...sources]) work += createHash('sha256').update(readFileSync(file)).digest()[0] + 1;`),
};
const runScript = (name, runs = 5) =>
  timeCommand(process.execPath, ['--input-type=module', '-e', scripts[name]], { cwd: join(ROOT, 'packages/cli'), runs, okCodes: [0] });

const runs = 5;
const check = timeCommand(process.execPath, [CLI, 'check', '--root', dir, '--format', 'json'], { cwd: dir, runs });
const mdast = runScript('mdast', 3);
const micromarkOnly = runScript('micromark', 3);
const model = runScript('model');
const modelExtract = runScript('modelExtract');
const floor = runScript('floor');

// Issue 15 item 12: pathological documents, 1 MB each, through the whole CLI.
const shapes = [
  ['`.`', '.'],
  ['`?`', '?'],
  ['spaces', ' '],
  ['`[`', '['],
  ['`“`', '“'],
  ['`#`', '#'],
];
const pathological = [];
for (const [name, char] of shapes) {
  const root = scratch(`markdown-pathological-${pathological.length}`);
  writeFileSync(join(root, 'doc.md'), `# Pathological\n\nText ${char.repeat(1_000_000)} end [src/a.ts, L1].\n`);
  const timing = timeCommand(process.execPath, [CLI, 'check', '--root', root, '--format', 'json', 'doc.md'], { cwd: root, runs: 3 });
  pathological.push([`1 MB run of ${name}`, ms(timing.median), ms(timing.max), timing.median < 1000 ? 'yes' : 'NO']);
}

const ratioMdast = check.median / mdast.median;
const ratioFloor = check.median / floor.median;
console.log(`## markdown model: check beside an mdast parse and the floor (issue 13)

Corpus: ${stats.documents} markdown files, ${stats.citations} RLM citations to ${stats.sources} source files (bench/corpus-gen.mjs, seed 42). Every row is one whole process over the same files, measured in this run.

${table(
  ['command', 'median', 'p95', 'runs'],
  [
    ['`aiwg-cite check --format json`', ms(check.median), ms(check.p95), check.runs],
    ['baseline: plain mdast-util-from-markdown parse of the markdown', ms(mdast.median), ms(mdast.p95), mdast.runs],
    ['floor: read + sha256 of every markdown and artifact file', ms(floor.median), ms(floor.p95), floor.runs],
    ['alternative: micromark events only (no mdast), every document', ms(micromarkOnly.median), ms(micromarkOnly.p95), micromarkOnly.runs],
    ['alternative: the markdown model (scanMarkdown), every document', ms(model.median), ms(model.p95), model.runs],
    ['alternative: the model + RLM extraction, every document', ms(modelExtract.median), ms(modelExtract.p95), modelExtract.runs],
  ],
)}

check / mdast parse: ${ratioMdast.toFixed(2)}× (target at most 0.2×: ${ratioMdast <= 0.2 ? 'met' : 'NOT met'}); check / floor: ${ratioFloor.toFixed(2)}× (target at most 1.5×: ${ratioFloor <= 1.5 ? 'met' : 'NOT met'}).

### 1 MB pathological documents (issue 15 item 12)

${table(['document', 'median', 'max', 'under 1 s'], pathological)}`);
