/**
 * Research-corpus ids (SPEC §3.1): `REF-018`, `REF-1024`, `REF-018-react`, `REF-SR-001`,
 * `PROF-P-alice`. Placeholders (`REF-XXX`, `REF-NNN`, anything in `{…}` or `<…>`) are not
 * citations, and an id inside a path, URL or mention belongs to that citation.
 */

/** A REF id found in prose. */
export interface RefMatch {
  /** The id as written, suffix included (`REF-018-react`). */
  readonly id: string;
  readonly start: number;
  readonly end: number;
  /** `malformed` for `REF-7`, `REF-07` and `REF-0181`: a number aiwg never issues. */
  readonly form: 'valid' | 'malformed';
}

const CANDIDATE = /REF-(?:[A-Z]+-\d{3}\b|\d+(?:-[a-z][a-z0-9]*)*)|PROF-[POFG]-[a-z0-9]+(?:-[a-z0-9]+)*/g;

/** True when the number part of a `REF-<digits>` id is one aiwg issues (`\d{3}` or `[1-9]\d{3,}`). */
export function isValidRefNumber(digits: string): boolean {
  return /^\d{3}$/.test(digits) || /^[1-9]\d{3,}$/.test(digits);
}

/** Finds REF and PROF ids in text, skipping placeholders and ids that are part of a path or URL. */
export function findRefIds(text: string): RefMatch[] {
  if (!text.includes('REF-')) return [];
  const found: RefMatch[] = [];
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    const start = match.index;
    let id = match[0];
    const before = start === 0 ? '' : (text[start - 1] as string);
    if (/[\w/.#{<$-]/.test(before)) continue;
    let end = start + id.length;
    const after = text.slice(end, end + 2);
    if (/^[/}>]/.test(after) || /^\.[A-Za-z]/.test(after) || /^[A-Za-z]/.test(after)) continue;
    if (/^-[A-Z0-9{]/.test(after)) {
      // `REF-XXX-…` style placeholders and `REF-041-045` ranges: keep the plain id only.
      if (!/^REF-\d+$/.test(id)) continue;
    }
    if (id.endsWith('-')) {
      id = id.slice(0, -1);
      end -= 1;
    }
    const digits = /^REF-(\d+)/.exec(id)?.[1];
    const form = digits === undefined || isValidRefNumber(digits) ? 'valid' : 'malformed';
    found.push({ id, start, end, form });
  }
  return found;
}

/** The stem of a suffixed id (`REF-018-react` → `REF-018`), or `null` when it has no suffix. */
export function refStem(id: string): string | null {
  const stem = /^(REF-\d+|REF-[A-Z]+-\d{3})-[a-z]/.exec(id)?.[1];
  return stem ?? null;
}

/**
 * The ids a corpus file answers to by its name (SPEC §3.2): every prefix of the basename, cut at
 * a `-`, that is a valid id. `REF-018-react-reasoning.md` answers to `REF-018`, `REF-018-react`
 * and `REF-018-react-reasoning`; `REF-0181.md` never answers to `REF-018`.
 */
export function idsFromBasename(basename: string): string[] {
  const stem = basename.replace(/\.[^.]*$/, '');
  const head = /^(REF-\d+|REF-[A-Z]+-\d{3}|PROF-[POFG])(?=$|-)/.exec(stem);
  if (head === null) return [];
  const ids: string[] = [];
  if (!head[1]?.startsWith('PROF-')) ids.push(head[1] as string);
  for (let at = stem.indexOf('-', (head[1] as string).length); at !== -1; at = stem.indexOf('-', at + 1)) {
    if (at > (head[1] as string).length) ids.push(stem.slice(0, at));
  }
  ids.push(stem);
  return [...new Set(ids)];
}
