/**
 * The online checker: finds DOIs, arXiv ids and URLs in a document's prose (link destinations and
 * footnote definitions included; code, HTML and frontmatter skipped) and turns the resolvers'
 * answers into `doi`, `arxiv` and `url` findings with `source` and `checkedAt`.
 */
import {
  appendAll,
  type DocumentChecker,
  type Finding,
  findArxivIds,
  findDois,
  type IdentifierMatch,
  isPlaceholderDoi,
  positionOf,
  type ScannedDocument,
  type YearMonth,
} from '@aiwg-cite/core';
import { compareAttribution, readAttribution, type WorkMetadata } from './attribution.ts';
import { onlineMessages } from './messages.ts';
import { isRetracting, type Lookup, type Resolvers } from './resolvers.ts';

/** A URL in prose. */
export interface UrlMatch {
  readonly url: string;
  readonly start: number;
  readonly end: number;
}

/** What the online checker reads in one document. */
export interface OnlineTargets {
  readonly dois: readonly IdentifierMatch[];
  readonly arxiv: readonly IdentifierMatch[];
  readonly urls: readonly UrlMatch[];
  /** The text with code, HTML, frontmatter and images blanked (same length as the document). */
  readonly prose: string;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`\]]+/gi;
/** Regions whose URLs and identifiers are checked: link destinations, references, autolinks and definitions. */
const CHECKED = new Set(['definition', 'destination', 'reference', 'autolink', 'markup']);

/** Blanks non-prose regions (images included) from the markdown model, keeping offsets and line breaks. */
export function proseOf(document: ScannedDocument): string {
  const chars = document.text.split('');
  for (const region of document.regions) {
    if (CHECKED.has(region.kind)) continue;
    for (let at = region.start; at < region.end; at += 1) if (chars[at] !== '\n' && chars[at] !== '\r') chars[at] = ' ';
  }
  return chars.join('');
}

/** Finds the identifiers and URLs the online checks resolve. URLs that carry a DOI or arXiv id are left to those resolvers. */
export function findOnlineTargets(document: ScannedDocument, now: YearMonth): OnlineTargets {
  const prose = proseOf(document);
  const dois = findDois(prose);
  const arxiv = findArxivIds(prose, now);
  const identifiers = [...dois, ...arxiv];
  const urls: UrlMatch[] = [];
  for (const match of prose.matchAll(URL_PATTERN)) {
    const url = trimUrl(match[0]);
    const start = match.index ?? 0;
    const end = start + url.length;
    if (identifiers.some((id) => id.start < end && id.end > start)) continue;
    urls.push({ url, start, end });
  }
  return { dois, arxiv, urls, prose };
}

function trimUrl(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1);
    if (last !== undefined && '.,;:!?*_'.includes(last)) url = url.slice(0, -1);
    else if (last === ')' && count(url, ')') > count(url, '(')) url = url.slice(0, -1);
    else return url;
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

const ABBREVIATIONS = /(?:\bal|\be\.g|\bi\.e|\bcf|\bvs|\bet|\bDr|\bMr|\bMs|\bNo|\bpp?|\bvol|\bFig|\bEq|\b[A-Z])$/;

/** The sentence around `[start, end)`: bounded by `.`, `!` or `?` before whitespace (not after `et al.` or an initial), or a block break. */
export function sentenceAround(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  while (from > 0) {
    const char = text[from - 1] as string;
    if (char === '\n' && (text[from - 2] === '\n' || /^\s*(?:[-*+]\s|\d+[.)]\s|#|\[\^)/.test(text.slice(from, from + 12)))) break;
    if (/[.!?]/.test(char) && /\s/.test(text[from] ?? ' ') && !ABBREVIATIONS.test(text.slice(Math.max(0, from - 8), from - 1))) break;
    from -= 1;
  }
  let to = end;
  while (to < text.length) {
    const char = text[to] as string;
    if (char === '\n' && (text[to + 1] === '\n' || /^\s*(?:[-*+]\s|\d+[.)]\s|#|\[\^)/.test(text.slice(to + 1, to + 13)))) break;
    if (/[.!?]/.test(char) && /\s/.test(text[to + 1] ?? ' ') && !ABBREVIATIONS.test(text.slice(Math.max(0, to - 7), to))) {
      to += 1;
      break;
    }
    to += 1;
  }
  return { start: from, end: to };
}

/** The attribution window of an identifier: its sentence, cut at neighbouring identifiers, identifiers and URLs blanked. */
function attributionWindow(prose: string, target: { start: number; end: number }, others: readonly { start: number; end: number }[]) {
  const sentence = sentenceAround(prose, target.start, target.end);
  let from = sentence.start;
  let to = sentence.end;
  for (const other of others) {
    if (other === target) continue;
    if (other.end <= target.start && other.end > from) from = other.end;
    if (other.start >= target.end && other.start < to) to = other.start;
  }
  let window = prose.slice(from, to);
  for (const other of others) {
    const a = Math.max(other.start, from) - from;
    const b = Math.min(other.end, to) - from;
    if (b > a) window = `${window.slice(0, a)}${' '.repeat(b - a)}${window.slice(b)}`;
  }
  return { window, at: target.start - from };
}

type Base = Pick<Finding, 'file' | 'line' | 'column' | 'kind' | 'text'>;

function located(file: string, document: ScannedDocument, kind: string, match: { start: number; end: number }, text: string): Base {
  const { line, column } = positionOf(document.lineStarts, match.start);
  return { file, line, column, kind, text };
}

function stamp<T>(lookup: Lookup<T>): { source: string; checkedAt: string; cached: boolean } {
  return { source: lookup.source, checkedAt: lookup.checkedAt, cached: lookup.cached };
}

/** Options of {@link createOnlineChecker}. */
export interface OnlineCheckerOptions {
  readonly resolvers: Resolvers;
  /** Year and month now, for arXiv ids from the future. */
  readonly now: YearMonth;
  /** Extra placeholder DOIs from configuration. */
  readonly placeholderDois?: readonly string[];
}

/** The `--online` checker. */
export function createOnlineChecker(options: OnlineCheckerOptions): DocumentChecker {
  return {
    name: 'online',
    async check({ file, document }) {
      const targets = findOnlineTargets(document, options.now);
      const all = [...targets.dois, ...targets.arxiv];
      const findings = await Promise.all([
        ...targets.dois.map((doi) => checkDoi(file, document, doi, targets.prose, all, options)),
        ...targets.arxiv.map((id) => checkArxiv(file, document, id, targets.prose, all, options)),
        ...targets.urls.map((url) => checkUrl(file, document, url, options)),
      ]);
      return { findings };
    },
  };
}

async function checkDoi(
  file: string,
  document: ScannedDocument,
  match: IdentifierMatch,
  prose: string,
  all: readonly IdentifierMatch[],
  options: OnlineCheckerOptions,
): Promise<Finding> {
  const base = { ...located(file, document, 'doi', match, match.raw), identifier: match.key };
  if (match.problem !== null) {
    return {
      ...base,
      status: 'malformed',
      severity: 'error',
      rule: 'doi/malformed',
      message: `\`${match.raw}\`: ${match.problem}`,
      fix: onlineMessages.fabricatedFix(),
    };
  }
  if (isPlaceholderDoi(match.key, options.placeholderDois)) {
    return {
      ...base,
      status: 'placeholder',
      severity: 'error',
      rule: 'doi/placeholder',
      message: `\`${match.raw}\` is a placeholder, not a DOI`,
      fix: onlineMessages.fabricatedFix(),
    };
  }
  const existence = await options.resolvers.doi(match.key);
  if (existence.outcome === 'not-found') {
    return {
      ...base,
      ...stamp(existence),
      status: 'fabricated',
      severity: 'error',
      rule: 'doi/fabricated',
      message: onlineMessages.fabricatedDoi(match.raw, existence.message),
      fix: onlineMessages.fabricatedFix(),
    };
  }
  if (existence.outcome === 'unknown') {
    return {
      ...base,
      ...stamp(existence),
      status: 'unverified',
      severity: 'warning',
      rule: 'doi/unverified',
      message: onlineMessages.unverified(`\`${match.raw}\``, existence.message),
      fix: onlineMessages.unverifiedFix(),
    };
  }
  const record = existence.data;
  const retraction = await options.resolvers.retraction(match.key);
  if (retraction.outcome === 'found' && retraction.data.retracted) {
    const notices = retraction.data.notices.filter((notice) => isRetracting(notice.type));
    const listed =
      notices.length === 0
        ? ''
        : `: ${notices.map((notice) => `${notice.type.replace(/_/g, ' ')}${notice.doi === null ? '' : ` \`${notice.doi}\``}`).join(', ')}`;
    return {
      ...base,
      ...stamp(retraction),
      status: 'retracted',
      severity: 'error',
      rule: 'doi/retracted',
      message: onlineMessages.retracted(match.raw, listed, retraction.source),
      fix: onlineMessages.retractedFix(),
      notices,
    };
  }
  const attribution = record.metadata === null ? null : judgeAttribution(record.metadata, prose, match, all);
  if (attribution !== null) return { ...base, ...stamp(existence), ...attribution };
  let note = '';
  if (retraction.outcome === 'unknown') note += onlineMessages.retractionUnknown(retraction.message);
  const notices = retraction.outcome === 'found' ? retraction.data.notices : [];
  const corrections = notices.filter((notice) => notice.type === 'correction' || notice.type === 'erratum').map((notice) => notice.type);
  if (corrections.length > 0) note += onlineMessages.corrected([...new Set(corrections)].join(' and '));
  const what = `\`${match.raw}\``;
  const message = `${record.metadata === null ? onlineMessages.verifiedNoMetadata(what) : onlineMessages.verified(what, existence.source, record.metadata.title)}${note}`;
  const concern = notices.find((notice) => notice.type === 'expression_of_concern');
  if (concern !== undefined) {
    return {
      ...base,
      ...stamp(existence),
      status: 'verified',
      severity: 'warning',
      rule: 'doi/expression-of-concern',
      message: onlineMessages.concern(match.raw, concern.doi === null ? '' : ` (\`${concern.doi}\`)`),
      fix: onlineMessages.concernFix(),
    };
  }
  if (record.updateTo.length > 0) {
    const target = record.updateTo.map((update) => (update.doi === null ? update.type : `\`${update.doi}\` (${update.type})`)).join(', ');
    return {
      ...base,
      ...stamp(existence),
      status: 'verified',
      severity: 'info',
      rule: 'doi/is-notice',
      message: onlineMessages.isNotice(match.raw, target),
      fix: null,
    };
  }
  return {
    ...base,
    ...stamp(existence),
    status: 'verified',
    severity: 'ok',
    rule: 'doi/verified',
    message,
    fix: null,
    title: record.metadata?.title ?? null,
  };
}

