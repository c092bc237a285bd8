/**
 * Claim strength of a sentence (SPEC §4.2). The first tier that matches applies, and qualifiers
 * are checked before strong and moderate verbs, so "Limited evidence suggests" is HEDGED.
 */

/** The strength of a claim. `absolute` counts as strong and also warns. */
export type ClaimTier = 'absolute' | 'hedged' | 'strong' | 'moderate' | 'neutral';

const TIERS: readonly (readonly [ClaimTier, RegExp])[] = [
  ['absolute', /\b(?:prove[sdn]?|proving|definitive(?:ly)?|conclusive(?:ly)?)\b/i],
  [
    'hedged',
    /\b(?:limited|preliminary|some (?:evidence|data)|early|may|might|anecdotal(?:ly)?|exploratory|practitioner reports?|informal(?:ly)?|insufficient(?:ly)?|unclear)\b/i,
  ],
  ['strong', /\b(?:demonstrat(?:e|es|ed|ing)|show(?:s|ed|n|ing)?|confirm(?:s|ed|ing)?|establish(?:es|ed|ing)?)\b/i],
  ['moderate', /\b(?:suggest(?:s|ed|ing)?|indicat(?:e|es|ed|ing)|support(?:s|ed|ing)?|point(?:s|ed|ing)? to)\b/i],
];

/** The tier of a sentence and the word that decided it. */
export function claimTier(sentence: string): { tier: ClaimTier; trigger: string | null } {
  for (const [tier, pattern] of TIERS) {
    const match = pattern.exec(sentence);
    if (match !== null) return { tier, trigger: match[0] };
  }
  return { tier: 'neutral', trigger: null };
}

/** The replacement opener for each evidence level (SPEC §4.3). */
export const OPENER_FOR_LEVEL = {
  high: 'Research demonstrates',
  moderate: 'Studies suggest',
  low: 'Limited evidence suggests',
  very_low: 'Anecdotal evidence suggests',
} as const;

const OPENER =
  /^([ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+][ \t]+|\d{1,9}[.)][ \t]+)?(?:\*\*|__)?)((?:Research|Evidence|Studies|Data)[ \t]+(\p{L}+(?:[ \t]+to)?))/u;

/**
 * The `<Subject> <verb>` opening of a sentence (`Research shows`), when its verb makes the claim
 * strong, absolute or moderate. Offsets are relative to the sentence.
 */
export function findOpener(sentence: string): { start: number; end: number; text: string } | null {
  const match = OPENER.exec(sentence);
  if (match === null) return null;
  const verb = match[3] as string;
  const tier = claimTier(verb).tier;
  if (tier === 'neutral' || tier === 'hedged') return null;
  const start = (match[1] as string).length;
  return { start, end: start + (match[2] as string).length, text: match[2] as string };
}
