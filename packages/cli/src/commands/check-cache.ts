import { hash } from 'node:crypto';
import { type CheckInput, type CheckOptions, type DocumentChecker, ResultCache } from '@aiwg-cite/core';
import {
  AnswerFile,
  FileStamps,
  loadUserCacheKey,
  nodeSha256,
  PackResultStorage,
  placePath,
  resultCacheDir,
  type StampChanges,
  type Workspace,
} from '@aiwg-cite/node';
import packageJson from '../../package.json' with { type: 'json' };
import type { CliContext } from '../context.ts';
import { runMessages } from '../messages.ts';
import type { ScholarlyRun } from './check-scholarly.ts';

declare const __AIWG_CITE_BUILD_ID__: string | undefined;

/** The digest of the sources this bundle was built from (build.mjs), or `source` when run unbundled. */
const BUILD_ID = typeof __AIWG_CITE_BUILD_ID__ === 'string' ? __AIWG_CITE_BUILD_ID__ : 'source';

/** The result cache of one `check` run, and what to do with it when the run is over. */
export interface ResultCacheRun {
  readonly results: NonNullable<CheckInput['results']>;
  /** Everything besides a document and its artifacts that the cache's keys cover, as one string. */
  readonly context: string;
  /** The kept answer of a whole run in one slot (check-answer.ts), beside the cache. */
  answers(slot: string): AnswerFile;
  /**
   * What the run knows of working-tree files without reading them; `null` for a run that reads
   * the index (`check --staged`).
   */
  readonly stamps: FileStamps | null;
  /**
   * Writes the cache and the stamps when the run changed them, and prints the counts when asked;
   * `answered`: the run printed a kept answer (check-answer.ts) for that many documents;
   * `unchanged`: a splice (check-splice.ts) took that many documents' outcomes from a kept answer,
   * counted as answered from the cache.
   */
  finish(fullRun: boolean, answered?: number, unchanged?: number): Promise<void>;
  /** Stores entries a helper thread's run made (see {@link HelperCacheWork}). */
  store(entries: readonly StoredEntry[]): void;
  /** Takes a helper thread's lookups and stamps as this run's own; it answered for `documents` documents. */
  adopt(work: HelperCacheWork, documents: number): void;
  /** What this run's lookups found and stored, and what it stamped, since the last call: a helper thread's part. */
  work(): HelperCacheWork;
}

/** One entry of the result cache as its storage writes it: key, document, value. */
export type StoredEntry = readonly [string, string, string];

/** What a helper thread's run did with the cache, for the run it helps. */
export interface HelperCacheWork {
  readonly hits: number;
  readonly misses: number;
  readonly stamps: StampChanges | null;
}

/** How a run opens the result cache. */
export interface ResultCacheChoice {
  /** What the run reads: the working tree (with stamps) or the git index. @default 'working tree' */
  readonly source?: 'working tree' | 'index';
  /**
   * In a helper thread: entries are handed here instead of written, for the run it helps to write
   * (one writer for the cache's files), and the stamps it makes are kept for {@link ResultCacheRun.work}.
   */
  readonly forward?: (entry: StoredEntry) => void;
}

/**
 * Opens the result cache (issue 18) for a `check` run, keyed on this build, the options that shape
 * findings and the run's configuration, corpus and date. `null` when the run bypasses it.
 */
export function openResultCache(
  workspace: Workspace,
  context: CliContext,
  scholarly: ScholarlyRun,
  options: CheckOptions,
  checkers: readonly DocumentChecker[],
  choice: ResultCacheChoice = {},
): ResultCacheRun | null {
  const { source = 'working tree', forward } = choice;
  const directory = resultCacheDir(workspace.root, workspace.isGit, context.env);
  // A cache directory that a symlink in the repository (a committed node_modules) leads outside
  // the root is not used: the run goes without the cache, and says so.
  if (placePath(workspace.root, directory).kind === 'escapes') {
    context.stderr.write(`${runMessages.cacheDirEscapes(directory)}\n`);
    return null;
  }
  let storage: PackResultStorage;
  let stamps: FileStamps | null = null;
  let secret: Uint8Array;
  try {
    secret = loadUserCacheKey(context.env);
    storage = new PackResultStorage(directory, secret);
    if (source === 'working tree') stamps = new FileStamps(workspace.root, directory, secret);
  } catch {
    // No user cache directory to keep the signing key in: run without the cache.
    return null;
  }
  const runContext = JSON.stringify({
    build: BUILD_ID,
    version: packageJson.version,
    strict: options.strict === true,
    includeCode: options.includeCode === true,
    overrides: options.severityOverrides ?? {},
    checkers: checkers.map((checker) => checker.name),
    scholarly: scholarly.cacheContext(),
  });
  const written =
    forward === undefined
      ? storage
      : {
          read: (key: string, part?: 'head' | 'tail') => storage.read(key, part),
          write: (key: string, file: string, value: string) => forward([key, file, value]),
        };
  if (forward !== undefined) stamps?.trackChanges();
  const cache = new ResultCache(written, runContext, stamps?.sha256 ?? nodeSha256, (text) => hash('sha256', text, 'hex'));
  // Lookups a helper thread made, counted with this run's.
  let helped = { hits: 0, misses: 0, documents: 0 };
  // In a helper thread: the counts handed on so far.
  let handed = { hits: 0, misses: 0 };
  return {
    results: { cache, uncacheableKinds: scholarly.uncacheableKinds, ...(stamps === null ? {} : { known: stamps.digestOf }) },
    context: runContext,
    answers: (slot) => new AnswerFile(directory, slot, secret),
    stamps,
    async finish(fullRun, answered, unchanged = 0) {
      // A cache that cannot be written costs the next run time, nothing else.
      try {
        storage.flush(fullRun);
        stamps?.save(fullRun);
      } catch {}
      if (context.env.AIWG_CITE_RESULT_CACHE_STATS === '1') {
        context.stderr.write(
          `${answered === undefined ? runMessages.cacheStats(cache.stats.hits + helped.hits + unchanged, cache.stats.misses + helped.misses) : runMessages.answerStats(answered)}\n`,
        );
        if (unchanged > 0) {
          const { hits, misses, unstored, onTree } = cache.stats;
          context.stderr.write(`${runMessages.spliceStats(hits + misses + unstored + onTree)}\n`);
        }
        if (stamps !== null) context.stderr.write(`${runMessages.stampStats(stamps.known)}\n`);
        if (helped.documents > 0) context.stderr.write(`${runMessages.helperStats(helped.documents)}\n`);
      }
    },
    store(entries) {
      for (const [key, file, value] of entries) storage.write(key, file, value);
    },
    adopt(work, documents) {
      helped = { hits: helped.hits + work.hits, misses: helped.misses + work.misses, documents: helped.documents + documents };
      if (work.stamps !== null) stamps?.adopt(work.stamps);
    },
    work() {
      const { hits, misses } = cache.stats;
      const work = { hits: hits - handed.hits, misses: misses - handed.misses, stamps: stamps?.changes() ?? null };
      handed = { hits, misses };
      return work;
    },
  };
}
