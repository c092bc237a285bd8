import { findArxivIds, findDois } from '../scholarly/identifiers.ts';
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
 * Parses BibTeX / BibLaTeX (http://www.bibtex.org/Format/): `@type{key, field = {…} | "…" | 123}`.
 * Only the fields aiwg-cite needs are read: `doi`, `eprint`/`archiveprefix`, `url`, `author`,
 * `year`/`date` and `title`. `@comment`, `@string` and `@preamble` are skipped.
 */
export function parseBibtex(path: string, text: string): BibliographyResult {
  const entries: BibliographyEntry[] = [];
  const head = /@([A-Za-z]+)\s*[{(]\s*([^,\s]*)\s*,/g;
  for (let match = head.exec(text); match !== null; match = head.exec(text)) {
    const type = (match[1] as string).toLowerCase();
    if (type === 'comment' || type === 'string' || type === 'preamble') continue;
    const fields = new Map<string, string>();
    let at = head.lastIndex;
    for (;;) {
      const field = /\s*([A-Za-z][\w-]*)\s*=\s*/y;
      field.lastIndex = at;
      const name = field.exec(text);
      if (name === null) break;
      at = field.lastIndex;
      const value = readBibValue(text, at);
      if (value === null) return { ok: false, problem: `entry \`${match[2]}\`: unbalanced braces in field \`${name[1]}\`` };
      fields.set((name[1] as string).toLowerCase(), value.value.replace(/\s+/g, ' ').trim());
      at = value.end;
      const comma = /\s*,/y;
      comma.lastIndex = at;
      if (comma.exec(text) === null) break;
      at = comma.lastIndex;
    }
    head.lastIndex = at;
    const key = match[2] as string;
    const identifiers = [fields.get('doi'), fields.get('url')].filter((value): value is string => value !== undefined).join(' ');
    const dois = findDois(identifiers)
      .filter((doi) => doi.problem === null)
      .map((doi) => doi.key);
    if (fields.get('doi') !== undefined && dois.length === 0) {
      const bare = (fields.get('doi') as string).replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').toLowerCase();
      if (/^10\.\d{4,9}\//.test(bare)) dois.push(bare);
    }
    const arxiv: string[] = [];
    const eprint = fields.get('eprint');
    if (eprint !== undefined && /arxiv/i.test(fields.get('archiveprefix') ?? fields.get('eprinttype') ?? 'arxiv'))
      arxiv.push(stripArxivVersion(eprint));
    for (const id of findArxivIds(identifiers, { year: 9999, month: 12 })) arxiv.push(stripArxivVersion(id.raw));
    entries.push({
      path: `${path}#${key}`,
      key,
      title: fields.get('title')?.replace(/[{}]/g, '') ?? null,
      authors: splitBibAuthors(fields.get('author') ?? fields.get('editor') ?? ''),
      year: yearIn(fields.get('year') ?? fields.get('date')),
      dois,
      arxiv,
    });
  }
  return { ok: true, entries };
}

function readBibValue(text: string, at: number): { value: string; end: number } | null {
  const first = text[at];
  if (first === '{') {
    let depth = 0;
    for (let end = at; end < text.length; end += 1) {
      if (text[end] === '{') depth += 1;
      else if (text[end] === '}') {
        depth -= 1;
        if (depth === 0) return { value: text.slice(at + 1, end), end: end + 1 };
      }
    }
    return null;
  }
  if (first === '"') {
    const close = text.indexOf('"', at + 1);
    return close === -1 ? null : { value: text.slice(at + 1, close), end: close + 1 };
  }
  const bare = /[^,}\s]*/y;
  bare.lastIndex = at;
  const value = bare.exec(text)?.[0] ?? '';
  return { value, end: at + value.length };
}

function splitBibAuthors(value: string): string[] {
  if (value === '') return [];
  return value
    .split(/\s+and\s+/)
    .map((name) => name.replace(/[{}]/g, '').trim())
    .map((name) => (name.includes(',') ? (name.split(',')[0] as string).trim() : (name.split(/\s+/).at(-1) ?? '')))
    .filter((name) => name !== '' && name.toLowerCase() !== 'others');
}

/** Parses CSL-JSON (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html): an array of items. */
export function parseCslJson(path: string, text: string): BibliographyResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not valid JSON (${(error as Error).message})` };
  }
  const items = Array.isArray(data)
    ? data
    : data !== null && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : null;
  if (items === null) return { ok: false, problem: 'expected an array of CSL items' };
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
