/**
 * A real HTTP server on 127.0.0.1 that answers like doi.org (handle API and content negotiation),
 * Crossref, OpenAlex, arXiv and ordinary web sites, so the online checks are tested without the
 * internet. Response shapes follow the real APIs (SPEC §6.2–§6.4). Every request is counted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake doi.org handle API answers for a DOI. */
type HandleBehaviour = 'found' | 'missing' | 'error' | 'malformed' | 'slow';

interface FakeDoi {
  readonly handle: HandleBehaviour;
  /** A Crossref `message`, or an HTTP status to answer with instead. */
  readonly crossref: Record<string, unknown> | number;
  /** CSL JSON served by doi.org content negotiation (after a redirect), for non-Crossref DOIs. */
  readonly csl?: Record<string, unknown>;
  /** OpenAlex `is_retracted`, or an HTTP status. */
  readonly openalex: boolean | number;
}

interface FakeArxiv {
  readonly title: string;
  readonly authors: readonly string[];
  readonly published: string;
}

const author = (given: string, family: string, sequence: 'first' | 'additional') => ({ given, family, sequence });

/** The seed 001 cases and the other fixtures. */
export const FAKE_DOIS: Readonly<Record<string, FakeDoi>> = {
  // Wakefield 1998: retracted, and the retraction shows only in `updated-by` (OpenAlex says false).
  '10.1016/s0140-6736(97)11096-0': {
    handle: 'found',
    crossref: {
      DOI: '10.1016/S0140-6736(97)11096-0',
      type: 'journal-article',
      title: ['RETRACTED: Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children'],
      'container-title': ['The Lancet'],
      author: [author('A.J.', 'Wakefield', 'first'), author('S.H.', 'Murch', 'additional'), author('A.', 'Anthony', 'additional')],
      issued: { 'date-parts': [[1998, 2]] },
      volume: '351',
      issue: '9103',
      page: '637-641',
      'updated-by': [
        {
          updated: { 'date-parts': [[2010, 2, 6]] },
          DOI: '10.1016/S0140-6736(10)60175-4',
          type: 'retraction',
          source: 'publisher',
          label: 'Retraction',
          'record-id': 'RW-4493',
        },
      ],
    },
    openalex: false,
  },
  // A sound Crossref work with a correction (info only).
  '10.1038/nature14539': {
    handle: 'found',
    crossref: {
      DOI: '10.1038/nature14539',
      type: 'journal-article',
      title: ['Deep learning'],
      author: [author('Yann', 'LeCun', 'first'), author('Yoshua', 'Bengio', 'additional'), author('Geoffrey', 'Hinton', 'additional')],
      issued: { 'date-parts': [[2015, 5, 27]] },
      'updated-by': [{ DOI: '10.1038/nature99999', type: 'correction', source: 'publisher' }],
    },
    openalex: false,
  },
  // Seed 001: the fabricated JACM DOI. doi.org has no handle.
  '10.1145/3676932.3676933': { handle: 'missing', crossref: 404, openalex: 404 },
  // A DataCite DOI: Crossref answers 404, the handle exists, metadata comes by content negotiation.
  '10.5281/zenodo.1234567': {
    handle: 'found',
    crossref: 404,
    csl: {
      type: 'dataset',
      title: 'Benchmark traces for citation checking',
      author: [{ family: 'Okafor', given: 'Ada' }],
      issued: { 'date-parts': [[2023]] },
    },
    openalex: 404,
  },
  // The handle service fails: the DOI is unverified, never fabricated.
  '10.9999/handle-error': { handle: 'error', crossref: 500, openalex: 500 },
  '10.9999/handle-malformed': { handle: 'malformed', crossref: 404, openalex: 404 },
  '10.9999/handle-slow': { handle: 'slow', crossref: 404, openalex: 404 },
  // Crossref answers with broken JSON: existence stands, metadata is missing.
  '10.9999/crossref-broken': { handle: 'found', crossref: -1, openalex: 404 },
  // The Wakefield retraction notice itself: it carries `update-to`, so citing it is citing a notice.
  '10.1016/s0140-6736(10)60175-4': {
    handle: 'found',
    crossref: {
      DOI: '10.1016/S0140-6736(10)60175-4',
      type: 'journal-article',
      title: ['Retraction—Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children'],
      author: [],
      issued: { 'date-parts': [[2010, 2]] },
      'update-to': [{ DOI: '10.1016/S0140-6736(97)11096-0', type: 'retraction', source: 'publisher' }],
    },
    openalex: false,
  },
  // An expression of concern: a warning, not a retraction.
  '10.9999/concern': {
    handle: 'found',
    crossref: {
      DOI: '10.9999/concern',
      title: ['A study under concern'],
      author: [author('Ana', 'Lima', 'first')],
      issued: { 'date-parts': [[2021]] },
      'updated-by': [{ DOI: '10.9999/concern-notice', type: 'expression_of_concern', source: 'publisher' }],
    },
    openalex: false,
  },
  // Retracted only by a notice: the work's record has no `updated-by`, but a retraction notice
  // points at it through `update-to` (found by Crossref's reverse `filter=updates:` query).
  '10.9999/notice-only': {
    handle: 'found',
    crossref: {
      DOI: '10.9999/notice-only',
      title: ['A paper retracted before updated-by existed'],
      author: [author('Kim', 'Park', 'first')],
    },
    openalex: false,
  },
  '10.9999/notice-only-retraction': {
    handle: 'found',
    crossref: {
      DOI: '10.9999/notice-only-retraction',
      title: ['Retraction: A paper retracted before updated-by existed'],
      author: [],
      'update-to': [{ DOI: '10.9999/NOTICE-ONLY', type: 'retraction', source: 'publisher' }],
    },
    openalex: false,
  },
  // A work whose reverse notice query fails (HTTP 500).
  '10.9999/reverse-broken': {
    handle: 'found',
    crossref: {
      DOI: '10.9999/reverse-broken',
      title: ['A paper whose notices cannot be listed'],
      author: [author('Eva', 'Berg', 'first')],
    },
    openalex: false,
  },
  // Retracted according to OpenAlex only.
  '10.9999/openalex-retracted': {
    handle: 'found',
    crossref: { DOI: '10.9999/openalex-retracted', title: ['A quietly retracted paper'], author: [author('Bo', 'Chen', 'first')] },
    openalex: true,
  },
};

