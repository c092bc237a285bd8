/**
 * Matching a text footnote against the research corpus and bibliographies (SPEC §7.2): a REF id,
 * a DOI or arXiv id recorded there, an author-year citation, or a quoted title.
 */
import type { CorpusIndex } from '../corpus/corpus-index.ts';
import { findRefIds } from '../corpus/ref-ids.ts';
import { findAuthorYears } from '../scholarly/author-year.ts';
import type { ClassifiedFootnote } from './classify.ts';

/** What the corpus says about a footnote; `null` from {@link matchInCorpus} means it says nothing. */
export interface CorpusMatch {
  readonly outcome: 'confirmed' | 'unconfirmed';
  readonly reason: string;
  /** The corpus file or bibliography entry that answered. */
  readonly source?: string;
}

const QUOTED = /["“]([^"“”]{8,300})["”]|(?<![*\w])[*_]([^*_\n]{8,300})[*_](?![*\w])/u;

function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

/** Title similarity in [0, 1]: the Sørensen–Dice coefficient over normalised word multisets. */
export function titleSimilarity(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.length === 0 || right.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const word of left) counts.set(word, (counts.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of right) {
    const count = counts.get(word) ?? 0;
    if (count > 0) {
      shared += 1;
      counts.set(word, count - 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}

/**
 * Looks a text footnote up in the corpus. `includeIdentifiers` also confirms DOIs and arXiv ids
 * recorded in the corpus (used offline; online they go to the resolvers).
 */
export function matchInCorpus(footnote: ClassifiedFootnote, corpus: CorpusIndex, includeIdentifiers: boolean): CorpusMatch | null {
  const text = footnote.citation;
  for (const ref of findRefIds(text)) {
    if (ref.form !== 'valid') continue;
    const source = corpus.findRef(ref.id);
    if (source === null) return { outcome: 'unconfirmed', reason: `\`${ref.id}\` is not in the corpus` };
    return { outcome: 'confirmed', reason: `\`${ref.id}\` is ${source.path}`, source: source.path };
  }
  if (includeIdentifiers) {
    for (const doi of footnote.dois) {
      const path = corpus.findDoi(doi.key);
      if (path !== null) return { outcome: 'confirmed', reason: `\`${doi.raw}\` is recorded in ${path}`, source: path };
    }
    for (const id of footnote.arxiv) {
      const path = corpus.findArxiv(id.key);
      if (path !== null) return { outcome: 'confirmed', reason: `arXiv \`${id.raw}\` is recorded in ${path}`, source: path };
    }
  }
  const quoted = QUOTED.exec(text);
  const title = quoted === null ? null : (quoted[1] ?? quoted[2] ?? null);
  if (title !== null) {
    const source = corpus.sources.find((candidate) => candidate.title !== null && titleSimilarity(candidate.title, title) >= 0.9);
    if (source !== undefined) return { outcome: 'confirmed', reason: `title matches ${source.path}`, source: source.path };
  }
  const [cited] = findAuthorYears(text);
  if (cited !== undefined) {
    const entries = corpus.findSurname(cited.surnames[0] as string);
    const match = entries.find((entry) => entry.year !== null && Math.abs(entry.year - cited.year) <= 1);
    if (match !== undefined) return { outcome: 'confirmed', reason: `\`${cited.text}\` matches ${match.path}`, source: match.path };
    if (entries.length > 0) {
      const years = [...new Set(entries.map((entry) => entry.year).filter((year) => year !== null))].join(', ');
      return { outcome: 'unconfirmed', reason: `\`${cited.text}\`: the corpus has ${cited.surnames[0]} only for ${years || 'no year'}` };
    }
  }
  return null;
}
