/**
 * The references to verify: every entry of a `.bib` file, and every item of a markdown reference
 * list (a `References` / `Bibliography` section, numbered or bulleted), plus Pandoc / Manubot
 * citation keys (`[@smith2020]`, `@doi:10.…`) that resolve through a `.bib`.
 */

import { parseMarkdown } from '../markdown/model.ts';
import { lineOf } from '../markdown/scan.ts';
import type { Region, RegionKind } from '../markdown/types.ts';
import { findArxivIds, findDois } from '../scholarly/identifiers.ts';
import type { BibEntry, PersonName } from './bibtex.ts';
import type { CitedReference } from './judge.ts';
import { parsePersonName } from './normalize.ts';

/** A reference to verify, with where it was written. */
export interface ReferenceSite {
  readonly file: string;
  readonly line: number;
  readonly cited: CitedReference;
  /** The `.bib` entry it came from, for `--fix`. */
  readonly bib: BibEntry | null;
}

const VENUE_FIELDS = ['booktitle', 'journal', 'journaltitle', 'series', 'howpublished', 'publisher', 'school', 'institution'];

function yearOf(value: string | undefined): number | null {
  const match = value === undefined ? null : /\b(1[5-9]\d{2}|2\d{3})\b/.exec(value);
  return match === null ? null : Number(match[1]);
}

function arxivOf(text: string): CitedReference['arxiv'] {
  const id = findArxivIds(text, { year: 9999, month: 12 }).find((match) => match.problem === null);
  if (id === undefined) return null;
  const version = /v(\d+)$/.exec(id.raw);
  return { id: id.raw.replace(/v\d+$/, ''), version: version === null ? null : Number(version[1]) };
}

function doiOf(text: string): string | null {
  const doi = findDois(text).find((match) => match.problem === null);
  return doi === undefined ? null : doi.raw;
}

/** A `.bib` entry as a cited reference. */
export function citedFromBib(entry: BibEntry): CitedReference {
  const fields = entry.fields;
  const venueField = VENUE_FIELDS.find((name) => fields[name] !== undefined && fields[name] !== '');
  let venue = venueField === undefined ? null : (fields[venueField] as string);
  // `howpublished`/`publisher` only name a venue when nothing better is given; `\url{…}` is not one.
  if (venue !== null && (venueField === 'publisher' || venueField === 'howpublished') && /^(https?:|\\url)/i.test(venue)) venue = null;
  const identifiers = [fields.doi, fields.url, fields.eprint, fields.note, fields.howpublished, fields.journal].filter(Boolean).join(' ');
  let doi = fields.doi?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').trim() || null;
  if (doi === null) doi = doiOf(identifiers);
  const eprint = fields.eprint;
  const fromEprint =
    eprint !== undefined && /arxiv/i.test(fields.archiveprefix ?? fields.eprinttype ?? 'arxiv') ? arxivOf(`arXiv:${eprint.trim()}`) : null;
  const arxiv = fromEprint ?? arxivOf(identifiers);
  return {
    key: entry.key,
    title: fields.title ?? fields.booktitle ?? null,
    authors: entry.authors.length > 0 ? entry.authors : entry.editors,
    authorsTruncated: entry.authorsTruncated,
    year: yearOf(fields.year ?? fields.date),
    venue: entry.type === 'book' && venueField === 'booktitle' ? null : venue,
    doi,
    arxiv,
  };
}

/** Every `.bib` entry as a reference site. */
export function bibSites(file: string, entries: readonly BibEntry[]): ReferenceSite[] {
  return entries.map((entry) => ({ file, line: entry.line, cited: citedFromBib(entry), bib: entry }));
}

const SECTION = /^(references?|bibliography|works cited|literature( cited)?|cited works|sources)\b/i;
const ITEM = /^ {0,3}(?:[-*+]|\d{1,4}[.)]|\[\d{1,4}\])\s+(.*)$/;

/** The block regions a reader does not see as text: code blocks, HTML blocks, comments, front matter. */
const HIDDEN_BLOCK = new Set<RegionKind>(['frontmatter', 'fenced-code', 'indented-code', 'html-block', 'comment']);

/**
 * The items of the markdown reference lists in `text`: a heading named References, Bibliography,
 * Works Cited or Literature, then its list items (a line that continues an item is joined to it).
 * Headings and hidden blocks (code, HTML, comments, front matter) come from the markdown model.
 */
