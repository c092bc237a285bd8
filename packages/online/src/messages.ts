/**
 * Every user-facing sentence of the online checks, in one place. The offending value goes in
 * backticks; the fix names the next step.
 */
export const onlineMessages = {
  notHttpUrl: (source: string, value: string) => `${source}: \`${value}\` is not an http or https URL`,
  verified: (what: string, source: string, title: string | null) => `${what} exists (${source})${title === null ? '' : `: "${title}"`}`,
  verifiedNoMetadata: (what: string) => `${what} exists (doi.org), but no metadata could be fetched, so authors and year were not compared`,
  fabricatedDoi: (doi: string, detail: string) => `\`${doi}\` does not exist: ${detail}`,
  fabricatedArxiv: (id: string, detail: string) => `arXiv \`${id}\` does not exist: ${detail}`,
  fabricatedFix: () => 'find the real source and cite its identifier, or remove the claim',
  unverified: (what: string, why: string) => `${what} could not be confirmed online: ${why}`,
  unverifiedFix: () => 'run again later; a network or service failure never means the source is fake',
  retracted: (doi: string, notices: string, source: string) => `\`${doi}\` has been retracted${notices} (${source})`,
  retractedFix: () => 'do not cite a retracted work as evidence; cite the retraction notice if the retraction is the point',
  concern: (doi: string, notice: string) => `\`${doi}\` carries an expression of concern${notice}`,
  concernFix: () => 'read the expression of concern before relying on the work',
  isNotice: (doi: string, target: string) => `\`${doi}\` is itself a notice that updates ${target}`,
  corrected: (kinds: string) => `; it has ${kinds}`,
  retractionUnknown: (why: string) => `; retraction status unknown (${why})`,
  authorMismatch: (cited: string, firstAuthor: string, title: string | null) =>
    `cited as by ${cited}, but none of them is an author${title === null ? '' : ` of "${title}"`}; the first author is ${firstAuthor}`,
  authorMismatchFix: (firstAuthor: string) => `attribute the work to ${firstAuthor} et al., or cite the work you meant`,
  authorOverlap: (cited: string, firstAuthor: string, overlap: number) =>
    `cited as by ${cited}, which matches the authors only in part (${Math.round(overlap * 100)}%); the first author is ${firstAuthor}`,
  differentWork: (similarity: number, title: string | null) =>
    `the identifier resolves to a different work${title === null ? '' : ` ("${title}")`}: title similarity ${similarity.toFixed(2)} and no shared author`,
  yearMismatch: (cited: number, actual: number) => `cited as ${cited}, but the work is from ${actual}`,
  titleMismatch: (similarity: number, title: string | null) =>
    `the quoted title does not match the work's title${title === null ? '' : ` "${title}"`} (similarity ${similarity.toFixed(2)})`,
  attributionFix: () => 'check the authors, year and title against the source and correct the sentence',
  urlAlive: (status: number, finalUrl: string, url: string) =>
    `HTTP ${status}${finalUrl === url ? '' : ` after redirects to \`${finalUrl}\``}`,
  urlDead: (detail: string) => `the page is gone: ${detail}`,
  urlDeadFix: () => 'link to the page where it moved, or to an archived copy (web.archive.org)',
  urlUnconfirmed: (why: string) => `could not confirm the page: ${why}`,
  urlUnconfirmedFix: () => 'open the link yourself; access limits and server errors are not deadness',
  progress: (name: string, done: number, cached: number, remaining: number) =>
    `${name}: ${done} resolved${cached > 0 ? ` (${cached} from cache)` : ''}, ${remaining} remaining`,
  noNetworkAnswer: (lookups: number) =>
    `aiwg-cite online: no answer from the network for ${lookups} ${lookups === 1 ? 'lookup' : 'lookups'} (offline?); they are reported as unknown`,
  progressTotals: (parts: readonly string[]) => `aiwg-cite online: ${parts.join('; ')}`,
  coverage: (requests: number, cached: number) => `online: ${requests} ${requests === 1 ? 'request' : 'requests'}, ${cached} from cache`,
  warning: (message: string) => `aiwg-cite: warning: ${message}`,
  cacheNotSaved: (reason: string) => `cache not saved (${reason})`,
  cacheCorrupt: (path: string, reason: string) => `cache \`${path}\` is corrupt (${reason}); it was discarded and will be rewritten`,
  deadline: (seconds: number) => `the online checks ran out of their ${seconds} s budget`,
} as const;

/**
 * What each service answered, as the resolvers record it: the detail inside the sentences above
 * (`does not exist: …`, `could not be confirmed online: …`), also kept in the cache.
 */
export const resolverMessages = {
  notFound: () => 'not found',
  doiHttp: (status: number) => `doi.org answered HTTP ${status}`,
  doiNoHandle: () => 'doi.org has no handle for this DOI (responseCode 100)',
  doiNotHandleJson: () => 'doi.org sent a response that is not handle JSON',
  doiResponseCode: (code: string) => `doi.org answered responseCode ${code}`,
  crossrefNotJson: () => 'Crossref sent a response that is not JSON',
  crossrefFailed: (detail: string) => `Crossref: ${detail}`,
  openalexNoRetractionField: () => 'OpenAlex sent a response without `is_retracted`',
  openalexFailed: (detail: string) => `OpenAlex: ${detail}`,
  noSourceCouldSay: () => 'no source could say',
  noRetraction: (sources: readonly string[]) => `no retraction in ${sources.join(', ')}`,
  noticesFailed: (detail: string) => `Crossref notices: ${detail}`,
  noticesWithoutItems: () => 'Crossref notices: a response without `message.items`',
  arxivHttp: (status: number) => `arXiv answered HTTP ${status}`,
  arxivNotAtom: () => 'arXiv sent a response that is not a complete Atom feed',
  arxivRejected: (reason: string) => `arXiv rejected the id: ${reason}`,
  arxivNoPaper: () => 'arXiv returned no paper for this id',
  dnsWhileOthersAnswered: (detail: string) => `${detail}, while other hosts answered`,
  urlGone: (status: number, finalUrl: string | null) => `HTTP ${status}${finalUrl === null ? '' : ` at \`${finalUrl}\``}`,
  urlStatus: (status: number, isBlocked: boolean) => `HTTP ${status}${isBlocked ? ' (access or rate limit, not deadness)' : ''}`,
} as const;