/** arXiv papers the fake API knows; any other well-formed id returns an entry without a title. */
export const FAKE_ARXIV: Readonly<Record<string, FakeArxiv>> = {
  '1706.03762': {
    title: 'Attention Is All You Need',
    authors: [
      'Ashish Vaswani',
      'Noam Shazeer',
      'Niki Parmar',
      'Jakob Uszkoreit',
      'Llion Jones',
      'Aidan N. Gomez',
      'Lukasz Kaiser',
      'Illia Polosukhin',
    ],
    published: '2017-06-12T17:57:34Z',
  },
  '2005.14165': {
    title: 'Language Models are Few-Shot Learners',
    authors: ['Tom B. Brown', 'Benjamin Mann', 'Nick Ryder', 'Melanie Subbiah', 'Jared Kaplan', 'Prafulla Dhariwal'],
    published: '2020-05-28T17:29:03Z',
  },
};

/** A running fake. */
export interface FakeServices {
  readonly origin: string;
  /** Environment that points aiwg-cite at this server. */
  readonly env: Record<string, string>;
  /** Every request as `METHOD /path`. */
  readonly log: string[];
  /** Requests so far. */
  count(): number;
  /** Requests whose path starts with a prefix (`/doi`, `/crossref`, `/web/…`). */
  countOf(prefix: string): number;
  /** The most requests in flight at once since the last reset. */
  maxInFlight(): number;
  resetMaxInFlight(): void;
  close(): Promise<void>;
}