async function checkArxiv(
  file: string,
  document: ScannedDocument,
  match: IdentifierMatch,
  prose: string,
  all: readonly IdentifierMatch[],
  options: OnlineCheckerOptions,
): Promise<Finding> {
  const base = { ...located(file, document, 'arxiv', match, match.raw), identifier: match.key };
  if (match.problem !== null) {
    const future = match.problem.includes('future');
    return {
      ...base,
      status: 'malformed',
      severity: 'error',
      rule: future ? 'arxiv/future' : 'arxiv/malformed',
      message: `\`${match.raw}\`: ${match.problem}`,
      fix: onlineMessages.fabricatedFix(),
    };
  }
  const lookup = await options.resolvers.arxiv(match.key);
  if (lookup.outcome === 'not-found') {
    return {
      ...base,
      ...stamp(lookup),
      status: 'fabricated',
      severity: 'error',
      rule: 'arxiv/fabricated',
      message: onlineMessages.fabricatedArxiv(match.raw, lookup.message),
      fix: onlineMessages.fabricatedFix(),
    };
  }
  if (lookup.outcome === 'unknown') {
    return {
      ...base,
      ...stamp(lookup),
      status: 'unverified',
      severity: 'warning',
      rule: 'arxiv/unverified',
      message: onlineMessages.unverified(`arXiv \`${match.raw}\``, lookup.message),
      fix: onlineMessages.unverifiedFix(),
    };
  }
  const attribution = judgeAttribution(lookup.data, prose, match, all);
  if (attribution !== null) return { ...base, ...stamp(lookup), ...attribution };
  return {
    ...base,
    ...stamp(lookup),
    status: 'verified',
    severity: 'ok',
    rule: 'arxiv/verified',
    message: onlineMessages.verified(`arXiv \`${match.raw}\``, 'arxiv', lookup.data.title),
    fix: null,
    title: lookup.data.title,
  };
}

