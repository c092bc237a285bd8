import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { joinRoot, relativeToRoot } from '@aiwg-cite/core';
import { type ChokidarOptions, type FSWatcher, watch } from 'chokidar';
import { type EngineSettings, type EngineUpdate, isGitignore, type WatchEngine } from './engine.ts';
import { watchMessages } from './messages.ts';
import { BatchScheduler } from './scheduler.ts';

/** Options of {@link WatchDaemon}. */
export interface WatchDaemonOptions {
  /** The canonical absolute root, POSIX separators. */
  readonly root: string;
  readonly engine: WatchEngine;
  /**
   * Lists the documents in scope again (git ls-files, or a walk outside git); may throw. `changed`
   * names, when the daemon knows them, the only paths whose bytes may differ from what the engine
   * last read (those of the batch that asks); without it, any may.
   */
  readonly discover: (changed?: ReadonlySet<string>) => readonly string[] | Promise<readonly string[]>;
  /** The git index file, watched so a checkout, add or reset re-lists the documents. */
  readonly gitIndexPath?: string;
  /**
   * Every directory a document could be written into (root-relative, `''` for the root; node
   * `listDirectories`), watched besides those of the documents and the files they cite, so that a
   * document saved into a directory that holds none yet is seen; `null` when they cannot be listed
   * now (the last list is kept). Listed again when directories come or go or a `.gitignore` changes.
   * Without it only the directories of the documents and of the files they cite are watched.
   */
  readonly directories?: () => readonly string[] | null;
  /**
   * Git's refs and index as they stand (git `GitStateStamp.take`), `null` when too fresh to be
   * sure of: looked at with the root's check and before every {@link WatchDaemon.settle}. When
   * it changes (a fetch, a commit, a deleted branch: no file event says so), the engine asks git
   * again about the documents' stale pins (`ChangeBatch.history`).
   */
  readonly gitState?: () => string | null;
  /**
   * The rules git ignores untracked files by besides the tree's `.gitignore` files (git
   * `IgnoreRules.take`: `info/exclude`, `core.excludesFile`), which no event in the root follows:
   * looked at with the root's check and before every {@link WatchDaemon.settle}. When they change,
   * the documents are listed again as after an edit of the root's `.gitignore`.
   */
  readonly ignoreRules?: () => string;
  /**
   * What the checks read besides the documents and the files they cite (the configuration, the
   * corpus, the bibliographies): `isFile` names such a path, file or folder (root-relative; its
   * directory must be among {@link directories} to be seen). A batch with one, and the first look
   * after the watcher is ready, ask `reload`, which reads them again and gives the checks' new
   * settings, or `null` when nothing the checks use changed; when they cannot be read, it throws,
   * the daemon says so once and keeps the settings. New settings check every document again.
   */
  readonly settings?: {
    readonly isFile: (relative: string) => boolean;
    readonly reload: () => Promise<EngineSettings | null>;
  };
  /** Called after the first load and after every batch. */
  readonly onUpdate: (update: EngineUpdate) => void;
  /** Called for problems that do not stop the daemon (watcher errors, failed re-discovery). */
  readonly onProblem?: (message: string) => void;
  /** Called when a batch starts (the dashboard shows it is checking). */
  readonly onBusy?: () => void;
  /**
   * Called once when the root is deleted, renamed or replaced by another directory; the daemon
   * stops watching first. Without it the daemon just stops.
   */
  readonly onRootGone?: (message: string) => void;
  /** How often the root's identity (device and inode) is checked, in ms. @default 500 */
  readonly rootCheckMs?: number;
  /** Settle time for a lone event. @default 15 */
  readonly settleMs?: number;
  /** Trailing debounce once events come in a burst. @default 100 */
  readonly debounceMs?: number;
}

type EventKind = 'file' | 'directory';

const SKIPPED_SEGMENTS = new Set(['node_modules', '.git']);

/** The scheduler's key for a change of git's state (no path is empty). */
const GIT_STATE = '';
/** The scheduler's key for a look at the settings (a path has no NUL). */
const SETTINGS = '\0settings';

