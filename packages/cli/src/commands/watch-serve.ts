import { type FSWatcher, mkdirSync, statSync, watch as watchDirectory, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  ArtifactCache,
  type ArtifactReader,
  type CheckOptions,
  type DocumentOutcome,
  type Finding,
  finishPipeline,
  OutcomeTally,
  outcomeForPlan,
  sameItems,
  type TalliedOutcomes,
} from '@aiwg-cite/core';
import { CONFIG_FILE, removeOwnFile, resolveWorkspace } from '@aiwg-cite/node';
import type { WatchDaemon, WatchEngine } from '@aiwg-cite/tui';
import { parseChoice, parseCommandArgs, parseCount } from '../args.ts';
import type { CliContext, Output } from '../context.ts';
import { joinPieces, type Piece, writeCheckJson } from '../format/json.ts';
import { applyGlobalFlags } from '../main.ts';
import { findGitDir, watchSocketPath } from '../watch-client.ts';
import { watchServeMessages } from '../watch-messages.ts';
import { CHECK_FLAGS, CHECK_FORMATS, COUNTING_FORMATS, isTruthy, prettyOptions, render } from './check.ts';
import { normaliseReportFlag, type ScholarlyRun } from './check-scholarly.ts';
import { bodyDigest, readOrNull } from './generated-copies.ts';

/**
 * `check` asking a running `watch` (the client, watch-client.ts, which the bin loads, speaks the
 * same protocol): one line of JSON each way, then the answer's output. Version 1.
 */
export interface ServeRequest {
  readonly v: 1;
  /** The command line after the bin, global options included (`check --rlm --format json`). */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Whether the asking process's stdout is a terminal (colour), and its width. */
  readonly tty: boolean;
  readonly columns?: number;
}

/** The first line of the answer: `served` with the exit code (the output follows), or not, and why. */
export type ServeAnswer = { readonly served: true; readonly code: number } | { readonly served: false; readonly why: string };

/** The flags a served `check` may carry: those that choose how the report is printed and what fails it. */
const SERVED_FLAGS: ReadonlySet<string> = new Set([
  'rlm',
  'format',
  'strict',
  'max-warnings',
  'include-code',
  'verbose',
  'offline',
  'root',
]);

const WHY = watchServeMessages.why;

/** How long the watch waits for the event of its own sync file before it declines. */
const SYNC_TIMEOUT_MS = 2000;

/** Unix socket paths longer than this do not fit `sockaddr_un` everywhere. */
const MAX_SOCKET_PATH = 100;

/** Options of a {@link CheckServer}. */
export interface CheckServerOptions {
  readonly root: string;
  readonly gitDir: string;
  readonly engine: WatchEngine;
  readonly daemon: WatchDaemon;
  /**
   * Which `check` the watch answers: `check --rlm` for a watch of code citations, `check` for a
   * `watch --scholarly`, whose engine runs every check of `check`.
   */
  readonly mode: 'rlm' | 'scholarly';
  /** The run whose checkers the engine runs: its configuration, corpus and month, and what its checks held back. */
  readonly watchRun: ScholarlyRun;
  /**
   * A run of the watch's configuration in the mode it answers, used by nothing else (its copies
   * state is the server's): one for every answer of a `--rlm` watch; a new one for each answer of a
   * `--scholarly` watch, of the settings the watch read last when it watches every file they come
   * from (`ScholarlyRun.settingsWatchable`; the month as it is now), else read again, to be
   * compared with those the engine checks with.
   */
  readonly prepare: () => Promise<ScholarlyRun>;
  /** The watch's own options, as its run resolved them. */
  readonly options: CheckOptions;
  /** The reader the engine reads through. */
  readonly reader: ArtifactReader;
  /** The body digest of each file the engine read last, by path. */
  readonly bodies: ReadonlyMap<string, string>;
  /** The last discovery, before the configuration's filters: documents and notes. */
  readonly discovery: () => { readonly documents: readonly string[]; readonly notes: readonly string[] };
  /** The watch's context (its environment and `--config`). */
  readonly context: CliContext;
  readonly onProblem: (message: string) => void;
  /** Whether the watch watches every directory a document could be written into (else a new one may go unseen). */
  readonly watchesEveryDirectory: () => boolean;
}

