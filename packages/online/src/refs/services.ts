/**
 * Title search and identifier lookups on the scholarly services, each answer turned into
 * `ScholarlyRecord`s: doi.org (handle API, CSL JSON by content negotiation), Crossref
 * (`/works/{doi}`, `query.bibliographic`), OpenAlex (`filter=title.search:`, `search=`), arXiv
 * (`id_list`, `search_query`), DBLP (`/search/publ/api`) and Semantic Scholar
 * (`/paper/search/match`, `/paper/DOI:…`). Definitive answers are cached (an empty search result
 * for a day, a hit for 30 days); failures are returned as data and never cached.
 */
import { type PersonName, parsePersonName, type ScholarlyRecord } from '@aiwg-cite/core';
import type { ResultCache } from '../cache.ts';
import type { HttpClient, HttpResult } from '../http.ts';
import { encodeDoi, parseAtom, type ServiceUrls } from '../resolvers.ts';

/** The answer of one lookup. */
export type ServiceAnswer =
  | { readonly ok: true; readonly records: readonly ScholarlyRecord[]; readonly cached: boolean }
  | { readonly ok: false; readonly message: string };

/** Options of {@link ScholarlyServices}. */
export interface ScholarlyServicesOptions {
  readonly client: HttpClient;
  readonly cache: ResultCache | null;
  readonly urls: ServiceUrls;
  readonly now: () => Date;
  /** Sent as `mailto=` to Crossref and OpenAlex (their polite pools). */
  readonly mailto?: string;
  readonly openalexKey?: string;
  /** Semantic Scholar API key (`x-api-key`). */
  readonly s2Key?: string;
}

const S2_FIELDS = 'title,authors,year,venue,externalIds,publicationTypes,journal,publicationVenue';
const JSON_ACCEPT = { accept: 'application/json' };

/** The services of one run; concurrent lookups of one query share one request. */
export class ScholarlyServices {
  readonly #options: ScholarlyServicesOptions;
  readonly #inflight = new Map<string, Promise<ServiceAnswer>>();

  constructor(options: ScholarlyServicesOptions) {
    this.#options = options;
  }

