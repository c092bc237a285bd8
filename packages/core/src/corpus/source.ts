import { findArxivIds, findDois } from '../scholarly/identifiers.ts';
import { corpusMessages } from '../scholarly/messages.ts';
import { findGradeMarker, type GradeLevel, parseGradeLevel } from './grade.ts';
import { idsFromBasename } from './ref-ids.ts';
import { parseYaml, type YamlValue, yamlPath } from './yaml.ts';

/** One research source of the corpus, with the metadata SPEC §3.2 reads from it. */
export interface CorpusSource {
  /** Where the source lives, as the host names it (root-relative when inside the root). */
  readonly path: string;
  /** Every REF id this source answers to (by name, frontmatter or H1). */
  readonly ids: readonly string[];
  readonly title: string | null;
  /** Surnames as written (`Yao`, `Küttler`). */
  readonly authors: readonly string[];
  readonly year: number | null;
  /** Lowercased DOIs. */
  readonly dois: readonly string[];
  /** arXiv ids without version. */
  readonly arxiv: readonly string[];
  readonly url: string | null;
  /** The stored GRADE level, or `null` when the source is unassessed. */
  readonly grade: GradeLevel | null;
  /** Where the grade came from (`frontmatter`, `GRADE line`, an assessment file). */
  readonly gradeOrigin: string | null;
  /** Total pages when the source says so (`**Pages**: 54`). */
  readonly pageCount: number | null;
  /** The source's text, for quote checks; `null` for metadata-only entries (bibliographies). */
  readonly text: string | null;
}

/** A corpus file as the host passes it in. */
export interface CorpusFile {
  readonly path: string;
  readonly text: string;
}

/** Normalises a surname for matching: NFKD, diacritics stripped, lowercase (SPEC §3.2). */
export function normaliseSurname(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[’']/g, "'").toLowerCase().trim();
}

const FIELD = /\*\*([A-Za-z][A-Za-z ]{0,30}?)(?::\*\*|\*\*:)[ \t]*(.*?)(?=[ \t]*\|[ \t]*\*\*|[ \t]*$)/gm;

/**
 * Parses one corpus markdown file into a source, or returns `null` when it answers to no REF id.
 * Frontmatter that is not valid YAML is read as far as the parser recovers it and reported to
 * `onProblem` as one line naming the file, whether or not the file answers to a REF id.
 */
export function parseCorpusSource(file: CorpusFile, onProblem?: (problem: string) => void): CorpusSource | null {
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  const basename = file.path.slice(file.path.lastIndexOf('/') + 1);
  const frontmatter = readFrontmatter(text);
  if (frontmatter?.problem != null) onProblem?.(corpusMessages.frontmatterNotYaml(file.path, frontmatter.problem));
  const body = frontmatter === null ? text : text.slice(frontmatter.end);
  const data = frontmatter?.data;

  const ids = new Set(idsFromBasename(basename));
  for (const key of ['ref', 'ref_id', 'reference_id']) {
    const value = yamlPath(data, key);
    if (typeof value === 'string' && value.trim() !== '') ids.add(value.trim());
  }
  const h1 = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  const h1Id = h1 === null ? null : /^((?:REF-\d+|REF-[A-Z]+-\d{3})(?:-[a-z][a-z0-9]*)*)\b/.exec(h1[1] as string);
  if (h1Id !== null && h1Id !== undefined) ids.add(h1Id[1] as string);
  if (ids.size === 0) return null;

  // Metadata lines sit at the top of a source; the rest of a long summary never holds them.
  const fields = readBoldFields(body.length > 6000 ? body.slice(0, 6000) : body);
  const apa = readApaLine(body);

  const title =
    stringAt(data, 'title') ??
    (h1 === null ? null : (h1[1] as string).replace(/^REF-[\w-]+?:\s*/, '').trim() || null) ??
    fields.get('title') ??
    null;

  let authors = authorsFromValue(yamlPath(data, 'authors') ?? yamlPath(data, 'author'));
  if (authors.length === 0) {
    const field = fields.get('authors') ?? fields.get('author');
    if (field !== undefined) authors = splitNamedAuthors(field);
  }
  if (authors.length === 0 && apa !== null) authors = apa.authors;

  const year =
    yearOf(yamlPath(data, 'year')) ??
    yearOf(fields.get('year')) ??
    apa?.year ??
    yearOf(fields.get('publication date')) ??
    yearOf(fields.get('published'));

  const dois = new Set<string>();
  const doiValues = [stringAt(data, 'identifiers.doi'), stringAt(data, 'doi'), fields.get('doi'), apa?.line];
  for (const value of doiValues) if (value) for (const doi of findDois(value)) if (doi.problem === null) dois.add(doi.key);
  const arxiv = new Set<string>();
  const arxivValues = [stringAt(data, 'identifiers.arxiv'), stringAt(data, 'arxiv'), fields.get('arxiv'), fields.get('url'), apa?.line];
  for (const value of arxivValues) if (value) for (const id of arxivIdsIn(value)) arxiv.add(id);

  const url = stringAt(data, 'identifiers.url') ?? stringAt(data, 'url') ?? firstUrl(fields.get('url') ?? fields.get('link')) ?? null;

  let grade: GradeLevel | null = null;
  let gradeOrigin: string | null = null;
  for (const key of ['quality_assessment.final_grade', 'quality_assessment.grade_level', 'grade_level', 'grade_rating']) {
    const level = parseGradeLevel(yamlPath(data, key));
    if (level !== null) {
      grade = level;
      gradeOrigin = `frontmatter \`${key}\``;
      break;
    }
  }
  if (grade === null) {
    const line = /^[ \t]*(?:[-*+][ \t]+)?\**GRADE\b.*$/im.exec(body);
    const marker = line === null ? null : findGradeMarker(line[0]);
    if (marker !== null) {
      grade = marker.level;
      gradeOrigin = '`GRADE:` line';
    }
  }

  const pages = yamlPath(data, 'pages') ?? fields.get('pages');
  const pageCount =
    typeof pages === 'number' ? pages : typeof pages === 'string' ? Number(/^\s*(\d+)/.exec(pages)?.[1] ?? Number.NaN) : Number.NaN;

  return {
    path: file.path,
    ids: [...ids],
    title,
    authors,
    year,
    dois: [...dois],
    arxiv: [...arxiv],
    url,
    grade,
    gradeOrigin,
    pageCount: Number.isFinite(pageCount) && pageCount > 0 ? pageCount : null,
    text,
  };
}

/**
 * YAML frontmatter at the very start of a file (`---` … `---`), with the parser's first problem
 * (`line N: …`, counting the file's lines) or `null` when it is valid YAML.
 */
export function readFrontmatter(text: string): { data: YamlValue; end: number; problem: string | null } | null {
  if (!/^---[ \t]*\r?\n/.test(text)) return null;
  const close = /\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/g;
  close.lastIndex = 3;
  const match = close.exec(text);
  if (match === null) return null;
  // The YAML starts on the file's second line, after the opening `---`.
  const parsed = parseYaml(text.slice(text.indexOf('\n') + 1, match.index), 2);
  return { data: parsed.value, end: match.index + match[0].length, problem: parsed.problem };
}

function readBoldFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const match of body.matchAll(FIELD)) {
    const key = (match[1] as string).trim().toLowerCase();
    if (!fields.has(key)) fields.set(key, (match[2] as string).trim());
  }
  return fields;
}

