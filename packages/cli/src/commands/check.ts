import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AiwgCiteError, ArtifactCache, type CheckOptions, parseShard, type Report, runPipeline, selectShard } from '@aiwg-cite/core';
import {
  createNodeReader,
  discoverDocuments,
  gitTopLevel,
  isGitInstalled,
  knownGitDirectory,
  nodeSha256,
  resolveWorkspace,
  type SignedBody,
  toPosix,
  type Workspace,
  writeOwnFile,
} from '@aiwg-cite/node';
import packageJson from '../../package.json' with { type: 'json' };
import { parseChoice, parseCommandArgs, parseCount } from '../args.ts';
import { paletteFor, shouldColor } from '../color.ts';
import { type CliContext, type Command, type Output, runNow } from '../context.ts';
import { formatGithub } from '../format/github.ts';
import { chunkedWriter, joinPieces, type Piece, pieceText, writeCheckJson } from '../format/json.ts';
import { formatJunit } from '../format/junit.ts';
import { formatPretty, type PrettyOptions } from '../format/pretty.ts';
import { formatSarif } from '../format/sarif.ts';
import { formatSourceCheck } from '../format/source-check.ts';
import { checkMessages, runMessages, usageMessages } from '../messages.ts';
import { historyPort, worktreeReader } from '../pipeline-ports.ts';
import { assertGitInstalled } from '../require-git.ts';
import { openRunAnswer, startViewState } from './check-answer.ts';
import { openResultCache, type StoredEntry } from './check-cache.ts';
import { changedScope, readChanges } from './check-changed.ts';
import { helpCheck, helperContext, helperMinimum, startHelper } from './check-helper.ts';
import { ONLINE_FLAGS, ONLINE_HELP, prepareOnline } from './check-online.ts';
import { normaliseReportFlag, prepareScholarly, SCHOLARLY_FLAGS, SCHOLARLY_HELP, type ScholarlyRun } from './check-scholarly.ts';
import { spliceAnswer, watchedStage } from './check-splice.ts';
import { decodeExact, readInput } from './interop-io.ts';

const HELP = `Usage: aiwg-cite check [paths...] [options]

Checks the citations in markdown files. With no paths, every markdown file under the root
that git does not ignore (outside git: every .md file outside node_modules). A quoted glob
('docs/**/*.md') picks among those files.

Options:
  --root DIR           project root (default: the git top level, else the current directory)
  --format FORMAT      pretty (default), json, sarif (SARIF 2.1.0), github (Actions annotations), junit
                       or source-check (one source-check verifier result per citation)
  --staged             check what the next commit contains: staged markdown and the artifacts it cites
                       as they are in the git index, plus committed documents the staged change breaks
  --reverse-only       with --staged: only committed documents the staged change breaks (deleted,
                       renamed or changed cited files); the lint-staged hook runs this beside lint-staged
  --files-from FILE    also check the paths listed in FILE (\`-\`: standard input), one per line or
                       NUL-separated (\`git ls-files -z\`); an empty list checks nothing
  --changed            check what the working tree changed since HEAD: changed and untracked markdown,
                       plus every document whose code citations name a changed, added or deleted file
                       (all documents when the configuration, a corpus or a bibliography changed)
  --since REF          with --changed (implied): compare with the commit REF (where HEAD's history left
                       it: their merge base) instead of HEAD, as a pull request's CI does with its base
                       branch (\`--since origin/main\`)
  --strict             warnings (stale, un-versioned, malformed) fail the run; also AIWG_CITE_STRICT=1
  --max-warnings N     fail when there are more than N warnings
  --rlm                RLM code citations only
${SCHOLARLY_HELP}  --include-code       also check citations inside code blocks and code spans
  --shard i/n          check only shard i of n: the documents whose path hash falls in it (stable on every
                       machine); \`aiwg-cite merge\` joins the n JSON or SARIF reports into the full run's
  --no-history         skip the git history pass that turns fabricated hashes of stale citations into
                       unknown-hash errors
  --no-watch           check here even when a running \`aiwg-cite watch\` could answer (see below)
${ONLINE_HELP}  -h, --help           show this help

A \`check --rlm\` with no paths, in a repository where \`aiwg-cite watch\` runs with the same
configuration and options, is answered by the watch from what it keeps verified: the same report,
without reading every document again.

Exit codes: 0 pass, 1 fail, 2 usage or tool error.
`;

