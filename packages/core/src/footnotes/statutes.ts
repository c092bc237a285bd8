/**
 * Structural validation of United States Code and Code of Federal Regulations citations
 * (SPEC §7.2). Section suffixes are kept whole: `78j(b)` is section `78j` with subsection `(b)`,
 * `1395i-3` is one section, and `240.10b-5` is part 240, section `10b-5`.
 */

/** Which code a statute citation names. */
export type StatuteCode = 'usc' | 'cfr';

/** A problem with a statute citation. */
export interface StatuteProblem {
  readonly rule: 'statute/malformed' | 'statute/title-range';
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** A U.S.C. or C.F.R. citation found in text. */
export interface StatuteCitation {
  readonly code: StatuteCode;
  /** The citation as written. */
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  readonly title: number;
  /** The section (`78j`, `1395i-3`) for U.S.C.; the part (`240`) for C.F.R. */
  readonly section: string;
  /** The C.F.R. section after the dot (`10b-5`), or `null`. */
  readonly subpart: string | null;
  /** Subsections in order: `(b)(1)` → `['b', '1']`. */
  readonly subsections: readonly string[];
  /** `null` when the citation is structurally valid. */
  readonly problem: StatuteProblem | null;
}

const USC = /\b(\d+)\s*U\.?\s?S\.?\s?C\.?(?:\s?A\.?)?(?![A-Za-z])\s*(?:§{1,2}\s*)?(\d+[A-Za-z]*(?:-\d+[A-Za-z]*)*)((?:\([A-Za-z0-9]+\))*)/g;
const CFR =
  /\b(\d+)\s*C\.?\s?F\.?\s?R\.?(?![A-Za-z])\s*(?:(?:§{1,2}|Part)\s*)?(\d+)(?:\.([0-9A-Za-z]+(?:-[0-9A-Za-z]+)*))?((?:\([A-Za-z0-9]+\))*)/g;
const USC_MENTION = /\bU\.\s?S\.\s?C\.|\bUSC\b/g;
const CFR_MENTION = /\bC\.\s?F\.\s?R\.|\bCFR\b/g;

/** The U.S.C. has titles 1 to 54; title 53 is reserved. */
const USC_TITLES = { min: 1, max: 54, reserved: [53] } as const;
/** The C.F.R. has titles 1 to 50. */
const CFR_TITLES = { min: 1, max: 50 } as const;

/** Finds U.S.C. and C.F.R. citations and validates their structure. Mentions that cannot be read are `statute/malformed`. */
export function findStatutes(text: string): StatuteCitation[] {
  const found: StatuteCitation[] = [];
  for (const match of text.matchAll(USC)) {
    const title = Number(match[1]);
    found.push({
      code: 'usc',
      raw: match[0],
      start: match.index ?? 0,
      end: (match.index ?? 0) + match[0].length,
      title,
      section: match[2] as string,
      subpart: null,
      subsections: splitSubsections(match[3] ?? ''),
      problem: uscTitleProblem(title),
    });
  }
  for (const match of text.matchAll(CFR)) {
    const title = Number(match[1]);
    found.push({
      code: 'cfr',
      raw: match[0],
      start: match.index ?? 0,
      end: (match.index ?? 0) + match[0].length,
      title,
      section: match[2] as string,
      subpart: match[3] ?? null,
      subsections: splitSubsections(match[4] ?? ''),
      problem:
        title >= CFR_TITLES.min && title <= CFR_TITLES.max
          ? null
          : { rule: 'statute/title-range', severity: 'error', message: `C.F.R. title ${title} does not exist (titles run 1-50)` },
    });
  }
  for (const [mention, code] of [
    [USC_MENTION, 'usc'],
    [CFR_MENTION, 'cfr'],
  ] as const) {
    for (const match of text.matchAll(mention)) {
      const at = match.index ?? 0;
      if (found.some((citation) => at >= citation.start && at < citation.end)) continue;
      const label = code === 'usc' ? 'U.S.C.' : 'C.F.R.';
      const shape = code === 'usc' ? '`<title> U.S.C. § <section>`' : '`<title> C.F.R. § <part>.<section>`';
      found.push({
        code,
        raw: match[0],
        start: at,
        end: at + match[0].length,
        title: 0,
        section: '',
        subpart: null,
        subsections: [],
        problem: { rule: 'statute/malformed', severity: 'warning', message: `a ${label} citation needs a title and a section: ${shape}` },
      });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The canonical form of a valid citation: `15 U.S.C. § 78j(b)`, `17 C.F.R. § 240.10b-5`. */
export function formatStatute(citation: StatuteCitation): string {
  const subs = citation.subsections.map((sub) => `(${sub})`).join('');
  if (citation.code === 'usc') return `${citation.title} U.S.C. § ${citation.section}${subs}`;
  const section = citation.subpart === null ? `Part ${citation.section}` : `§ ${citation.section}.${citation.subpart}`;
  return `${citation.title} C.F.R. ${section}${subs}`;
}

function uscTitleProblem(title: number): StatuteProblem | null {
  if (title < USC_TITLES.min || title > USC_TITLES.max) {
    return { rule: 'statute/title-range', severity: 'error', message: `U.S.C. title ${title} does not exist (titles run 1-54)` };
  }
  if ((USC_TITLES.reserved as readonly number[]).includes(title)) {
    return { rule: 'statute/title-range', severity: 'warning', message: `U.S.C. title ${title} is reserved and holds no sections` };
  }
  return null;
}

function splitSubsections(text: string): string[] {
  return [...text.matchAll(/\(([A-Za-z0-9]+)\)/g)].map((match) => match[1] as string);
}