  /** doi.org: does the DOI exist? `records` holds its metadata (Crossref, else CSL JSON); empty with `missing`. */
  async doi(doi: string): Promise<ServiceAnswer & { missing?: boolean }> {
    const key = doi.toLowerCase();
    const answer = await this.#cached(`refs:doi:${key}`, async () => {
      const { client, urls } = this.#options;
      const handle = await client.request({ url: `${urls.doi}/api/handles/${encodeDoi(key)}`, headers: JSON_ACCEPT });
      if (!handle.ok) return fail('doi.org', handle);
      if (handle.status === 404) return { ok: true, records: [], cached: false };
      if (handle.status !== 200) return fail('doi.org', handle);
      const code = (parseJson(handle.body) as { responseCode?: unknown } | null)?.responseCode;
      if (code === 100) return { ok: true, records: [], cached: false };
      if (code !== 1) return { ok: false, message: 'doi.org sent a response that is not handle JSON' };
      const crossref = await client.request({ url: `${urls.crossref}/works/${encodeDoi(key)}${this.#mailto('?')}`, headers: JSON_ACCEPT });
      if (crossref.ok && crossref.status === 200) {
        const message = (parseJson(crossref.body) as { message?: unknown } | null)?.message;
        if (isObject(message)) return { ok: true, records: [crossrefRecord(message)], cached: false };
        return { ok: false, message: 'Crossref sent a response that is not JSON' };
      }
      if (crossref.ok && crossref.status === 404) {
        const csl = await client.request({
          url: `${urls.doi}/${encodeDoi(key)}`,
          headers: { accept: 'application/vnd.citationstyles.csl+json' },
        });
        if (csl.ok && csl.status === 200) {
          const parsed = parseJson(csl.body);
          if (isObject(parsed)) return { ok: true, records: [cslRecord(parsed, key)], cached: false };
        }
        if (csl.ok && csl.status >= 400 && csl.status < 500 && csl.status !== 429)
          return { ok: true, records: [doiOnly(key)], cached: false };
        return fail('doi.org', csl);
      }
      return fail('Crossref', crossref);
    });
    if (!answer.ok) return answer;
    return answer.records.length === 0 ? { ...answer, missing: true } : answer;
  }

  /** Crossref `query.bibliographic` (title, authors and year in one ranked query). */
  crossrefSearch(title: string, authors: readonly PersonName[], year: number | null): Promise<ServiceAnswer> {
    const families = authors.slice(0, 3).map((person) => person.family);
    const query = [title, ...families, year ?? ''].join(' ').trim();
    return this.#cached(`refs:crossref:${query.toLowerCase()}`, async () => {
      const { client, urls } = this.#options;
      const response = await client.request({
        url: `${urls.crossref}/works?query.bibliographic=${encodeURIComponent(query)}&rows=5${this.#mailto('&')}`,
        headers: JSON_ACCEPT,
      });
      if (!response.ok || response.status !== 200) return fail('Crossref', response);
      const items = (parseJson(response.body) as { message?: { items?: unknown } } | null)?.message?.items;
      if (!Array.isArray(items)) return { ok: false, message: 'Crossref: a response without `message.items`' };
      return { ok: true, records: items.filter(isObject).map(crossrefRecord), cached: false };
    });
  }

  /** OpenAlex `filter=title.search:` (every word of the title), falling back to `search=` when it finds nothing. */
  openalexSearch(title: string): Promise<ServiceAnswer> {
    const cleaned = title
      .replace(/[,:|!]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return this.#cached(`refs:openalex:${cleaned.toLowerCase()}`, async () => {
      const { client, urls } = this.#options;
      const extra = `${this.#options.openalexKey === undefined ? '' : `&api_key=${encodeURIComponent(this.#options.openalexKey)}`}${this.#mailto('&')}`;
      const response = await client.request({
        url: `${urls.openalex}/works?filter=${encodeURIComponent(`title.search:${cleaned}`)}&per-page=5${extra}`,
        headers: JSON_ACCEPT,
      });
      if (!response.ok || response.status !== 200) return fail('OpenAlex', response);
      const results = (parseJson(response.body) as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) return { ok: false, message: 'OpenAlex: a response without `results`' };
      return { ok: true, records: results.filter(isObject).map(openalexRecord), cached: false };
    });
  }

  /** DBLP publication search. */
  dblpSearch(title: string): Promise<ServiceAnswer> {
    // DBLP matches every word as a prefix; punctuation-only tokens would match nothing.
    const query = title
      .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return this.#cached(`refs:dblp:${query.toLowerCase()}`, async () => {
      const { client, urls } = this.#options;
      const response = await client.request({
        url: `${urls.dblp}/search/publ/api?q=${encodeURIComponent(query)}&format=json&h=5`,
        headers: JSON_ACCEPT,
      });
      if (!response.ok || response.status !== 200) return fail('DBLP', response);
      const result = (parseJson(response.body) as { result?: { hits?: { hit?: unknown } } } | null)?.result;
      if (result === undefined) return { ok: false, message: 'DBLP: a response without `result`' };
      const hits = result.hits?.hit;
      return { ok: true, records: (Array.isArray(hits) ? hits : []).filter(isObject).map(dblpRecord), cached: false };
    });
  }

  /** Semantic Scholar `paper/search/match` (the best title match, or 404). */
  s2Match(title: string): Promise<ServiceAnswer> {
    return this.#cached(`refs:s2:${title.toLowerCase()}`, async () => {
      const { client, urls } = this.#options;
      const response = await client.request({
        url: `${urls.s2}/paper/search/match?query=${encodeURIComponent(title)}&fields=${S2_FIELDS}`,
        headers: this.#s2Headers(),
      });
      if (response.ok && response.status === 404) return { ok: true, records: [], cached: false };
      if (!response.ok || response.status !== 200) return fail('Semantic Scholar', response);
      const data = (parseJson(response.body) as { data?: unknown } | null)?.data;
      if (!Array.isArray(data)) return { ok: false, message: 'Semantic Scholar: a response without `data`' };
      return { ok: true, records: data.filter(isObject).map(s2Record), cached: false };
    });
  }

  /** Semantic Scholar `paper/DOI:{doi}`. */
  s2Doi(doi: string): Promise<ServiceAnswer> {
    return this.#cached(`refs:s2doi:${doi.toLowerCase()}`, async () => {
      const { client, urls } = this.#options;
      const response = await client.request({
        url: `${urls.s2}/paper/DOI:${encodeDoi(doi)}?fields=${S2_FIELDS}`,
        headers: this.#s2Headers(),
      });
      if (response.ok && response.status === 404) return { ok: true, records: [], cached: false };
      if (!response.ok || response.status !== 200) return fail('Semantic Scholar', response);
      const paper = parseJson(response.body);
      return isObject(paper)
        ? { ok: true, records: [s2Record(paper)], cached: false }
        : { ok: false, message: 'Semantic Scholar: not JSON' };
    });
  }

  /** arXiv `id_list` (one id, without version: the feed names the latest). */
  arxivId(id: string): Promise<ServiceAnswer> {
    return this.#cached(`refs:arxiv:${id}`, async () => {
      const response = await this.#options.client.request({
        url: `${this.#options.urls.arxiv}/query?id_list=${encodeURIComponent(id)}&max_results=1`,
      });
      return arxivAnswer(response);
    });
  }

  /** arXiv `search_query=ti:"…"`. */
  arxivSearch(title: string): Promise<ServiceAnswer> {
    const phrase = title.replace(/["()]/g, ' ').replace(/\s+/g, ' ').trim();
    return this.#cached(`refs:arxivq:${phrase.toLowerCase()}`, async () => {
      const response = await this.#options.client.request({
        url: `${this.#options.urls.arxiv}/query?search_query=${encodeURIComponent(`ti:"${phrase}"`)}&max_results=3`,
      });
      return arxivAnswer(response);
    });
  }

  #mailto(separator: '?' | '&'): string {
    const mailto = this.#options.mailto;
    return mailto === undefined || mailto === '' ? '' : `${separator}mailto=${encodeURIComponent(mailto)}`;
  }

  #s2Headers(): Record<string, string> {
    return this.#options.s2Key === undefined ? JSON_ACCEPT : { ...JSON_ACCEPT, 'x-api-key': this.#options.s2Key };
  }

  #cached(key: string, work: () => Promise<ServiceAnswer>): Promise<ServiceAnswer> {
    const running = this.#inflight.get(key);
    if (running !== undefined) return running;
    const promise = (async (): Promise<ServiceAnswer> => {
      const { cache, now } = this.#options;
      const hit = cache?.get(key, now().getTime());
      if (hit !== undefined && Array.isArray((hit.data as { records?: unknown } | null)?.records)) {
        return { ok: true, records: (hit.data as { records: ScholarlyRecord[] }).records, cached: true };
      }
      const answer = await work();
      if (answer.ok && cache !== null) {
        cache.set({
          key,
          status: answer.records.length > 0 ? 'exists' : 'not-found',
          code: 200,
          checked_at: now().toISOString(),
          resolver: key.split(':')[1] ?? 'refs',
          data: { records: answer.records },
        });
      }
      return answer;
    })();
    this.#inflight.set(key, promise);
    return promise;
  }
}

