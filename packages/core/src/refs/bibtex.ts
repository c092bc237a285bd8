/**
 * Reads BibTeX / BibLaTeX with @retorquere/bibtex-parser (the parser of Better BibTeX): `@string`
 * macros, `#` concatenation, month macros and LaTeX commands and accents (`M{\"u}ller` → `Müller`)
 * are decoded by the library; this module adds what the library does not give: where each entry
 * starts (offset and line), so reports can point at it and `--fix` can replace it byte-exactly.
 */
import type { Creator, parse as ParseBibLibrary } from '@retorquere/bibtex-parser';
import { lineOf } from '../markdown/scan.ts';
import { corpusMessages } from '../scholarly/messages.ts';

/**
 * The library's parser, loaded on the first BibTeX read: it is about a megabyte of code with
 * tables built at load time, and most runs (the commit hook) read no BibTeX at all.
 */
let parserLoad: Promise<typeof ParseBibLibrary> | undefined;
function bibtexParser(): Promise<typeof ParseBibLibrary> {
  parserLoad ??= import('@retorquere/bibtex-parser').then((library) => library.parse);
  return parserLoad;
}

/** A person of an author or editor list. */
export interface PersonName {
  /** The family name (with particles: `van de Meent`), or the whole literal name (`{OpenAI}`). */
  readonly family: string;
  /** Given names, `''` when unknown. */
  readonly given: string;
}

/** One entry of a BibTeX file. */
export interface BibEntry {
  readonly key: string;
  /** Lowercased entry type (`article`, `inproceedings`, …). */
  readonly type: string;
  /** 1-based line of the `@`. */
  readonly line: number;
  /** Offsets of the entry's text (`@` to the closing brace) in the file, or `null` when it could not be located. */
  readonly span: { readonly start: number; readonly end: number } | null;
  /** Decoded field values (lowercased names); creator lists are joined with ` and `. */
  readonly fields: Readonly<Record<string, string>>;
  readonly authors: readonly PersonName[];
  readonly editors: readonly PersonName[];
  /** The author list ends with `and others` (an explicit "et al."). */
  readonly authorsTruncated: boolean;
}

/** A read BibTeX file: its entries, and one line per problem the parser met. */
export interface BibFile {
  readonly entries: readonly BibEntry[];
  readonly problems: readonly string[];
}

const OPTIONS = { english: false, sentenceCase: false, caseProtection: false, unsupported: 'ignore' } as const;
const SKIPPED = new Set(['comment', 'string', 'preamble']);
const MARKUP = /<\/?(?:i|b|sc|nc|ncx|br|p|li|code|span|sub|sup)(?:\s[^>]*)?>/g;

/** Parses BibTeX text. Never rejects: an unreadable entry becomes a problem and the rest is still read. */
export async function readBibtex(text: string): Promise<BibFile> {
  const parseBibLibrary = await bibtexParser();
  let library: ReturnType<typeof ParseBibLibrary>;
  try {
    library = parseBibLibrary(text, OPTIONS);
  } catch (error) {
    return { entries: [], problems: [corpusMessages.bibtexParserFailed((error as Error).message)] };
  }
  const lineStarts = lineStartsOf(text);
  const entries: BibEntry[] = [];
  let searchFrom = 0;
  // An entry whose LaTeX the library cannot convert (an unclosed `$`) comes back without fields;
  // read it again with its `$` taken literally, so it is still verified.
  const failedInputs = new Map<string, string>();
  const recovered = new Set<string>();
  for (const error of library.errors) {
    const head = error.input === undefined ? null : /^@\s*\w+\s*[{(]\s*([^,\s]+)/.exec(error.input);
    if (head !== null) failedInputs.set(head[1] as string, error.input as string);
  }
  for (const parsed of library.entries) {
    let entry = parsed;
    const failed = failedInputs.get(parsed.key);
    if (Object.keys(parsed.fields).length === 0 && failed !== undefined) {
      try {
        const again = parseBibLibrary(failed.replace(/(?<!\\)\$/g, '\\$'), OPTIONS);
        const first = again.entries[0];
        // Recovered only when reading `$` literally gave fields and no error (an unclosed brace stays a problem).
        if (first !== undefined && again.errors.length === 0 && Object.keys(first.fields).length > 0) {
          entry = { ...first, input: failed.trimEnd() };
          recovered.add(parsed.key);
        }
      } catch {
        entry = parsed;
      }
    }
    const type = entry.type.toLowerCase();
    if (SKIPPED.has(type)) continue;
    let span: BibEntry['span'] = null;
    if (entry.input !== '') {
      const start = text.indexOf(entry.input, searchFrom);
      if (start !== -1) {
        span = { start, end: start + entry.input.length };
        searchFrom = span.end;
      }
    }
    if (span === null) {
      // An entry the parser gave up on has no input text: find its head to report its line.
      const head = new RegExp(`@${escapeRegExp(entry.type)}\\s*[{(]\\s*${escapeRegExp(entry.key)}\\s*,`, 'i').exec(text.slice(searchFrom));
      if (head !== null) searchFrom += head.index + head[0].length;
      if (Object.keys(entry.fields).length === 0) continue;
    }
    const at = span?.start ?? Math.max(0, searchFrom - 1);
    const fields: Record<string, string> = {};
    let authors: PersonName[] = [];
    let editors: PersonName[] = [];
    let truncated = false;
    for (const [name, value] of Object.entries(entry.fields)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        if (value.length > 0 && typeof value[0] === 'object') {
          const people = (value as Creator[]).map(personOf);
          const others = people.length > 0 && /^others$/i.test((people.at(-1) as PersonName).family);
          const listed = others ? people.slice(0, -1) : people;
          if (name === 'author') {
            authors = listed;
            truncated = others;
          } else if (name === 'editor') editors = listed;
          fields[name] = [...listed.map(displayName), ...(others ? ['others'] : [])].join(' and ');
        } else fields[name] = (value as string[]).map(clean).join(' and ');
      } else fields[name] = clean(value as string);
    }
    entries.push({ key: entry.key, type, line: lineOf(lineStarts, at), span, fields, authors, editors, authorsTruncated: truncated });
  }
  const problems = library.errors
    .filter((error) => {
      const head = error.input === undefined ? null : /^@\s*\w+\s*[{(]\s*([^,\s]+)/.exec(error.input);
      return head === null || !recovered.has(head[1] as string);
    })
    .map((error) => error.error.replace(/\s+/g, ' ').trim());
  return { entries, problems };
}

function personOf(creator: Creator): PersonName {
  if (creator.name !== undefined) return { family: clean(creator.name), given: '' };
  const family = [creator.prefix, creator.lastName].filter((part) => part !== undefined && part !== '').join(' ');
  return { family: clean(family), given: clean(creator.firstName ?? '') };
}

/** `Given Family`, as a display name. */
export function displayName(person: PersonName): string {
  return person.given === '' ? person.family : `${person.given} ${person.family}`;
}

function clean(value: string): string {
  // `{\'\i}` decodes to a dotless i and a combining accent: compose it to `í`.
  return value
    .replace(MARKUP, '')
    .replace(/ı(?=\p{M})/gu, 'i')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}
