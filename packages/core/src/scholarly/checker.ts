import type { ArtifactCache } from '../artifacts.ts';
import type { DocumentChecker } from '../check.ts';
import type { AuthorEntry, CorpusIndex } from '../corpus/corpus-index.ts';
import { findGradeMarker, GRADE_LABELS, type GradeLevel } from '../corpus/grade.ts';
import { findRefIds } from '../corpus/ref-ids.ts';
import { type CorpusSource, normaliseSurname } from '../corpus/source.ts';
import { positionOf } from '../markdown/scan.ts';
import type { Region } from '../markdown/types.ts';
import { fromDocumentFolder, isPlaceholderPath, normaliseArtifactPath, normaliseFromDocument } from '../paths.ts';
import type { Finding, Severity } from '../report.ts';
import type { RuleOfKind, StatusOf } from '../rules.ts';
import { findAuthorYears } from './author-year.ts';
import { type ClaimTier, claimTier, findOpener, OPENER_FOR_LEVEL } from './hedging.ts';
import { findArxivIds, findDois, isPlaceholderDoi, type YearMonth } from './identifiers.ts';
import { findMentions, type MentionResolution, type MentionResolver } from './mentions.ts';
import { scholarlyMessages as say } from './messages.ts';
import { normaliseQuoteText, quoteOccursIn } from './normalise-quote.ts';
import { EXAMPLES_IN_TEMPLATES, isHeuristicRule, isTemplate, type Profile, researchReason } from './profile.ts';
import { buildProseView, type LinkSpan, type ProseView, type Sentence, sentenceAt, splitSentences, wordsStart } from './prose.ts';
import { SCHOLARLY_KINDS, SCHOLARLY_RULES, type ScholarlyKind, type ScholarlyRuleId } from './rules.ts';

export { SCHOLARLY_KINDS, type ScholarlyKind } from './rules.ts';

/** Options of {@link createScholarlyChecker}. */
export interface ScholarlyOptions {
  /** The corpus index, built once per run. */
  readonly corpus: CorpusIndex;
  /** The current year and month (arXiv future ids, implausible years); the core reads no clock. */
  readonly now: YearMonth;
  /** Resolves `@` mentions; by default through the checker's confined artifact reader, `$AIWG_ROOT` unresolvable. */
  readonly resolveMention?: MentionResolver;
  /** Extra placeholder DOIs from configuration. @default [] */
  readonly doiPlaceholders?: readonly string[];
  /** Keep corpus findings at full severity when no corpus root exists. @default false */
  readonly requireCorpus?: boolean;
  /** Only these kinds are reported. @default every kind */
  readonly kinds?: readonly ScholarlyKind[];
  /** Which findings are reported where (issue 14). @default 'recommended' */
  readonly profile?: Profile;
  /** Root-relative folders holding research writing, besides the corpus roots. @default ['.aiwg/research'] */
  readonly researchPaths?: readonly string[];
}

/** The scholarly checker, with what its profile held back over the run. */
export interface ScholarlyChecker extends DocumentChecker {
  /**
   * Heuristic findings left out because their document is not research writing, by document (a
   * run that leaves some documents out of its report counts only the others).
   */
  readonly held: ReadonlyMap<string, number>;
  /** Counts what the same checker held back in another thread (a helper of the run) as its own. */
  adoptHeld(held: Iterable<readonly [string, number]>): void;
}

