/**
 * The resolvers (SPEC §6.2–§6.4): DOI existence through the doi.org handle API, metadata from
 * Crossref (or doi.org content negotiation for DataCite and other agencies), retraction from
 * Crossref `updated-by` and OpenAlex `is_retracted`, arXiv ids through the arXiv Atom API, and URL
 * liveness. Each answer records its source and time; definitive answers go to the cache,
 * transient ones never do.
 */
import { AiwgCiteError } from '@aiwg-cite/core';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { WorkMetadata } from './attribution.ts';
import type { CacheEntry, ResultCache } from './cache.ts';
import type { HttpClient, HttpResult } from './http.ts';
import { onlineMessages, resolverMessages } from './messages.ts';

/** Base URLs of the services; each replaces the scheme, host and path prefix of that API. */
export interface ServiceUrls {
  /** doi.org: `/api/handles/{doi}` and content negotiation on `/{doi}`. */
  readonly doi: string;
  /** Crossref REST API: `/works/{doi}`. */
  readonly crossref: string;
  /** OpenAlex: `/works/doi:{doi}`. */
  readonly openalex: string;
  /** arXiv API: `/query?id_list={id}`. */
  readonly arxiv: string;
  /** DBLP: `/search/publ/api?q=…`. */
  readonly dblp: string;
  /** Semantic Scholar Graph API: `/paper/search/match?query=…`, `/paper/DOI:{doi}`. */
  readonly s2: string;
}

/** The real services. */
export const DEFAULT_SERVICE_URLS: ServiceUrls = {
  doi: 'https://doi.org',
  crossref: 'https://api.crossref.org',
  openalex: 'https://api.openalex.org',
  arxiv: 'https://export.arxiv.org/api',
  dblp: 'https://dblp.org',
  s2: 'https://api.semanticscholar.org/graph/v1',
};

const ENV_NAMES: Readonly<Record<keyof ServiceUrls, string>> = {
  doi: 'AIWG_CITE_DOI_URL',
  crossref: 'AIWG_CITE_CROSSREF_URL',
  openalex: 'AIWG_CITE_OPENALEX_URL',
  arxiv: 'AIWG_CITE_ARXIV_URL',
  dblp: 'AIWG_CITE_DBLP_URL',
  s2: 'AIWG_CITE_S2_URL',
};

/** Reads the service base URLs: `overrides` (from configuration) first, then the environment, then the defaults. */
export function resolveServiceUrls(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<Record<keyof ServiceUrls, string>> = {},
): ServiceUrls {
  const out: Record<string, string> = {};
  for (const name of Object.keys(DEFAULT_SERVICE_URLS) as (keyof ServiceUrls)[]) {
    // The environment names this run; the configuration file names the project's default.
    const fromEnv = env[ENV_NAMES[name]];
    const value = fromEnv ?? overrides[name] ?? DEFAULT_SERVICE_URLS[name];
    const source = fromEnv !== undefined ? ENV_NAMES[name] : overrides[name] !== undefined ? `online.${name}` : 'default';
    let parsed: URL | null = null;
    try {
      parsed = new URL(value);
    } catch {
      parsed = null;
    }
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw new AiwgCiteError('CONFIG_INVALID', onlineMessages.notHttpUrl(source, value));
    }
    out[name] = value.replace(/\/+$/, '');
  }
  return out as unknown as ServiceUrls;
}

/** Which resolver answered, for progress and coverage. */
export type ResolverName = 'doi' | 'arxiv' | 'url';

/** A lookup's answer. `unknown` is every failure: it never means "does not exist" or "not retracted". */
export type Lookup<T> =
  | { readonly outcome: 'found'; readonly data: T; readonly source: string; readonly checkedAt: string; readonly cached: boolean }
  | {
      readonly outcome: 'not-found';
      readonly source: string;
      readonly checkedAt: string;
      readonly cached: boolean;
      readonly message: string;
    }
  | { readonly outcome: 'unknown'; readonly source: string; readonly checkedAt: string; readonly cached: false; readonly message: string };

