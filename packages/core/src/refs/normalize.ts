/**
 * Text normalisation for comparing a cited reference with a scholarly record: LaTeX leftovers,
 * Unicode (accents folded, Greek letters spelled), punctuation and case are removed, so that
 * `{\"U}ber {GAN}s -- a $\alpha$-study` and `Über GANs — an α-study` compare equal.
 */

import { editDistance } from '../edit-distance.ts';
import type { PersonName } from './bibtex.ts';

const GREEK: Readonly<Record<string, string>> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ρ: 'rho',
  σ: 'sigma',
  τ: 'tau',
  φ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
};

const LATEX_ACCENT = /\\[`'^"~=.uvHckbdrt]\s*\{?\s*\\?([A-Za-z])\}?/g;
const LATEX_COMMAND = /\\([A-Za-z]+)\s*/g;

/** Lowercase, accent-free, LaTeX-free text: letters, digits and single spaces. */
export function foldText(text: string): string {
  const unlatexed = text
    .replace(LATEX_ACCENT, '$1')
    .replace(LATEX_COMMAND, (_, name: string) => (GREEK_NAMES.has(name.toLowerCase()) ? `${name.toLowerCase()} ` : ' '))
    .replace(/[{}$]/g, '');
  const folded = unlatexed
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/[łđ]/g, (letter) => (letter === 'ł' ? 'l' : 'd'))
    .replace(/[α-ω]/g, (letter) => ` ${GREEK[letter] ?? letter} `)
    .replace(/&/g, ' and ');
  return folded
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

const GREEK_NAMES = new Set(Object.values(GREEK));

/** The words of a folded text. */
export function words(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

/** A key two titles share when they differ only in case, accents, LaTeX, punctuation or hyphenation. */
export function titleKey(title: string): string {
  return words(title).join('');
}

/**
 * How alike two titles are, 0…1: 1 when their keys are equal; otherwise the larger of the
 * character-level ratio over the keys and the word-level ratio. A one-word change in a ten-word
 * title scores about 0.9, an unrelated title well under 0.5.
 */
export function titleSimilarity(a: string, b: string): number {
  const keyA = titleKey(a);
  const keyB = titleKey(b);
  if (keyA === '' || keyB === '') return 0;
  if (keyA === keyB) return 1;
  const chars = 1 - editDistance(keyA, keyB) / Math.max(keyA.length, keyB.length);
  const wordsA = words(a);
  const wordsB = words(b);
  const tokens = 1 - editDistance(wordsA, wordsB) / Math.max(wordsA.length, wordsB.length);
  return Math.min(0.999, Math.max(chars, tokens));
}

/** The title before its first colon, question mark or dash separator (`BERT: Pre-training…` → `BERT`). */
export function mainTitle(title: string): string {
  return title.split(/\s*(?::|\?|\s[-–—]\s)\s*/)[0] ?? title;
}

const PARTICLES = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'da',
  'di',
  'du',
  'le',
  'la',
  'del',
  'della',
  'dos',
  'das',
  'ter',
  'ten',
  'bin',
  'al',
  'el',
]);

/**
 * Splits a display name (`Ashish Vaswani`, `Vaswani, Ashish`, `Jan-Willem van de Meent`,
 * DBLP's `Jiawei He 0002`) into family and given names.
 */
export function parsePersonName(name: string): PersonName {
  const trimmed = name
    .replace(/\s+\d{4}$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (trimmed.includes(',')) {
    const [family, ...rest] = trimmed.split(',');
    return { family: (family as string).trim(), given: rest.join(' ').trim() };
  }
  const parts = trimmed.split(' ');
  if (parts.length <= 1) return { family: trimmed, given: '' };
  let split = parts.length - 1;
  while (split > 1 && PARTICLES.has((parts[split - 1] as string).toLowerCase())) split -= 1;
  return { family: parts.slice(split).join(' '), given: parts.slice(0, split).join(' ') };
}

/** The folded family name without particles (`van de Meent` → `meent`, `García-Márquez` → `garciamarquez`). */
export function familyKey(person: PersonName): string {
  const parts = words(person.family);
  while (parts.length > 1 && PARTICLES.has(parts[0] as string)) parts.shift();
  return parts.join('');
}

/** The initials of the given names (`Jean-Baptiste` → `jb`, `P. N.` → `pn`). */
export function initials(person: PersonName): string {
  return words(person.given)
    .map((word) => word[0])
    .join('');
}

/** Whether two people are the same author: family names agree and the first initials do not conflict. */
export function samePerson(a: PersonName, b: PersonName): boolean {
  const familyA = familyKey(a);
  const familyB = familyKey(b);
  if (familyA === '' || familyB === '') return false;
  const initialsA = initials(a);
  const initialsB = initials(b);
  if (familyA === familyB) return initialsA === '' || initialsB === '' || initialsA[0] === initialsB[0];
  // East Asian names are often written family-first: `Zhang Wei` for `Wei Zhang`.
  const givenA = words(a.given).join('');
  const givenB = words(b.given).join('');
  if (givenA !== '' && givenB !== '' && givenA === familyB && givenB === familyA) return true;
  // A compound family name one source splits differently: `Jan-Willem van de Meent` vs `van de Meent, Jan-Willem`.
  const fullA = words(`${a.given} ${a.family}`).join('');
  const fullB = words(`${b.given} ${b.family}`).join('');
  return fullA === fullB;
}