/** Starts the fake services on an ephemeral port of 127.0.0.1. */
export async function startFakeServices(options: { slowMs?: number } = {}): Promise<FakeServices> {
  const log: string[] = [];
  const hits = new Map<string, number>();
  const slowMs = options.slowMs ?? 3000;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timers.add(timer);
  };

  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => {
      inFlight -= 1;
    });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    log.push(`${request.method} ${path}${url.search}`);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const text = (status: number, body: string, headers: Record<string, string> = {}): true => {
      response.writeHead(status, { 'content-type': 'text/plain', ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
      return true;
    };

    if (path.startsWith('/doi/api/handles/')) {
      const doi = decodeURIComponent(path.slice('/doi/api/handles/'.length)).toLowerCase();
      const fake = FAKE_DOIS[doi];
      if (fake === undefined || fake.handle === 'missing') return json(404, { responseCode: 100, handle: doi });
      if (fake.handle === 'error') return json(500, { responseCode: 2, message: 'Error' });
      if (fake.handle === 'malformed') return json(200, '{"responseCode": 1, "handle": ');
      const found = () =>
        json(200, {
          responseCode: 1,
          handle: doi,
          values: [{ index: 1, type: 'URL', data: { format: 'string', value: 'https://example.org/' } }],
        });
      if (fake.handle === 'slow') return later(slowMs, found);
      return found();
    }
    if (path.startsWith('/doi/')) {
      // Content negotiation: doi.org redirects CSL requests to the registration agency.
      const doi = decodeURIComponent(path.slice('/doi/'.length)).toLowerCase();
      const fake = FAKE_DOIS[doi];
      if (fake?.csl === undefined) return text(404, 'DOI Not Found');
      if (!String(request.headers.accept).includes('application/vnd.citationstyles.csl+json'))
        return text(302, '', { location: 'https://example.org/' });
      return text(302, '', { location: `/datacite/dois/${encodeURIComponent(doi)}` });
    }
    if (path.startsWith('/datacite/dois/')) {
      const doi = decodeURIComponent(path.slice('/datacite/dois/'.length)).toLowerCase();
      const fake = FAKE_DOIS[doi];
      if (fake?.csl === undefined) return text(404, 'not found');
      return json(200, fake.csl, { 'content-type': 'application/vnd.citationstyles.csl+json' });
    }
    if (path === '/crossref/works' && url.searchParams.has('filter')) {
      // The reverse query: notices whose `update-to` names the DOI. Crossref rejects a filter
      // value with a comma (HTTP 400).
      const filter = url.searchParams.get('filter') ?? '';
      const target = filter.replace(/^updates:/, '').toLowerCase();
      if (!filter.startsWith('updates:') || target.includes(',')) return text(400, 'Invalid filter');
      if (target === '10.9999/reverse-broken') return text(500, 'Internal Server Error');
      const items = Object.values(FAKE_DOIS)
        .map((fake) => fake.crossref)
        .filter((work): work is Record<string, unknown> => typeof work === 'object')
        .filter((work) =>
          ((work['update-to'] as { DOI?: string }[] | undefined) ?? []).some((entry) => entry.DOI?.toLowerCase() === target),
        );
      return json(200, { status: 'ok', 'message-type': 'work-list', message: { 'total-results': items.length, items } });
    }
    if (path.startsWith('/crossref/works/')) {
      const doi = decodeURIComponent(path.slice('/crossref/works/'.length)).toLowerCase();
      const fake = FAKE_DOIS[doi];
      if (fake === undefined || fake.crossref === 404) return text(404, 'Resource not found.');
      if (fake.crossref === -1) return json(200, '{"status":"ok","message":{"DOI":');
      if (typeof fake.crossref === 'number') return text(fake.crossref, 'Internal Server Error');
      return json(200, { status: 'ok', 'message-type': 'work', 'message-version': '1.0.0', message: fake.crossref });
    }
    if (path.startsWith('/openalex/works/doi:')) {
      const doi = decodeURIComponent(path.slice('/openalex/works/doi:'.length)).toLowerCase();
      const fake = FAKE_DOIS[doi];
      if (fake === undefined || fake.openalex === 404) return json(404, { error: 'Not Found' });
      if (typeof fake.openalex === 'number') return text(fake.openalex, 'error');
      return json(200, { id: 'https://openalex.org/W1', doi: `https://doi.org/${doi}`, is_retracted: fake.openalex });
    }
    if (path === '/arxiv/query') {
      const id = url.searchParams.get('id_list') ?? '';
      return text(200, atomFeed(id, FAKE_ARXIV[id.replace(/v\d+$/, '')]), { 'content-type': 'application/atom+xml' });
    }
    if (path.startsWith('/web/')) return web(path, request, text, later, slowMs, hits.get(path) ?? 0);
    return text(404, 'no such fake');
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    env: {
      AIWG_CITE_DOI_URL: `${origin}/doi`,
      AIWG_CITE_CROSSREF_URL: `${origin}/crossref`,
      AIWG_CITE_OPENALEX_URL: `${origin}/openalex`,
      AIWG_CITE_ARXIV_URL: `${origin}/arxiv`,
      AIWG_CITE_ARXIV_INTERVAL_MS: '0',
    },
    log,
    count: () => log.length,
    countOf: (prefix) => log.filter((line) => line.split(' ')[1]?.startsWith(prefix)).length,
    maxInFlight: () => maxInFlight,
    resetMaxInFlight: () => {
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function web(
  path: string,
  request: IncomingMessage,
  text: (status: number, body: string, headers?: Record<string, string>) => true,
  later: (ms: number, work: () => void) => void,
  slowMs: number,
  hit: number,
): boolean {
  const name = path.slice('/web/'.length);
  if (name === 'ok' || name.startsWith('ok-')) return text(200, '<html><body>ok</body></html>', { 'content-type': 'text/html' });
  if (name === 'gone') return text(404, 'Not Found');
  if (name === 'removed') return text(410, 'Gone');
  if (name === 'forbidden') return text(403, 'Forbidden');
  if (name === 'server-error') return text(500, 'Internal Server Error');
  if (name === 'no-head') return request.method === 'HEAD' ? text(405, '') : text(200, 'ok');
  if (name.startsWith('parallel/')) {
    later(300, () => text(200, 'ok'));
    return true;
  }
  if (name === 'slow') {
    later(slowMs, () => text(200, 'finally'));
    return true;
  }
  if (name === 'loop') return text(302, '', { location: '/web/loop-back' });
  if (name === 'loop-back') return text(302, '', { location: '/web/loop' });
  if (name === 'moved') return text(301, '', { location: '/web/hop/1' });
  const hop = /^hop\/(\d+)$/.exec(name);
  if (hop !== null) {
    const n = Number(hop[1]);
    return n >= 3 ? text(200, 'arrived') : text(302, '', { location: `/web/hop/${n + 1}` });
  }
  const chain = /^chain\/(\d+)$/.exec(name);
  if (chain !== null) return text(302, '', { location: `/web/chain/${Number(chain[1]) + 1}` });
  // 429 with Retry-After: 1 on the first request, then 200.
  if (name === 'busy') return hit <= 1 ? text(429, 'Too Many Requests', { 'retry-after': '1' }) : text(200, 'ok');
  if (name === 'busy-long') return text(429, 'Too Many Requests', { 'retry-after': '3600' });
  if (name === 'reset') {
    request.socket.destroy();
    return true;
  }
  return text(404, 'Not Found');
}

function atomFeed(id: string, paper: FakeArxiv | undefined): string {
  const entry =
    paper === undefined
      ? `<entry><id>http://arxiv.org/abs/${id}</id></entry>`
      : `<entry>
    <id>http://arxiv.org/abs/${id}v1</id>
    <published>${paper.published}</published>
    <title>${paper.title}</title>
    <summary>Abstract.</summary>
    ${paper.authors.map((name) => `<author><name>${name}</name></author>`).join('\n    ')}
  </entry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <title>arXiv Query: id_list=${id}</title>
  <opensearch:totalResults>1</opensearch:totalResults>
  ${entry}
</feed>
`;
}