/** A DOI's record. */
export interface DoiRecord {
  /** `null` when the DOI exists but no metadata could be fetched. */
  readonly metadata: WorkMetadata | null;
  /** Where the metadata came from: `crossref` or `doi.org` content negotiation. */
  readonly metadataSource: string | null;
  /** Crossref `update-to[]`: set when the cited DOI is itself a notice. */
  readonly updateTo: readonly WorkUpdate[];
}

/** An entry of Crossref `updated-by[]` or `update-to[]`. */
export interface WorkUpdate {
  /** Normalised: `retraction`, `partial_retraction`, `withdrawal`, `removal`, `expression_of_concern`, `correction`… */
  readonly type: string;
  readonly doi: string | null;
  readonly source: string | null;
}

/** The retraction status of a DOI (SPEC §6.3). `not-found` lists the sources and does not mean clean. */
export interface RetractionRecord {
  readonly retracted: boolean;
  readonly notices: readonly WorkUpdate[];
  readonly sources: readonly string[];
}

/** A URL's liveness. */
export interface UrlRecord {
  readonly status: number;
  readonly finalUrl: string;
}

/** Reports lookups to the progress display. */
export type LookupListener = (resolver: ResolverName, event: 'start' | 'done', detail: { cached: boolean; outcome?: string }) => void;

/** Options of {@link Resolvers}. */
export interface ResolverOptions {
  readonly client: HttpClient;
  /** `null` with `--no-cache`. */
  readonly cache: ResultCache | null;
  readonly urls: ServiceUrls;
  readonly now: () => Date;
  /** OpenAlex API key (required by OpenAlex from 2026-02-13). */
  readonly openalexKey?: string;
  readonly listener?: LookupListener;
}

const RETRACTING = new Set(['retraction', 'partial_retraction', 'withdrawal', 'removal']);
const CSL_JSON = 'application/vnd.citationstyles.csl+json';

/** Whether a notice type retracts the work. */
export function isRetracting(type: string): boolean {
  return RETRACTING.has(type);
}

/** The resolvers of one run, sharing a client and a cache; concurrent lookups of one key share one request. */
export class Resolvers {
  readonly #options: ResolverOptions;
  readonly #inflight = new Map<string, Promise<unknown>>();
  /** Crossref messages fetched this run, so the retraction check does not fetch them again. */
  readonly #crossref = new Map<string, Record<string, unknown> | null>();

  constructor(options: ResolverOptions) {
    this.#options = options;
  }

  /** Does the DOI exist, and what is its metadata? */
  doi(doi: string): Promise<Lookup<DoiRecord>> {
    return this.#once(`doi:${doi.toLowerCase()}`, 'doi', () => this.#resolveDoi(doi.toLowerCase()));
  }

  /** Is the DOI retracted? */
  retraction(doi: string): Promise<Lookup<RetractionRecord>> {
    return this.#once(`retraction:${doi.toLowerCase()}`, null, () => this.#resolveRetraction(doi.toLowerCase()));
  }

  /** Does the arXiv id exist, and what is its metadata? */
  arxiv(id: string): Promise<Lookup<WorkMetadata>> {
    return this.#once(`arxiv:${id}`, 'arxiv', () => this.#resolveArxiv(id));
  }

  /** Is the URL alive? `not-found` means dead (404/410). */
  url(url: string): Promise<Lookup<UrlRecord>> {
    const key = url.replace(/#.*$/, '');
    return this.#once(`url:${key}`, 'url', () => this.#resolveUrl(key));
  }

  #once<T>(key: string, resolver: ResolverName | null, work: () => Promise<Lookup<T>>): Promise<Lookup<T>> {
    const running = this.#inflight.get(key);
    if (running !== undefined) return running as Promise<Lookup<T>>;
    const promise = (async () => {
      const cached = this.#fromCache<T>(key);
      if (resolver !== null) this.#options.listener?.(resolver, 'start', { cached: cached !== null });
      const result = cached ?? (await work());
      if (resolver !== null) this.#options.listener?.(resolver, 'done', { cached: cached !== null, outcome: result.outcome });
      return result;
    })();
    this.#inflight.set(key, promise);
    return promise;
  }

