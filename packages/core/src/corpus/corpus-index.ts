import { corpusMessages } from '../scholarly/messages.ts';
import { type BibliographyEntry, entrySurnames } from './bibliography.ts';
import { type GradeLevel, parseGradeLevel } from './grade.ts';
import { idsFromBasename, refStem } from './ref-ids.ts';
import { type CorpusFile, type CorpusSource, normaliseSurname, parseCorpusSource, stripArxivVersion } from './source.ts';
import { parseYaml, yamlPath } from './yaml.ts';

/** Everything the host read for one run: corpus files, GRADE assessments, bibliography entries. */
export interface CorpusInput {
  /** The corpus roots as the user names them (for messages), and whether each exists. */
  readonly roots: readonly { readonly path: string; readonly exists: boolean }[];
  /** Markdown files under the corpus roots. */
  readonly files: readonly CorpusFile[];
  /** `.aiwg/research/quality-assessments/*.yaml` files (SPEC §4.1 item 1). */
  readonly assessments?: readonly CorpusFile[];
  /** `sources/metadata/REF-NNN-metadata.json` files (SPEC §3.2 item 2). */
  readonly metadata?: readonly CorpusFile[];
  /** Entries of local bibliography files. */
  readonly bibliography?: readonly BibliographyEntry[];
}

/** An entry that can answer an author-year citation: a corpus source or a bibliography entry. */
export interface AuthorEntry {
  readonly path: string;
  readonly surnames: readonly string[];
  readonly year: number | null;
  readonly source: CorpusSource | null;
}

/** The corpus, indexed once per run for constant-time lookups. */
export class CorpusIndex {
  /** What the index was built from; the index is a function of it (the result cache keys on it). */
  readonly input: CorpusInput;
  /** The configured roots. */
  readonly roots: readonly { readonly path: string; readonly exists: boolean }[];
  /** Every source that answers to at least one REF id. */
  readonly sources: readonly CorpusSource[];
  readonly #byId = new Map<string, CorpusSource[]>();
  readonly #byDoi = new Map<string, string>();
  readonly #byArxiv = new Map<string, string>();
  readonly #bySurname = new Map<string, AuthorEntry[]>();
  readonly #byPath = new Map<string, CorpusSource>();
  readonly #hasBibliography: boolean;
  readonly #surnameKeys = new Map<string, string>();
  readonly #normalisedText = new Map<CorpusSource, string>();
  /** One line per corpus file that could not be read as written (frontmatter or assessment YAML), naming the file. */
  readonly problems: readonly string[];

