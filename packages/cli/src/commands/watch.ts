import { realpathSync } from 'node:fs';
import {
  AiwgCiteError,
  type ArtifactReader,
  type CheckOptions,
  contentHash,
  escapeControls,
  type Finding,
  parseLineRange,
  relativeToRoot,
} from '@aiwg-cite/core';
import { discoverDocuments, listDirectories, nodeSha256, resolveWorkspace, runGit, toPosix } from '@aiwg-cite/node';
import { parseChoice, parseCommandArgs, parseCount } from '../args.ts';
import { shouldColor } from '../color.ts';
import type { CliContext, Command } from '../context.ts';
import { usageMessages } from '../messages.ts';
import { historyPort, worktreeReader } from '../pipeline-ports.ts';
import { watchServeMessages } from '../watch-messages.ts';
import { isTruthy } from './check.ts';
import { prepareScholarly } from './check-scholarly.ts';
import { bodyDigest } from './generated-copies.ts';
import { CheckServer } from './watch-serve.ts';

const HELP = `Usage: aiwg-cite watch [paths...] [options]

Keeps every citation verified while files change and shows the counts live. With no paths,
every markdown file under the root that git does not ignore. On a terminal it draws a
dashboard (keys: ↑/↓ or j/k, Enter details, f status filter, / path filter, a re-verify all,
h or ? help, q quit); without one (--no-tui, a pipe, or CI set) it prints a summary line, then one
line per change of verdict, \`file:line:col OLD -> NEW citation\`, each batch followed by the new
summary; with --format ndjson, the same as one JSON object per line.

Options:
  --root DIR           project root (default: the git top level, else the current directory)
  --no-tui             plain lines even on a terminal
  --format FORMAT      lines (default) or ndjson; ndjson never draws the dashboard
  --strict             warnings (stale, un-versioned, malformed) count as errors; also AIWG_CITE_STRICT=1
  --include-code       also check citations inside code blocks and code spans
  --scholarly          also run check's research-corpus and scholarly checks (REF ids, @-mentions,
                       DOIs, arXiv ids, author-year, quotes, statistics, GRADE)
  --corpus DIR         with --scholarly: a corpus root (repeatable; replaces the configured roots)
  --debounce MS        quiet time that ends a burst of file events (default 100)
  -h, --help           show this help

The configuration and, with --scholarly, the corpus and bibliographies are read again when one of
their files changes (a git-ignored corpus root too), and every document is checked again by them.

In a git repository, a watch of the whole root answers \`aiwg-cite check --rlm\`, or with --scholarly
(and no --corpus) \`aiwg-cite check\` (the same report a check of its own prints; see
\`aiwg-cite check --help\`) on .git/aiwg-cite/watch.sock; AIWG_CITE_WATCH=trace makes it say on
stderr what it answered and how fast.

Stops on q, Ctrl-C, SIGINT or SIGTERM with exit code 0; a second Ctrl-C while stopping exits 130.
Stops with one line and exit code 2 when its root is deleted, renamed or replaced.
`;

const FORMATS = ['lines', 'ndjson'] as const;

/**
 * The most directories a watch watches all of. Each takes one of the system's file watches
 * (Linux: `fs.inotify.max_user_watches`, 8,192 on older systems, shared with editors); a
 * repository with more keeps to the directories of its documents and the files they cite.
 */
const MAX_WATCHED_DIRECTORIES = 8192;

