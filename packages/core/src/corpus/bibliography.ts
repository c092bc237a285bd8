import { readBibtex } from '../refs/bibtex.ts';
import { findArxivIds, findDois } from '../scholarly/identifiers.ts';
import { corpusMessages } from '../scholarly/messages.ts';
import { normaliseSurname, stripArxivVersion } from './source.ts';

/** One entry of a local bibliography file (`.bib` or CSL-JSON). */
export interface BibliographyEntry {
  /** `<file>#<key>`. */
  readonly path: string;
  readonly key: string;
  readonly title: string | null;
  readonly authors: readonly string[];
  readonly year: number | null;
  /** Lowercased DOIs. */
  readonly dois: readonly string[];
  /** arXiv ids without version. */
  readonly arxiv: readonly string[];
}

/** A parsed bibliography, or the problem that makes it unreadable. */
export type BibliographyResult =
  | { readonly ok: true; readonly entries: BibliographyEntry[] }
  | { readonly ok: false; readonly problem: string };

/**
 * Parses BibTeX / BibLaTeX with @retorquere/bibtex-parser (see `refs/bibtex.ts`): `@string` macros,
 * `#` concatenation (`month = jan # "~15"`) and LaTeX accents (`M{\"u}ller` → `Müller`) are decoded.
 * aiwg-cite reads `doi`, `eprint`/`archiveprefix`, `url`, `author`, `year`/`date` and `title`.
 */
export async function parseBibtex(path: string, text: string): Promise<BibliographyResult> {
  const file = await readBibtex(text);
  if (file.problems.length > 0) return { ok: false, problem: file.problems[0] as string };
  const entries: BibliographyEntry[] = [];
  for (const entry of file.entries) {
    const fields = entry.fields;
    const key = entry.key;
    const identifiers = [fields.doi, fields.url].filter((value): value is string => value !== undefined).join(' ');
    const dois = findDois(identifiers)
      .filter((doi) => doi.problem === null)
      .map((doi) => doi.key);
    if (fields.doi !== undefined && dois.length === 0) {
      const bare = fields.doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').toLowerCase();
      if (/^10\.\d{4,9}\//.test(bare)) dois.push(bare);
    }
    const arxiv: string[] = [];
    const eprint = fields.eprint;
    if (eprint !== undefined && /arxiv/i.test(fields.archiveprefix ?? fields.eprinttype ?? 'arxiv')) arxiv.push(stripArxivVersion(eprint));
    for (const id of findArxivIds(identifiers, { year: 9999, month: 12 })) arxiv.push(stripArxivVersion(id.raw));
    const people = entry.authors.length > 0 ? entry.authors : entry.editors;
    entries.push({
      path: `${path}#${key}`,
      key,
      title: fields.title ?? null,
      authors: people.map((person) => person.family).filter((name) => name !== ''),
      year: yearIn(fields.year ?? fields.date),
      dois,
      arxiv,
    });
  }
  return { ok: true, entries };
}

/** Parses CSL-JSON (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html): an array of items. */
export function parseCslJson(path: string, text: string): BibliographyResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: corpusMessages.cslNotJson((error as Error).message) };
  }
  const items = Array.isArray(data)
    ? data
    : data !== null && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : null;
  if (items === null) return { ok: false, problem: corpusMessages.cslNotArray() };
  const entries: BibliographyEntry[] = [];
  items.forEach((item, index) => {
    if (item === null || typeof item !== 'object') return;
    const record = item as Record<string, unknown>;
    const key = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : String(index);
    const doi =
      typeof record.DOI === 'string'
        ? record.DOI.trim()
            .toLowerCase()
            .replace(/^https?:\/\/(dx\.)?doi\.org\//, '')
        : null;
    const url = typeof record.URL === 'string' ? record.URL : '';
    const authors = Array.isArray(record.author)
      ? record.author
          .map((author) =>
            author !== null && typeof author === 'object'
              ? ((author as Record<string, unknown>).family ?? (author as Record<string, unknown>).literal)
              : null,
          )
          .filter((name): name is string => typeof name === 'string')
      : [];
    const parts = (record.issued as { 'date-parts'?: unknown } | undefined)?.['date-parts'];
    const year = Array.isArray(parts) && Array.isArray(parts[0]) && typeof parts[0][0] !== 'undefined' ? Number(parts[0][0]) : null;
    entries.push({
      path: `${path}#${key}`,
      key,
      title: typeof record.title === 'string' ? record.title : null,
      authors,
      year: year !== null && Number.isInteger(year) ? year : null,
      dois: doi === null || doi === '' ? [] : [doi],
      arxiv: findArxivIds(url, { year: 9999, month: 12 }).map((id) => stripArxivVersion(id.raw)),
    });
  });
  return { ok: true, entries };
}

function yearIn(value: string | undefined): number | null {
  const match = value === undefined ? null : /\b(\d{4})\b/.exec(value);
  return match === null ? null : Number(match[1]);
}

/** Normalised surnames of an entry. */
export function entrySurnames(entry: { readonly authors: readonly string[] }): string[] {
  return entry.authors.map(normaliseSurname);
}