  #fromCache<T>(key: string): Lookup<T> | null {
    const entry = this.#options.cache?.get(key, this.#options.now().getTime());
    if (entry === undefined) return null;
    const negative = entry.status === 'not-found' || entry.status === 'dead';
    if (negative) {
      const message =
        typeof (entry.data as { message?: unknown })?.message === 'string'
          ? (entry.data as { message: string }).message
          : resolverMessages.notFound();
      return { outcome: 'not-found', source: entry.resolver, checkedAt: entry.checked_at, cached: true, message };
    }
    return { outcome: 'found', data: entry.data as T, source: entry.resolver, checkedAt: entry.checked_at, cached: true };
  }

  #store(key: string, status: string, code: number | null, resolver: string, data: unknown, checkedAt: string): void {
    const entry: CacheEntry = { key, status, code, checked_at: checkedAt, resolver, data };
    this.#options.cache?.set(entry);
  }

  #stamp(): string {
    return this.#options.now().toISOString();
  }

  async #resolveDoi(doi: string): Promise<Lookup<DoiRecord>> {
    const { client, urls } = this.#options;
    const checkedAt = this.#stamp();
    const handle = await client.request({ url: `${urls.doi}/api/handles/${encodeDoi(doi)}`, headers: { accept: 'application/json' } });
    const unknown = (source: string, message: string): Lookup<DoiRecord> => ({
      outcome: 'unknown',
      source,
      checkedAt,
      cached: false,
      message,
    });
    if (!handle.ok) return unknown('doi.org', handle.message);
    if (handle.status !== 200 && handle.status !== 404) return unknown('doi.org', resolverMessages.doiHttp(handle.status));
    const body = parseJson(handle.body);
    const code = typeof body === 'object' && body !== null ? (body as { responseCode?: unknown }).responseCode : undefined;
    if (code === 100) {
      const message = resolverMessages.doiNoHandle();
      this.#store(`doi:${doi}`, 'not-found', handle.status, 'doi.org', { message }, checkedAt);
      return { outcome: 'not-found', source: 'doi.org', checkedAt, cached: false, message };
    }
    if (code !== 1 && code !== 200) {
      return unknown('doi.org', code === undefined ? resolverMessages.doiNotHandleJson() : resolverMessages.doiResponseCode(String(code)));
    }

    const crossref = await client.request({ url: `${urls.crossref}/works/${encodeDoi(doi)}`, headers: { accept: 'application/json' } });
    let record: DoiRecord = { metadata: null, metadataSource: null, updateTo: [] };
    let definitive = false;
    if (crossref.ok && crossref.status === 200) {
      const message = (parseJson(crossref.body) as { message?: unknown } | null)?.message;
      if (typeof message === 'object' && message !== null) {
        const work = message as Record<string, unknown>;
        this.#crossref.set(doi, work);
        record = { metadata: crossrefMetadata(work), metadataSource: 'crossref', updateTo: updates(work['update-to']) };
        definitive = true;
      }
    } else if (crossref.ok && crossref.status === 404) {
      this.#crossref.set(doi, null);
      // Not a Crossref DOI (DataCite, mEDRA, …): ask doi.org for CSL JSON (SPEC §6.2).
      const csl = await client.request({ url: `${urls.doi}/${encodeDoi(doi)}`, headers: { accept: CSL_JSON } });
      if (csl.ok && csl.status === 200) {
        const parsed = parseJson(csl.body);
        if (typeof parsed === 'object' && parsed !== null) {
          record = { metadata: cslMetadata(parsed as Record<string, unknown>), metadataSource: 'doi.org', updateTo: [] };
          definitive = true;
        }
      } else if (csl.ok && csl.status >= 400 && csl.status < 500 && csl.status !== 429) {
        definitive = true;
      }
    }
    const source = record.metadataSource ?? 'doi.org';
    if (definitive) this.#store(`doi:${doi}`, 'exists', 200, source, record, checkedAt);
    return { outcome: 'found', data: record, source, checkedAt, cached: false };
  }

  async #resolveRetraction(doi: string): Promise<Lookup<RetractionRecord>> {
    const { client, urls, openalexKey } = this.#options;
    const checkedAt = this.#stamp();
    const sources: string[] = [];
    const failures: string[] = [];
    let notices: WorkUpdate[] = [];
    let crossrefAnswered = false;

    let work = this.#crossref.get(doi);
    if (work === undefined) {
      const response = await client.request({ url: `${urls.crossref}/works/${encodeDoi(doi)}`, headers: { accept: 'application/json' } });
      if (response.ok && response.status === 200) {
        const message = (parseJson(response.body) as { message?: unknown } | null)?.message;
        work = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : undefined;
        if (work === undefined) failures.push(resolverMessages.crossrefNotJson());
      } else if (response.ok && response.status === 404) work = null;
      else failures.push(resolverMessages.crossrefFailed(describe(response)));
    }
    if (work !== undefined) {
      crossrefAnswered = true;
      sources.push('crossref');
      if (work !== null) notices = updates(work['updated-by']);
    }

    if (work !== undefined && work !== null && !notices.some((notice) => isRetracting(notice.type))) {
      const reverse = await this.#noticesUpdating(doi);
      if (reverse.ok) notices = [...notices, ...reverse.notices];
      else failures.push(reverse.failure);
    }

    let openalexRetracted = false;
    const key = openalexKey === undefined ? '' : `?api_key=${encodeURIComponent(openalexKey)}`;
    const openalex = await client.request({
      url: `${urls.openalex}/works/doi:${encodeDoi(doi)}${key}`,
      headers: { accept: 'application/json' },
    });
    if (openalex.ok && openalex.status === 200) {
      const parsed = parseJson(openalex.body) as { is_retracted?: unknown } | null;
      if (parsed !== null && typeof parsed.is_retracted === 'boolean') {
        sources.push('openalex');
        openalexRetracted = parsed.is_retracted;
      } else failures.push(resolverMessages.openalexNoRetractionField());
    } else if (openalex.ok && openalex.status === 404) sources.push('openalex');
    else failures.push(resolverMessages.openalexFailed(describe(openalex)));

    const retractingNotices = notices.filter((notice) => isRetracting(notice.type));
    const retracted = retractingNotices.length > 0 || openalexRetracted;
    const record: RetractionRecord = {
      retracted,
      notices,
      sources: openalexRetracted && retractingNotices.length === 0 ? ['openalex'] : sources,
    };
    const source = retractingNotices.length > 0 ? 'crossref' : openalexRetracted ? 'openalex' : sources.join('+');
    if (retracted) {
      this.#store(`retraction:${doi}`, 'retracted', 200, source, record, checkedAt);
      return { outcome: 'found', data: record, source, checkedAt, cached: false };
    }
    if (!crossrefAnswered || failures.length > 0) {
      return {
        outcome: 'unknown',
        source: sources.join('+') || 'crossref+openalex',
        checkedAt,
        cached: false,
        message: failures.length > 0 ? failures.join('; ') : resolverMessages.noSourceCouldSay(),
      };
    }
    this.#store(`retraction:${doi}`, 'not-found', 200, source, { ...record, message: resolverMessages.noRetraction(sources) }, checkedAt);
    return { outcome: 'found', data: record, source, checkedAt, cached: false };
  }

  /**
   * Crossref's reverse query (SPEC §6.3, source 3): notices whose `update-to` names the DOI. Before
   * January 2025 many retractions appear only on the notice, never in the work's `updated-by`. A
   * DOI with a comma breaks the filter (HTTP 400): that is a failure, never "not retracted".
   */
  async #noticesUpdating(doi: string): Promise<{ ok: true; notices: WorkUpdate[] } | { ok: false; failure: string }> {
    const { client, urls } = this.#options;
    const response = await client.request({
      url: `${urls.crossref}/works?filter=${encodeURIComponent(`updates:${doi}`)}&rows=20`,
      headers: { accept: 'application/json' },
    });
    if (!response.ok || response.status !== 200) return { ok: false, failure: resolverMessages.noticesFailed(describe(response)) };
    const items = (parseJson(response.body) as { message?: { items?: unknown } } | null)?.message?.items;
    if (!Array.isArray(items)) return { ok: false, failure: resolverMessages.noticesWithoutItems() };
    const notices: WorkUpdate[] = [];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) continue;
      const notice = item as Record<string, unknown>;
      for (const update of updates(notice['update-to'])) {
        if (update.doi?.toLowerCase() !== doi) continue;
        notices.push({
          type: update.type,
          doi: typeof notice.DOI === 'string' ? notice.DOI : null,
          source: update.source ?? 'crossref-notice',
        });
      }
    }
    return { ok: true, notices };
  }

  async #resolveArxiv(id: string): Promise<Lookup<WorkMetadata>> {
    const { client, urls } = this.#options;
    const checkedAt = this.#stamp();
    const response = await client.request({ url: `${urls.arxiv}/query?id_list=${encodeURIComponent(id)}&max_results=1` });
    const unknown = (message: string): Lookup<WorkMetadata> => ({ outcome: 'unknown', source: 'arxiv', checkedAt, cached: false, message });
    if (!response.ok) return unknown(response.message);
    if (response.status !== 200) return unknown(resolverMessages.arxivHttp(response.status));
    const feed = isCompleteFeed(response.body) ? parseAtom(response.body) : null;
    if (feed === null) return unknown(resolverMessages.arxivNotAtom());
    const entry = feed[0];
    if (entry?.id.includes('/api/errors')) return unknown(resolverMessages.arxivRejected(entry.summary || entry.title));
    if (entry === undefined || entry.title === '') {
      const message = resolverMessages.arxivNoPaper();
      this.#store(`arxiv:${id}`, 'not-found', 200, 'arxiv', { message }, checkedAt);
      return { outcome: 'not-found', source: 'arxiv', checkedAt, cached: false, message };
    }
    const metadata: WorkMetadata = { title: entry.title, authors: entry.authors.map(familyName), year: entry.year };
    this.#store(`arxiv:${id}`, 'exists', 200, 'arxiv', metadata, checkedAt);
    return { outcome: 'found', data: metadata, source: 'arxiv', checkedAt, cached: false };
  }

  async #resolveUrl(url: string): Promise<Lookup<UrlRecord>> {
    const { client } = this.#options;
    const checkedAt = this.#stamp();
    let response = await client.request({ url, method: 'HEAD' });
    const fallBack = response.ok ? [400, 403, 405, 501].includes(response.status) : response.failure === 'reset';
    if (fallBack) response = await client.request({ url, method: 'GET', readBody: false });
    if (!response.ok) {
      const host = safeHost(url);
      if (response.failure === 'dns' && [...client.answeredHosts].some((other) => other !== host)) {
        // Not cached: a resolver that briefly loses a name must not bury the page for a day.
        const message = resolverMessages.dnsWhileOthersAnswered(response.message);
        return { outcome: 'not-found', source: 'http', checkedAt, cached: false, message };
      }
      return { outcome: 'unknown', source: 'http', checkedAt, cached: false, message: response.message };
    }
    const { status } = response;
    if (status >= 200 && status < 300) {
      const data: UrlRecord = { status, finalUrl: response.url };
      this.#store(`url:${url}`, 'alive', status, 'http', data, checkedAt);
      return { outcome: 'found', data, source: 'http', checkedAt, cached: false };
    }
    if (status === 404 || status === 410) {
      const message = resolverMessages.urlGone(status, response.url === url ? null : response.url);
      this.#store(`url:${url}`, 'dead', status, 'http', { message, status }, checkedAt);
      return { outcome: 'not-found', source: 'http', checkedAt, cached: false, message };
    }
    const isBlocked = status === 401 || status === 403 || status === 429;
    return { outcome: 'unknown', source: 'http', checkedAt, cached: false, message: resolverMessages.urlStatus(status, isBlocked) };
  }
}

