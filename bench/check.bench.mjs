// Issue 2: `aiwg-cite check` over 2,000 markdown files holding 50,000 RLM citations to 5,000
// source files, as a whole process, beside a plain remark-parse pass over the same markdown and
// a `sha256sum` of the same bytes (the floor).
import { CLI, ms, ROOT, rlmCorpus, table, timeCommand } from './lib.mjs';

const { dir, stats, markdown, sources } = rlmCorpus('rlm-corpus');
const everything = [...markdown, ...sources];

const remarkScript = `
import { readFileSync } from 'node:fs';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
const processor = unified().use(remarkParse);
let nodes = 0;
for (const file of process.argv.slice(1)) nodes += processor.parse(readFileSync(file, 'utf8')).children.length;
if (nodes === 0) process.exit(3);
`;

const runs = 5;
const check = timeCommand(process.execPath, [CLI, 'check', '--root', dir, '--format', 'json'], { cwd: dir, runs });
const checkPretty = timeCommand(process.execPath, [CLI, 'check', '--root', dir], { cwd: dir, runs });
const remark = timeCommand(process.execPath, ['--input-type=module', '-e', remarkScript, ...markdown], {
  cwd: ROOT,
  runs: 3,
  okCodes: [0],
});
const sha = timeCommand('sha256sum', everything, { cwd: dir, runs, okCodes: [0] });

console.log(`## check: 2,000 documents, 50,000 RLM citations (issue 2)

Corpus: ${stats.documents} markdown files, ${stats.citations} RLM citations to ${stats.sources} source files, ${(stats.bytes / 1e6).toFixed(1)} MB in all (bench/corpus-gen.mjs, seed 42). Target: check under 1 s.

${table(
  ['command', 'median', 'p95', 'runs'],
  [
    ['`aiwg-cite check --format json`', ms(check.median), ms(check.p95), check.runs],
    ['`aiwg-cite check` (pretty)', ms(checkPretty.median), ms(checkPretty.p95), checkPretty.runs],
    ['baseline: remark-parse of the same markdown (one process)', ms(remark.median), ms(remark.p95), remark.runs],
    ['floor: `sha256sum` of the same bytes', ms(sha.median), ms(sha.p95), sha.runs],
  ],
)}

aiwg-cite check is ${(remark.median / check.median).toFixed(1)}× faster than a full remark parse and ${(check.median / sha.median).toFixed(1)}× the sha256sum floor; target ${check.median < 1000 ? 'met' : 'NOT met'}.`);