/** `aiwg-cite watch`: the daemon, with the ink dashboard on a terminal and plain lines otherwise. */
export const watch: Command = {
  summary: 'keep citations verified as files change, with a live dashboard',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('watch', args, {
      root: { type: 'string' },
      'no-tui': { type: 'boolean' },
      format: { type: 'string' },
      strict: { type: 'boolean' },
      'include-code': { type: 'boolean' },
      scholarly: { type: 'boolean' },
      corpus: { type: 'string', multiple: true },
      debounce: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    const debounceMs = parseCount('watch', 'debounce', values.debounce) ?? 100;
    const format = parseChoice('watch', 'format', values.format, FORMATS, 'lines');
    const options: CheckOptions = {
      strict: values.strict === true || isTruthy(context.env.AIWG_CITE_STRICT),
      includeCode: values['include-code'] === true,
    };
    const workspace = resolveWorkspace(context.cwd, values.root);
    if (values.corpus !== undefined && values.scholarly !== true) {
      throw new AiwgCiteError('USAGE', usageMessages.watchCorpusNeedsScholarly());
    }
    // The same configuration as `check`: rule severities, `strict`, include/exclude globs, and
    // with --scholarly the same corpus and checkers; read again when they change (`settings` below).
    const prepareRun = () => prepareScholarly({ rlm: values.scholarly !== true, corpus: values.corpus }, workspace, context);
    let run = await prepareRun();
    // Whether the settings' last reading failed: the watch checks with what it had, and a `check`
    // it answers reads them again (and fails as a check of its own would).
    let settingsUnread = false;
    // A configuration file named by `--config`, when it is inside the root: read again like the root's.
    const namedConfig = context.configFile === undefined ? null : rootRelative(workspace.root, context.configFile.path);
    let store: import('@aiwg-cite/tui').DashboardStore | null = null;
    // A directory the discovery cannot read is skipped with one line, said again only when it changes.
    let lastNote = '';
    const note = (line: string) => {
      if (line === lastNote) return;
      lastNote = line;
      if (store !== null) store.dispatch({ type: 'problem', message: line });
      else context.stderr.write(`aiwg-cite watch: ${escapeControls(line)}\n`);
    };
    // The last discovery before the configuration's filters, with its notes: `check`'s starting point.
    let discovered: { documents: readonly string[]; notes: readonly string[] } = { documents: [], notes: [] };
    // The body digest of each file as the engine last read it (see `reader` below).
    const bodies = new Map<string, string>();
    // The documents the engine holds: it reads each again on every event, so the digest of one
    // the asking batch did not change is that of its bytes now. Set once the engine exists.
    let holds: (file: string) => boolean = () => false;
    const discover = (changed?: ReadonlySet<string>) => {
      const notes: string[] = [];
      const documents = discoverDocuments(workspace, context.cwd, positionals, (line) => {
        notes.push(line);
        note(line);
      });
      discovered = { documents, notes };
      // Generated copies are told by their bodies: those the engine read stand for the files, unread.
      const known =
        changed === undefined ? undefined : (file: string) => (changed.has(file) || !holds(file) ? undefined : bodies.get(file));
      return run.filterDocuments(documents, positionals.length > 0, known === undefined ? {} : { known });
    };
    // Validate explicit paths now: a bad path is a usage error before anything starts.
    discover();
    const useTui =
      values['no-tui'] !== true &&
      format !== 'ndjson' &&
      context.stdout.isTTY === true &&
      context.stdin?.isTTY === true &&
      (context.env.CI === undefined || context.env.CI === '' || context.env.CI === 'false');

    // The daemon and its watcher load only here, never on `check`'s path.
    const tui = await import('@aiwg-cite/tui');
    // The pipeline's stages 2–6 with the same ports as `check`: the working tree as git would
    // store it, git's history facts, so a fabricated hash is unknown-hash here as there.
    // Git's refs and index, from stats: a fetch or a commit can change what its history says of a
    // pin, and while they stay the history's kept facts are answered without starting git.
    const git = workspace.isGit ? await import('@aiwg-cite/git') : null;
    const gitState = git === null ? null : git.GitStateStamp.open(workspace.root, { ...context.env });
    const history = historyPort(workspace, context, undefined, {
      keep: true,
      ...(gitState === null ? {} : { stateStamp: () => gitState.take() }),
    });
    const worktree = await worktreeReader(workspace, context);
    // `check` leaves out a document whose body repeats another's, and a watch answering `check`
    // needs the bodies of the documents it read to do the same.
    const reader: ArtifactReader = {
      async read(path) {
        const read = await worktree.read(path);
        if (read.kind === 'file') bodies.set(path, bodyDigest(read.bytes));
        else bodies.delete(path);
        return read;
      },
    };
    const engine = new tui.WatchEngine({
      reader,
      sha256: nodeSha256,
      check: run.withOptions(options),
      checkers: run.checkers,
      ...(history === undefined ? {} : { history }),
      beforeCheck: () => run.forgetMentions(),
      // A mention of a missing file that git ignores is `ignored`: a `.gitignore` edit can change it.
      missingFollowsIgnores: values.scholarly === true,
    });
    holds = (file) => engine.hasDocument(file);
    // Whether the last listing of directories was small enough to watch them all (see MAX_WATCHED_DIRECTORIES).
    let everyDirectory = true;
    const ignoreRules = git === null ? null : git.IgnoreRules.open(workspace.root, { ...context.env });
    const gitDir = workspace.isGit ? runGit(workspace.root, ['rev-parse', '--absolute-git-dir'], context.env)?.trim() : undefined;

    let finish: (code: number) => void = () => undefined;
    const finished = new Promise<number>((resolve) => {
      finish = resolve;
    });
    let stopping = false;
    let dashboard: import('@aiwg-cite/tui').DashboardHandle | null = null;

    const mode = values.scholarly === true ? 'scholarly' : 'rlm';
    const daemon = new tui.WatchDaemon({
      root: workspace.root,
      engine,
      discover,
      ...(gitDir === undefined || gitDir === '' ? {} : { gitIndexPath: `${gitDir}/index` }),
      // Every directory git does not ignore: a document saved where none is yet is seen too.
      directories: () => {
        const all = listDirectories(workspace, context.env);
        if (all === null) return null;
        // Those of the corpus too, which git may ignore (`.aiwg/`).
        const settings = run.settingsFolders();
        everyDirectory = all.length <= MAX_WATCHED_DIRECTORIES;
        if (everyDirectory) return [...all, ...settings];
        note(watchServeMessages.tooManyDirectories(all.length, MAX_WATCHED_DIRECTORIES));
        return settings;
      },
      ...(gitState === null ? {} : { gitState: () => gitState.take() }),
      // info/exclude and core.excludesFile: the documents git lists follow them too.
      ...(ignoreRules === null ? {} : { ignoreRules: () => ignoreRules.take() }),
      // The configuration, the corpus and the bibliographies: a change checks every document again
      // with what they say now, and the watch answers `check` again by them.
      settings: {
        isFile: (path) => run.changesEveryDocument(path) || path === namedConfig,
        reload: async () => {
          server?.settingsReread();
          const stamp = server?.configStamp();
          let next: typeof run;
          try {
            next = await prepareRun();
          } catch (error) {
            settingsUnread = true;
            throw error;
          }
          settingsUnread = false;
          if (next.cacheContext() === run.cacheContext()) return null;
          run = next;
          if (mode === 'rlm') rlmRun = await prepareScholarly({ rlm: true }, workspace, context);
          const check = run.withOptions(options);
          server?.adopt(run, check, stamp ?? '');
          return { check, checkers: run.checkers };
        },
      },
      debounceMs,
      onBusy: () => store?.dispatch({ type: 'busy' }),
      // Its root deleted or renamed, the watch has nothing left to watch: one line, exit 2.
      onRootGone: (message) => void stop(2, message),
      onProblem: (message) => {
        if (store !== null) store.dispatch({ type: 'problem', message });
        else context.stderr.write(`aiwg-cite watch: ${escapeControls(message)}\n`);
      },
      onUpdate: (update) => {
        // A batch that changed no verdict prints nothing in lines mode: no snapshot to build (at
        // 100,000 documents it takes a tenth of a second, which a served check would wait for).
        if (store === null && format !== 'ndjson' && update.reason === 'change' && update.changes.length === 0) return;
        const snapshot = engine.snapshot();
        if (store !== null) {
          store.dispatch({
            type: 'snapshot',
            snapshot,
            update: { clock: clockOf(update.startedAt), durationMs: update.durationMs, rechecked: update.rechecked },
          });
          return;
        }
        if (format === 'ndjson') {
          const lines = tui.formatNdjson(snapshot, update);
          if (lines.length > 0) context.stdout.write(`${lines.join('\n')}\n`);
          return;
        }
        if (update.reason === 'load') {
          context.stdout.write(`${tui.formatSummaryLine(snapshot, update)}\n`);
          for (const skipped of snapshot.skipped)
            context.stderr.write(`aiwg-cite watch: ${escapeControls(tui.watchMessages.skippedDocument(skipped.file, skipped.reason))}\n`);
          return;
        }
        // New settings may move severities without a verdict: their summary is said anyway.
        if (update.changes.length > 0) context.stdout.write(`${update.changes.map(tui.formatVerdictChange).join('\n')}\n`);
        context.stdout.write(`${tui.formatSummaryLine(snapshot, update)}\n`);
      },
    });

    // `check --rlm` asks a watch of code citations over the whole root for its answer, and `check`
    // a `watch --scholarly` whose corpus is the configured one (watch-serve.ts).
    let rlmRun = mode === 'rlm' ? await prepareScholarly({ rlm: true }, workspace, context) : null;
    const server =
      gitDir === undefined || gitDir === '' || values.corpus !== undefined || positionals.length > 0
        ? null
        : new CheckServer({
            root: workspace.root,
            gitDir,
            engine,
            daemon,
            mode,
            watchRun: run,
            // The settings it read last, while it sees every file they come from and read them.
            prepare: async () =>
              rlmRun ?? (run.settingsWatchable() && !settingsUnread ? run.again() : await prepareScholarly({}, workspace, context)),
            options: run.withOptions(options),
            reader,
            bodies,
            discovery: () => discovered,
            context,
            watchesEveryDirectory: () => everyDirectory,
            onProblem: (message) => {
              if (store !== null) store.dispatch({ type: 'problem', message });
              else context.stderr.write(`aiwg-cite watch: ${escapeControls(message)}\n`);
            },
          });
    const explainer = new StalingCommits(workspace.root, context.env, reader);
    const stop = async (code: number, message?: string): Promise<void> => {
      if (stopping) {
        // A second interrupt while stopping: give up waiting (SPEC §12: exit 130).
        finish(130);
        return;
      }
      stopping = true;
      await server?.close();
      await daemon.close();
      await dashboard?.stop();
      await explainer.close();
      // After the dashboard has given the screen back, so the line stays visible.
      if (message !== undefined) context.stderr.write(`aiwg-cite watch: ${escapeControls(message)}\n`);
      finish(code);
    };
    const onSignal = () => void stop(0);
    const unsubscribe = (['SIGINT', 'SIGTERM'] as const).map((signal) => context.signals?.(signal, onSignal) ?? (() => undefined));

    try {
      if (useTui) {
        const { createDashboardStore, mountDashboard } = await tui.loadDashboard();
        const columns = context.stdout.columns ?? 80;
        const rows = context.stdout.rows ?? 24;
        store = createDashboardStore(
          tui.initialDashboardState({
            rows,
            columns,
            color: shouldColor(context.stdout, context.env),
            codeOnly: values.scholarly !== true,
          }),
        );
        dashboard = mountDashboard(
          {
            store,
            ...(workspace.isGit ? { explain: (finding: Finding) => explainer.explain(finding) } : {}),
            onQuit: () => void stop(0),
            onReverify: () => {
              daemon.reverifyAll().catch((error: unknown) => store?.dispatch({ type: 'problem', message: String(error) }));
            },
          },
          {
            stdout: context.stdout as NodeJS.WriteStream,
            stdin: context.stdin as NodeJS.ReadStream,
            stderr: context.stderr as NodeJS.WriteStream,
          },
        );
      } else {
        context.stderr.write(`${escapeControls(tui.watchMessages.watching(workspace.root))}\n`);
      }
      // Quitting while the first check still runs must not wait for the watcher to get ready.
      await Promise.race([daemon.start().then(() => (stopping ? false : server?.start())), finished]);
      return await finished;
    } catch (error) {
      await server?.close();
      await daemon.close();
      await dashboard?.stop();
      throw error;
    } finally {
      for (const off of unsubscribe) off();
    }
  },
};

/** A path's root-relative form (both real paths), or `null` outside the root or when it cannot be resolved. */
function rootRelative(root: string, path: string): string | null {
  try {
    return relativeToRoot(root, toPosix(realpathSync(path)));
  } catch {
    return null;
  }
}

/**
 * The staling commit of a citation for the dashboard's details, through the `blame` module of
 * `@aiwg-cite/git` (issue #6). Loaded and opened on the first Enter on a stale citation, never
 * before, and closed with the daemon.
 */
class StalingCommits {
  readonly #root: string;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #reader: ArtifactReader;
  #history: Promise<import('@aiwg-cite/git').GitHistory | null> | null = null;

  constructor(root: string, env: Readonly<Record<string, string | undefined>>, reader: ArtifactReader) {
    this.#root = root;
    this.#env = env;
    this.#reader = reader;
  }

  async explain(finding: Finding): Promise<import('@aiwg-cite/tui').Explanation | null> {
    if (typeof finding.hash !== 'string' || typeof finding.artifact !== 'string') return null;
    const git = await import('@aiwg-cite/git');
    this.#history ??= Promise.resolve(git.GitHistory.open(this.#root, { ...this.#env }));
    const history = await this.#history;
    if (history === null) return null;
    const artifact = finding.artifact;
    const read = await this.#reader.read(artifact);
    const bytes = read.kind === 'file' ? read.bytes : null;
    const current = bytes === null ? null : { bytes, hash: await contentHash(bytes, nodeSha256) };
    const detail = await git.blameCitation(
      history,
      {
        file: finding.file,
        line: finding.line,
        column: finding.column,
        text: finding.text,
        artifact,
        hash: finding.hash,
        lines: typeof finding.lines === 'string' ? parseLineRange(finding.lines) : null,
      },
      current,
    );
    const { staling, drift } = detail.entry;
    return { staling, drift };
  }

  async close(): Promise<void> {
    const history = await this.#history;
    await history?.close();
  }
}

function clockOf(epochMs: number): string {
  return new Date(epochMs).toTimeString().slice(0, 8);
}