  constructor(input: CorpusInput) {
    this.input = input;
    this.roots = input.roots;
    const problems: string[] = [];
    const onProblem = (problem: string) => problems.push(problem);
    const metadata = readMetadataFiles(input.metadata ?? []);
    const grades = readAssessments(input.assessments ?? [], onProblem);
    const sources: CorpusSource[] = [];
    for (const file of input.files) {
      let source = parseCorpusSource(file, onProblem);
      if (source === null) continue;
      const extra = source.ids.map((id) => metadata.get(id)).find((entry) => entry !== undefined);
      if (extra !== undefined) source = mergeMetadata(source, extra);
      const assessed = source.ids.map((id) => grades.get(id)).find((entry) => entry !== undefined);
      if (assessed !== undefined) source = { ...source, grade: assessed.level, gradeOrigin: assessed.origin };
      sources.push(source);
    }
    this.sources = sources;
    this.problems = problems;
    for (const source of sources) this.#byPath.set(source.path, source);
    for (const source of sources) {
      for (const id of source.ids) push(this.#byId, id, source);
      for (const doi of source.dois) if (!this.#byDoi.has(doi)) this.#byDoi.set(doi, source.path);
      for (const id of source.arxiv) if (!this.#byArxiv.has(id)) this.#byArxiv.set(id, source.path);
      const entry: AuthorEntry = { path: source.path, surnames: source.authors.map(normaliseSurname), year: source.year, source };
      for (const surname of new Set(entry.surnames)) push(this.#bySurname, surname, entry);
    }
    this.#hasBibliography = (input.bibliography ?? []).length > 0;
    for (const bib of input.bibliography ?? []) {
      for (const doi of bib.dois) if (!this.#byDoi.has(doi)) this.#byDoi.set(doi, bib.path);
      for (const id of bib.arxiv) if (!this.#byArxiv.has(id)) this.#byArxiv.set(id, bib.path);
      const entry: AuthorEntry = { path: bib.path, surnames: entrySurnames(bib), year: bib.year, source: null };
      for (const surname of new Set(entry.surnames)) push(this.#bySurname, surname, entry);
    }
  }

  /**
   * True when at least one corpus root exists or a bibliography lists entries (SPEC §3.1:
   * otherwise `corpus/absent`, and corpus findings are softened to info).
   */
  get exists(): boolean {
    return this.roots.some((root) => root.exists) || this.#hasBibliography;
  }

  /** True when any source or bibliography entry lists authors, so author-year checks mean something. */
  get hasAuthors(): boolean {
    return this.#bySurname.size > 0;
  }

  /** The source a REF id resolves to: the full form first, then the stem (SPEC §3.2). */
  findRef(id: string): CorpusSource | null {
    const exact = this.#byId.get(id);
    if (exact !== undefined) return exact[0] as CorpusSource;
    const stem = refStem(id);
    return stem === null ? null : (this.#byId.get(stem)?.[0] ?? null);
  }

  /** Every source answering to an id; more than one with different titles is a duplicate. */
  sourcesFor(id: string): readonly CorpusSource[] {
    return this.#byId.get(id) ?? [];
  }

  /** Where a (lowercased) DOI is recorded, or `null`. */
  findDoi(key: string): string | null {
    return this.#byDoi.get(key.toLowerCase()) ?? null;
  }

  /** Where an arXiv id (any version) is recorded, or `null`. */
  findArxiv(id: string): string | null {
    return this.#byArxiv.get(stripArxivVersion(id)) ?? null;
  }

  /** The corpus source that records a DOI or arXiv id, when it is a corpus file (not a bibliography). */
  sourceAt(path: string | null): CorpusSource | null {
    return path === null ? null : (this.#byPath.get(path) ?? null);
  }

  /** Entries with this surname among their authors. */
  findSurname(surname: string): readonly AuthorEntry[] {
    let key = this.#surnameKeys.get(surname);
    if (key === undefined) {
      key = normaliseSurname(surname);
      this.#surnameKeys.set(surname, key);
    }
    return this.#bySurname.get(key) ?? [];
  }

  /** True when a root-relative path is one of the corpus sources. */
  isSource(path: string): boolean {
    return this.#byPath.has(path);
  }

  /** The source's text, normalised once with `normalise` and cached. */
  normalisedText(source: CorpusSource, normalise: (text: string) => string): string | null {
    if (source.text === null) return null;
    let cached = this.#normalisedText.get(source);
    if (cached === undefined) {
      cached = normalise(source.text);
      this.#normalisedText.set(source, cached);
    }
    return cached;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

interface Metadata {
  readonly title?: string;
  readonly authors?: string[];
  readonly year?: number;
  readonly doi?: string;
  readonly arxiv?: string;
}

function readMetadataFiles(files: readonly CorpusFile[]): Map<string, Metadata> {
  const out = new Map<string, Metadata>();
  for (const file of files) {
    const basename = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/-metadata\.json$/, '');
    const id = idsFromBasename(basename)[0];
    if (id === undefined) continue;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(file.text) as Record<string, unknown>;
    } catch {
      continue;
    }
    const authors = Array.isArray(data.authors)
      ? data.authors.map((author) =>
          typeof author === 'string'
            ? author
            : String((author as { family?: unknown; name?: unknown })?.family ?? (author as { name?: unknown })?.name ?? ''),
        )
      : undefined;
    out.set(id, {
      ...(typeof data.title === 'string' ? { title: data.title } : {}),
      ...(authors === undefined
        ? {}
        : {
            authors: authors
              .map((name) => (name.includes(',') ? (name.split(',')[0] as string) : (name.trim().split(/\s+/).at(-1) ?? '')))
              .filter((name) => name !== ''),
          }),
      ...(typeof data.year === 'number' ? { year: data.year } : {}),
      ...(typeof data.doi === 'string' ? { doi: data.doi.toLowerCase() } : {}),
      ...(typeof data.arxiv === 'string' ? { arxiv: stripArxivVersion(data.arxiv) } : {}),
    });
  }
  return out;
}

/** Frontmatter wins over the metadata file; the metadata file wins over H1, bold lines and APA (SPEC §3.2). */
function mergeMetadata(source: CorpusSource, extra: Metadata): CorpusSource {
  return {
    ...source,
    title: extra.title ?? source.title,
    authors: extra.authors !== undefined && extra.authors.length > 0 ? extra.authors : source.authors,
    year: extra.year ?? source.year,
    dois: extra.doi === undefined ? source.dois : [...new Set([...source.dois, extra.doi])],
    arxiv: extra.arxiv === undefined ? source.arxiv : [...new Set([...source.arxiv, extra.arxiv])],
  };
}

function readAssessments(
  files: readonly CorpusFile[],
  onProblem: (problem: string) => void,
): Map<string, { level: GradeLevel; origin: string }> {
  const out = new Map<string, { level: GradeLevel; origin: string }>();
  for (const file of files) {
    const { value: data, problem } = parseYaml(file.text);
    if (problem !== null) onProblem(corpusMessages.assessmentNotYaml(file.path, problem));
    let level: GradeLevel | null = null;
    for (const key of ['final_quality.level', 'final_grade', 'citation_guidance.quality_level']) {
      level = parseGradeLevel(yamlPath(data, key));
      if (level !== null) break;
    }
    if (level === null) continue;
    const basename = file.path.slice(file.path.lastIndexOf('/') + 1);
    const ids = new Set(idsFromBasename(basename.replace(/-assessment\.ya?ml$|\.ya?ml$/, '')));
    for (const key of ['reference_id', 'ref_id']) {
      const value = yamlPath(data, key);
      if (typeof value === 'string') ids.add(value.trim());
    }
    for (const id of ids) if (!out.has(id)) out.set(id, { level, origin: `\`${file.path}\`` });
  }
  return out;
}
