import { existsSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { joinRoot, relativeToRoot } from '@aiwg-cite/core';
import { type ChokidarOptions, type FSWatcher, watch } from 'chokidar';
import type { EngineUpdate, WatchEngine } from './engine.ts';
import { watchMessages } from './messages.ts';
import { BatchScheduler } from './scheduler.ts';

/** Options of {@link WatchDaemon}. */
export interface WatchDaemonOptions {
  /** The canonical absolute root, POSIX separators. */
  readonly root: string;
  readonly engine: WatchEngine;
  /** Lists the documents in scope again (git ls-files, or a walk outside git); may throw. */
  readonly discover: () => readonly string[] | Promise<readonly string[]>;
  /** The git index file, watched so a checkout, add or reset re-lists the documents. */
  readonly gitIndexPath?: string;
  /** Called after the first load and after every batch. */
  readonly onUpdate: (update: EngineUpdate) => void;
  /** Called for problems that do not stop the daemon (watcher errors, failed re-discovery). */
  readonly onProblem?: (message: string) => void;
  /** Called when a batch starts (the dashboard shows it is checking). */
  readonly onBusy?: () => void;
  /** Settle time for a lone event. @default 15 */
  readonly settleMs?: number;
  /** Trailing debounce once events come in a burst. @default 100 */
  readonly debounceMs?: number;
  /** Use polling (network file systems). @default false */
  readonly usePolling?: boolean;
}

type EventKind = 'file' | 'directory';

const SKIPPED_SEGMENTS = new Set(['node_modules', '.git']);

function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * Turns file events into engine batches. It watches only what can change a verdict: the
 * directories that hold documents, the directories of cited artifacts (or, for an artifact that
 * does not exist yet, its nearest existing ancestor), and the git index. Directories are watched
 * one level deep and everything else in them is ignored, so a 100,000-file repository costs one
 * watch per relevant directory and file, not one per file in the tree.
 */
export class WatchDaemon {
  readonly #options: WatchDaemonOptions;
  readonly #root: string;
  readonly #engine: WatchEngine;
  readonly #scheduler: BatchScheduler<EventKind>;
  readonly #gitDir: string | null;
  #watcher: FSWatcher | null = null;
  #watched = new Set<string>();
  #relevantDirectories = new Set<string>();
  /** The watched directories (absolute), as opposed to watched files. */
  #directories = new Set<string>();
  #ready = false;
  #closed = false;

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
   * Lists and checks every document, then starts watching; reports the first update once the
   * watcher is ready, so a reported state is a watched one. A file saved between its first read
   * and the watcher getting ready is caught by comparing modification times afterwards.
   */
  async start(): Promise<EngineUpdate> {
    const loadStartedAt = Date.now();
    const documents = await this.#options.discover();
    const update = await this.#engine.load(documents);
    if (this.#closed) return update;
    const chokidarOptions: ChokidarOptions = {
      depth: 0,
      ignoreInitial: false,
      followSymlinks: true,
      persistent: true,
      atomic: true,
      usePolling: this.#options.usePolling === true,
      ignored: (path, stats) => this.#isIgnored(toPosix(path), stats),
    };
    const targets = this.#targets();
    this.#watcher = watch([...targets], chokidarOptions);
    this.#watched = targets;
    this.#watcher.on('all', (event, path) => this.#onEvent(event, toPosix(path)));
    this.#watcher.on('raw', (_event, filename, details) => this.#onRaw(filename, details));
    this.#watcher.on('error', (error) => this.#problem(watchMessages.watcherError(describe(error))));
    await new Promise<void>((resolve) => this.#watcher?.once('ready', () => resolve()));
    if (this.#closed) return update;
    this.#ready = true;
    this.#options.onUpdate(update);
    // Modification times have coarse resolution on some file systems: look one second back.
    for (const path of [...this.#engine.documents(), ...this.#engine.artifacts()]) {
      if (changedSince(joinRoot(this.#root, path), loadStartedAt - 1000)) this.#scheduler.push(path, 'file');
    }
    return update;
  }

  /** Re-verifies everything from scratch (`a`). */
  async reverifyAll(): Promise<EngineUpdate> {
    this.#options.onBusy?.();
    const documents = await this.#discoverOr(this.#engine.documents());
    const update = await this.#engine.load(documents);
    await this.#refreshWatches();
    this.#options.onUpdate(update);
    return update;
  }

  /** Resolves when no batch is pending or running. */
  idle(): Promise<void> {
    return this.#scheduler.idle();
  }

  /** The absolute paths currently handed to the watcher (for tests and diagnostics). */
  watchedPaths(): string[] {
    return [...this.#watched].sort();
  }

  /** Stops watching and waits for a running batch to finish. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#scheduler.close();
    await this.#watcher?.close();
    this.#watcher = null;
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
    if (name === '' || (!this.#directories.has(watched) && watched.endsWith(`/${name}`))) absolute = watched;
    else absolute = `${watched}/${name}`;
    if (absolute === this.#options.gitIndexPath) {
      this.#scheduler.push(absolute, 'file');
      return;
    }
    const relative = relativeToRoot(this.#root, absolute);
    if (relative === null || relative === '' || !this.#isRelevantFile(relative)) return;
    this.#scheduler.push(relative, 'file');
  }

  #isRelevantFile(relative: string): boolean {
    if (this.#engine.hasDocument(relative) || this.#engine.isCited(relative)) return true;
    if (!isMarkdownPath(relative)) return false;
    return !relative.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment));
  }

  async #handle(batch: Map<string, EventKind>): Promise<void> {
    this.#options.onBusy?.();
    const paths: string[] = [];
    const directories: string[] = [];
    let rediscover = false;
    for (const [path, kind] of batch) {
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
      if (path === '.gitignore' || path.endsWith('/.gitignore')) rediscover = true;
      else if (isMarkdownPath(path) && !this.#engine.hasDocument(path)) rediscover = true;
      else if (this.#engine.hasDocument(path) && !existsSync(joinRoot(this.#root, path))) rediscover = true;
    }
    const documents = rediscover ? await this.#discoverOr(null) : null;
    const update = await this.#engine.apply({ paths, directories, ...(documents === null ? {} : { documents }) });
    if (update.scopeChanged || directories.length > 0) await this.#refreshWatches();
    this.#options.onUpdate(update);
  }

  async #discoverOr<T>(fallback: T): Promise<readonly string[] | T> {
    try {
      return await this.#options.discover();
    } catch (error) {
      this.#problem(watchMessages.discoveryFailed(describe(error)));
      return fallback;
    }
  }

  /**
   * Adds watches for new documents' and artifacts' directories and drops directories no longer
   * needed. A cited file is unwatched only once nothing cites it: chokidar ignores an unwatched
   * path from then on, so a cited file that was deleted must stay watched to be seen coming back.
   */
  async #refreshWatches(): Promise<void> {
    const watcher = this.#watcher;
    if (watcher === null || this.#closed) return;
    const next = this.#targets();
    const added = [...next].filter((path) => !this.#watched.has(path));
    const removed = [...this.#watched].filter((path) => !next.has(path) && !this.#isCitedFile(path));
    for (const path of removed) this.#watched.delete(path);
    for (const path of added) this.#watched.add(path);
    if (removed.length > 0) watcher.unwatch(removed);
    if (added.length > 0) watcher.add(added);
  }

  #isCitedFile(absolute: string): boolean {
    const relative = relativeToRoot(this.#root, absolute);
    return relative !== null && relative !== '' && this.#engine.isCited(relative) && !isDirectory(absolute);
  }

  /** Directories to watch one level deep, plus cited files that exist (so one cited late is watched too). */
  #targets(): Set<string> {
    const directories = new Set<string>([this.#root]);
    const files = new Set<string>();
    const relevant = new Set<string>();
    const absolute = (relative: string) => (relative === '' ? this.#root : joinRoot(this.#root, relative));
    for (const document of this.#engine.documents()) directories.add(absolute(parentOf(document)));
    const checked = new Map<string, string>();
    for (const artifact of this.#engine.artifacts()) {
      const parent = parentOf(artifact);
      let directory = checked.get(parent);
      if (directory === undefined) {
        directory = parent;
        while (directory !== '' && !isDirectory(absolute(directory))) {
          relevant.add(directory);
          directory = parentOf(directory);
        }
        checked.set(parent, directory);
      }
      directories.add(absolute(directory));
      const file = absolute(artifact);
      if (directory === parent && (this.#watched.has(file) || isFile(file))) files.add(file);
    }
    if (this.#gitDir !== null && this.#options.gitIndexPath !== undefined) files.add(this.#options.gitIndexPath);
    this.#directories = directories;
    this.#relevantDirectories = relevant;
    return new Set([...directories, ...files]);
  }

  #isIgnored(path: string, stats?: { isDirectory(): boolean }): boolean {
    if (this.#gitDir !== null && (path === this.#options.gitIndexPath || path === this.#gitDir)) return false;
    const relative = relativeToRoot(this.#root, path);
    if (relative === null) return true;
    if (relative === '') return false;
    const segments = relative.split('/');
    if (segments.some((segment) => SKIPPED_SEGMENTS.has(segment))) return true;
    if (this.#watched.has(path)) return false;
    if (this.#engine.hasDocument(relative) || this.#engine.isCited(relative) || this.#relevantDirectories.has(relative)) return false;
    if (stats === undefined) return false;
    if (stats.isDirectory()) return false;
    return !isMarkdownPath(relative);
  }

  #problem(message: string): void {
    this.#options.onProblem?.(message);
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

/** Whether a file changed (content or name) at or after `since`; a missing file is not reported. */
function changedSince(path: string, since: number): boolean {
  try {
    const stats = statSync(path);
    return stats.mtimeMs >= since || stats.ctimeMs >= since;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