type Judgement = Pick<Finding, 'status' | 'severity' | 'rule' | 'message' | 'fix'> & Record<string, unknown>;

function judgeAttribution(work: WorkMetadata, prose: string, match: IdentifierMatch, all: readonly IdentifierMatch[]): Judgement | null {
  const { window, at } = attributionWindow(prose, match, all);
  const cited = readAttribution(window, at);
  const verdict = compareAttribution(cited, work);
  const names = cited.surnames.length === 1 ? `${cited.surnames[0]} et al.` : cited.surnames.join(' and ');
  switch (verdict.kind) {
    case 'ok':
      return null;
    case 'author-mismatch':
      return {
        status: 'misattributed',
        severity: 'error',
        rule: 'attribution/author-mismatch',
        message: onlineMessages.authorMismatch(names, verdict.firstAuthor, work.title),
        fix: onlineMessages.authorMismatchFix(verdict.firstAuthor),
        citedAuthors: cited.surnames,
        firstAuthor: verdict.firstAuthor,
      };
    case 'different-work':
      return {
        status: 'fabricated',
        severity: 'error',
        rule: 'attribution/different-work',
        message: onlineMessages.differentWork(verdict.similarity, work.title),
        fix: onlineMessages.fabricatedFix(),
      };
    case 'author-overlap':
      return {
        status: 'misattributed',
        severity: 'warning',
        rule: 'attribution/author-overlap',
        message: onlineMessages.authorOverlap(names, verdict.firstAuthor, verdict.overlap),
        fix: onlineMessages.attributionFix(),
        firstAuthor: verdict.firstAuthor,
      };
    case 'title':
      return {
        status: 'misattributed',
        severity: 'warning',
        rule: 'attribution/title',
        message: onlineMessages.titleMismatch(verdict.similarity, work.title),
        fix: onlineMessages.attributionFix(),
      };
    case 'year':
      return {
        status: 'misattributed',
        severity: 'warning',
        rule: 'attribution/year',
        message: onlineMessages.yearMismatch(verdict.cited, verdict.actual),
        fix: onlineMessages.attributionFix(),
      };
  }
}