function fail(service: string, response: HttpResult): ServiceAnswer {
  return { ok: false, message: response.ok ? `${service} answered HTTP ${response.status}` : `${service}: ${response.message}` };
}

function arxivAnswer(response: HttpResult): ServiceAnswer {
  if (!response.ok || response.status !== 200) return fail('arXiv', response);
  const feed = parseAtom(response.body);
  if (feed === null) return { ok: false, message: 'arXiv sent a response that is not an Atom feed' };
  if (feed.some((entry) => entry.id.includes('/api/errors'))) return { ok: false, message: 'arXiv rejected the query' };
  const records: ScholarlyRecord[] = feed
    .filter((entry) => entry.title !== '')
    .map((entry) => {
      const match = /abs\/(.+?)(?:v(\d+))?$/.exec(entry.id);
      const id = match?.[1] ?? entry.id;
      return {
        service: 'arxiv',
        id,
        url: `https://arxiv.org/abs/${id}`,
        title: entry.title,
        authors: entry.authors.map(parsePersonName),
        year: entry.year,
        arxivYear: entry.year,
        venue: entry.journalRef,
        doi: entry.doi,
        arxiv: id,
        arxivVersion: match?.[2] === undefined ? null : Number(match[2]),
        preprint: entry.journalRef === null && entry.doi === null,
        authorsComplete: true,
      };
    });
  return { ok: true, records, cached: false };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim() || null;
  if (Array.isArray(value) && typeof value[0] === 'string') return str(value[0]);
  return null;
}

