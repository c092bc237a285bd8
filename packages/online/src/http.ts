/**
 * The one HTTP client of the online checks (SPEC §6.1), on Node's global `fetch`: a timeout on
 * every request and a bound on the whole run, 16 requests at once and 2 per host (configurable),
 * adaptive per-host backoff as in lycheeverse/lychee, `Retry-After` honoured up to a limit,
 * redirects followed by hand (at most 10, http and https only). A failure is returned as data,
 * never thrown: a network error must never read as "does not exist".
 */

/** Why a request produced no usable response. */
export type FailureKind =
  | 'timeout'
  | 'refused'
  | 'dns'
  | 'dns-temporary'
  | 'reset'
  | 'tls'
  | 'network'
  | 'aborted'
  | 'rate-limited'
  | 'redirect-loop'
  | 'too-many-redirects'
  | 'too-large'
  | 'scheme';

/** The outcome of one logical request (after retries and redirects). */
export type HttpResult =
  | {
      readonly ok: true;
      readonly status: number;
      readonly headers: Headers;
      /** The body as text, or `''` when it was not read (HEAD, or `readBody: false`). */
      readonly body: string;
      /** The URL that answered, after redirects. */
      readonly url: string;
      readonly redirects: number;
    }
  | { readonly ok: false; readonly failure: FailureKind; readonly message: string; readonly url: string };

/** One request. */
export interface HttpRequest {
  readonly url: string;
  /** @default 'GET' */
  readonly method?: 'GET' | 'HEAD';
  readonly headers?: Readonly<Record<string, string>>;
  /** Read the body as text. @default true for GET */
  readonly readBody?: boolean;
}

/** Options of {@link HttpClient}. */
export interface HttpClientOptions {
  readonly userAgent: string;
  /** Per-request timeout in ms, body included. @default 5000 */
  readonly timeoutMs?: number;
  /** Retries on 408, 429, 5xx and timeouts; a timed-out request is retried at most once. @default 2 */
  readonly retries?: number;
  /** The largest response body read, in bytes; a longer one is a `too-large` failure. @default 4 MiB */
  readonly maxBodyBytes?: number;
  /** @default 10 */
  readonly maxRedirects?: number;
  /** @default 16 */
  readonly globalConcurrency?: number;
  /** @default 2 */
  readonly hostConcurrency?: number;
  /** Per-host concurrency overrides by host name (`api.crossref.org: 3`). */
  readonly hostLimits?: Readonly<Record<string, number>>;
  /** Minimum spacing between request starts per host, in ms (arXiv: 3000). */
  readonly hostIntervals?: Readonly<Record<string, number>>;
  /** The longest `Retry-After` worth waiting for; a longer demand, or one past the run's deadline, gives up. @default 10000 */
  readonly maxRetryAfterMs?: number;
  /** Aborts every request when the whole run is out of time. */
  readonly signal?: AbortSignal;
  /** When the whole run must end (ms since the epoch): no wait or retry is started that would end later. */
  readonly deadline?: number;
  /** Injected for tests of the client itself. @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Defaults sized for a commit hook: a black-holed service costs seconds, not minutes. */
export const HTTP_DEFAULTS = {
  timeoutMs: 5000,
  retries: 2,
  maxBodyBytes: 4 * 1024 * 1024,
  maxRetryAfterMs: 10_000,
} as const;
/** Distinct hosts that must fail to connect, with none answering, before the run counts as offline. */
const OFFLINE_AFTER = 3;

/** A counting semaphore. */
class Semaphore {
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async acquire(): Promise<void> {
    if (this.#active < this.limit) {
      this.#active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#active -= 1;
  }
}

interface HostState {
  readonly gate: Semaphore;
  /** Current adaptive backoff in ms. */
  backoffMs: number;
  /** Earliest time the next request may start (Retry-After, spacing). */
  notBefore: number;
  /** Spacing between request starts: the configured one, widened by `X-Rate-Limit-*` headers. */
  intervalMs: number;
  readonly baseIntervalMs: number;
  /** When the last request to the host started. */
  lastStart: number;
  /** Set once the host refused a connection or did not resolve: later requests fail at once. */
  unreachable: { failure: FailureKind; message: string } | null;
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parses `Retry-After` (seconds or an HTTP date) into ms from `now`, or `null`. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The HTTP client. One instance per run: it holds the per-host state and the request counter. */
export class HttpClient {
  readonly #options: HttpClientOptions;
  readonly #fetch: typeof fetch;
  readonly #global: Semaphore;
  readonly #hosts = new Map<string, HostState>();
  /** Requests actually sent (each retry and redirect hop counts). */
  requests = 0;
  /** Hosts that answered with any HTTP status during this run. */
  readonly answeredHosts = new Set<string>();
  /** Hosts that refused a connection or did not resolve. */
  readonly #deadHosts = new Set<string>();
  /**
   * Set once {@link OFFLINE_AFTER} hosts failed that way and none answered: the machine is offline,
   * so later requests fail at once instead of each waiting for its own DNS lookup.
   */
  #offline: string | null = null;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#global = new Semaphore(options.globalConcurrency ?? 16);
  }

