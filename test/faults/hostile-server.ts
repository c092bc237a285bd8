/**
 * A real HTTP server on 127.0.0.1 whose every answer a test scripts: endless or oversized bodies,
 * feeds cut mid-entry, connections reset or left hanging, persistent 429s. The environment it
 * returns points every online service of aiwg-cite at it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** Answers one request; `path` has the query string. */
export type Handler = (request: IncomingMessage, response: ServerResponse, path: string) => void;

export interface HostileServer {
  readonly origin: string;
  /** `AIWG_CITE_*_URL` for every service, at `/doi`, `/crossref`, `/openalex`, `/arxiv`. */
  readonly env: Record<string, string>;
  /** Every request as `METHOD /path?query`. */
  readonly log: string[];
}

/** Starts a server for the current test; it closes (dropping hanging connections) when the test ends. */
export async function hostileServer(handler: Handler): Promise<HostileServer> {
  const log: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    log.push(`${request.method} ${path}`);
    handler(request, response, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    log,
    env: {
      AIWG_CITE_DOI_URL: `${origin}/doi`,
      AIWG_CITE_CROSSREF_URL: `${origin}/crossref`,
      AIWG_CITE_OPENALEX_URL: `${origin}/openalex`,
      AIWG_CITE_ARXIV_URL: `${origin}/arxiv`,
      AIWG_CITE_ARXIV_INTERVAL_MS: '0',
    },
  };
}

/** A JSON report's findings, as the tests read them. */
export interface JsonFinding {
  readonly kind: string;
  readonly text: string;
  readonly status: string;
  readonly severity: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

export interface JsonReport {
  readonly verdict: string;
  readonly coverage: { readonly notes: string[] };
  readonly citations: JsonFinding[];
}