function yearOfParts(value: unknown): number | null {
  const parts = (value as { 'date-parts'?: unknown } | undefined)?.['date-parts'];
  const year = Array.isArray(parts) && Array.isArray(parts[0]) ? parts[0][0] : undefined;
  return typeof year === 'number' ? year : typeof year === 'string' && /^\d{4}$/.test(year) ? Number(year) : null;
}

function arxivFromDoi(doi: string | null): string | null {
  const match = doi === null ? null : /^10\.48550\/arxiv\.(.+?)(v\d+)?$/i.exec(doi);
  return match === null ? null : (match[1] as string);
}

function cslPeople(value: unknown): PersonName[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((person) => {
    if (typeof person.family === 'string') return { family: person.family, given: typeof person.given === 'string' ? person.given : '' };
    return parsePersonName(str(person.name) ?? str(person.literal) ?? '');
  });
}

const CROSSREF_PREPRINT = new Set(['posted-content', 'preprint']);

function crossrefRecord(work: Record<string, unknown>): ScholarlyRecord {
  const doi = str(work.DOI);
  const year =
    yearOfParts(work.issued) ??
    yearOfParts(work.published) ??
    yearOfParts(work['published-print']) ??
    yearOfParts(work['published-online']);
  return {
    service: 'crossref',
    id: doi ?? '',
    url: doi === null ? '' : `https://doi.org/${doi}`,
    title: str(work.title) ?? '',
    authors: cslPeople(work.author),
    year,
    arxivYear: null,
    venue: str(work['container-title']) ?? str(work['short-container-title']),
    doi,
    arxiv: arxivFromDoi(doi),
    arxivVersion: null,
    preprint: CROSSREF_PREPRINT.has(String(work.type ?? '')) || String(work.subtype ?? '') === 'preprint',
    authorsComplete: true,
  };
}

function cslRecord(csl: Record<string, unknown>, doi: string): ScholarlyRecord {
  const arxiv = arxivFromDoi(doi);
  const type = String(csl.type ?? '');
  const venue = str(csl['container-title']) ?? (arxiv !== null ? 'arXiv' : str(csl.publisher));
  return {
    service: 'doi.org',
    id: doi,
    url: `https://doi.org/${doi}`,
    title: str(csl.title) ?? '',
    authors: cslPeople(csl.author),
    year: yearOfParts(csl.issued),
    arxivYear: arxiv !== null ? yearOfParts(csl.issued) : null,
    venue,
    doi,
    arxiv,
    arxivVersion: null,
    preprint: arxiv !== null || type === 'posted-content' || type === 'preprint',
    authorsComplete: true,
  };
}

function doiOnly(doi: string): ScholarlyRecord {
  return {
    service: 'doi.org',
    id: doi,
    url: `https://doi.org/${doi}`,
    title: '',
    authors: [],
    year: null,
    arxivYear: null,
    venue: null,
    doi,
    arxiv: arxivFromDoi(doi),
    arxivVersion: null,
    preprint: false,
    authorsComplete: false,
  };
}

