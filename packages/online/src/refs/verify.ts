/**
 * Verifies references against the scholarly services. Per entry, in two rounds: first the cited
 * identifiers (doi.org, arXiv) and a title search on OpenAlex and DBLP; when that does not settle
 * the entry as valid, Semantic Scholar's title match and a Crossref bibliographic query as well, so
 * that every `hallucinated` verdict rests on four independent indexes. The comparison itself is
 * the core's `judgeReference`.
 */
import { isAbsolute, join } from 'node:path';
import {
  type CitedReference,
  judgeReference,
  type RefEvidence,
  type ReferenceSite,
  type RefJudgement,
  type ScholarlyRecord,
  type ServiceName,
} from '@aiwg-cite/core';
import { defaultCachePath, loadCacheSecret, ResultCache } from '../cache.ts';
import { HTTP_DEFAULTS, HttpClient } from '../http.ts';
import { resolveServiceUrls, type ServiceUrls } from '../resolvers.ts';
import { ScholarlyServices, type ServiceAnswer } from './services.ts';

/** The verdict on one reference site. */
export interface RefResult {
  readonly site: ReferenceSite;
  readonly judgement: RefJudgement;
  /** Services asked, and whether they answered. */
  readonly lookups: readonly { readonly service: ServiceName; readonly ok: boolean; readonly cached: boolean }[];
}

interface Collector {
  readonly records: ScholarlyRecord[];
  readonly searched: Set<ServiceName>;
  readonly failed: { service: ServiceName; message: string }[];
  readonly lookups: { service: ServiceName; ok: boolean; cached: boolean }[];
}

function collect(into: Collector, service: ServiceName, answer: ServiceAnswer, search: boolean): void {
  into.lookups.push({ service, ok: answer.ok, cached: answer.ok && answer.cached });
  if (!answer.ok) {
    into.failed.push({ service, message: answer.message });
    return;
  }
  into.records.push(...answer.records.filter((record) => record.title !== ''));
  if (search) into.searched.add(service);
}

/** Verifies one cited reference. */
export async function verifyReference(
  services: ScholarlyServices,
  cited: CitedReference,
  now: { readonly year: number },
): Promise<{ judgement: RefJudgement; lookups: Collector['lookups'] }> {
  const into: Collector = { records: [], searched: new Set(), failed: [], lookups: [] };
  let doi: RefEvidence['doi'] = null;
  let arxiv: RefEvidence['arxiv'] = null;
  const title = cited.title ?? '';
  const first: Promise<void>[] = [];
  if (cited.doi !== null) {
    first.push(
      services.doi(cited.doi).then((answer) => {
        into.lookups.push({ service: 'doi.org', ok: answer.ok, cached: answer.ok && answer.cached });
        if (!answer.ok) {
          into.failed.push({ service: 'doi.org', message: answer.message });
          doi = { status: 'unknown', record: null };
          return;
        }
        const record = answer.records[0] ?? null;
        doi = { status: answer.missing === true ? 'missing' : 'resolves', record };
        if (record !== null && record.title !== '') into.records.push(record);
      }),
    );
  }
  if (cited.arxiv !== null) {
    first.push(
      services.arxivId(cited.arxiv.id).then((answer) => {
        collect(into, 'arxiv', answer, false);
        if (!answer.ok) arxiv = { status: 'unknown', record: null };
        else
          arxiv =
            answer.records.length === 0 ? { status: 'missing', record: null } : { status: 'found', record: answer.records[0] ?? null };
      }),
    );
  }
  if (title !== '') {
    first.push(services.openalexSearch(title).then((answer) => collect(into, 'openalex', answer, true)));
    first.push(services.dblpSearch(title).then((answer) => collect(into, 'dblp', answer, true)));
  }
  await Promise.all(first);
  const evidence = (): RefEvidence => ({ records: into.records, searched: [...into.searched], failed: into.failed, doi, arxiv });
  let judgement = judgeReference(cited, evidence(), now);
  if (title !== '' && !(judgement.verdict === 'valid' && judgement.findings.length === 0)) {
    await Promise.all([
      services.s2Match(title).then((answer) => collect(into, 's2', answer, true)),
      services.crossrefSearch(title, cited.authors, cited.year).then((answer) => collect(into, 'crossref', answer, true)),
    ]);
    judgement = judgeReference(cited, evidence(), now);
  }
  return { judgement, lookups: into.lookups };
}

/** Options of {@link openRefsSession}. */
export interface RefsSessionOptions {
  readonly root: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly version: string;
  /** Base URLs from configuration; the environment wins. */
  readonly urls?: Partial<Record<keyof ServiceUrls, string>>;
  /** @default true */
  readonly useCache?: boolean;
  /** How many entries will be verified (sizes the run budget). */
  readonly entries: number;
  readonly warn: (message: string) => void;
  readonly now?: () => Date;
}

