import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  AiwgCiteError,
  type AnnotationMark,
  annotateMarkdown,
  appendAll,
  type Finding,
  marksFromAggregate,
  marksFromFindings,
  runPipeline,
  validateAggregateOutput,
} from '@aiwg-cite/core';
import {
  confineExplicitFile,
  discoverDocuments,
  nodeSha256,
  placePath,
  realLocation,
  resolveWorkspace,
  type Workspace,
  writeFileAtomic,
} from '@aiwg-cite/node';
import { parseChoice, parseCommandArgs } from '../args.ts';
import type { CliContext, Command } from '../context.ts';
import { annotateMessages, inputMessages, usageMessages } from '../messages.ts';
import { historyPort, worktreeReader } from '../pipeline-ports.ts';
import { prepareScholarly } from './check-scholarly.ts';
import { decodeExact, parseJsonInput, readInput, usageError } from './interop-io.ts';

const HELP = `Usage: aiwg-cite annotate FILE.md [AGG.json] [options]

Marks each checked claim or citation in a markdown file with a badge and appends an audit report:
  ✅ verified   ⚠️ partial or warning   ❌ contradicted or error   🔵 insufficient evidence
  🔒 grounded (code citations and @-mentions: the project is private context)   🔓 ungrounded
The marks come from aiwg-cite's own check of FILE, from an aggregate file, or both merged.
Only insertions are made: nothing of FILE is rewritten, so deleting the inserted text gives back
the original bytes (BOM, CRLF and a missing final newline included). No badge goes inside a code
fence, a > quote, front matter or HTML. Prints the result unless --write.

Options:
  --verdicts AGG.json  verifier verdicts from \`aiwg-cite aggregate\` (spans in code points of FILE);
                       also accepted as a second argument, like citation-auditor's \`render FILE AGG\`
  --no-findings        leave out aiwg-cite's own findings (needs --verdicts)
  --mode MODE          inline (default): a badge after every mark and a per-claim audit report;
                       append: [Unverified] / [Partially Unverified] after failures only, and an
                       appendix table
  --write              write FILE in place (atomically; refused if FILE changed meanwhile);
                       running it again changes nothing
  --root DIR           project root for aiwg-cite's check (default: the git top level of FILE's
                       directory, else that directory)
  -h, --help           show this help

Exit codes: 0 done, 2 usage or tool error.
`;

const MODES = ['inline', 'append'] as const;

/** `aiwg-cite annotate`. */
export const annotate: Command = {
  summary: 'insert verdict badges and an audit report into a markdown file (byte-exact insertions)',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('annotate', args, {
      verdicts: { type: 'string' },
      'no-findings': { type: 'boolean' },
      mode: { type: 'string' },
      write: { type: 'boolean' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    // `annotate FILE AGG.json` reads like citation-auditor's `render FILE AGG.json`.
    const [file, second, ...extra] = positionals;
    if (file === undefined || extra.length > 0 || (second !== undefined && values.verdicts !== undefined)) {
      throw usageError('annotate', usageMessages.annotateFiles());
    }
    const verdictsPath = values.verdicts ?? second;
    const mode = parseChoice('annotate', 'mode', values.mode, MODES, 'inline');
    const withFindings = values['no-findings'] !== true;
    if (!withFindings && verdictsPath === undefined) throw usageError('annotate', usageMessages.noFindingsNeedsVerdicts());
    if (file === '-' && (withFindings || values.write === true)) {
      throw usageError('annotate', usageMessages.stdinOnlyWithoutFindings());
    }

    // The document is confined as check confines its paths (inside the root, symlinks resolved);
    // the verdicts file may be named anywhere, but not reached through a symlink out of the root.
    const workspace = file === '-' ? null : annotateWorkspace(context.cwd, file, values.root);
    if (workspace !== null) confineExplicitFile(workspace.root, context.cwd, file);
    if (workspace !== null && verdictsPath !== undefined && verdictsPath !== '-') {
      const placement = placePath(workspace.root, resolve(context.cwd, verdictsPath));
      if (placement.kind === 'escapes') {
        throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', inputMessages.symlinkOutsideNotRead(verdictsPath, placement.real));
      }
    }
    const bytes = await readInput(file, context);
    const text = decodeExact(bytes, file);
    const marks: AnnotationMark[] = [];
    if (verdictsPath !== undefined) {
      const aggregated = validateAggregateOutput(parseJsonInput(await readInput(verdictsPath, context), verdictsPath));
      if (!aggregated.ok) {
        throw new AiwgCiteError('INPUT_UNREADABLE', `${verdictsPath}: ${aggregated.problem}`, { data: { path: verdictsPath } });
      }
      appendAll(marks, marksFromAggregate(text, aggregated.value));
    }
    if (withFindings && workspace !== null) {
      const documents = discoverDocuments(workspace, context.cwd, [file]);
      appendAll(marks, marksFromFindings(text, await ownFindings(workspace, documents, context)));
    }

    const annotated = annotateMarkdown(text, marks, mode);
    if (values.write !== true) {
      context.stdout.write(annotated.text);
      return 0;
    }
    const changed = writeFileAtomic(resolve(context.cwd, file), annotated.text, bytes, file);
    context.stdout.write(
      `${
        changed
          ? annotateMessages.written(file, marks.length, annotated.badges, annotated.skipped, annotated.replacedReport)
          : annotateMessages.unchanged(file)
      }\n`,
    );
    return 0;
  },
};

/**
 * The root of aiwg-cite's check: `--root` when given; else the git top level of FILE's directory,
 * so a file in another repository resolves its citations there; else the cwd, as `check` does,
 * when FILE lies under it; else FILE's directory.
 */
function annotateWorkspace(cwd: string, file: string, root: string | undefined): Workspace {
  if (root !== undefined) return resolveWorkspace(cwd, root);
  const own = resolveWorkspace(dirname(resolve(cwd, file)), undefined);
  if (own.isGit) return own;
  const here = resolveWorkspace(cwd, undefined);
  const inside = relative(here.root, realLocation(resolve(cwd, file)));
  return inside.startsWith('..') || isAbsolute(inside) ? own : here;
}

/**
 * aiwg-cite's offline findings on the documents, as `check` finds them: the RLM and scholarly
 * checkers with the configured severities, then the fabricated-hash pass when something is stale.
 * Run-level findings (`corpus/absent`) have no place of their own and get no badge.
 */
async function ownFindings(workspace: Workspace, documents: readonly string[], context: CliContext): Promise<readonly Finding[]> {
  const scholarly = await prepareScholarly({}, workspace, context);
  const options = scholarly.withOptions({});
  const history = historyPort(workspace, context);
  const { report } = await runPipeline({
    ports: {
      discover: () => documents,
      reader: await worktreeReader(workspace, context),
      sha256: nodeSha256,
      ...(history === undefined ? {} : { history }),
    },
    options,
    checkers: scholarly.checkers,
  });
  return report.citations;
}