function openalexRecord(work: Record<string, unknown>): ScholarlyRecord {
  const doi = str(work.doi)?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') ?? null;
  const authorships = Array.isArray(work.authorships) ? work.authorships.filter(isObject) : [];
  const authors = authorships.map((authorship) =>
    parsePersonName(str((authorship.author as Record<string, unknown> | undefined)?.display_name) ?? str(authorship.raw_author_name) ?? ''),
  );
  const source = (work.primary_location as { source?: unknown } | undefined)?.source;
  const venue = isObject(source) ? str(source.display_name) : null;
  const id = (str(work.id) ?? '').replace(/^https?:\/\/openalex\.org\//, '');
  const type = String(work.type ?? '');
  return {
    service: 'openalex',
    id,
    url: `https://openalex.org/${id}`,
    title: str(work.display_name) ?? str(work.title) ?? '',
    authors,
    year: typeof work.publication_year === 'number' ? work.publication_year : null,
    arxivYear: null,
    venue,
    doi,
    arxiv: arxivFromDoi(doi),
    arxivVersion: null,
    preprint: type === 'preprint' || type === 'posted-content',
    // OpenAlex lists at most 100 authorships and flags the truncation.
    authorsComplete: work.is_authors_truncated !== true && authorships.length < 100,
  };
}

function dblpRecord(hit: Record<string, unknown>): ScholarlyRecord {
  const info = isObject(hit.info) ? hit.info : {};
  const rawAuthors = isObject(info.authors) ? info.authors.author : undefined;
  const list = Array.isArray(rawAuthors) ? rawAuthors : rawAuthors === undefined ? [] : [rawAuthors];
  const authors = list.map((author) => parsePersonName((isObject(author) ? str(author.text) : str(author)) ?? ''));
  const key = str(info.key) ?? '';
  const venue = str(info.venue);
  const doi = str(info.doi);
  const type = str(info.type) ?? '';
  const informal = type === 'Informal and Other Publications' || type === 'Informal Publications' || key.startsWith('journals/corr/');
  const year = str(info.year);
  return {
    service: 'dblp',
    id: key,
    url: str(info.url) ?? `https://dblp.org/rec/${key}`,
    title: (str(info.title) ?? '').replace(/\.$/, ''),
    authors,
    year: year !== null && /^\d{4}$/.test(year) ? Number(year) : null,
    arxivYear: informal && year !== null ? Number(year) : null,
    venue,
    doi,
    arxiv: arxivFromDoi(doi),
    arxivVersion: null,
    preprint: informal,
    authorsComplete: true,
  };
}

function s2Record(paper: Record<string, unknown>): ScholarlyRecord {
  const ids = isObject(paper.externalIds) ? paper.externalIds : {};
  const doi = str(ids.DOI);
  const arxiv = str(ids.ArXiv);
  const authors = Array.isArray(paper.authors)
    ? paper.authors.filter(isObject).map((author) => parsePersonName(str(author.name) ?? ''))
    : [];
  const journal = isObject(paper.journal) ? str(paper.journal.name) : null;
  const venue = str(paper.venue) ?? (isObject(paper.publicationVenue) ? str(paper.publicationVenue.name) : null) ?? journal;
  const types = Array.isArray(paper.publicationTypes) ? paper.publicationTypes.map(String) : [];
  const id = str(paper.paperId) ?? '';
  return {
    service: 's2',
    id,
    url: `https://www.semanticscholar.org/paper/${id}`,
    title: str(paper.title) ?? '',
    authors,
    year: typeof paper.year === 'number' ? paper.year : null,
    arxivYear: null,
    venue,
    doi,
    arxiv,
    arxivVersion: null,
    preprint: venue !== null && /^arxiv/i.test(venue) && !types.some((type) => type === 'Conference' || type === 'JournalArticle'),
    authorsComplete: true,
  };
}