const STATISTIC =
  /(?<![\w.\-–~]|\d,)\d+(?:\.\d+)?\s?%(?!\s?[-–]\s?\d)|(?<![\w.\-–~]|\d,)(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s?(?:x|×)\s?(?:faster|slower|more|better|fewer|less|cheaper)\b|\b\d+(?:\.\d+)?\s+times\s+(?:faster|slower|more|better|fewer|less)\b|\b(?:studies|research)\s+(?:show|shows|showed|shown|suggests?|indicates?|finds|found)\b|\baccording to (?:(?:a|the|recent|several|many|one|some)\s+)?(?:stud(?:y|ies)|research|surveys?|reports?|data|experts?|analys[ie]s|benchmarks?)\b/i;
/** What an arXiv id looks like at all; `arXiv: 89 papers` is prose, `arXiv:2613.00001` a malformed id. */
const ARXIV_SHAPED = /^\d{4}\.\d+(?:v\d+)?$|^[a-z-]+(?:\.[A-Z]{2})?\/\d{5,}(?:v\d+)?$/i;
/** Targets, thresholds and requirements are not empirical claims that need a source. */
const REQUIREMENT =
  /\b(?:targets?|thresholds?|SHALL|MUST|must|should|minimum|maximum|at least|at most|no more than|goals?|budgets?|defaults?|limits?|coverage|weights?|weighted|uptime|availability|SLA|SLAs|SLO|SLOs|SLI|p\d{2}|percentile|discount|commission|royalt(?:y|ies)|tax|fees?|interest rate|APR|APY|equity|vesting|ownership|stake|margin|split|allocation|quota|zoom)\b|[<>≤≥~±]=?\s*\d|=\s*\d|\b\d+\s*\/\s*\d+\b/i;
/** `REF-001 ... REF-999`, `REF-001 to REF-010`: the bounds of a range of ids are not citations. */
const RANGE_END = /REF-\d+\s*,?\s*(?:\.\.\.|…|–|—|-|to|through|thru)\s*$/;
const RANGE_START = /^\s*,?\s*(?:\.\.\.|…|–|—|-|to|through|thru)\s*REF-\d+/;
/** A Pandoc or Manubot citation group: `[@key]`, `[see @doi:10.1/x, p. 3; @arxiv:1512.03385]`. */
const PANDOC_GROUP = /\[[^[\]\n]*?(?<![\w.])-?@[\w][^[\]\n]*\]/g;
const PANDOC_KEY = /(?<![\w.])-?@([\w][\w:.#$%&+?<>~/-]*[\w/])/g;
/** `{width="100%"}`, `{#id .class key=value}`: attribute lists hold no statistics. */
const ATTRIBUTES = /\{[^{}\n]*=[^{}\n]*\}/g;
/**
 * Percentages alone in parentheses: a weight (`security (30%)`), a legal restatement (`fifty
 * percent (50%)`), the values a test or a sweep takes (`boundary values (0%, 50%, 100%)`) or a
 * ratio restated (`(74% : 26%)`), not a measured result.
 */
const PERCENTS_IN_PARENS = /^\(\s*\d+(?:\.\d+)?\s?%(?:\s*(?:[,;:/]|,?\s+(?:and|or)\b)\s*\d+(?:\.\d+)?\s?%)*\s*\)$/i;
/** Box-drawing and block characters: a line holding them is a chart or a progress bar (`Week 1: 82% ████`). */
const CHART_CHARACTERS = /[\u2500-\u259f]/;
/** A condition's clause (`when similarity exceeds 80%`, `if 90% done`): a rule, not a result. */
const CONDITION = /\b(?:if|when|whenever|once|until|unless)\b[^,;:.!?()]*$/i;
/** One side of a split written as percentages (`50%/50%`, `80% / 20%`). */
const SPLIT_BEFORE = /\d(?:\.\d+)?\s?%\s*\/\s*$/;
const SPLIT_AFTER = /^\s*\/\s*\d+(?:\.\d+)?\s?%/;
const IDIOM_PERCENT = /^(?:100|0)\s?%$/;
/** The state of a piece of work, not a finding: `Progress: 60%`, `Completion: 75%`, `60% complete`. */
const PROGRESS_BEFORE = /\b(?:progress|completion)\s*[:=]\s*$/i;
const PROGRESS_AFTER = /^\s*(?:complete|completed|done|finished|implemented)\b/i;
/** A step of a plan or a setting's change (`5% → 25% → 100%`, `p95: 15% -> 10%`), not a measured result. */
const ARROW_BEFORE = /(?:→|->|=>|⇒)$/;
const ARROW_AFTER = /^[ \t]*(?:→|->|=>|⇒)/;
/** How far around a number its quotation marks and arrows are looked for: bounded, so a long sentence stays linear. */
const QUOTE_WINDOW = 240;
const GRADE_WORD = /grade/i;
/** A page locator: `p. 7`, `pp. 3-5`, `page 7`. */
const LOCATOR = /(?<![\w.])(?:pp?\.|pages?)\s?\d/i;
/**
 * What every finding of this checker needs somewhere in the text: an `@` that can open a mention
 * (not the one in `path@hash`), a REF or PROF id, a DOI prefix, an arXiv id, an author-year
 * anchor (a year after `(` or `,`, or "et al"; quotes, pages and GRADE need one of these
 * citations too), or a numeric statistic (`%`, `3x faster`, `2 times`).
 */
const SCHOLARLY_TRIGGER = /(?:^|[\s([{"'])@|REF-|PROF-|10\.\d|arxiv|[(,]\s*\d{4}(?!\d)|\bet\s+al\b|\d\s?%|\d\s?[x×]\s?[a-z]|\d\s+times\b/i;
const STATISTIC_PHRASE = /\b(?:studies|research)\s+(?:show|shows|showed|shown|suggests?|indicates?|finds|found)\b|\baccording to\b/i;
const PAGES = /(?<![\w.])(pp?)\.\s?(\d+)(?:\s?[-–]\s?(\d+))?/g;
/** A straight-quoted passage (it may run over the lines of one paragraph). Linear: it starts only at `"` and cannot cross one. */
const STRAIGHT_QUOTE = /"([^"\n]+(?:\n(?![ \t]*\n)[^"\n]*)*)"/y;
/** A bracket span's content naming an RLM hash or line range. */
const RLM_CONTENT = /@[0-9a-f]{16}|,\s*L\d/;

/** Findings whose outcome depends on the corpus: softened to info when no corpus root exists. */
const CORPUS_DEPENDENT = new Set<string>([
  'ref/not-in-corpus',
  'doi/unverified',
  'arxiv/unverified',
  'author-year/author-not-in-corpus',
  'author-year/year-mismatch',
  'quote/not-found',
  'grade/overclaim',
]);

interface Cited {
  readonly sources: CorpusSource[];
  /** Each citation of a corpus source in the sentence, with its offset. */
  readonly at: { readonly offset: number; readonly source: CorpusSource }[];
  readonly first: { offset: number; text: string };
}

/**
 * The research-corpus and scholarly checks (SPEC §3-§5) as one checker producing several kinds.
 * Everything is read from prose only; the corpus is indexed once per run by the caller.
 */
export function createScholarlyChecker(options: ScholarlyOptions): ScholarlyChecker {
  const kinds = new Set<ScholarlyKind>(options.kinds ?? SCHOLARLY_KINDS);
  const { corpus, now } = options;
  const soften = !corpus.exists && options.requireCorpus !== true;
  const placeholders = options.doiPlaceholders ?? [];
  const corpusRoots = corpus.roots.map((root) => root.path);
  const absentRoots = corpus.roots.filter((root) => !root.exists).map((root) => root.path);
  const latestYear = now.year + 1;
  const profile = options.profile ?? 'recommended';
  const researchPaths = [...(options.researchPaths ?? ['.aiwg/research']), ...corpusRoots];
  const held = new Map<string, number>();

  const inner: DocumentChecker = {
    name: 'scholarly',
    async check({ file, document, artifacts }) {
      // Nothing this checker reads can stand in a document without one of these triggers, so a
      // document of code citations alone (whose hashes are full of digits) skips the prose pass.
      if (!SCHOLARLY_TRIGGER.test(document.text) && !STATISTIC_PHRASE.test(document.text)) return { findings: [] };
      const view = buildProseView(document);
      const { lineStarts } = document;
      const findings: Finding[] = [];
      // Typed by the registry: a status or rule that the kind cannot have fails to compile.
      const make = <K extends ScholarlyKind>(
        offset: number,
        kind: K,
        text: string,
        status: StatusOf<K>,
        rule: RuleOfKind<K>['id'] & ScholarlyRuleId,
        message: string,
        fix: string | null,
        extra: Record<string, unknown> = {},
        severity: Severity = SCHOLARLY_RULES[rule].severity,
      ): Finding => {
        const position = positionOf(lineStarts, offset);
        const softened = soften && CORPUS_DEPENDENT.has(rule) && (severity === 'error' || severity === 'warning') ? 'info' : severity;
        const finding: Finding = {
          file,
          line: position.line,
          column: position.column,
          kind,
          text,
          status,
          severity: softened,
          rule,
          message,
          fix,
          ...extra,
        };
        findings.push(finding);
        return finding;
      };
      const sentences = needsSentences(kinds) ? splitSentences(view.citable) : [];
      const cited = new Map<number, Cited>();
      const citedParagraphs = new Set<number>();
      const markCitation = (offset: number, text: string, source: CorpusSource | null): void => {
        const index = sentenceAt(sentences, offset);
        if (index === -1) return;
        citedParagraphs.add((sentences[index] as Sentence).paragraph);
        let entry = cited.get(index);
        if (entry === undefined) {
          entry = { sources: [], at: [], first: { offset, text } };
          cited.set(index, entry);
        }
        if (source !== null) {
          entry.at.push({ offset, source });
          if (!entry.sources.includes(source)) entry.sources.push(source);
        }
      };

      /**
       * The REF ids cited on the line of `offset` name the source of an author-year citation there
       * (`- REF-001: Bandara et al. (2025)`): `null` when the line cites none, else the sources they
       * resolve to (empty when none is in the corpus: those ids are reported themselves).
       */
      const sourcesNamedOnLine = (offset: number): readonly CorpusSource[] | null => {
        const lineStart = view.citable.lastIndexOf('\n', offset) + 1;
        const lineEnd = view.citable.indexOf('\n', offset);
        const line = view.citable.slice(lineStart, lineEnd === -1 ? view.citable.length : lineEnd);
        const ids = findRefIds(line).filter((ref) => ref.form === 'valid');
        if (ids.length === 0) return null;
        return ids.flatMap((ref) => corpus.findRef(ref.id) ?? []);
      };

      // @-mentions (SPEC §3.3).
      const mentions = findMentions(view.citable);
      for (const mention of mentions) {
        markCitation(mention.start, mention.text, null);
        if (!kinds.has('mention')) continue;
        await checkMention(mention.text, mention.path, mention.aiwgRoot, mention.start);
      }

      // REF ids (SPEC §3.1-§3.2).
      const duplicatesReported = new Set<string>();
      const refs = findRefIds(view.citable);
      // A number aiwg never issues that a heading of this document opens with (`### REF-01 —
      // Variable References Must Resolve`) is the document's own rule or requirement number.
      const ownNumbers = refs.some((ref) => ref.form === 'malformed') ? idsOpeningHeadings(document.headings) : null;
      for (const ref of refs) {
        if (ref.form === 'malformed' && ownNumbers?.has(ref.id) === true) continue;
        const source = ref.form === 'valid' ? corpus.findRef(ref.id) : null;
        markCitation(ref.start, ref.id, source);
        if (!kinds.has('ref')) continue;
        if (ref.form === 'malformed')
          make(ref.start, 'ref', ref.id, 'malformed', 'ref/malformed', say.refMalformed(ref.id), say.refMalformedFix(ref.id));
        else if (source !== null) {
          make(ref.start, 'ref', ref.id, 'found', 'ref/found', say.refFound(ref.id, source.path), null, { source: source.path });
          const conflicting = duplicatesOf(corpus.sourcesFor(ref.id));
          if (conflicting.length > 1 && !duplicatesReported.has(ref.id)) {
            duplicatesReported.add(ref.id);
            make(ref.start, 'ref', ref.id, 'duplicate', 'ref/duplicate', say.refDuplicate(ref.id, conflicting), null);
          }
        } else if (
          !RANGE_END.test(view.citable.slice(Math.max(0, ref.start - 40), ref.start)) &&
          !RANGE_START.test(view.citable.slice(ref.end, ref.end + 40))
        ) {
          make(
            ref.start,
            'ref',
            ref.id,
            'not-in-corpus',
            'ref/not-in-corpus',
            say.refMissing(ref.id, corpusRoots, absentRoots),
            say.refMissingFix(ref.id),
          );
        }
      }

      // Pandoc and Manubot citation keys are sources; `doi:` and `arxiv:` keys are checked below as ids.
      if (view.citable.includes('@')) {
        PANDOC_GROUP.lastIndex = 0;
        for (let group = PANDOC_GROUP.exec(view.citable); group !== null; group = PANDOC_GROUP.exec(view.citable)) {
          PANDOC_KEY.lastIndex = 0;
          for (let key = PANDOC_KEY.exec(group[0]); key !== null; key = PANDOC_KEY.exec(group[0])) {
            markCitation(group.index + key.index, key[0], null);
          }
        }
      }

      // DOIs and arXiv ids, also in link destinations (SPEC §5.1).
      const links = view.links;
      for (const doi of findDois(view.withDestinations)) {
        const link = linkAt(links, doi.start);
        if (
          link !== null &&
          doi.start >= link.destinationStart &&
          view.text.slice(link.start, link.destinationStart).toLowerCase().includes(doi.key)
        )
          continue;
        const where = corpus.findDoi(doi.key);
        markCitation(doi.start, doi.raw, corpus.sourceAt(where));
        if (!kinds.has('doi')) continue;
        const anchor = { fixAt: positionOf(lineStarts, link?.end ?? urlEnd(view, doi.start) ?? doi.end) };
        if (isPlaceholderDoi(doi.raw, placeholders))
          make(doi.start, 'doi', doi.raw, 'placeholder', 'doi/placeholder', say.doiPlaceholder(doi.raw), say.doiPlaceholderFix());
        else if (doi.problem !== null)
          make(doi.start, 'doi', doi.raw, 'malformed', 'doi/malformed', say.doiMalformed(doi.raw, doi.problem), say.doiMalformedFix());
        else if (where !== null)
          make(doi.start, 'doi', doi.raw, 'verified', 'doi/verified', say.doiVerified(doi.raw, where), null, { source: where });
        else make(doi.start, 'doi', doi.raw, 'unverified', 'doi/unverified', say.doiUnverified(doi.raw), say.doiUnverifiedFix(), anchor);
      }
      for (const id of findArxivIds(view.withDestinations, now)) {
        if (!ARXIV_SHAPED.test(id.raw)) continue;
        const link = linkAt(links, id.start);
        if (
          link !== null &&
          id.start >= link.destinationStart &&
          view.text.slice(link.start, link.destinationStart).includes(id.raw.replace(/v\d+$/, ''))
        )
          continue;
        const where = id.problem === null ? corpus.findArxiv(id.raw) : null;
        markCitation(id.start, id.raw, corpus.sourceAt(where));
        if (!kinds.has('arxiv')) continue;
        const anchor = { fixAt: positionOf(lineStarts, link?.end ?? urlEnd(view, id.start) ?? id.end) };
        if (id.problem !== null) {
          const future = id.problem.includes('in the future');
          make(
            id.start,
            'arxiv',
            id.raw,
            'malformed',
            future ? 'arxiv/future' : 'arxiv/malformed',
            say.arxivMalformed(id.raw, id.problem),
            say.arxivMalformedFix(),
          );
        } else if (where !== null)
          make(id.start, 'arxiv', id.raw, 'verified', 'arxiv/verified', say.arxivVerified(id.raw, where), null, { source: where });
        else make(id.start, 'arxiv', id.raw, 'unverified', 'arxiv/unverified', say.arxivUnverified(id.raw), say.doiUnverifiedFix(), anchor);
      }

      // Author-year citations (SPEC §5.2). Inside a corpus source they are mostly the paper's own
      // references, outside the corpus by nature: reported as info, not as warnings.
      const ownReference: Severity | undefined = corpus.sourceAt(file) === null ? undefined : 'info';
      for (const citation of findAuthorYears(view.citable)) {
        let source: CorpusSource | null = null;
        let verdict: (() => void) | null = null;
        // A year before 1900 is implausible unless the corpus records the work: Darwin (1859).
        const recorded = () => corpus.findSurname(citation.surnames[0] as string).some((entry) => entry.year === citation.year);
        if (citation.year > latestYear || (citation.year < 1900 && !recorded())) {
          verdict = () =>
            make(
              citation.start,
              'author-year',
              citation.text,
              'implausible-year',
              'author-year/implausible-year',
              say.implausibleYear(citation.year, latestYear),
              say.implausibleYearFix(),
            );
        } else if (corpus.hasAuthors) {
          const named = sourcesNamedOnLine(citation.start);
          const first = citation.surnames[0] as string;
          const found = (path: string) => () =>
            make(citation.start, 'author-year', citation.text, 'found', 'author-year/found', say.authorFound(citation.text, path), null, {
              source: path,
            });
          const yearMismatch = (years: readonly number[]) => () =>
            make(
              citation.start,
              'author-year',
              citation.text,
              'year-mismatch',
              'author-year/year-mismatch',
              say.yearMismatch(first, citation.year, years),
              say.yearMismatchFix(years),
              {},
              ownReference,
            );
          if (named !== null) {
            // A REF id on the line names the source: the citation is held to that source alone. A
            // surname it does not list is a collision with another work, not a doubt to raise.
            const surname = normaliseSurname(first);
            const entries = named.filter((entry) => entry.authors.some((author) => normaliseSurname(author) === surname));
            const match = entries.find((entry) => entry.year === citation.year);
            if (match !== undefined) {
              source = match;
              verdict = found(match.path);
            } else if (entries.length > 0) {
              verdict = yearMismatch([...new Set(entries.flatMap((entry) => (entry.year === null ? [] : [entry.year])))].sort());
            }
          } else {
            const lists = citation.surnames.map((name) => corpus.findSurname(name));
            const missing = citation.surnames.filter((_, index) => (lists[index] as readonly unknown[]).length === 0);
            if (missing.length > 0) {
              verdict = () =>
                make(
                  citation.start,
                  'author-year',
                  citation.text,
                  'author-not-in-corpus',
                  'author-year/author-not-in-corpus',
                  say.authorNotInCorpus(missing),
                  say.authorNotInCorpusFix(),
                  {},
                  ownReference,
                );
            } else {
              const others = lists.slice(1).map((list) => new Set(list));
              const candidates = (lists[0] as readonly AuthorEntry[]).filter((entry) => others.every((set) => set.has(entry)));
              const match = candidates.find((entry) => entry.year === citation.year);
              if (match !== undefined) {
                source = match.source;
                verdict = found(match.path);
              } else {
                verdict = yearMismatch(
                  [
                    ...new Set(
                      (candidates.length > 0 ? candidates : corpus.findSurname(first))
                        .map((entry) => entry.year)
                        .filter((year): year is number => year !== null),
                    ),
                  ].sort(),
                );
              }
            }
          }
        }
        markCitation(citation.start, citation.text, source);
        if (kinds.has('author-year') && verdict !== null) verdict();
      }

      if (sentences.length > 0) {
        for (const link of links) markCitation(link.start, '', null);
        for (const match of footnotesAndRlm(view.withDestinations)) markCitation(match.index, match.text, null);
        const self = corpus.sourceAt(file);
        if (kinds.has('quote')) checkQuotes(self);
        if (kinds.has('pages')) checkPages(self);
        if (kinds.has('statistic') && self === null) checkStatistics();
        if (kinds.has('grade') && self === null) checkGrades();
      }
      return { findings };

      async function checkMention(text: string, rawPath: string, aiwgRoot: boolean, offset: number): Promise<void> {
        // `@./notes.md`, `@../api.md`: relative to the document that holds it, and only so.
        const explicit = !aiwgRoot && /^\.\.?\//.test(rawPath);
        const normalised = explicit ? normaliseFromDocument(file, rawPath) : normaliseArtifactPath(rawPath);
        if (!normalised.ok) {
          make(offset, 'mention', text, 'missing', 'mention/missing', say.mentionOutside(rawPath), say.mentionMissingFix(), {}, 'warning');
          return;
        }
        const path = normalised.path;
        const host = options.resolveMention ?? defaultResolver(artifacts);
        // What stands at each path looked at decides the finding: said to the artifacts, so a watch
        // checks the document again when a file or folder there comes or goes.
        const resolve: MentionResolver = (target) => {
          if (target.base === 'root') artifacts.dependsOn(target.path);
          return host(target);
        };
        const resolution: MentionResolution = await resolve({ base: aiwgRoot ? 'aiwg-root' : 'root', path });
        // An import path into a package (`@openzeppelin/contracts/token/ERC20/ERC20.sol`): no file of this repository.
        if (resolution === 'package') return;
        // Claude Code reads an `@` import relative to the file that holds it: a nested CLAUDE.md's
        // `@docs/api.md` is its own folder's. A mention missing from the root is looked for there too.
        const besideDocument = resolution === 'missing' && !aiwgRoot && !explicit ? documentRelative(file, rawPath) : null;
        const beside = besideDocument === null ? null : await resolve({ base: 'root', path: besideDocument });
        if (resolution === 'file' || resolution === 'directory') {
          make(offset, 'mention', text, 'found', 'mention/found', say.mentionFound(path), null, { path });
        } else if (besideDocument !== null && (beside === 'file' || beside === 'directory')) {
          make(offset, 'mention', text, 'found', 'mention/found', say.mentionFoundBeside(besideDocument), null, { path: besideDocument });
        } else if (resolution === 'ignored') {
          make(offset, 'mention', text, 'unresolvable', 'mention/unresolvable', say.mentionIgnored(path), say.mentionIgnoredFix(), {
            path,
          });
        } else if (resolution === 'unavailable') {
          if (aiwgRoot)
            make(offset, 'mention', text, 'unresolvable', 'mention/unresolvable', say.mentionUnsetRoot(), say.mentionUnsetRootFix(), {
              path,
            });
          else
            make(offset, 'mention', text, 'unresolvable', 'mention/unresolvable', say.mentionNoAiwgDir(path), say.mentionNoAiwgDirFix(), {
              path,
            });
        } else if (!isPlaceholderPath(path) && !(await projectToCome())) {
          const research = path.startsWith('.aiwg/research/') || corpusRoots.some((root) => path.startsWith(`${root}/`));
          const where = aiwgRoot ? ' under `$AIWG_ROOT`' : '';
          make(
            offset,
            'mention',
            text,
            'missing',
            'mention/missing',
            say.mentionMissing(path, where) + (research ? say.mentionMissingResearch() : ''),
            say.mentionMissingFix(),
            { path },
            research ? 'error' : 'warning',
          );
        }

        /**
         * In a template, a path into a folder this repository does not have, outside the top folder
         * the template itself lives in (`@src/auth/login.ts` in `kit/templates/use-case.md`, with
         * no `src/auth/`), names a file of the project the template is for. A missing file in a
         * folder the repository has, or under the template's own top folder, is a reference gone stale.
         */
        async function projectToCome(): Promise<boolean> {
          const slash = path.lastIndexOf('/');
          if (aiwgRoot || slash === -1 || !isTemplate(file)) return false;
          if (file.includes('/') && path.startsWith(file.slice(0, file.indexOf('/') + 1))) return false;
          return (await resolve({ base: 'root', path: path.slice(0, slash) })) === 'missing';
        }
      }

      function checkQuotes(self: CorpusSource | null): void {
        for (const match of quotations(view.citable)) {
          const inner = match.inner;
          if (inner.trim().split(/\s+/).length < 6) continue;
          const index = sentenceAt(sentences, match.index);
          const quoteEnd = match.index + match.text.length;
          // A citation inside the quotation marks is part of the quoted text, not its attribution.
          const attributed = (cited.get(index)?.at ?? []).filter((entry) => entry.offset < match.index || entry.offset >= quoteEnd);
          const sources = [...new Set(attributed.map((entry) => entry.source))].filter((source) => source !== self);
          if (sources.length === 0) continue;
          const quoteText = view.text.slice(match.index + 1, match.index + match.text.length - 1);
          const withText = sources.filter((source) => source.text !== null);
          const label = sources.map((source) => source.ids[0] ?? source.path).join(', ');
          if (withText.length === 0) {
            make(match.index, 'quote', match.text, 'uncheckable', 'quote/uncheckable', say.quoteUncheckable(label), null);
            continue;
          }
          const quote = trimSegments(stripMarkup(quoteText));
          const hit =
            withText.find((source) => quoteOccursIn(quote, corpus.normalisedText(source, normaliseSource) as string)) ??
            sources.find((source) => source.title !== null && titleKey(source.title) === titleKey(quote));
          if (hit !== undefined) {
            make(match.index, 'quote', match.text, 'found', 'quote/found', say.quoteFound(hit.path), null, { source: hit.path });
          } else {
            const first = withText[0] as CorpusSource;
            const closest = closestPassage(normaliseQuoteText(quote), corpus.normalisedText(first, normaliseSource) as string);
            make(
              match.index,
              'quote',
              match.text,
              'not-found',
              'quote/not-found',
              say.quoteNotFound(first.path, closest),
              say.quoteNotFoundFix(),
              { source: first.path, closest },
            );
          }
          const sentence = sentences[index] as Sentence;
          const around = view.citable.slice(sentence.start, Math.min(view.citable.length, Math.max(sentence.end, quoteEnd + 24)));
          if (!LOCATOR.test(around) && (hit === undefined || titleKey(quote) !== titleKey(hit.title ?? ''))) {
            make(match.index, 'quote', match.text, 'missing-page', 'quote/missing-page', say.quoteMissingPage(), say.quoteMissingPageFix());
          }
        }
      }

      function checkPages(self: CorpusSource | null): void {
        PAGES.lastIndex = 0;
        for (let match = PAGES.exec(view.citable); match !== null; match = PAGES.exec(view.citable)) {
          const first = Number(match[2]);
          const lastText = match[3];
          let last = first;
          if (lastText !== undefined) {
            const firstText = match[2] as string;
            last =
              lastText.length < firstText.length
                ? Number(firstText.slice(0, firstText.length - lastText.length) + lastText)
                : Number(lastText);
          }
          const index = sentenceAt(sentences, match.index);
          const sources = cited.get(index)?.sources ?? [];
          const counted = [...sources, ...(self === null ? [] : [self])].find((source) => source.pageCount !== null);
          let problem: string | null = null;
          if (first < 1) problem = 'pages count from 1';
          else if (last < first) problem = `the range ends (${last}) before it starts (${first})`;
          else if (counted !== undefined && last > (counted.pageCount as number)) {
            problem = `${counted.ids[0] ?? counted.path} has ${counted.pageCount} pages`;
          }
          if (problem !== null)
            make(
              match.index,
              'pages',
              match[0],
              'invalid-pages',
              'pages/invalid-pages',
              say.pagesInvalid(match[0], problem),
              say.pagesInvalidFix(),
            );
        }
      }

      /**
       * A setting's line: the model's code span opens the sentence and a `:` or `=` follows it
       * (`` - `shared_buffers`: 25% of RAM ``), so the rest is the setting's value.
       */
      function isSetting(sentence: Sentence): boolean {
        const words = wordsStart(view.citable, sentence);
        const { regions } = document;
        // The regions are sorted: the first at or after the sentence's start, then those before its words.
        let low = 0;
        let high = regions.length;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if ((regions[middle] as Region).start < sentence.start) low = middle + 1;
          else high = middle;
        }
        for (let at = low; at < regions.length && (regions[at] as Region).start <= words; at += 1) {
          const region = regions[at] as Region;
          if (region.kind === 'code-span') return /^\s*[:=]/.test(view.citable.slice(region.end, sentence.end));
        }
        return false;
      }

      function checkStatistics(): void {
        // The lines of open task-list items (`- [ ] handles load + 20%`, the model's `[ ]` markup):
        // criteria still to meet, not results.
        const openTaskLines = new Set<number>();
        for (const region of document.regions)
          if (region.kind === 'markup' && document.text.slice(region.start, region.end) === '[ ]')
            openTaskLines.add(positionOf(lineStarts, region.start).line);
        // What each line asked about is, worked out once: a long line holds many numbers.
        const kinds = new Map<number, { readonly chart: boolean; readonly openTask: boolean }>();
        const lineKind = (line: number) => {
          let kind = kinds.get(line);
          if (kind === undefined) {
            const start = lineStarts[line - 1] ?? 0;
            const end = lineStarts[line] ?? document.text.length;
            kind = { chart: CHART_CHARACTERS.test(document.text.slice(start, end)), openTask: openTaskLines.has(line) };
            kinds.set(line, kind);
          }
          return kind;
        };
        // A section whose heading cites a source (`#### REF-016: … (Wei et al., 2022)`) sources its statistics.
        let headingParagraph = -1;
        for (const sentence of sentences) {
          if (sentence.kind === 'heading') headingParagraph = sentence.paragraph;
          if (sentence.kind !== 'prose' || citedParagraphs.has(sentence.paragraph) || citedParagraphs.has(headingParagraph)) continue;
          const slice = view.citable.slice(sentence.start, sentence.end);
          if (REQUIREMENT.test(slice) || isSetting(sentence)) continue;
          const match = firstStatistic(
            slice.replace(ATTRIBUTES, (attributes) => ' '.repeat(attributes.length)),
            // A quotation can close after the sentence's full stop: `"… on these tasks."`.
            view.citable.slice(sentence.end, sentence.end + QUOTE_WINDOW),
            (index) => lineKind(positionOf(lineStarts, sentence.start + index).line),
          );
          if (match === null) continue;
          make(
            sentence.start + match.index,
            'statistic',
            match[0],
            'unsourced',
            'statistic/unsourced',
            say.statisticUnsourced(match[0]),
            say.statisticUnsourcedFix(),
          );
        }
      }

      function checkGrades(): void {
        for (const [index, entry] of cited) {
          const sentence = sentences[index] as Sentence;
          if (entry.sources.length === 0 || sentence.kind === 'heading') continue;
          const sentenceText = view.citable.slice(sentence.start, sentence.end);
          const written = GRADE_WORD.test(sentenceText) ? findGradeMarker(sentenceText) : null;
          let best: { level: GradeLevel; source: CorpusSource } | null = null;
          for (const source of entry.sources) {
            const id = source.ids[0] ?? source.path;
            if (source.grade !== null && written !== null && written.level !== source.grade) {
              make(
                sentence.start + written.start,
                'grade',
                sentenceText.slice(written.start, written.end),
                'mismatch',
                'grade/mismatch',
                say.gradeMismatch(id, GRADE_LABELS[written.level], GRADE_LABELS[source.grade]),
                say.gradeMismatchFix(GRADE_LABELS[source.grade]),
              );
            }
            const level = source.grade ?? (entry.sources.length === 1 ? (written?.level ?? null) : null);
            if (level !== null && (best === null || rank(level) > rank(best.level))) best = { level, source };
          }
          const { tier, trigger } = claimTier(sentenceText);
          if (tier === 'neutral') continue;
          const at = entry.first.offset;
          const citationText = entry.first.text;
          const tierName = tier === 'absolute' ? 'strong' : tier;
          if (tier === 'absolute')
            make(at, 'grade', citationText, 'absolute', 'grade/absolute', say.gradeAbsolute(trigger as string), say.gradeAbsoluteFix());
          if (best === null) {
            const id = (entry.sources[0] as CorpusSource).ids[0] ?? '';
            make(
              at,
              'grade',
              citationText,
              'unassessed',
              'grade/unassessed',
              say.gradeUnassessed(id, tierName),
              say.gradeUnassessedFix(id),
              { claim: tierName },
            );
            continue;
          }
          const id = best.source.ids[0] ?? best.source.path;
          const label = GRADE_LABELS[best.level];
          const severity = matrix(tier, best.level);
          if (severity === 'underclaim') {
            make(at, 'grade', citationText, 'underclaim', 'grade/underclaim', say.gradeUnderclaim(trigger as string, id), null, {
              claim: tierName,
              evidence: label,
              source: best.source.path,
            });
          } else if (severity === 'ok') {
            make(at, 'grade', citationText, 'ok', 'grade/ok', say.gradeOk(tierName, label), null, {
              claim: tierName,
              evidence: label,
              source: best.source.path,
            });
          } else {
            const replacement = OPENER_FOR_LEVEL[best.level];
            const opener = findOpener(view.text.slice(sentence.start, sentence.end));
            const extra: Record<string, unknown> = { claim: tierName, evidence: label, source: best.source.path };
            if (opener !== null)
              extra.opener = { ...positionOf(lineStarts, sentence.start + opener.start), text: opener.text, replacement };
            make(
              at,
              'grade',
              citationText,
              'overclaim',
              'grade/overclaim',
              say.gradeOverclaim(trigger as string, tierName, label, id),
              say.gradeOverclaimFix(opener === null ? null : replacement, allowedWording(best.level)),
              extra,
              severity,
            );
          }
        }
      }
    },
  };

  // The recommended profile keeps heuristic findings to research writing (issue 14).
  return {
    name: inner.name,
    held,
    adoptHeld(entries) {
      for (const [file, count] of entries) held.set(file, count);
    },
    async check(context) {
      held.delete(context.file);
      const result = await inner.check(context);
      // Nothing to hold back, so whether the document is research writing does not matter (its
      // heading regex reads the whole text).
      if (result.findings.length === 0) return result;
      if (profile !== 'recommended') return result;
      const research = researchReason(context.file, context.document.text, researchPaths) !== null;
      if (research && !isTemplate(context.file)) return result;
      // Outside research writing every heuristic finding is held back; in a research template, its example numbers.
      const heldBack = research ? (rule: string) => EXAMPLES_IN_TEMPLATES.has(rule) : isHeuristicRule;
      const kept = result.findings.filter((finding) => !heldBack(finding.rule) || finding.severity === 'ok');
      if (kept.length < result.findings.length) {
        held.set(context.file, result.findings.length - kept.length);
        // The held count is a run-level note: a stored result would lose it on the next run.
        return { ...result, findings: kept, uncacheable: true };
      }
      return { ...result, findings: kept };
    },
  };
}

/**
 * The first number in a sentence that reads as an empirical statistic: not an idiom (`100%
 * decided`), not a weight or restatement in parentheses (`(30%)`, `fifty percent (50%)`), not part
 * of a version (`1.2.3`), a split (`50%/50%`), a condition (`when it exceeds 80%`), the progress of
 * a piece of work (`Progress: 60%`, `60% complete`), a chart's line or an open task (`lineAt` says
 * what the document's line at an index of `slice` is).
 */
function firstStatistic(
  slice: string,
  following = '',
  lineAt: (index: number) => { readonly chart: boolean; readonly openTask: boolean } = () => ({ chart: false, openTask: false }),
): { index: number; 0: string } | null {
  const all = new RegExp(STATISTIC.source, 'gi');
  for (let match = all.exec(slice); match !== null; match = all.exec(slice)) {
    const text = match[0];
    if (IDIOM_PERCENT.test(text.trim())) continue;
    const line = lineAt(match.index);
    if (line.chart || line.openTask) continue;
    // Every test reads a window around the number, never the whole sentence: a sentence can be a
    // megabyte of numbers, each of them excluded, and a pass over it per number is quadratic.
    const end = match.index + text.length;
    const before = slice.slice(Math.max(0, match.index - QUOTE_WINDOW), match.index);
    const rest = slice.slice(end, end + QUOTE_WINDOW);
    const after = rest.length < QUOTE_WINDOW ? rest + following.slice(0, QUOTE_WINDOW - rest.length) : rest;
    if (inPercentParens(before, text, rest) || SPLIT_BEFORE.test(before) || SPLIT_AFTER.test(rest) || CONDITION.test(before)) continue;
    if (PROGRESS_BEFORE.test(before.replace(/[*_]+/g, '')) || PROGRESS_AFTER.test(rest)) continue;
    if (/\bv?\d+\.\d+\.\d+/.test(slice.slice(Math.max(0, match.index - 2), end + 4))) continue;
    if (ARROW_BEFORE.test(before.trimEnd()) || ARROW_AFTER.test(after) || insideQuotation(before, after)) continue;
    return { index: match.index, 0: text };
  }
  return null;
}

/** True when the number stands in parentheses that hold percentages and nothing else ({@link PERCENTS_IN_PARENS}). */
function inPercentParens(before: string, text: string, after: string): boolean {
  const open = before.lastIndexOf('(');
  const close = after.indexOf(')');
  if (open === -1 || close === -1 || before.includes(')', open)) return false;
  return PERCENTS_IN_PARENS.test(`${before.slice(open)}${text}${after.slice(0, close + 1)}`);
}

/**
 * True when the number stands inside quotation marks in its sentence: a quoted example, headline or
 * passage (`Success metrics: "80% self-service"`) is the quote rules' business, not a claim made here.
 */
function insideQuotation(before: string, after: string): boolean {
  const straight = (before.match(/"/g)?.length ?? 0) % 2 === 1 && after.includes('"');
  const curly = before.lastIndexOf('\u201c') > before.lastIndexOf('\u201d') && after.includes('\u201d');
  return straight || curly;
}

/** Drops punctuation that ends each `…`-separated segment: `"… of the model."` quotes a sentence that goes on. */
function trimSegments(quote: string): string {
  return quote
    .split(/\u2026|\.\.\./)
    .map((segment) => segment.trim().replace(/[.,;:]+$/, ''))
    .join(' … ');
}

/** The paths of sources answering to one id whose titles or years differ (SPEC §3.2 `ref/duplicate`). */
function duplicatesOf(sources: readonly CorpusSource[]): string[] {
  if (sources.length < 2) return [];
  const first = sources[0] as CorpusSource;
  const differ = sources.some((source) => source.year !== first.year || titleKey(source.title ?? '') !== titleKey(first.title ?? ''));
  return differ ? sources.map((source) => source.path) : [];
}

/** A title compared loosely: case, punctuation and spacing never decide. */
function titleKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function needsSentences(kinds: ReadonlySet<ScholarlyKind>): boolean {
  return kinds.has('quote') || kinds.has('pages') || kinds.has('statistic') || kinds.has('grade');
}

function defaultResolver(artifacts: ArtifactCache): MentionResolver {
  return async (target) => {
    if (target.base === 'aiwg-root') return 'unavailable';
    const artifact = await artifacts.get(target.path);
    return artifact.kind === 'file' ? 'file' : artifact.kind === 'directory' ? 'directory' : 'missing';
  };
}

function linkAt(links: readonly LinkSpan[], offset: number): LinkSpan | null {
  for (const link of links) if (offset >= link.start && offset < link.end) return link;
  return null;
}

/** The end of the autolink or bare URL holding `offset`, or `null`. */
function urlEnd(view: ProseView, offset: number): number | null {
  for (const url of view.urls) if (offset >= url.start && offset < url.end) return url.end;
  return null;
}

function rank(level: GradeLevel): number {
  return { very_low: 0, low: 1, moderate: 2, high: 3 }[level];
}

/** The enforcement matrix of SPEC §4.2. */
function matrix(tier: ClaimTier, level: GradeLevel): Severity | 'underclaim' {
  const strong = tier === 'strong' || tier === 'absolute';
  if (strong) return level === 'high' ? 'ok' : level === 'moderate' ? 'warning' : 'error';
  if (tier === 'moderate') return level === 'very_low' ? 'error' : level === 'low' ? 'warning' : 'ok';
  if (tier === 'hedged') return level === 'high' ? 'underclaim' : 'ok';
  return 'ok';
}

function allowedWording(level: GradeLevel): string {
  return {
    high: 'any',
    moderate: 'moderate ("suggests")',
    low: 'hedged ("limited evidence suggests")',
    very_low: 'hedged ("anecdotal evidence suggests")',
  }[level];
}

/** Emphasis and blockquote markers never decide whether a quote matches. */
function stripMarkup(text: string): string {
  return text.replace(/^[ \t]*>[ \t]?/gm, '').replace(/\*\*|__|`/g, '');
}

function normaliseSource(text: string): string {
  return normaliseQuoteText(stripMarkup(text));
}

/** The passage of the source that shares the most 4-word runs with the quote, when at least half do. */
function closestPassage(quote: string, source: string): string | null {
  const words = quote.split(' ');
  if (words.length < 4) return null;
  let hits = 0;
  let anchor = -1;
  let anchorWord = 0;
  for (let at = 0; at + 4 <= words.length; at += 1) {
    const found = source.indexOf(words.slice(at, at + 4).join(' '));
    if (found !== -1) {
      hits += 1;
      if (anchor === -1) {
        anchor = found;
        anchorWord = at;
      }
    }
  }
  if (anchor === -1 || hits * 2 < words.length - 3) return null;
  let start = anchor;
  for (let back = 0; back < anchorWord && start > 0; back += 1) start = source.lastIndexOf(' ', start - 2) + 1;
  let end = start;
  for (let count = 0; count < words.length && end !== -1; count += 1) end = source.indexOf(' ', end + 1);
  return source.slice(start, end === -1 ? source.length : end).trim();
}

/** A match of {@link quotations} or {@link footnotesAndRlm}: where it starts, its text, and a quotation's inside. */
interface Span {
  readonly index: number;
  readonly text: string;
  readonly inner: string;
}

/**
 * Quotations in `text`, left to right: `"…"` within one paragraph, or `“…”` (anything up to the
 * first closing mark). One pass, linear in the text: a closing `”` is looked up once and reused
 * while the opening marks before it go on, so a run of unclosed `“` costs nothing per mark.
 */
export function quotations(text: string): Span[] {
  const out: Span[] = [];
  let closing = -2;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      STRAIGHT_QUOTE.lastIndex = at;
      const match = STRAIGHT_QUOTE.exec(text);
      if (match === null) continue;
      out.push({ index: at, text: match[0], inner: match[1] as string });
      at += match[0].length - 1;
    } else if (char === '\u201c') {
      if (closing !== -1 && closing <= at) closing = text.indexOf('\u201d', at + 1);
      if (closing === -1) continue;
      if (closing === at + 1) continue;
      out.push({ index: at, text: text.slice(at, closing + 1), inner: text.slice(at + 1, closing) });
      at = closing;
    }
  }
  return out;
}

/**
 * Footnote references (`[^id]`) and RLM-looking brackets (`[… @<16 hex> …]`, `[…, L3]`): from a
 * `[` to the first `]` on its line. Every `[` of one span shares its end, so the content test runs
 * once per span and the scan is linear however many `[` a line holds.
 */
export function footnotesAndRlm(text: string): Span[] {
  const out: Span[] = [];
  // The next `]`, line end and `[^` at or after the cursor, each found once and reused until passed.
  let close = -2;
  let newline = -2;
  let caret = -2;
  const next = (cached: number, needle: string, from: number): number =>
    cached === -1 || cached >= from ? cached : text.indexOf(needle, from);
  let at = text.indexOf('[');
  while (at !== -1) {
    close = next(close, ']', at + 1);
    if (close === -1) break;
    newline = next(newline, '\n', at + 1);
    if (newline !== -1 && newline < close) {
      at = text.indexOf('[', newline);
      continue;
    }
    let found = -1;
    if (RLM_CONTENT.test(text.slice(at + 1, close))) found = at;
    else {
      // A footnote reference `[^x]` may open inside the span: the first `[^` with content before `]`.
      caret = next(caret, '[^', at);
      if (caret !== -1 && caret + 2 < close) found = caret;
    }
    if (found !== -1) out.push({ index: found, text: text.slice(found, close + 1), inner: text.slice(found + 1, close) });
    at = text.indexOf('[', close + 1);
  }
  return out;
}

/**
 * The root-relative path a mention names when read from the folder of the document holding it,
 * or `null` for a document at the root (the same path) and for `.aiwg/` paths (always the root's).
 */
function documentRelative(file: string, rawPath: string): string | null {
  return /^\.?aiwg\//.test(rawPath) ? null : fromDocumentFolder(file, rawPath);
}

/** The REF-shaped ids that open a heading's title, emphasis or code marks aside (`## **REF-01**: …`). */
function idsOpeningHeadings(headings: readonly { readonly title: string }[]): Set<string> {
  const ids = new Set<string>();
  for (const { title } of headings) {
    const id = /^[\s*_`]*(REF-\d+)(?![\w-])/.exec(title)?.[1];
    if (id !== undefined) ids.add(id);
  }
  return ids;
}