/** Encodes a DOI for a URL path, keeping its `/`. */
export function encodeDoi(doi: string): string {
  return encodeURIComponent(doi).replace(/%2F/gi, '/');
}

function describe(result: HttpResult): string {
  return result.ok ? `HTTP ${result.status}` : result.message;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function updates(value: unknown): WorkUpdate[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    .map((entry) => ({
      type: String(entry.type ?? '')
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
      doi: typeof entry.DOI === 'string' ? entry.DOI : null,
      source: typeof entry.source === 'string' ? entry.source : null,
    }));
}

function firstString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return null;
}

function yearOf(value: unknown): number | null {
  const parts = (value as { 'date-parts'?: unknown } | undefined)?.['date-parts'];
  const year = Array.isArray(parts) && Array.isArray(parts[0]) ? parts[0][0] : undefined;
  return typeof year === 'number' ? year : typeof year === 'string' && /^\d{4}$/.test(year) ? Number(year) : null;
}

function authorsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const author of value) {
    if (typeof author !== 'object' || author === null) continue;
    const record = author as Record<string, unknown>;
    if (typeof record.family === 'string') out.push(record.family);
    else if (typeof record.name === 'string') out.push(familyName(record.name));
    else if (typeof record.literal === 'string') out.push(familyName(record.literal));
  }
  return out;
}