/** A running verification session. */
export interface RefsSession {
  readonly services: ScholarlyServices;
  readonly client: HttpClient;
  /** Verifies sites, `concurrency` entries at a time (the HTTP client's per-host limits still apply). */
  verify(sites: readonly ReferenceSite[], onResult?: (result: RefResult) => void): Promise<RefResult[]>;
  /** Saves the cache and says how many requests were sent. */
  close(): string;
}

function numberFrom(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const value = env[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : fallback;
}

/**
 * Opens a session: one HTTP client with each service's published etiquette (User-Agent with
 * `mailto:` from AIWG_CITE_MAILTO, Crossref's polite pool of 3 concurrent requests, OpenAlex's 10
 * per second, arXiv's one request per 3 s, Semantic Scholar and DBLP 2 at once), per-host limits
 * keyed on host and port, `Retry-After` honoured, and the result cache.
 */
export function openRefsSession(options: RefsSessionOptions): RefsSession {
  const { env } = options;
  const urls = resolveServiceUrls(env, options.urls);
  const now = options.now ?? (() => new Date());
  // A budget for the whole run: 2 minutes, plus a second per entry beyond the first 120.
  const budgetMs = numberFrom(env, 'AIWG_CITE_ONLINE_BUDGET_MS', 120_000 + Math.max(0, options.entries - 120) * 1000);
  const deadline = Date.now() + budgetMs;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new Error('budget')), budgetMs);
  timer.unref();
  const host = (url: string) => new URL(url).host;
  const mailto = env.AIWG_CITE_MAILTO;
  const client = new HttpClient({
    userAgent: `aiwg-cite/${options.version} (reference verification${mailto === undefined || mailto === '' ? '' : `; mailto:${mailto}`})`,
    timeoutMs: numberFrom(env, 'AIWG_CITE_HTTP_TIMEOUT_MS', HTTP_DEFAULTS.timeoutMs),
    maxBodyBytes: numberFrom(env, 'AIWG_CITE_MAX_BODY_BYTES', HTTP_DEFAULTS.maxBodyBytes),
    deadline,
    hostLimits: { [host(urls.arxiv)]: 1, [host(urls.crossref)]: 3, [host(urls.openalex)]: 4, [host(urls.dblp)]: 2, [host(urls.s2)]: 2 },
    hostIntervals: {
      [host(urls.arxiv)]: numberFrom(env, 'AIWG_CITE_ARXIV_INTERVAL_MS', 3000),
      [host(urls.openalex)]: numberFrom(env, 'AIWG_CITE_OPENALEX_INTERVAL_MS', 100),
    },
    signal: budget.signal,
  });
  const cachePath =
    env.AIWG_CITE_CACHE === undefined || env.AIWG_CITE_CACHE === '' ? defaultCachePath(options.root, env) : env.AIWG_CITE_CACHE;
  let cache: ResultCache | null = null;
  if (options.useCache !== false) {
    try {
      cache = ResultCache.load(isAbsolute(cachePath) ? cachePath : join(options.root, cachePath), {
        warn: options.warn,
        secret: loadCacheSecret(env),
      });
    } catch (error) {
      options.warn(`no cache this run: its key cannot be read or created (${(error as Error).message})`);
    }
  }
  const services = new ScholarlyServices({
    client,
    cache,
    urls,
    now,
    ...(mailto === undefined || mailto === '' ? {} : { mailto }),
    ...(env.AIWG_CITE_OPENALEX_KEY ? { openalexKey: env.AIWG_CITE_OPENALEX_KEY } : {}),
    ...(env.AIWG_CITE_S2_KEY ? { s2Key: env.AIWG_CITE_S2_KEY } : {}),
  });
  const year = now().getUTCFullYear();
  return {
    services,
    client,
    async verify(sites, onResult) {
      const results: RefResult[] = new Array(sites.length);
      let next = 0;
      const worker = async () => {
        while (next < sites.length) {
          const index = next;
          next += 1;
          const site = sites[index] as ReferenceSite;
          const { judgement, lookups } = await verifyReference(services, site.cited, { year });
          const result = { site, judgement, lookups };
          results[index] = result;
          onResult?.(result);
        }
      };
      await Promise.all(Array.from({ length: Math.min(24, sites.length) }, worker));
      return results;
    },
    close() {
      clearTimeout(timer);
      try {
        cache?.save();
      } catch (error) {
        options.warn(`cache not saved (${(error as Error).message})`);
      }
      const out = `online: ${client.requests} ${client.requests === 1 ? 'request' : 'requests'}, ${cache?.hits ?? 0} from cache`;
      return budget.signal.aborted ? `${out}; the run ran out of its ${Math.round(budgetMs / 1000)} s budget` : out;
    },
  };
}