  /** Sends a request, following redirects and retrying transient failures. Never throws. */
  async request(request: HttpRequest): Promise<HttpResult> {
    const maxRedirects = this.#options.maxRedirects ?? 10;
    const visited = new Set<string>();
    let url = request.url;
    let method = request.method ?? 'GET';
    for (let hop = 0; ; hop += 1) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return { ok: false, failure: 'scheme', message: `\`${url}\` is not a URL`, url };
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        return { ok: false, failure: 'scheme', message: `only http and https are fetched, not \`${parsed.protocol}\``, url };
      }
      visited.add(parsed.href);
      const result = await this.#withRetries({ ...request, method, url: parsed.href }, parsed.host);
      if (!result.ok || !REDIRECTS.has(result.status)) return { ...result, ...(result.ok ? { redirects: hop } : {}) } as HttpResult;
      const location = result.headers.get('location');
      if (location === null) return { ...result, redirects: hop };
      const next = new URL(location, parsed).href;
      if (visited.has(next)) return { ok: false, failure: 'redirect-loop', message: `redirect loop at \`${next}\``, url: next };
      if (hop + 1 > maxRedirects) {
        return { ok: false, failure: 'too-many-redirects', message: `more than ${maxRedirects} redirects`, url: next };
      }
      // A 303 answers with another resource: GET it (a HEAD stays a HEAD, RFC 9110 §15.4.4).
      if (result.status === 303 && method !== 'HEAD') method = 'GET';
      url = next;
    }
  }