async function checkUrl(file: string, document: ScannedDocument, match: UrlMatch, options: OnlineCheckerOptions): Promise<Finding> {
  const base = located(file, document, 'url', match, match.url);
  const lookup = await options.resolvers.url(match.url);
  if (lookup.outcome === 'found') {
    return {
      ...base,
      ...stamp(lookup),
      status: 'alive',
      severity: 'ok',
      rule: 'url/alive',
      message: onlineMessages.urlAlive(lookup.data.status, lookup.data.finalUrl, match.url),
      fix: null,
    };
  }
  if (lookup.outcome === 'not-found') {
    return {
      ...base,
      ...stamp(lookup),
      status: 'dead',
      severity: 'error',
      rule: 'url/dead',
      message: onlineMessages.urlDead(lookup.message),
      fix: onlineMessages.urlDeadFix(),
    };
  }
  return {
    ...base,
    ...stamp(lookup),
    status: 'unconfirmed',
    severity: 'warning',
    rule: 'url/unconfirmed',
    message: onlineMessages.urlUnconfirmed(lookup.message),
    fix: onlineMessages.urlUnconfirmedFix(),
  };
}

/**
 * Runs the offline checkers and the online checker together: an online `doi` or `arxiv` finding
 * replaces the offline finding of the same identifier on the same line, so `--online` upgrades
 * offline statuses instead of doubling them.
 */
export function withOnline(offline: readonly DocumentChecker[], online: DocumentChecker): DocumentChecker {
  return {
    name: 'online',
    async check(context) {
      const [onlineResult, ...offlineResults] = await Promise.all([
        online.check(context),
        ...offline.map((checker) => checker.check(context)),
      ]);
      const replaced = (finding: Finding) =>
        (finding.kind === 'doi' || finding.kind === 'arxiv' || finding.kind === 'url') &&
        (onlineResult?.findings ?? []).some(
          (other) =>
            other.kind === finding.kind &&
            other.line === finding.line &&
            (other.column === finding.column || finding.text.toLowerCase().includes(String(other.identifier ?? other.text).toLowerCase())),
        );
      const findings: Finding[] = [...(onlineResult?.findings ?? [])];
      let skippedInCode = onlineResult?.skippedInCode ?? 0;
      for (const result of offlineResults) {
        appendAll(
          findings,
          result.findings.filter((finding) => !replaced(finding)),
        );
        skippedInCode += result.skippedInCode ?? 0;
      }
      return { findings, skippedInCode };
    },
  };
}