/** The report formats of `check` (and of `merge`). */
export const CHECK_FORMATS = ['pretty', 'json', 'sarif', 'github', 'junit', 'source-check'] as const;
const FORMATS = CHECK_FORMATS;
/** The formats that list no citation that checked out (the summary counts them): a run for one of them only counts those. */
export const COUNTING_FORMATS: ReadonlySet<string> = new Set<(typeof FORMATS)[number]>(['pretty', 'sarif', 'github']);

/** The flags of `check` (a running `watch` parses a request to answer with them too). */
export const CHECK_FLAGS = {
  ...SCHOLARLY_FLAGS,
  'files-from': { type: 'string' },
  ...ONLINE_FLAGS,
  root: { type: 'string' },
  format: { type: 'string' },
  strict: { type: 'boolean' },
  'max-warnings': { type: 'string' },
  rlm: { type: 'boolean' },
  'include-code': { type: 'boolean' },
  'no-history': { type: 'boolean' },
  staged: { type: 'boolean' },
  'reverse-only': { type: 'boolean' },
  changed: { type: 'boolean' },
  since: { type: 'string' },
  shard: { type: 'string' },
  'no-watch': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `aiwg-cite check`. */
export const check: Command = {
  summary: 'check the citations in markdown files',
  async run(args: readonly string[], given: CliContext): Promise<number> {
    // A helper thread builds the run as its main thread did, at that run's time, and prints nothing.
    const context = given.helping === undefined ? given : helperContext(given, given.helping);
    const { values, positionals } = parseCommandArgs('check', normaliseReportFlag(args), CHECK_FLAGS);
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    // --files-from adds its paths to the command line's; an empty list checks nothing, not everything.
    const listed = values['files-from'] === undefined ? [] : await readFileList(values['files-from'], context);
    const paths = [...positionals, ...listed];
    const explicit = positionals.length > 0 || values['files-from'] !== undefined;
    // The helper thread gets the paths themselves: it must not read the list (stdin) again.
    const helperArgs =
      values['files-from'] === undefined ? args : [...withoutFilesFrom(args), ...(args.includes('--') ? [] : ['--']), ...listed];
    const format = parseChoice('check', 'format', values.format, FORMATS, 'pretty');
    const maxWarnings = parseCount('check', 'max-warnings', values['max-warnings']);
    const strict = values.strict === true || isTruthy(context.env.AIWG_CITE_STRICT);
    const options: CheckOptions = {
      strict,
      includeCode: values['include-code'] === true,
      ...(maxWarnings === undefined ? {} : { maxWarnings }),
    };

    const shard = values.shard === undefined ? undefined : parseShard(values.shard);
    const workspace = resolveWorkspace(context.cwd, values.root);
    const online = await prepareOnline(values, workspace.root, context);
    if (values['reverse-only'] === true && (values.staged !== true || explicit)) {
      throw new AiwgCiteError('USAGE', usageMessages.reverseOnlyAlone());
    }
    const since = values.since ?? (values.changed === true ? 'HEAD' : undefined);
    if (since !== undefined) {
      if (values.staged === true) throw new AiwgCiteError('USAGE', usageMessages.changedWithStaged());
      if (explicit) throw new AiwgCiteError('USAGE', usageMessages.changedWithPaths());
      if (workspace.isGit) requireTopLevel(workspace, values.root !== undefined, usageMessages.changedNeedsTopLevel);
    }
    // An empty --files-from list with --staged: no document to check, as without --staged.
    if (values.staged === true && !(explicit && paths.length === 0)) {
      if (shard !== undefined) {
        throw new AiwgCiteError('USAGE', usageMessages.shardWithStaged());
      }
      if (values.fix === true) {
        throw new AiwgCiteError('USAGE', usageMessages.fixWithStaged());
      }
      return runStaged(
        workspace,
        {
          hasRootOption: values.root !== undefined,
          history: values['no-history'] !== true,
          reverseOnly: values['reverse-only'] === true,
          pretty: prettyOptions(values),
        },
        await prepareScholarly(values, workspace, context),
        values['no-cache'] !== true,
        paths,
        options,
        format,
        context,
      );
    }
    // --changed: git walks the tree for what changed while the configuration and corpus load.
    const changes = since === undefined || context.helping !== undefined ? undefined : readChanges(workspace, since, context);
    // A run over every document that may print a kept answer: in a large repository git says what
    // changed since (check-answer.ts), also while the configuration and corpus load.
    const mayKeep =
      values['no-cache'] !== true &&
      values.online !== true &&
      values.fix !== true &&
      !explicit &&
      shard === undefined &&
      since === undefined;
    // Not awaited when the run takes no view after all: a failure then costs the view alone.
    const view = mayKeep && context.helping === undefined ? startViewState(workspace, context.env).catch(() => null) : null;
    // One instant for the run's date, which a helper thread takes too.
    const now = runNow(context);
    const scholarly = await prepareScholarly(values, workspace, { ...context, clock: () => now });
    const runOptions = scholarly.withOptions(options);
    const checkers = online.checkers(scholarly.checkers);
    // Online answers change with the network, so an online run neither reads nor stores results.
    const entries: StoredEntry[] = [];
    const cache =
      values['no-cache'] === true || values.online === true
        ? null
        : openResultCache(workspace, context, scholarly, runOptions, checkers, {
            ...(context.helping === undefined ? {} : { forward: (entry: StoredEntry) => entries.push(entry) }),
          });
    // --fix rewrites what it read: every document is read, none is answered from its stamp alone.
    const stamps = cache?.stamps ?? null;
    const reader = await worktreeReader(workspace, context, { cacheDirectories: true, stamps });
    const results = cache === null ? undefined : values.fix === true ? { ...cache.results, known: undefined } : cache.results;
    // The one pipeline (core `runPipeline`): discover → read → admit → extract+verify → history →
    // settle → corpus → online → report. `check` plugs in the working tree and git's history.
    // The pretty, SARIF and GitHub reports list no citation that checked out: those are counted,
    // not kept, unless a later stage reads them (`--fix`, `--report`, the online checks). The JSON
    // report lists them: it takes their JSON text, which the result cache holds, instead of objects.
    const unread = scholarly.countsOk && online.stage === undefined;
    const okJson = unread && format === 'json';
    const countOk = okJson || (unread && COUNTING_FORMATS.has(format));
    const sha256 = stamps?.sha256 ?? nodeSha256;
    if (context.helping !== undefined) {
      const read = scholarly.wrapReader(reader);
      const artifacts = new ArtifactCache(read, sha256);
      const ports = { reader: read, artifactsFor: () => artifacts, bodyOf: scholarly.copiesPort(stamps).bodyOf };
      const batch = { ...ports, ...optional('results', results), options: runOptions, checkers, countOk, okJson };
      return helpCheck(context.helping, batch, { cache, entries, thread: scholarly.thread });
    }
    // --changed: the documents the working tree's change can affect, or every one (scope `null`).
    const changed =
      since === undefined || changes === undefined
        ? undefined
        : await changedScope(workspace, await changes, since, scholarly.changesEveryDocument, options.includeCode === true, context);
    // Another thread for a run with many documents to read; not for --fix (it keeps what it read)
    // or online checks (one session of requests).
    const minimum = helperMinimum(context.env);
    const helper =
      minimum === null || context.helperEntry === undefined || values.fix === true || online.stage !== undefined
        ? undefined
        : startHelper(context.helperEntry, ['check', ...helperArgs], context, { minimum, now, cache, thread: scholarly.thread });
    // Stage 1, discover. --changed names its documents (and takes no paths). The stamps stat every
    // document anyway: their stat also says which are gone, so git stats none.
    const discover = () => {
      const notes: string[] = changed === undefined ? [] : [changed.note];
      if (!workspace.isGit && insideGitCheckout(workspace.root) && !isGitInstalled(context.env)) notes.push(checkMessages.noGit());
      const found =
        changed?.documents ??
        (explicit && paths.length === 0
          ? []
          : discoverDocuments(workspace, context.cwd, paths, (note) => notes.push(note), stamps === null ? {} : { isGone: stamps.isGone }));
      // A shard must leave out the copies of the whole run, so it reads every document for
      // their identity here; a full run leaves that to the pipeline, which reads each once.
      const identity = shard === undefined ? 'pipeline' : 'now';
      answer?.discovered(found);
      const selected = scholarly.filterDocuments(found, explicit, { stamps, identity });
      return { documents: shard === undefined ? selected : selectShard(selected, shard), notes };
    };
    const read = scholarly.wrapReader(reader);
    const artifacts = new ArtifactCache(read, sha256);
    // A run over every document that reads nothing it has not seen may print the last identical
    // run's answer whole (check-answer.ts); --fix, --report and online runs read more than that.
    const whole = cache !== null && !explicit && shard === undefined && changed === undefined && unread;
    const answer =
      cache === null || !whole
        ? null
        : openRunAnswer({
            workspace,
            env: context.env,
            cache,
            format,
            invocation: [args, context.cwd, context.configFile ?? null, format === 'pretty' && shouldColor(context.stdout, context.env)],
            reader: read,
            sha256,
            artifacts,
            runState: scholarly.runState,
            mentions: { resolved: scholarly.mentionsResolved, resolveAsBefore: scholarly.resolveAsBefore },
            ...(view === null ? {} : { view }),
          });
    // In a large git repository git may vouch for the tree the kept answer was built from (check-view.ts).
    const viewed =
      answer === null || stamps === null
        ? null
        : await answer.discoverByGit((found) => scholarly.filterDocuments(found, false, { stamps, identity: 'pipeline' }), stamps.isGone);
    if (viewed !== null && context.env.AIWG_CITE_RESULT_CACHE_STATS === '1') {
      context.stderr.write(`${runMessages.viewStats(viewed.discovery.documents.length)}\n`);
    }
    const discovery = whole ? (viewed?.discovery ?? discover()) : null;
    const reused = discovery === null ? null : await answer?.reuse(discovery, viewed?.unchanged);
    if (discovery !== null && reused?.kind === 'whole') {
      await cache?.finish(false, discovery.documents.length);
      printKept(context.stdout, reused.output);
      return reused.exit;
    }
    // The corpus stage, watched: a kept JSON answer's elements hold only while it touches no finding (check-splice.ts).
    const corpus = watchedStage(scholarly.corpusStage);
    const ports = {
      discover: discovery === null ? discover : () => discovery,
      reader: read,
      sha256,
      artifacts,
      current: 'working tree' as const,
      ...optional('results', results),
      copies: scholarly.copiesPort(stamps),
      ...optional('corpus', corpus.stage),
      ...optional('online', online.stage),
    };
    // Only some documents' bytes, or those of files they cite, changed since the kept answer:
    // checks those documents, builds the rest from it.
    if (discovery !== null && reused?.kind === 'splice') {
      const history =
        values['no-history'] === true
          ? undefined
          : historyPort(workspace, context, undefined, answer === null ? {} : { tellState: answer.tellSpliceHistory });
      try {
        const spliced = await spliceAnswer({
          ...reused,
          discovery,
          plan: { ports: { ...ports, ...optional('history', history) }, options: runOptions, checkers, countOk, okJson },
          artifacts,
          format,
          render: (result) => render(result.report, format, context, { ...prettyOptions(values), ok: result.ok }),
        });
        if (spliced !== null) {
          await cache?.finish(false, undefined, discovery.documents.length - spliced.checked);
          const out = chunkedWriter((piece) => printBytes(context.stdout, piece));
          const kept = keptPrinter(context.stdout);
          spliced.handOn(
            (piece) => out.write(piece),
            (chunk) => {
              // What was gathered goes first.
              out.end();
              return kept.take(chunk);
            },
          );
          out.end();
          kept.end();
          await answer?.keepSplice(discovery, spliced);
          return spliced.exit;
        }
        answer?.spliceDeclined();
      } finally {
        reused.output.close();
      }
    }
    const result = await runPipeline({
      ports: {
        ...ports,
        ...optional('helper', helper),
        ...(values['no-history'] === true
          ? {}
          : optional('history', historyPort(workspace, context, undefined, answer === null ? {} : { tellState: answer.tellHistoryState }))),
      },
      options: runOptions,
      checkers,
      countOk,
      okJson,
      // A kept answer's parts name the documents with stale pins (check-splice.ts).
      tellPins: answer !== null,
    });
    const { report, documents, ok } = result;
    await cache?.finish(!explicit && shard === undefined && changed?.documents == null);
    scholarly.afterReport(report, documents);

    const print = (piece: Piece) => {
      printBytes(context.stdout, piece);
      answer?.print(piece);
    };
    if (format === 'json') {
      const out = chunkedWriter(print);
      writeCheckJson(report, out.write, result.okJson, answer == null ? {} : { placed: answer.placed });
      out.end();
    } else print(render(report, format, context, { ...prettyOptions(values), ok }));
    const exit = report.verdict === 'PASS' ? 0 : 1;
    if (discovery !== null) await answer?.keep(discovery, exit, { outcomes: result.outcomes, documents, touched: corpus.touched() });
    return exit;
  },
};

/**
 * Prints text, or bytes (a kept answer's, a report's texts read from the result cache): as they
 * are to a Node stream (the process's stdout), else as the text they encode (ASCII, most of a
 * report, copied a byte a character).
 */
function printBytes(out: Output, piece: Piece): void {
  out.write(out instanceof Writable ? (piece as string) : pieceText(piece));
}

/**
 * Prints a kept answer as it is read (check-answer.ts), never holding it whole: a stream that
 * holds on to a chunk (it could not write it at once) gets the next in a new buffer, and an output
 * that takes text gets the chunks decoded (a character split between two is joined).
 */
function printKept(out: Output, body: SignedBody): void {
  const printer = keptPrinter(out);
  body.pipe(printer.take);
  printer.end();
}

/** Prints chunks of a kept answer as {@link printKept} says: `take` for each ({@link SignedBody.pipe}'s), then `end`. */
function keptPrinter(out: Output): { readonly take: (chunk: Buffer) => boolean; readonly end: () => void } {
  if (out instanceof Writable) {
    return {
      take(chunk) {
        out.write(chunk);
        return out.writableLength === 0;
      },
      end() {},
    };
  }
  const decoder = new StringDecoder('utf8');
  return {
    take(chunk) {
      out.write(decoder.write(chunk));
      return true;
    },
    end() {
      const rest = decoder.end();
      if (rest !== '') out.write(rest);
    },
  };
}

/** `{ [key]: value }`, or nothing when the value is undefined (exactOptionalPropertyTypes). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

/** `--verbose` and `--quiet` of the pretty format. */
export function prettyOptions(values: { readonly verbose?: boolean | undefined; readonly quiet?: boolean | undefined }): PrettyOptions {
  return { verbose: values.verbose === true, quiet: values.quiet === true };
}

/** Prints a report in one of the formats of `check`. */
export function render(report: Report, format: (typeof FORMATS)[number], context: CliContext, pretty: PrettyOptions = {}): string {
  switch (format) {
    case 'json': {
      const pieces: Piece[] = [];
      writeCheckJson(report, (piece) => pieces.push(piece));
      return joinPieces(pieces);
    }
    case 'source-check':
      return formatSourceCheck(report);
    case 'sarif':
      return formatSarif(report, { version: packageJson.version });
    case 'github':
      return formatGithub(report);
    case 'junit':
      return formatJunit(report);
    default:
      return formatPretty(report, paletteFor(context.stdout, context.env), pretty);
  }
}

/**
 * `check --staged`: what the next commit contains, read from the git index (SPEC §11.1). The git
 * adapter is imported only here, so a plain `check` never loads it.
 */
async function runStaged(
  workspace: Workspace,
  flags: { readonly hasRootOption: boolean; readonly history: boolean; readonly reverseOnly: boolean; readonly pretty: PrettyOptions },
  scholarly: ScholarlyRun,
  useCache: boolean,
  positionals: readonly string[],
  options: CheckOptions,
  format: (typeof FORMATS)[number],
  context: CliContext,
): Promise<number> {
  const git = await import('@aiwg-cite/git');
  if (!workspace.isGit) {
    assertGitInstalled(context.cwd, 'check --staged', context.env);
    throw new AiwgCiteError('NOT_A_REPOSITORY', git.stagedMessages.notARepository(context.cwd));
  }
  requireTopLevel(workspace, flags.hasRootOption, usageMessages.stagedNeedsTopLevel);
  const files = positionals.map((path) => git.toRootRelative(workspace.root, context.cwd, path));
  const runOptions = scholarly.withOptions(options);
  const cache = useCache ? openResultCache(workspace, context, scholarly, runOptions, scholarly.checkers, { source: 'index' }) : null;
  // The same pipeline with git's ports: the index as reader, the staged-change stage; built once.
  const staged = await git.checkStaged({
    root: workspace.root,
    env: { ...context.env },
    files,
    sha256: nodeSha256,
    options: runOptions,
    checkers: scholarly.checkers,
    selectDocuments: (documents) => scholarly.filterDocuments(documents, false),
    workingTree: createNodeReader(workspace.root),
    history: flags.history,
    reverseOnly: flags.reverseOnly,
    writeFile: writeOwnFile,
    ...(cache === null ? {} : { results: cache.results }),
    corpus: scholarly.corpusStage,
    ...optional('gitDir', knownGitDirectory(workspace.root, context.env)),
  });
  await cache?.finish(false);
  // The pipeline built the report once, corpus stage included; --fix is refused with --staged.
  const report = staged.report;
  scholarly.afterReport(report, staged.documents);
  // A commit that stages nothing this check concerns hears nothing from it.
  if (format === 'pretty' && report.summary.files === 0 && report.citations.length === 0) return 0;
  let out = render(report, format, context, flags.pretty);
  if (format === 'pretty' && report.verdict === 'FAIL') {
    out += `${paletteFor(context.stdout, context.env).bold(git.stagedMessages.bypass(existsSync(join(workspace.root, '.husky'))))}\n`;
  }
  context.stdout.write(out);
  return report.verdict === 'PASS' ? 0 : 1;
}

/**
 * Refuses a run over the whole repository (`--staged`, `--changed`) whose root is not the git top
 * level: without --root the workspace root is the top level already; with it, it must be.
 */
function requireTopLevel(workspace: Workspace, hasRootOption: boolean, message: (top: string | null) => string): void {
  const top = hasRootOption ? gitTopLevel(workspace.root) : workspace.root;
  if (top === null || toPosix(realpathSync.native(top)) !== workspace.root) throw new AiwgCiteError('USAGE', message(top));
}

/** Whether an environment switch is on (set, and not empty, `0` or `false`). */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * The paths a `--files-from` list names (`-`: standard input; a pipe such as `<(git ls-files)`
 * too): NUL-separated when it holds a NUL (`git ls-files -z`, `find -print0`), else one per
 * line; blank lines are skipped.
 */
async function readFileList(path: string, context: CliContext): Promise<string[]> {
  const absolute = resolve(context.cwd, path);
  const isPipe = path !== '-' && statSync(absolute, { throwIfNoEntry: false })?.isFIFO() === true;
  const text = decodeExact(isPipe ? readFileSync(absolute) : await readInput(path, context), path);
  const entries = text.includes('\0') ? text.split('\0') : text.split(/\r?\n/);
  return entries.filter((entry) => entry.trim() !== '');
}

/** The arguments without `--files-from` and its value (either spelling). */
function withoutFilesFrom(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] as string;
    if (arg === '--') {
      out.push(...args.slice(at));
      break;
    }
    if (arg === '--files-from') at += 1;
    else if (!arg.startsWith('--files-from=')) out.push(arg);
  }
  return out;
}

/** Whether `directory` or one of its parents holds a `.git`: a checkout, whether or not git can be run. */
function insideGitCheckout(directory: string): boolean {
  for (let at = directory; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}