/**
 * The APA line under `## Citation` or after `**Citation**:` (SPEC §3.2 item 5): authors precede
 * `(YYYY`, split on `&`, `and` and `., `; each surname comes before its first comma.
 */
function readApaLine(body: string): { line: string; authors: string[]; year: number | null } | null {
  const inline = /^\**Citation\**:\**[ \t]*(\S.*)$/im.exec(body);
  let line = inline?.[1];
  if (line === undefined) {
    const heading = /^#{2,6}[ \t]+Citation[ \t]*\r?\n/im.exec(body);
    if (heading === null) return null;
    const after = body.slice(heading.index + heading[0].length);
    line = /^[ \t]*(\S.*)$/m.exec(after)?.[1];
  }
  if (line === undefined) return null;
  const yearMatch = /\((\d{4})[a-z]?[),]/.exec(line);
  if (yearMatch === null) return { line, authors: [], year: null };
  const names = line.slice(0, yearMatch.index);
  const authors: string[] = [];
  for (const part of names.split(/\s*&\s*|\s+and\s+|\.,\s*/)) {
    const cleaned = part.replace(/[*_]/g, '').trim();
    if (cleaned === '' || /^et al\.?$/i.test(cleaned)) continue;
    const surname = cleaned.includes(',') ? cleaned.slice(0, cleaned.indexOf(',')).trim() : /^[A-Z]\.?$/.test(cleaned) ? '' : cleaned;
    if (surname !== '' && /\p{Lu}/u.test(surname[0] as string)) authors.push(surname);
  }
  return { line, authors, year: Number(yearMatch[1]) };
}

function splitNamedAuthors(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(/\s*[,;]\s*|\s+and\s+|\s*&\s*/)) {
    const words = part.replace(/[*_]/g, '').trim().split(/\s+/);
    const last = words[words.length - 1];
    if (last !== undefined && last !== '' && /^\p{Lu}/u.test(last) && !/^(?:Jr|Sr|II|III)\.?$/.test(last))
      out.push(last.replace(/\.$/, ''));
  }
  return out;
}

function authorsFromValue(value: YamlValue | undefined): string[] {
  if (typeof value === 'string') {
    if (value.includes(',') && /^[^,]+,\s*\p{Lu}\./u.test(value))
      return value.split(/\s*;\s*|\s*&\s*/).map((name) => name.split(',')[0]?.trim() ?? '');
    return splitNamedAuthors(value);
  }
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const entry of value) {
    if (typeof entry === 'string') {
      out.push(entry.includes(',') ? (entry.split(',')[0]?.trim() ?? '') : (entry.trim().split(/\s+/).at(-1) ?? ''));
    } else if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      const family = entry.family ?? entry.last ?? entry.surname ?? entry.name;
      if (typeof family === 'string')
        out.push(family.includes(' ') && entry.family === undefined ? (family.split(/\s+/).at(-1) ?? '') : family);
    }
  }
  return out.filter((name) => name !== '');
}

function stringAt(data: YamlValue | undefined, path: string): string | null {
  const value = yamlPath(data, path);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;
}

function yearOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value !== 'string') return null;
  const match = /\b(1[89]\d{2}|2\d{3})\b/.exec(value);
  return match === null ? null : Number(match[1]);
}

function firstUrl(value: string | undefined): string | null {
  return value === undefined ? null : (/https?:\/\/[^\s)\]>]+/.exec(value)?.[0] ?? null);
}

/** arXiv ids in a metadata value: prefixed forms, or a bare new-style id (`2210.03629v3`). */
function arxivIdsIn(value: string): string[] {
  const ids = findArxivIds(value, { year: 9999, month: 12 }).map((match) => match.raw);
  const bare = /(?<![\w./])(\d{4}\.\d{4,5})(?:v\d+)?\b/.exec(value);
  if (bare !== null) ids.push(bare[1] as string);
  return ids.map(stripArxivVersion);
}

/** An arXiv id without its `vN` version suffix. */
export function stripArxivVersion(id: string): string {
  return id.replace(/v\d+$/, '');
}
