/**
 * One `--online` run: the HTTP client with its run budget, the cache, the resolvers and the
 * progress display, configured from the environment. `close()` saves the cache and ends the
 * progress display.
 */
import { isAbsolute, join } from 'node:path';
import type { DocumentChecker } from '@aiwg-cite/core';
import { defaultCachePath, loadCacheSecret, ResultCache } from './cache.ts';
import { createOnlineChecker } from './checker.ts';
import { HTTP_DEFAULTS, HttpClient } from './http.ts';
import { onlineMessages } from './messages.ts';
import { createPlainProgress, type Progress, type ProgressStream } from './progress.ts';
import { type LookupListener, Resolvers, resolveServiceUrls, type ServiceUrls } from './resolvers.ts';

/** Options of {@link openOnlineSession}. */
export interface OnlineSessionOptions {
  /**
   * The project root. The cache lives under its git directory (`.git/aiwg-cite/online-cache.jsonl`),
   * or in the user's cache directory outside git, unless `AIWG_CITE_CACHE` says otherwise.
   */
  readonly root: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Read and write the cache. @default true */
  readonly useCache?: boolean;
  /** Where progress and warnings go (stderr). */
  readonly stderr: ProgressStream;
  /** Show progress. @default true */
  readonly progress?: boolean;
  /** The progress display (the CLI plugs in its terminal display here). @default plain lines on `stderr` */
  readonly createProgress?: (stream: ProgressStream) => Progress | Promise<Progress>;
  /** The tool version, for the User-Agent. */
  readonly version: string;
  /** Service base URLs from configuration; the environment fills the rest. */
  readonly urls?: Partial<Record<keyof ServiceUrls, string>>;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Extra placeholder DOIs from configuration (`doi.placeholders`). */
  readonly placeholderDois?: readonly string[];
}

/** A running online session. */
export interface OnlineSession {
  readonly resolvers: Resolvers;
  readonly client: HttpClient;
  readonly cache: ResultCache | null;
  /** The `--online` document checker. */
  readonly checker: DocumentChecker;
  /** Saves the cache, ends progress and the run budget, and returns the coverage note. */
  close(): Promise<string>;
}

/** The whole online run's budget: a commit hook waits seconds, not minutes. */
export const DEFAULT_BUDGET_MS = 20_000;
const ARXIV_HOST = 'export.arxiv.org';

function numberFrom(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const value = env[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : fallback;
}

/** Opens an online session. */
export async function openOnlineSession(options: OnlineSessionOptions): Promise<OnlineSession> {
  const { env } = options;
  const urls = resolveServiceUrls(env, options.urls);
  const now = options.now ?? (() => new Date());
  const budgetMs = numberFrom(env, 'AIWG_CITE_ONLINE_BUDGET_MS', DEFAULT_BUDGET_MS);
  const deadline = Date.now() + budgetMs;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new Error(onlineMessages.deadline(budgetMs / 1000))), budgetMs);
  timer.unref();
  const arxivHost = new URL(urls.arxiv).host;
  const crossrefHost = new URL(urls.crossref).host;
  const mailto = env.AIWG_CITE_MAILTO;
  const client = new HttpClient({
    userAgent: `aiwg-cite/${options.version}${mailto === undefined || mailto === '' ? '' : ` (mailto:${mailto})`}`,
    timeoutMs: numberFrom(env, 'AIWG_CITE_HTTP_TIMEOUT_MS', HTTP_DEFAULTS.timeoutMs),
    maxBodyBytes: numberFrom(env, 'AIWG_CITE_MAX_BODY_BYTES', HTTP_DEFAULTS.maxBodyBytes),
    deadline,
    hostLimits: { [arxivHost]: 1, [ARXIV_HOST]: 1, [crossrefHost]: 3 },
    hostIntervals: { [arxivHost]: numberFrom(env, 'AIWG_CITE_ARXIV_INTERVAL_MS', 3000) },
    signal: budget.signal,
  });
  const cachePath =
    env.AIWG_CITE_CACHE === undefined || env.AIWG_CITE_CACHE === '' ? defaultCachePath(options.root, env) : env.AIWG_CITE_CACHE;
  const warn = (message: string) => options.stderr.write(`${onlineMessages.warning(message)}\n`);
  let cache: ResultCache | null = null;
  if (options.useCache !== false) {
    try {
      cache = ResultCache.load(isAbsolute(cachePath) ? cachePath : join(options.root, cachePath), { warn, secret: loadCacheSecret(env) });
    } catch (error) {
      warn(`no cache this run: its key cannot be read or created (${(error as Error).message})`);
    }
  }
  let progress: Progress | null = null;
  if (options.progress !== false) {
    progress = options.createProgress === undefined ? createPlainProgress(options.stderr) : await options.createProgress(options.stderr);
  }
  const listener: LookupListener = (resolver, event, detail) => progress?.listener(resolver, event, detail);
  const resolvers = new Resolvers({
    client,
    cache,
    urls,
    now,
    listener,
    ...(env.AIWG_CITE_OPENALEX_KEY ? { openalexKey: env.AIWG_CITE_OPENALEX_KEY } : {}),
  });
  const date = now();
  const checker = createOnlineChecker({
    resolvers,
    now: { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 },
    ...(options.placeholderDois === undefined ? {} : { placeholderDois: options.placeholderDois }),
  });
  return {
    resolvers,
    client,
    cache,
    checker,
    async close() {
      clearTimeout(timer);
      await progress?.stop();
      try {
        cache?.save();
      } catch (error) {
        warn(onlineMessages.cacheNotSaved((error as Error).message));
      }
      const note = onlineMessages.coverage(client.requests, cache?.hits ?? 0);
      return budget.signal.aborted ? `${note}; ${onlineMessages.deadline(budgetMs / 1000)}` : note;
    },
  };
}