/** Metadata from a Crossref `message`. */
export function crossrefMetadata(work: Record<string, unknown>): WorkMetadata {
  return {
    title: firstString(work.title),
    authors: authorsOf(work.author),
    year: yearOf(work.issued) ?? yearOf(work['published-print']) ?? yearOf(work['published-online']),
  };
}

function cslMetadata(csl: Record<string, unknown>): WorkMetadata {
  return { title: firstString(csl.title), authors: authorsOf(csl.author), year: yearOf(csl.issued) };
}

/** The family name of a display name: the last word (`Ashish Vaswani` → `Vaswani`). */
export function familyName(name: string): string {
  const words = name.trim().split(/\s+/);
  return words[words.length - 1] ?? name;
}

/** One entry of an arXiv Atom feed. */
export interface AtomEntry {
  /** The entry's `<id>`: `http://arxiv.org/abs/2210.03629v3`, or an `/api/errors` URL. */
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly authors: readonly string[];
  /** Year of the first version (`<published>`). */
  readonly year: number | null;
  /** Year of the latest version (`<updated>`). */
  readonly updatedYear: number | null;
  /** `arxiv:journal_ref`, when the authors recorded where the paper was published. */
  readonly journalRef: string | null;
  /** `arxiv:doi`: the published version's DOI, when recorded. */
  readonly doi: string | null;
}

const atomParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => name === 'entry' || name === 'author' || name === 'link' || name === 'category',
});

/** Reads the entries of an arXiv Atom feed (http://export.arxiv.org/api/query) with fast-xml-parser; `null` when it is not a feed. */
export function parseAtom(xml: string): AtomEntry[] | null {
  if (XMLValidator.validate(xml) !== true) return null;
  let document: unknown;
  try {
    document = atomParser.parse(xml);
  } catch {
    return null;
  }
  const feed = (document as { feed?: unknown } | null)?.feed;
  if (feed === undefined || feed === null) return null;
  if (typeof feed !== 'object') return [];
  const entries = (feed as { entry?: unknown }).entry;
  if (!Array.isArray(entries)) return [];
  return entries
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    .map((entry) => {
      const authors = Array.isArray(entry.author) ? entry.author : [];
      return {
        id: textOf(entry.id),
        title: textOf(entry.title),
        summary: textOf(entry.summary),
        authors: authors.map((author) => textOf((author as { name?: unknown } | null)?.name)).filter((name) => name !== ''),
        year: yearPrefix(textOf(entry.published)),
        updatedYear: yearPrefix(textOf(entry.updated)),
        journalRef: textOf(entry.journal_ref) || null,
        doi: textOf(entry.doi) || null,
      };
    });
}

/**
 * Whether an Atom document is whole: it ends with `</feed>` and every `<entry>` is closed. A feed
 * cut off mid-way (a dropped connection, a proxy's limit) must never read as "no such paper".
 */
export function isCompleteFeed(xml: string): boolean {
  if (!/<\/feed>\s*$/.test(xml)) return false;
  let opened = 0;
  let closed = 0;
  for (const match of xml.matchAll(/<(\/?)entry[\s>]/g)) {
    if (match[1] === '/') closed += 1;
    else opened += 1;
  }
  return opened === closed;
}

/** The text of an element: a string, a number, or the `#text` of an element with attributes. */
function textOf(value: unknown): string {
  const raw =
    typeof value === 'string' || typeof value === 'number'
      ? String(value)
      : typeof value === 'object' && value !== null && '#text' in value
        ? String((value as { '#text': unknown })['#text'])
        : '';
  return raw.replace(/\s+/g, ' ').trim();
}

function yearPrefix(date: string): number | null {
  const match = /^(\d{4})/.exec(date);
  return match === null ? null : Number(match[1]);
}