function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * Turns file events into engine batches. It watches only directories that can hold a change of
 * verdict: those of the documents, those of the cited artifacts (or, for an artifact that does
 * not exist yet, its nearest existing ancestor) and the root, one level deep, plus the git
 * index. chokidar reports directories coming and going; files inside are not watched one by
 * one: each directory's own `fs.watch` names the file that changed (the raw event), and only
 * names that are a document, a cited artifact, a markdown file or a `.gitignore` are queued.
 * So a 100,000-file repository costs one watch per relevant directory, not one per file.
 */
export class WatchDaemon {
  readonly #options: WatchDaemonOptions;
  readonly #root: string;
  readonly #engine: WatchEngine;
  readonly #scheduler: BatchScheduler<EventKind>;
  readonly #gitDir: string | null;
  #watcher: FSWatcher | null = null;
  /** The absolute paths handed to chokidar: directories, and the git index file. */
  #watched = new Set<string>();
  /** Root-relative targets of symlinked artifacts → the artifact paths that lead to them. */
  #aliases = new Map<string, string[]>();
  #ready = false;
  #closed = false;
  /** The root's device and inode when the daemon started; `null` before {@link start}. */
  #rootIdentity: string | null = null;
  #rootTimer: ReturnType<typeof setInterval> | null = null;
  /** {@link WatchDaemonOptions.gitState} when last looked at. */
  #gitState: string | null = null;
  /** {@link WatchDaemonOptions.ignoreRules} when last looked at. */
  #ignoreRules: string | null = null;
  /** What the last failed reload of the settings said, until one succeeds. */
  #settingsProblem: string | null = null;
  /** {@link WatchDaemonOptions.directories} when last listed. */
  #directories: readonly string[] = [];