/**
 * Answers `check --rlm` for a running watch, or `check` for a `watch --scholarly` (issue 18: a
 * warm re-check without reading every document again). The answer is the report `check` prints,
 * built by the pipeline's own last stages (core `finishPipeline`) over the outcomes the engine
 * keeps; the request is declined, and the asking process checks by itself, whenever that could
 * differ: other flags or paths, another root, environment or configuration, the configuration file
 * changed since the watch last read it, for `--scholarly` the corpus or the month, a document
 * the engine does not hold, a history note. Before answering it waits for the file events
 * made before the request: it writes a file in a directory it watches and waits for that file's
 * event, which the kernel queues after every earlier one, then runs the batch at once.
 */
export class CheckServer {
  readonly #options: CheckServerOptions;
  readonly #socketPath: string;
  readonly #configFiles: readonly string[];
  /** The configuration files' stamp, and the run and options, the engine's checks run with now (see {@link adopt}). */
  #configStamp: string;
  #watchRun: ScholarlyRun;
  #watchOptions: CheckOptions;
  /** How many times the watch read its settings again (see {@link settingsReread}). */
  #readings = 0;
  #server: Server | null = null;
  #cookies: FSWatcher | null = null;
  readonly #waiting = new Map<string, () => void>();
  #serial = 0;
  /** Counted outcomes by the findings they were made from (the engine keeps a document's until it checks it again). */
  readonly #counted = new WeakMap<readonly Finding[], DocumentOutcome>();
  #held: Held | null = null;
  /** Whether the last answer had to take every document from the engine again (for the trace). */
  #rebuilt = false;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: CheckServerOptions) {
    this.#options = options;
    this.#socketPath = watchSocketPath(options.gitDir);
    const configFile = options.context.configFile?.path;
    this.#configFiles = configFile === undefined ? [join(options.root, CONFIG_FILE), join(options.root, 'package.json')] : [configFile];
    this.#configStamp = stampOf(this.#configFiles);
    this.#watchRun = options.watchRun;
    this.#watchOptions = options.options;
  }

  /**
   * The watch reads its settings again (whether they then changed, stayed or did not read): a run
   * an answer prepared before is prepared again after the events it waits for.
   */
  settingsReread(): void {
    this.#readings += 1;
  }

  /** The configuration files' stamp now: taken before a run reads them, for {@link adopt}. */
  configStamp(): string {
    return stampOf(this.#configFiles);
  }

  /**
   * The engine's checks run with another run of the configuration and corpus from now on (the
   * watch read them again after they changed), read after the configuration files had `stamp`.
   */
  adopt(run: ScholarlyRun, options: CheckOptions, stamp: string): void {
    this.#watchRun = run;
    this.#watchOptions = options;
    this.#configStamp = stamp;
  }

  /**
   * Listens, unless another watch answers here already or the path is too long; returns whether it
   * listens. A failure to listen is said once and leaves the watch running without answering.
   */
  async start(): Promise<boolean> {
    try {
      return await this.#listen();
    } catch (error) {
      this.#options.onProblem(watchServeMessages.cannotListen(this.#socketPath, error instanceof Error ? error.message : String(error)));
      await this.close();
      return false;
    }
  }

  async #listen(): Promise<boolean> {
    // Windows has named pipes, not socket files in a directory: there the watch does not answer.
    if (process.platform === 'win32' || this.#socketPath.length > MAX_SOCKET_PATH) return false;
    const directory = `${this.#options.gitDir}/aiwg-cite`;
    mkdirSync(directory, { recursive: true });
    if (await answers(this.#socketPath)) {
      this.#options.onProblem(watchServeMessages.anotherWatch(this.#socketPath));
      return false;
    }
    removeOwnFile(this.#socketPath);
    this.#cookies = watchDirectory(directory, (_event, name) => {
      const done = typeof name === 'string' ? this.#waiting.get(name) : undefined;
      if (done === undefined) return;
      this.#waiting.delete(name as string);
      done();
    });
    const server = createServer((socket) => this.#accept(socket));
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.#options.onProblem(String(error)));
    return true;
  }

  async close(): Promise<void> {
    this.#cookies?.close();
    this.#cookies = null;
    const server = this.#server;
    this.#server = null;
    if (server === null) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    removeOwnFile(this.#socketPath);
    for (const done of [...this.#waiting.values()]) done();
  }

  #accept(socket: Socket): void {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end === -1) {
        if (received.length > 1024 * 1024) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      const line = received.slice(0, end);
      // One request at a time: each answer waits for the events before it and reads the engine's state whole.
      const answer = this.#queue.then(() => this.#answer(line));
      this.#queue = answer.catch(() => undefined);
      answer.then(
        ({ head, output }) => socket.end(`${JSON.stringify(head)}\n${output}`),
        (error: unknown) => socket.end(`${JSON.stringify({ served: false, why: String(error) })}\n`),
      );
    });
  }

  async #answer(line: string): Promise<{ head: ServeAnswer; output: string }> {
    const decline = (why: string) => ({ head: { served: false, why } as const, output: '' });
    let request: ServeRequest;
    try {
      request = JSON.parse(line) as ServeRequest;
    } catch {
      return decline(WHY.notARequest);
    }
    if (request.v !== 1 || !Array.isArray(request.args) || typeof request.cwd !== 'string') return decline(WHY.notARequest);
    if (!this.#options.daemon.isReady) return decline(WHY.loading);
    const early = this.#servable(request);
    if (typeof early === 'string') return decline(early);
    const started = performance.now();
    // Read while the events before the request are taken (the configuration and corpus as they are
    // now, which is after the request came): a `--scholarly` watch's corpus costs no extra wait.
    const readings = this.#readings;
    let preparing = this.#options.prepare();
    preparing.catch(() => undefined);
    if (!(await this.#settle())) return decline(WHY.noSyncEvent);
    // The watch read its settings again among those events: a run of what it holds now.
    if (this.#readings !== readings) preparing = this.#options.prepare();
    // After the events before the request: a change of the configuration among them, the watch has
    // read again (its run and options are those it checks with now); one it has not is declined.
    if (stampOf(this.#configFiles) !== this.#configStamp) return decline(WHY.configurationChanged);
    const asked = this.#servable(request);
    if (typeof asked === 'string') return decline(asked);
    const settled = performance.now();
    const answer = await this.#report(request, asked, await preparing);
    if (this.#options.context.env.AIWG_CITE_WATCH === 'trace') {
      const what = answer.head.served
        ? watchServeMessages.answeredIn(performance.now() - settled)
        : watchServeMessages.declinedBecause(answer.head.why);
      this.#options.context.stderr.write(`aiwg-cite watch: ${watchServeMessages.traced(what, settled - started, this.#rebuilt)}\n`);
    }
    return answer;
  }

  /** What the request asks, or why the watch does not answer it. */
  #servable(request: ServeRequest): Served | string {
    const own = this.#options;
    let global: ReturnType<typeof applyGlobalFlags>;
    let parsed: ReturnType<typeof parseCommandArgs<typeof CHECK_FLAGS>>;
    let format: (typeof CHECK_FORMATS)[number];
    let maxWarnings: number | undefined;
    let root: string;
    try {
      global = applyGlobalFlags(request.args, { cwd: request.cwd, env: request.env, stdout: silent, stderr: silent });
      if (global.args[0] !== 'check') return WHY.notACheck;
      parsed = parseCommandArgs('check', normaliseReportFlag(global.args.slice(1)), CHECK_FLAGS);
      format = parseChoice('check', 'format', parsed.values.format, CHECK_FORMATS, 'pretty');
      maxWarnings = parseCount('check', 'max-warnings', parsed.values['max-warnings']);
      root = this.#rootOf(request, parsed.values.root);
    } catch {
      return WHY.invalid;
    }
    const { values, positionals } = parsed;
    if (positionals.length > 0) return WHY.paths;
    const other = Object.keys(values).find((flag) => !SERVED_FLAGS.has(flag) && values[flag as keyof typeof values] !== undefined);
    if (other !== undefined) return WHY.flag(other);
    if (own.mode === 'rlm' && values.rlm !== true) return WHY.notRlm;
    if (own.mode === 'scholarly' && values.rlm === true) return WHY.rlmOfScholarly;
    if (root !== own.root) return WHY.anotherRoot;
    if (global.context.configFile?.path !== own.context.configFile?.path) return WHY.anotherConfig;
    if (!sameEntries(relevantEnv(global.context.env), relevantEnv(own.context.env))) return WHY.anotherEnvironment;
    const options = this.#watchRun.withOptions({
      strict: values.strict === true || isTruthy(global.context.env.AIWG_CITE_STRICT),
      includeCode: values['include-code'] === true,
      ...(maxWarnings === undefined ? {} : { maxWarnings }),
    });
    if ((options.strict === true) !== (this.#watchOptions.strict === true)) return WHY.anotherStrict;
    if ((options.includeCode === true) !== (this.#watchOptions.includeCode === true)) return WHY.anotherIncludeCode;
    return { format, options, verbose: values.verbose === true, env: global.context.env };
  }

  /**
   * The root `check` would resolve for the request. A request from the watch's root or a folder
   * below it whose first `.git` up the tree is the watch's own (the client's rule for finding the
   * watch, `findGitDir`, where git's discovery stops too) has the watch's root and starts no git: a
   * watch's process is large, and each process it starts costs tens of milliseconds. Anything else
   * is resolved as `check` resolves it.
   */
  #rootOf(request: ServeRequest, rootOption: string | undefined): string {
    const own = this.#options.root;
    const { cwd } = request;
    if (
      rootOption === undefined &&
      (cwd === own || cwd.startsWith(`${own}/`)) &&
      !DISCOVERY_VARIABLES.some((name) => request.env[name] !== undefined) &&
      statSync(cwd, { throwIfNoEntry: false })?.isDirectory() === true &&
      findGitDir(cwd) === this.#options.gitDir
    ) {
      return own;
    }
    return resolveWorkspace(cwd, rootOption).root;
  }

  /**
   * Waits until the engine has taken every file event the kernel queued before now; `false` when
   * the watch's own file event did not come (a file system that reports no events), and it cannot
   * know.
   */
  async #settle(): Promise<boolean> {
    const name = `watch-sync-${process.pid}-${++this.#serial}`;
    const path = `${this.#options.gitDir}/aiwg-cite/${name}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.#waiting.set(name, () => resolve(true));
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
    });
    writeFileSync(path, '');
    const came = await seen;
    clearTimeout(timer);
    this.#waiting.delete(name);
    removeOwnFile(path);
    if (!came) return false;
    await this.#options.daemon.settle();
    // A re-verification of everything (the dashboard's `a`) runs beside the batches: wait for it too.
    await this.#options.engine.idle();
    return true;
  }

  /** A checked outcome with its citations that checked out counted; one per document state, as the engine keeps it. */
  #countedOf(outcome: Extract<DocumentOutcome, { kind: 'checked' }>): DocumentOutcome {
    let counted = this.#counted.get(outcome.findings);
    if (counted === undefined) {
      counted = outcomeForPlan(outcome, { countOk: true });
      this.#counted.set(outcome.findings, counted);
    }
    return counted;
  }

  /**
   * The documents `check` would run over and what the engine holds of them, kept between answers:
   * after an edit only the documents the engine checked again are looked at (the engine's
   * `takeChanges`), unless the selection itself changed (a new discovery, a deploy manifest).
   */
  #hold(selected: readonly string[]): Held {
    const { engine } = this.#options;
    const changes = engine.takeChanges();
    const held = this.#held;
    this.#rebuilt = held === null || changes === null || !sameItems(held.selected, selected);
    if (held === null || changes === null || this.#rebuilt) {
      const fresh: Held = {
        selected,
        members: new Set(selected),
        outcomes: new Map(),
        unheld: new Set(),
        byFile: new Map(),
        byBody: new Map(),
        shared: new Set(),
        tallied: null,
      };
      for (const file of selected) this.#take(fresh, file);
      this.#held = fresh;
      return fresh;
    }
    for (const file of changes) if (held.members.has(file)) this.#take(held, file);
    return held;
  }

  /**
   * Takes one document's state from the engine into `held`: its counted outcome, in the tally in
   * place of the one it had (or the tally is dropped, to be made again), and its body.
   */
  #take(held: Held, file: string): void {
    const previous = held.byFile.get(file);
    if (previous !== undefined) {
      held.byFile.delete(file);
      const group = held.byBody.get(previous);
      group?.delete(file);
      if (group?.size === 0) held.byBody.delete(previous);
      if ((group?.size ?? 0) < 2) held.shared.delete(previous);
    }
    const before = held.outcomes.get(file);
    const outcome = this.#options.engine.outcomeOf(file);
    if (outcome === undefined) {
      held.outcomes.delete(file);
      held.unheld.add(file);
      held.tallied = null;
      return;
    }
    held.unheld.delete(file);
    const after = outcome.kind === 'checked' ? this.#countedOf(outcome) : outcome;
    held.outcomes.set(file, after);
    const tallied = held.tallied;
    if (tallied !== null && !tallied.leftOut.has(file) && (before === undefined || !tallied.tally.replace(file, before, after))) {
      held.tallied = null;
    }
    // check notes the body of each document it checked (not of a skipped one).
    const body = outcome.kind === 'checked' ? this.#options.bodies.get(file) : undefined;
    if (body === undefined) return;
    held.byFile.set(file, body);
    const group = held.byBody.get(body);
    if (group === undefined) held.byBody.set(body, new Set([file]));
    else {
      group.add(file);
      if (group.size > 1) held.shared.add(body);
    }
  }

  async #report(request: ServeRequest, asked: Served, run: ScholarlyRun): Promise<{ head: ServeAnswer; output: string }> {
    const { engine, reader, mode } = this.#options;
    const watchRun = this.#watchRun;
    const decline = (why: string) => ({ head: { served: false, why } as const, output: '' });
    if (engine.hasHistoryNotes) return decline(WHY.historyNote);
    if (!this.#options.watchesEveryDirectory()) return decline(WHY.notEveryDirectory);
    // The configuration, the corpus (every file of it, and the bibliographies) and the month the
    // engine's checks ran with, against those a check of its own would read now (for a `--rlm`
    // watch, the configuration its answers' run read, made again after the watch read it again).
    if (run.cacheContext() !== watchRun.cacheContext()) return decline(mode === 'scholarly' ? WHY.corpusChanged : WHY.configurationChanged);
    const discovery = this.#options.discovery();
    // check's own selection: the configuration's globs and the deploy manifests, read now.
    const selected = run.filterDocuments(discovery.documents, false, { identity: 'pipeline' });
    const copies = run.copiesPort(null);
    const held = this.#hold(selected);
    // Only bodies that more than one document has can make a copy (core's identicalCopies keeps
    // one of each group): those go to the copies port, with the bodies of documents the engine does
    // not hold (copies the watch left out), read now, as check reads them.
    const shared = new Map<string, string>();
    const unheld = new Map<string, string>();
    for (const file of held.unheld) {
      const body = bodyDigest(readOrNull(join(this.#options.root, file)));
      if (body !== null) unheld.set(file, body);
    }
    for (const body of new Set([...held.shared, ...unheld.values()]))
      for (const file of held.byBody.get(body) ?? []) shared.set(file, body);
    for (const [file, body] of unheld) shared.set(file, body);
    const leftOut = copies.leaveOut(shared);
    for (const file of held.unheld) if (!leftOut.has(file)) return decline(WHY.unheldDocument);
    // What the engine's checks held back in the documents this check covers: the run's note counts it.
    if (mode === 'scholarly') run.thread.adoptHeld(watchRun.thread.held().filter(([file]) => held.outcomes.has(file)));
    const countOk = COUNTING_FORMATS.has(asked.format);
    let outcomes: TalliedOutcomes;
    if (countOk) {
      // The tally of the held outcomes is kept between answers (see #take), made again when the
      // copies left out change.
      if (held.tallied === null || !sameSet(held.tallied.leftOut, leftOut)) {
        held.tallied = { tally: OutcomeTally.of(held.outcomes, leftOut), leftOut, notes: [] };
      }
      outcomes = held.tallied;
    } else {
      // A JSON report lists every citation: the outcomes as the engine keeps them, uncounted.
      outcomes = { tally: OutcomeTally.of(this.#uncounted(held), leftOut), leftOut, notes: [] };
    }
    const result = await finishPipeline(
      {
        ports: { discover: () => selected, reader, copies, corpus: run.corpusStage },
        options: asked.options,
        checkers: run.checkers,
        countOk,
      },
      { documents: selected, notes: discovery.notes },
      outcomes,
      new ArtifactCache(reader),
    );
    const { report } = result;
    let output: string;
    if (asked.format === 'json') {
      const pieces: Piece[] = [];
      writeCheckJson(report, (piece) => pieces.push(piece), result.okJson);
      output = joinPieces(pieces);
    } else {
      const stdout: Output = {
        write: () => true,
        isTTY: request.tty,
        ...(request.columns === undefined ? {} : { columns: request.columns }),
      };
      const context: CliContext = { cwd: request.cwd, env: asked.env, stdout, stderr: silent };
      output = render(report, asked.format, context, { ...prettyOptions({ verbose: asked.verbose }), ok: result.ok });
    }
    return { head: { served: true, code: report.verdict === 'PASS' ? 0 : 1 }, output };
  }

  /** The held outcomes with every citation kept, as a report that lists them all needs. */
  #uncounted(held: Held): Map<string, DocumentOutcome> {
    const out = new Map<string, DocumentOutcome>();
    for (const file of held.outcomes.keys()) {
      const outcome = this.#options.engine.outcomeOf(file);
      if (outcome !== undefined) out.set(file, outcome);
    }
    return out;
  }
}

/** What a {@link CheckServer} keeps of the engine between answers (see `#hold`). */
interface Held {
  readonly selected: readonly string[];
  readonly members: ReadonlySet<string>;
  /** Per document the engine holds: its outcome, the citations that checked out counted. */
  readonly outcomes: Map<string, DocumentOutcome>;
  /** Selected documents the engine does not hold. */
  readonly unheld: Set<string>;
  /** The body digest of each checked document, and the documents of each body. */
  readonly byFile: Map<string, string>;
  readonly byBody: Map<string, Set<string>>;
  /** The bodies more than one checked document has. */
  readonly shared: Set<string>;
  /** The tally of `outcomes` but for the copies left out, for a report that counts; `null` until made. */
  tallied: TalliedOutcomes | null;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

interface Served {
  readonly format: (typeof CHECK_FORMATS)[number];
  readonly options: CheckOptions;
  readonly verbose: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const silent: Output = { write: () => true };

/** The variables that move where git finds a repository (see `#rootOf`). */
const DISCOVERY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_COMMON_DIR'];

/** The variables that can change what `check` finds: aiwg-cite's own (but its thread count) and git's. */
function relevantEnv(env: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if ((key.startsWith('AIWG_CITE_') && key !== 'AIWG_CITE_THREADS' && key !== 'AIWG_CITE_WATCH') || key.startsWith('GIT_'))
      out.set(key, value);
  }
  return out;
}

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

/** Size, modification time and inode of each file (or its absence), as one string. */
function stampOf(paths: readonly string[]): string {
  return paths
    .map((path) => {
      const stats = statSync(path, { throwIfNoEntry: false, bigint: true });
      return stats === undefined ? '-' : `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
    })
    .join(' ');
}

/** Whether something answers on a socket (a running watch), or the file is left from one that stopped. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
