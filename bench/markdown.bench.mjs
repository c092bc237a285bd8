// Issue 13: `aiwg-cite check --format json` against a plain mdast-util-from-markdown parse and
// the read+sha256 floor, on the issue 2 corpus (2,000 documents, 50,000 RLM citations, 5,000
// artifacts), each a whole process in the same run, with the alternatives measured for the
// model, the report output and the garbage collector. AIWG_CITE_BENCH_BASE_CLI=path/to/cli.js adds
// the same check run by another build (a paired before/after). The 1 MB pathological documents of
// issue 15 item 12 are in pathological.bench.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ms, ROOT, rlmCorpus, table, timeCommand, timeInterleaved } from './lib.mjs';

const { dir, stats, markdown, sources } = rlmCorpus('markdown-corpus');
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

const checkArgs = [CLI, 'check', '--root', dir, '--format', 'json'];
const scriptArgs = (name) => ['--input-type=module', '-e', scripts[name]];
const inCli = { cwd: join(ROOT, 'packages/cli'), okCodes: [0] };
const runScript = (name, runs = 5) => timeCommand(process.execPath, ['--input-type=module', '-e', scripts[name]], { ...inCli, runs });
const baseCli = process.env.AIWG_CITE_BENCH_BASE_CLI || null;
// One document edited before each run of `edited`: the run checks that one and builds its answer
// from the kept answer's parts (check-splice.ts); having checked a document, it keeps no answer.
const editedDocument = markdown[0];
const editedText = readFileSync(editedDocument);
let edits = 0;
const editOne = () => {
  edits += 1;
  writeFileSync(editedDocument, `${editedText}\nEdit ${edits}.\n`);
};
// One round runs each command once, in this order; the warm-up round fills the result cache, so
// the timed warm runs are what a check costs when nothing changed since the last (the first keeps
// the answer, the others print it).
const timed = timeInterleaved({
  check: [process.execPath, checkArgs, { cwd: dir }],
  cold: [process.execPath, [...checkArgs, '--no-cache'], { cwd: dir }],
  floor: [process.execPath, scriptArgs('floor'), inCli],
  semi: [process.execPath, ['--max-semi-space-size=32', ...checkArgs, '--no-cache'], { cwd: dir }],
  ...(baseCli === null
    ? {}
    : {
        // A result cache of its own: a run over every document drops the entries it did not use,
        // so two builds sharing one would each find the other's run left them none.
        baseWarm: [
          process.execPath,
          [baseCli, ...checkArgs.slice(1)],
          { cwd: dir, env: { AIWG_CITE_RESULT_CACHE: join(dir, '.base-cache') } },
        ],
        baseCold: [process.execPath, [baseCli, ...checkArgs.slice(1), '--no-cache'], { cwd: dir }],
      }),
});
const { check, cold, floor, semi } = timed;
// Apart from the rounds above: a check right after an edited run would find the edit's answer
// not kept (that run read a document) and keep its own, so no round would print a kept answer.
const afterEdits = timeInterleaved({
  edited: [process.execPath, checkArgs, { cwd: dir, before: editOne }],
  floor: [process.execPath, scriptArgs('floor'), inCli],
});
const { edited } = afterEdits;
writeFileSync(editedDocument, editedText);
const base = baseCli === null ? null : { warm: timed.baseWarm, cold: timed.baseCold };
const mdast = runScript('mdast', 3);
const micromarkOnly = runScript('micromark', 3);
const model = runScript('model');
const modelExtract = runScript('modelExtract');

const ratioMdast = check.median / mdast.median;
const ratioFloor = check.median / floor.median;
console.log(`## markdown model: check beside an mdast parse and the floor (issue 13)

Corpus: ${stats.documents} markdown files, ${stats.citations} RLM citations to ${stats.sources} source files (bench/corpus-gen.mjs, seed 42). Every row is one whole process over the same files, measured in this run.

${table(
  ['command', 'median', 'p95', 'runs'],
  [
    [
      '`aiwg-cite check --format json` (warm: the run after the warm-up, nothing changed: the last run’s kept answer)',
      ms(check.median),
      ms(check.p95),
      check.runs,
    ],
    [
      '`aiwg-cite check --format json`, one document edited before each run (checked; the other 1,999 taken from the kept answer)',
      ms(edited.median),
      ms(edited.p95),
      edited.runs,
    ],
    ['`aiwg-cite check --format json --no-cache` (every document parsed and verified)', ms(cold.median), ms(cold.p95), cold.runs],
    ...(base === null
      ? []
      : [
          [`before: the same check, CLI at \`${baseCli}\``, ms(base.warm.median), ms(base.warm.p95), base.warm.runs],
          [`before: the same check --no-cache, CLI at \`${baseCli}\``, ms(base.cold.median), ms(base.cold.p95), base.cold.runs],
        ]),
    ['baseline: plain mdast-util-from-markdown parse of the markdown', ms(mdast.median), ms(mdast.p95), mdast.runs],
    ['floor: read + sha256 of every markdown and artifact file', ms(floor.median), ms(floor.p95), floor.runs],
    ['alternative: check --no-cache with `--max-semi-space-size=32` (a larger young generation)', ms(semi.median), ms(semi.p95), semi.runs],
    ['alternative: micromark events only (no mdast), every document', ms(micromarkOnly.median), ms(micromarkOnly.p95), micromarkOnly.runs],
    ['alternative: the markdown model (scanMarkdown), every document', ms(model.median), ms(model.p95), model.runs],
    ['alternative: the model + RLM extraction, every document', ms(modelExtract.median), ms(modelExtract.p95), modelExtract.runs],
  ],
)}

check / mdast parse: ${ratioMdast.toFixed(2)}× (target at most 0.2×: ${ratioMdast <= 0.2 ? 'met' : 'NOT met'}); check / floor: ${ratioFloor.toFixed(2)}× (target at most 1.5×: ${ratioFloor <= 1.5 ? 'met' : 'NOT met'}). One document edited before the run: ${(edited.median / mdast.median).toFixed(2)}× and ${(edited.median / afterEdits.floor.median).toFixed(2)}× (the floor timed in the same rounds: ${ms(afterEdits.floor.median)}). Without the result cache: ${(cold.median / mdast.median).toFixed(2)}× and ${(cold.median / floor.median).toFixed(2)}×.`);