  constructor(options: WatchDaemonOptions) {
    this.#options = options;
    this.#root = options.root;
    this.#engine = options.engine;
    this.#gitDir = options.gitIndexPath === undefined ? null : toPosix(dirname(options.gitIndexPath));
    this.#scheduler = new BatchScheduler<EventKind>({
      run: (batch) => this.#handle(batch),
      settleMs: options.settleMs ?? 15,
      debounceMs: options.debounceMs ?? 100,
      onError: (error) => this.#problem(describe(error)),
    });
  }

  /**
   * Lists and checks every document and reports that first state at once, then starts watching.
   * A file saved, or a file deleted, between its first read and the watcher getting ready is
   * caught afterwards by its modification time (or its absence) and queued like any event.
   */
  async start(): Promise<EngineUpdate> {
    const loadStartedAt = Date.now();
    this.#rootIdentity = identityOf(this.#root);
    // The timer also keeps the process alive: when the root goes, chokidar's watches end, and a
    // process with nothing left to wait for would end on its own (Node's exit code 13).
    this.#rootTimer = setInterval(() => {
      if (!this.#checkRoot()) return;
      this.#checkGitState();
      this.#checkIgnoreRules();
    }, this.#options.rootCheckMs ?? 500);
    // Before the first load: git's state that its history lookups see, or a later one; the ignore rules its listing follows.
    this.#gitState = this.#options.gitState?.() ?? null;
    this.#ignoreRules = this.#options.ignoreRules?.() ?? null;
    const documents = await this.#options.discover();
    const update = await this.#engine.load(documents);
    if (this.#closed) return update;
    this.#options.onUpdate(update);
    const chokidarOptions: ChokidarOptions = {
      depth: 0,
      ignoreInitial: true,
      followSymlinks: true,
      persistent: true,
      ignored: (path, stats) => this.#isIgnored(toPosix(path), stats),
    };
    this.#listDirectories();
    const targets = this.#targets();
    this.#watcher = watch([...targets], chokidarOptions);
    this.#watched = targets;
    this.#watcher.on('all', (event, path) => this.#onEvent(event, toPosix(path)));
    this.#watcher.on('raw', (_event, filename, details) => this.#onRaw(filename, details));
    this.#watcher.on('error', (error) => this.#problem(watchMessages.watcherError(describe(error))));
    await new Promise<void>((resolve) => this.#watcher?.once('ready', () => resolve()));
    if (this.#closed) return update;
    this.#ready = true;
    // Modification times have coarse resolution on some file systems: look one second back.
    const since = loadStartedAt - 1000;
    for (const path of this.#engine.documents()) {
      if (changedSince(joinRoot(this.#root, path), since, true)) this.#scheduler.push(path, 'file');
    }
    for (const path of this.#engine.artifacts()) {
      if (changedSince(joinRoot(this.#root, path), since, this.#engine.wasFile(path))) this.#scheduler.push(path, 'file');
    }
    // The settings too may have changed since they were read: looked at once more (a reload that
    // finds them the same changes nothing).
    if (this.#options.settings !== undefined) this.#scheduler.push(SETTINGS, 'file');
    return update;
  }

  /** Re-verifies everything from scratch (`a`). */
  async reverifyAll(): Promise<EngineUpdate> {
    this.#options.onBusy?.();
    const documents = await this.#discoverOr(this.#engine.documents());
    const update = await this.#engine.load(documents);
    this.#listDirectories();
    this.#refreshWatches();
    this.#options.onUpdate(update);
    return update;
  }

  /** Resolves when no batch is pending or running. */
  idle(): Promise<void> {
    return this.#scheduler.idle();
  }

  /**
   * Runs the events queued so far at once (no settle or debounce time) and resolves when the
   * engine has taken them all. Events the kernel has queued but the watcher not yet read are not
   * among them: a caller that needs those waits for an event of its own first.
   */
  settle(): Promise<void> {
    this.#checkGitState();
    this.#checkIgnoreRules();
    return this.#scheduler.drain();
  }

  /** Whether the first load is done and the watcher is ready. */
  get isReady(): boolean {
    return this.#ready && !this.#closed;
  }

  /** The absolute paths handed to the watcher: directories, and the git index (for tests and diagnostics). */
  watchedPaths(): string[] {
    return [...this.#watched].sort();
  }

  /** Stops watching and waits for a running batch to finish. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#rootTimer !== null) clearInterval(this.#rootTimer);
    this.#rootTimer = null;
    await this.#scheduler.close();
    await this.#watcher?.close();
    this.#watcher = null;
  }

  /** Queues a batch that asks git again about the stale pins when its state is not the one last looked at (or cannot be vouched for). */
  #checkGitState(): void {
    const probe = this.#options.gitState;
    if (probe === undefined || !this.#ready || this.#closed) return;
    const state = probe();
    if (state !== null && state === this.#gitState) return;
    this.#gitState = state;
    this.#scheduler.push(GIT_STATE, 'file');
  }

  /**
   * Queues the root's `.gitignore` as changed when the ignore rules outside the tree are not the
   * ones last looked at: any path may be ignored or not now, which is what such an edit says (the
   * documents are listed again, and the directories, and with `missingFollowsIgnores` the
   * documents that looked up a path that was no file are checked again).
   */
  #checkIgnoreRules(): void {
    const probe = this.#options.ignoreRules;
    if (probe === undefined || !this.#ready || this.#closed) return;
    const rules = probe();
    if (rules === this.#ignoreRules) return;
    this.#ignoreRules = rules;
    this.#scheduler.push('.gitignore', 'file');
  }

  #onEvent(event: string, path: string): void {
    if (!this.#ready || this.#closed) return;
    if (this.#gitDir !== null && path === this.#options.gitIndexPath) {
      this.#scheduler.push(path, 'file');
      return;
    }
    const relative = relativeToRoot(this.#root, path);
    if (relative === null || relative === '') return;
    this.#scheduler.push(relative, event === 'addDir' || event === 'unlinkDir' ? 'directory' : 'file');
  }

  /**
   * chokidar drops a `change` that follows another on the same path within 50 ms, with no
   * trailing event, so a quick second save could go unseen. The raw `fs.watch` events are not
   * throttled: every one that names a relevant file is queued too (the scheduler merges them).
   */
  #onRaw(filename: unknown, details: unknown): void {
    if (!this.#ready || this.#closed) return;
    const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof watchedPath !== 'string') return;
    const watched = toPosix(watchedPath);
    const name = typeof filename === 'string' ? filename : Buffer.isBuffer(filename) ? filename.toString('utf8') : '';
    let absolute: string;
    if (name === '' || watched === this.#options.gitIndexPath) absolute = watched;
    else absolute = `${watched}/${name}`;
    if (absolute === this.#options.gitIndexPath) {
      this.#scheduler.push(absolute, 'file');
      return;
    }
    const relative = relativeToRoot(this.#root, absolute);
    if (relative === null || relative === '') return;
    for (const alias of this.#aliases.get(relative) ?? []) this.#scheduler.push(alias, 'file');
    if (this.#isRelevantFile(relative)) this.#scheduler.push(relative, 'file');
    // A directory made here is chokidar's `addDir` only after a stat of its own; queued now, a
    // caller that waits for the events before it (a served `check`) sees the documents inside.
    else if (name !== '' && isDirectory(absolute) && !relative.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment)))
      this.#scheduler.push(relative, 'directory');
  }

  #isRelevantFile(relative: string): boolean {
    if (this.#engine.hasDocument(relative) || this.#engine.isCited(relative)) return true;
    if (this.#options.settings?.isFile(relative) === true) return true;
    if (!isMarkdownPath(relative) && !isGitignore(relative)) return false;
    return !relative.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment));
  }

  /** Whether the root is still the directory the daemon started on (not deleted, renamed or replaced). */
  #rootIntact(): boolean {
    return this.#rootIdentity === null || identityOf(this.#root) === this.#rootIdentity;
  }

  /** Stops, once, when the root is gone, and says so. */
  #checkRoot(): boolean {
    if (this.#closed) return false;
    if (this.#rootIntact()) return true;
    void this.close().then(() => this.#options.onRootGone?.(watchMessages.rootGone(this.#root)));
    return false;
  }

  async #handle(batch: Map<string, EventKind>): Promise<void> {
    if (!this.#checkRoot()) return;
    this.#options.onBusy?.();
    const paths: string[] = [];
    const directories: string[] = [];
    let rediscover = false;
    let history = false;
    let settingsAsked = false;
    for (const [path, kind] of batch) {
      if (path === GIT_STATE) {
        history = true;
        continue;
      }
      if (path === SETTINGS) {
        settingsAsked = true;
        continue;
      }
      if (path === this.#options.gitIndexPath) {
        rediscover = true;
        continue;
      }
      if (kind === 'directory') {
        directories.push(path);
        rediscover = true;
        continue;
      }
      paths.push(path);
      if (isGitignore(path)) rediscover = true;
      else if (isMarkdownPath(path) && !this.#engine.hasDocument(path)) rediscover = true;
      else if (this.#engine.hasDocument(path) && !existsSync(joinRoot(this.#root, path))) rediscover = true;
    }
    // The configuration or the corpus changed: every document is checked again with what they say now.
    const touched = settingsAsked || [...paths, ...directories].some((path) => this.#options.settings?.isFile(path) === true);
    const settings = touched ? await this.#reloadSettings() : null;
    if (settings !== null) {
      const load = await this.#engine.load(await this.#discoverOr(this.#engine.documents()), settings);
      this.#listDirectories();
      this.#refreshWatches();
      // A batch of file events, whose changes of verdict are said as any batch's are.
      this.#options.onUpdate({ ...load, reason: 'settings', paths: paths.length + directories.length });
      return;
    }
    const documents = rediscover ? await this.#discoverOr(null, new Set(paths)) : null;
    const update = await this.#engine.apply({ paths, directories, history, ...(documents === null ? {} : { documents }) });
    // Directories came or went, or git ignores others now: every directory a document could be written into, again.
    const relist = directories.length > 0 || paths.some(isGitignore);
    if (relist) this.#listDirectories();
    // A symlink that was replaced may point somewhere else now: recompute the targets then too.
    if (relist || update.scopeChanged || paths.some((path) => isSymlink(joinRoot(this.#root, path)))) {
      // A directory that starts being watched now may have gained files before its watch was
      // in place: look at it once more in the next batch.
      for (const added of this.#refreshWatches()) {
        const relative = relativeToRoot(this.#root, added);
        if (relative !== null && relative !== '' && !directories.includes(relative)) this.#scheduler.push(relative, 'directory');
      }
    }
    this.#options.onUpdate(update);
  }

  /**
   * {@link WatchDaemonOptions.settings}' `reload`; a failure keeps the settings and is said, once
   * until a reload succeeds (an editor saves a half-written configuration more than once).
   */
  async #reloadSettings(): Promise<EngineSettings | null> {
    try {
      const settings = (await this.#options.settings?.reload()) ?? null;
      this.#settingsProblem = null;
      return settings;
    } catch (error) {
      const message = describe(error);
      if (message !== this.#settingsProblem) this.#problem(message);
      this.#settingsProblem = message;
      return null;
    }
  }

  async #discoverOr<T>(fallback: T, changed?: ReadonlySet<string>): Promise<readonly string[] | T> {
    try {
      return await this.#options.discover(changed);
    } catch (error) {
      this.#problem(watchMessages.discoveryFailed(describe(error)));
      return fallback;
    }
  }

  /** Watches the directories now needed and unwatches the others; returns the newly watched ones. */
  #refreshWatches(): string[] {
    const watcher = this.#watcher;
    if (watcher === null || this.#closed) return [];
    const next = this.#targets();
    const added = [...next].filter((path) => !this.#watched.has(path));
    const removed = [...this.#watched].filter((path) => !next.has(path));
    this.#watched = next;
    if (removed.length > 0) watcher.unwatch(removed);
    if (added.length > 0) watcher.add(added);
    return added;
  }

  /** Lists {@link WatchDaemonOptions.directories} again; a failure keeps the last list and is said. */
  #listDirectories(): void {
    const list = this.#options.directories;
    if (list === undefined) return;
    try {
      this.#directories = list() ?? this.#directories;
    } catch (error) {
      this.#problem(watchMessages.discoveryFailed(describe(error)));
    }
  }

  /** The directories to watch one level deep, and the git index. */
  #targets(): Set<string> {
    const directories = new Set<string>(['', ...this.#directories]);
    for (const document of this.#engine.documents()) directories.add(parentOf(document));
    const checked = new Set<string>();
    const aliases = new Map<string, string[]>();
    for (const artifact of this.#engine.artifacts()) {
      // A symlinked artifact changes when its target does: watch the target's directory too.
      const real = realRelative(this.#root, artifact);
      if (real !== null && real !== artifact) {
        aliases.set(real, [...(aliases.get(real) ?? []), artifact]);
        directories.add(parentOf(real));
      }
      const parent = parentOf(artifact);
      if (checked.has(parent)) continue;
      checked.add(parent);
      let directory = parent;
      while (directory !== '' && !isDirectory(this.#absolute(directory))) directory = parentOf(directory);
      directories.add(directory);
    }
    this.#aliases = aliases;
    // Each directory's parent too: a watched directory renamed or removed is reported there.
    for (const directory of [...directories]) if (directory !== '') directories.add(parentOf(directory));
    const targets = new Set([...directories].map((directory) => this.#absolute(directory)));
    if (this.#options.gitIndexPath !== undefined) targets.add(this.#options.gitIndexPath);
    return targets;
  }

  #absolute(relative: string): string {
    return relative === '' ? this.#root : joinRoot(this.#root, relative);
  }

  /** Directories one level below a watched one are reported (added, removed); files never are. */
  #isIgnored(path: string, stats?: { isDirectory(): boolean }): boolean {
    if (path === this.#options.gitIndexPath || path === this.#gitDir) return false;
    const relative = relativeToRoot(this.#root, path);
    if (relative === null) return true;
    if (relative === '') return false;
    if (relative.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment))) return true;
    if (stats === undefined) return false;
    return !stats.isDirectory();
  }

  #problem(message: string): void {
    this.#options.onProblem?.(message);
  }
}

/** A directory's device and inode, or `null` when it is gone or is no longer a directory. */
function identityOf(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return stats.isDirectory() ? `${stats.dev}:${stats.ino}` : null;
  } catch {
    return null;
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The root-relative canonical path of an artifact, or `null` when it does not resolve inside the root. */
function realRelative(root: string, artifact: string): string | null {
  try {
    const real = relativeToRoot(root, toPosix(realpathSync.native(joinRoot(root, artifact))));
    return real === '' ? null : real;
  } catch {
    return null;
  }
}

function parentOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at === -1 ? '' : path.slice(0, at);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether a file changed (content or name) at or after `since`, or is gone though it existed. */
function changedSince(path: string, since: number, existed: boolean): boolean {
  try {
    const stats = statSync(path);
    return stats.mtimeMs >= since || stats.ctimeMs >= since;
  } catch {
    return existed;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
