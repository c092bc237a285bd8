import { HttpClient, Resolvers, rateLimitInterval, resolveServiceUrls } from '@aiwg-cite/online';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A `fetch` that answers from a table and records the order of calls. */
function scriptedFetch(answer: (url: URL) => Response | Error): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    const url = new URL(String(input));
    calls.push(url.href);
    const result = answer(url);
    if (result instanceof Error) throw result;
    return result;
  }) as typeof fetch;
  return { fetch: fetchImpl, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HttpClient scheduling (fake timers, no real waiting)', () => {
  it('spaces request starts to one host by its interval (arXiv: one request per 3 s)', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = scriptedFetch(() => new Response('ok'));
    const client = new HttpClient({
      userAgent: 't',
      fetch,
      hostLimits: { 'export.arxiv.test': 1 },
      hostIntervals: { 'export.arxiv.test': 3000 },
    });
    const all = Promise.all([1, 2, 3].map((n) => client.request({ url: `http://export.arxiv.test/api/query?id_list=${n}` })));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toHaveLength(3);
    const results = await all;
    expect(results.every((result) => result.ok && result.status === 200)).toBe(true);
  });

  it('widens the spacing of a host to what X-Rate-Limit-Limit / X-Rate-Limit-Interval advertise', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = scriptedFetch(
      () => new Response('{}', { headers: { 'x-rate-limit-limit': '2', 'x-rate-limit-interval': '1s' } }),
    );
    const client = new HttpClient({ userAgent: 't', fetch, hostLimits: { 'api.crossref.test': 1 } });
    const all = Promise.all([1, 2, 3].map((n) => client.request({ url: `http://api.crossref.test/works/${n}` })));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(3);
    await all;
    expect(rateLimitInterval(new Headers({ 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' }))).toBe(20);
    expect(rateLimitInterval(new Headers())).toBeNull();
  });

  it('backs off adaptively after a 429 without Retry-After: 500 ms, then doubles', async () => {
    vi.useFakeTimers();
    let n = 0;
    const { fetch, calls } = scriptedFetch(() => {
      n += 1;
      return n <= 2 ? new Response('busy', { status: 429 }) : new Response('ok');
    });
    const client = new HttpClient({ userAgent: 't', fetch });
    const pending = client.request({ url: 'http://busy.test/x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect(await pending).toMatchObject({ ok: true, status: 200 });
  });
});

describe('URL liveness and DNS', () => {
  const dnsFailure = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });

  it('a name that does not resolve is unconfirmed alone, but dead once another host answered in this run', async () => {
    const { fetch } = scriptedFetch((url) => (url.host === 'up.test' ? new Response(null, { status: 200 }) : dnsFailure()));
    const alone = new Resolvers({
      client: new HttpClient({ userAgent: 't', fetch }),
      cache: null,
      urls: resolveServiceUrls({}),
      now: () => new Date(0),
    });
    expect((await alone.url('http://gone.test/')).outcome).toBe('unknown');

    const client = new HttpClient({ userAgent: 't', fetch });
    const resolvers = new Resolvers({ client, cache: null, urls: resolveServiceUrls({}), now: () => new Date(0) });
    expect((await resolvers.url('http://up.test/')).outcome).toBe('found');
    const gone = await resolvers.url('http://gone.test/');
    expect(gone).toMatchObject({ outcome: 'not-found' });
    expect(gone.outcome === 'not-found' ? gone.message : '').toContain('while other hosts answered');
  });

  it('after three hosts fail to resolve and none answered, the machine counts as offline: no more lookups', async () => {
    const { fetch, calls } = scriptedFetch(() => dnsFailure());
    const client = new HttpClient({ userAgent: 't', fetch });
    const results = [];
    for (const host of ['a', 'b', 'c', 'd', 'e']) results.push(await client.request({ url: `http://${host}.test/` }));
    expect(calls).toEqual(['http://a.test/', 'http://b.test/', 'http://c.test/']);
    expect(results.every((result) => !result.ok)).toBe(true);
    expect(results[4]).toMatchObject({ ok: false, failure: 'network' });
    expect(results[4]?.ok === false ? results[4].message : '').toContain('the network seems unreachable: 3 hosts failed and none answered');
  });

  it('sends the User-Agent and never fetches a non-http redirect target', async () => {
    const agents: string[] = [];
    const fetchImpl = (async (_input: string | URL | Request, init?: RequestInit) => {
      agents.push(String(((init?.headers ?? {}) as Record<string, string>)['user-agent']));
      return new Response(null, { status: 302, headers: { location: 'file:///etc/passwd' } });
    }) as typeof fetch;
    const client = new HttpClient({ userAgent: 'aiwg-cite/0.1.0 (mailto:team@example.test)', fetch: fetchImpl });
    const result = await client.request({ url: 'http://redirector.test/' });
    expect(result).toMatchObject({ ok: false, failure: 'scheme' });
    expect(agents).toEqual(['aiwg-cite/0.1.0 (mailto:team@example.test)']);
  });
});