  #host(host: string): HostState {
    let state = this.#hosts.get(host);
    if (state === undefined) {
      const name = host.replace(/:\d+$/, '');
      const limit = this.#options.hostLimits?.[name] ?? this.#options.hostLimits?.[host] ?? this.#options.hostConcurrency ?? 2;
      const intervalMs = this.#options.hostIntervals?.[name] ?? this.#options.hostIntervals?.[host] ?? 0;
      state = {
        gate: new Semaphore(limit),
        backoffMs: 0,
        notBefore: 0,
        intervalMs,
        baseIntervalMs: intervalMs,
        lastStart: Number.NEGATIVE_INFINITY,
        unreachable: null,
      };
      this.#hosts.set(host, state);
    }
    return state;
  }

  /** A failure already known for this host (it refused or did not resolve), or for the whole network. */
  #knownFailure(state: HostState): { failure: FailureKind; message: string } | null {
    if (state.unreachable !== null) return state.unreachable;
    if (this.#offline !== null && this.answeredHosts.size === 0) return { failure: 'network', message: this.#offline };
    return null;
  }

  async #withRetries(request: Required<Pick<HttpRequest, 'url' | 'method'>> & HttpRequest, host: string): Promise<HttpResult> {
    const state = this.#host(host);
    const retries = this.#options.retries ?? HTTP_DEFAULTS.retries;
    const maxRetryAfter = this.#options.maxRetryAfterMs ?? HTTP_DEFAULTS.maxRetryAfterMs;
    let last: HttpResult = { ok: false, failure: 'network', message: 'not sent', url: request.url };
    let timeouts = 0;
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      const known = this.#knownFailure(state);
      if (known !== null) return { ok: false, ...known, url: request.url };
      if (this.#options.signal?.aborted === true)
        return { ok: false, failure: 'aborted', message: 'the run ran out of time', url: request.url };
      last = await this.#once(request, state);
      if (!last.ok) {
        if (last.failure === 'refused' || last.failure === 'dns' || last.failure === 'dns-temporary') {
          state.unreachable = { failure: last.failure, message: last.message };
          this.#deadHosts.add(host);
          if (this.#deadHosts.size >= OFFLINE_AFTER && this.answeredHosts.size === 0) {
            this.#offline = `the network seems unreachable: ${this.#deadHosts.size} hosts failed and none answered (${last.message})`;
          }
        }
        if (last.failure !== 'timeout' && last.failure !== 'reset') return last;
        // A host that let one request time out gets one more chance, not a full set of timeouts.
        if (last.failure === 'timeout') {
          timeouts += 1;
          if (timeouts > 1) return last;
        }
        continue;
      }
      const { status } = last;
      if (status === 429) {
        state.backoffMs = state.backoffMs === 0 ? 500 : Math.min(state.backoffMs * 2, 30_000);
        const demanded = retryAfter(last.headers, Date.now());
        if (demanded !== null && demanded > maxRetryAfter) {
          return {
            ok: false,
            failure: 'rate-limited',
            message: `rate limited: the server asks to wait ${Math.ceil(demanded / 1000)} s (more than ${maxRetryAfter / 1000} s)`,
            url: request.url,
          };
        }
        const wait = Math.max(demanded ?? 0, state.backoffMs);
        if (attempt === retries || this.#pastDeadline(wait)) {
          return { ok: false, failure: 'rate-limited', message: `rate limited: HTTP 429 after ${attempt + 1} attempts`, url: request.url };
        }
        state.notBefore = Math.max(state.notBefore, Date.now() + wait);
        continue;
      }
      if (status >= 500) {
        if (attempt === retries || this.#pastDeadline(state.backoffMs + 200)) return last;
        state.backoffMs = Math.min(state.backoffMs + 200, 10_000);
        state.notBefore = Math.max(state.notBefore, Date.now() + state.backoffMs);
        continue;
      }
      if (status === 408) continue;
      if (status >= 200 && status < 300) state.backoffMs = 0;
      return last;
    }
    return last;
  }

  /** Whether waiting `ms` would pass the run's deadline. */
  #pastDeadline(ms: number): boolean {
    return this.#options.deadline !== undefined && Date.now() + ms >= this.#options.deadline;
  }

  async #once(request: Required<Pick<HttpRequest, 'url' | 'method'>> & HttpRequest, state: HostState): Promise<HttpResult> {
    await state.gate.acquire();
    await this.#global.acquire();
    const runSignal = this.#options.signal;
    try {
      // Requests queued behind a host's gate learn here that it failed meanwhile, and skip the wait.
      const known = this.#knownFailure(state);
      if (known !== null) return { ok: false, ...known, url: request.url };
      const wait = Math.max(state.notBefore, state.lastStart + state.intervalMs) - Date.now();
      if (wait > 0) await sleep(wait, runSignal);
      state.lastStart = Date.now();
      const timeoutMs = this.#options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = runSignal === undefined ? timeout : AbortSignal.any([timeout, runSignal]);
      this.requests += 1;
      try {
        const response = await this.#fetch(request.url, {
          method: request.method,
          headers: { 'user-agent': this.#options.userAgent, ...request.headers },
          redirect: 'manual',
          signal,
        });
        this.answeredHosts.add(new URL(request.url).host);
        const advertised = rateLimitInterval(response.headers);
        if (advertised !== null) state.intervalMs = Math.max(state.baseIntervalMs, advertised);
        const read = (request.readBody ?? request.method === 'GET') && !REDIRECTS.has(response.status);
        if (!read) {
          await response.body?.cancel().catch(() => undefined);
          return { ok: true, status: response.status, headers: response.headers, body: '', url: request.url, redirects: 0 };
        }
        const limit = this.#options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
        const body = await readLimited(response, limit);
        if (body === null) {
          return {
            ok: false,
            failure: 'too-large',
            message: `the response is larger than ${formatBytes(limit)}; not read`,
            url: request.url,
          };
        }
        return { ok: true, status: response.status, headers: response.headers, body, url: request.url, redirects: 0 };
      } catch (error) {
        if (runSignal?.aborted === true) return { ok: false, failure: 'aborted', message: 'the run ran out of time', url: request.url };
        if (timeout.aborted) {
          return {
            ok: false,
            failure: 'timeout',
            message: `no answer within ${timeoutMs / 1000} s`,
            url: request.url,
          };
        }
        return { ok: false, ...classifyNetworkError(error), url: request.url };
      }
    } catch (error) {
      return { ok: false, failure: 'aborted', message: `the run ran out of time (${String(error)})`, url: request.url };
    } finally {
      this.#global.release();
      state.gate.release();
    }
  }
}

