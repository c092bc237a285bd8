export { userCacheDir } from '@aiwg-cite/node';
export type { AttributionVerdict, CitedAttribution, WorkMetadata } from './attribution.ts';
export { compareAttribution, normaliseName, readAttribution, titleSimilarity } from './attribution.ts';
export type { CacheEntry, CacheLoadOptions } from './cache.ts';
export { defaultCachePath, loadCacheSecret, ResultCache, ttlFor } from './cache.ts';
export type { OnlineCheckerOptions, OnlineTargets, UrlMatch } from './checker.ts';
export { createOnlineChecker, findOnlineTargets, proseOf, sentenceAround, withOnline } from './checker.ts';
export type { FailureKind, HttpClientOptions, HttpRequest, HttpResult } from './http.ts';
export { classifyNetworkError, HTTP_DEFAULTS, HttpClient, parseRetryAfter, rateLimitInterval, sleep } from './http.ts';
export { onlineMessages } from './messages.ts';
export type { Counts, Progress, ProgressStream } from './progress.ts';
export { createPlainProgress, describeProgress, RESOLVERS } from './progress.ts';
export { createReferenceListChecker, referenceFindings } from './refs/checker.ts';
export type { ScholarlyServicesOptions, ServiceAnswer } from './refs/services.ts';
export { ScholarlyServices } from './refs/services.ts';
export type { RefResult, RefsSession, RefsSessionOptions } from './refs/verify.ts';
export { openRefsSession, verifyReference } from './refs/verify.ts';
export type {
  DoiRecord,
  Lookup,
  LookupListener,
  ResolverName,
  ResolverOptions,
  RetractionRecord,
  ServiceUrls,
  UrlRecord,
  WorkUpdate,
} from './resolvers.ts';
export {
  crossrefMetadata,
  DEFAULT_SERVICE_URLS,
  encodeDoi,
  familyName,
  isCompleteFeed,
  isRetracting,
  parseAtom,
  Resolvers,
  resolveServiceUrls,
} from './resolvers.ts';
export type { OnlineSession, OnlineSessionOptions } from './session.ts';
export { DEFAULT_BUDGET_MS, openOnlineSession } from './session.ts';