export function referenceListItems(text: string): { line: number; text: string }[] {
  const model = parseMarkdown(text);
  const lines = model.text.split(/\r\n|\r|\n/);
  const lineIndex = (offset: number) => lineOf(model.lineStarts, offset) - 1;
  const hidden = new Set<number>();
  for (const region of model.regions) {
    if (!HIDDEN_BLOCK.has(region.kind)) continue;
    for (let line = lineIndex(region.start); line <= lineIndex(Math.max(region.start, region.end - 1)); line += 1) hidden.add(line);
  }
  const headings = new Map(model.headings.map((heading) => [lineIndex(heading.start), heading]));
  const items: { line: number; text: string }[] = [];
  let level = 0;
  let current: { line: number; text: string } | null = null;
  const flush = () => {
    if (current !== null && current.text.trim() !== '') items.push(current);
    current = null;
  };
  lines.forEach((line, index) => {
    if (hidden.has(index)) return;
    const heading = headings.get(index);
    if (heading !== undefined) {
      if (level > 0 && heading.level <= level) {
        flush();
        level = 0;
      }
      if (SECTION.test(heading.title.replace(/[*_`]/g, '').trim())) level = heading.level;
      return;
    }
    if (level === 0) return;
    const item = ITEM.exec(line);
    if (item !== null) {
      flush();
      current = { line: index + 1, text: item[1] as string };
    } else if (line.trim() === '') flush();
    else if (current !== null && /^\s+\S/.test(line)) (current as { text: string }).text += ` ${line.trim()}`;
  });
  flush();
  return items;
}

/**
 * The Pandoc / Manubot citation keys in markdown (`[@smith2020; @doi:10.1/x]`, `@smith2020`), where a
 * reader sees text: not in code, raw HTML, link destinations or autolinks (an e-mail address).
 */
export function pandocKeys(text: string): { key: string; line: number }[] {
  const model = parseMarkdown(text);
  const out: { key: string; line: number }[] = [];
  let region = 0;
  for (const match of model.text.matchAll(/(?<![\w.@])-?@([A-Za-z0-9_][\w:.#$%&+?<>~/-]*[A-Za-z0-9_])/g)) {
    const at = match.index;
    while (region < model.regions.length && (model.regions[region] as Region).end <= at) region += 1;
    const around = model.regions[region];
    if (around !== undefined && around.start <= at && around.kind !== 'markup') continue;
    out.push({ key: match[1] as string, line: lineOf(model.lineStarts, at) });
  }
  return out;
}

const QUOTED = /[“"«]([^”"»]{8,}?)[”"»]/;
const ET_AL = /\bet\s+al\.?/i;

/** Reads one free-text reference (Chicago, APA, ACM, IEEE styles) into fields. */
export function parseReferenceText(key: string, raw: string): CitedReference {
  let text = raw.replace(/^\[([^\]]+)\]\s*/, '').trim();
  const label = /^\[([^\]]+)\]/.exec(raw.trim())?.[1];
  const doi = doiOf(text);
  const arxiv = arxivOf(text);
  text = text.replace(/<?https?:\/\/\S+>?/g, '').trim();
  let authorsText = '';
  let title = '';
  let rest = '';
  const quoted = QUOTED.exec(text);
  if (quoted !== null) {
    authorsText = text.slice(0, quoted.index);
    title = (quoted[1] as string).replace(/[.,]\s*$/, '');
    rest = text.slice(quoted.index + quoted[0].length);
  } else {
    // APA: `Family, A., & Other, B. (2020). Title. Venue.`  Others: `Authors. Title. Venue, 2020.`
    const apa = /^(.*?)\(((?:1[5-9]|2\d)\d{2})[a-z]?\)\.?\s*(.*)$/.exec(text);
    const sentences = (body: string) => body.split(/(?<=[^A-Z\s.][a-z0-9)]|[?!])\.\s+(?=[A-Z0-9*“"])/);
    if (apa !== null) {
      const parts = sentences(apa[3] as string);
      authorsText = apa[1] as string;
      title = (parts[0] ?? '').replace(/[.]\s*$/, '');
      rest = `${parts.slice(1).join('. ')} ${apa[2]}`;
    } else {
      const parts = sentences(text);
      authorsText = parts[0] ?? '';
      title = (parts[1] ?? '').replace(/[.]\s*$/, '');
      rest = parts.slice(2).join('. ');
    }
  }
  const italic = /\*([^*]+)\*|_([^_]+)_/.exec(rest);
  let venue =
    italic === null ? rest.replace(/^\s*[.,]?\s*(In\s+)?/i, '').split(/,\s*(?:vol|pp|pages|\d{4})/i)[0] : (italic[1] ?? italic[2]);
  venue =
    venue
      ?.replace(/\b(1[5-9]|2\d)\d{2}\b.*$/, '')
      .replace(/[.,\s]+$/, '')
      .trim() ?? '';
  const truncated = ET_AL.test(authorsText);
  const authors = splitAuthors(authorsText.replace(ET_AL, '').replace(/\(\d{4}[a-z]?\)/, ''));
  return {
    key: label ?? key,
    title: title === '' ? null : title.replace(/[*_]/g, ''),
    authors,
    authorsTruncated: truncated,
    year: yearOf(rest) ?? yearOf(text),
    venue: venue === '' ? null : venue,
    doi,
    arxiv,
  };
}

function splitAuthors(text: string): PersonName[] {
  const cleaned = text
    .replace(/[.\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned === '') return [];
  const pieces = cleaned
    .split(/\s*(?:;|,?\s+and\s+|,?\s*&\s*|,)\s*/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '' && !/^others$/i.test(piece));
  // `Vaswani, A., Shazeer, N.`: a family name followed by its initials.
  const people: PersonName[] = [];
  for (let index = 0; index < pieces.length; index += 1) {
    const piece = pieces[index] as string;
    const next = pieces[index + 1];
    if (next !== undefined && /^([A-Z]\.\s*-?)+$|^[A-Z]{1,3}$/.test(next) && !piece.includes(' ')) {
      people.push({ family: piece, given: next });
      index += 1;
    } else people.push(parsePersonName(piece));
  }
  return people;
}