/**
 * Reads a body as UTF-8 text, at most `limit` bytes (after content decoding): a longer body, or a
 * `content-length` that announces one, is cancelled and gives `null`. Nothing larger than the limit
 * is ever held in memory.
 */
async function readLimited(response: Response, limit: number): Promise<string | null> {
  const announced = Number(response.headers.get('content-length'));
  const encoded = (response.headers.get('content-encoding') ?? '') !== '';
  if (!encoded && Number.isFinite(announced) && announced > limit) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * The spacing a service asks for through `X-Rate-Limit-Limit` and `X-Rate-Limit-Interval`
 * (Crossref: `50` per `1s`): interval ÷ limit in ms, or `null` when the headers are absent.
 */
export function rateLimitInterval(headers: Headers): number | null {
  const limit = Number(headers.get('x-rate-limit-limit'));
  const interval = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec((headers.get('x-rate-limit-interval') ?? '').trim());
  if (!Number.isFinite(limit) || limit <= 0 || interval === null) return null;
  const unit = interval[2] === 'ms' ? 1 : interval[2] === 'm' ? 60_000 : 1000;
  return Math.min(Math.ceil((Number(interval[1]) * unit) / limit), 60_000);
}

function retryAfter(headers: Headers, now: number): number | null {
  const direct = parseRetryAfter(headers.get('retry-after'), now);
  if (direct !== null) return direct;
  const reset = headers.get('x-rate-limit-reset') ?? headers.get('x-ratelimit-reset');
  if (reset !== null && /^\d+$/.test(reset)) {
    const value = Number(reset);
    return value > 1e9 ? Math.max(0, value * 1000 - now) : value * 1000;
  }
  return null;
}

/** Maps a `fetch` rejection (undici puts the system error in `cause`) to a failure kind. */
export function classifyNetworkError(error: unknown): { failure: FailureKind; message: string } {
  const codes: string[] = [];
  const collect = (value: unknown, depth: number) => {
    if (typeof value !== 'object' || value === null || depth > 4) return;
    const code = (value as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    collect((value as { cause?: unknown }).cause, depth + 1);
    const errors = (value as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const inner of errors) collect(inner, depth + 1);
  };
  collect(error, 0);
  const has = (...names: string[]) => codes.some((code) => names.includes(code));
  if (has('ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL')) {
    return { failure: 'refused', message: `cannot connect (${codes.join(', ')}): the network or the service is unreachable` };
  }
  // EAI_AGAIN is the resolver failing for now (no DNS server answered), not a name that does not exist.
  if (has('EAI_AGAIN', 'EAI_FAIL')) {
    return { failure: 'dns-temporary', message: `the host name could not be looked up right now (${codes.join(', ')})` };
  }
  if (has('ENOTFOUND', 'EAI_NONAME')) return { failure: 'dns', message: `the host name does not resolve (${codes.join(', ')})` };
  if (has('ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED')) return { failure: 'reset', message: 'the connection was reset' };
  if (
    codes.some(
      (code) => code.startsWith('CERT_') || code.startsWith('ERR_TLS') || code.includes('SSL') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT',
    )
  ) {
    return { failure: 'tls', message: `TLS failed (${codes.join(', ')})` };
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT')) {
    return { failure: 'timeout', message: 'the connection timed out' };
  }
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail = codes.length > 0 ? codes.join(', ') : cause instanceof Error ? cause.message : '';
  return { failure: 'network', message: `network error: ${message}${detail === '' ? '' : ` (${detail})`}` };
}
