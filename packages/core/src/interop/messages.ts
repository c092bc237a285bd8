/**
 * Every user-facing sentence of the claim-pipeline interop (chunk, aggregate, annotate, the
 * verdict model), in one place. The CLI adds only layout.
 */
import type { VerdictLabel } from './schema.ts';

const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

export const interopMessages = {
  noCandidates: () => 'No valid verifier verdict for this claim.',
  conflict: (authority: number, votes: readonly { verifier: string; label: VerdictLabel }[]) =>
    `Verifiers at authority ${authority} disagree: ${votes.map((vote) => `${vote.verifier} says ${vote.label}`).join('; ')}.`,
  noQuote: () => 'its evidence carries no verbatim quote',
  noSourceText: (url: string) => `no fetched or cached text of \`${url}\` to check its quote against`,
  quoteNotFound: (quote: string, url: string) => `the quote "${clip(quote, 80)}" does not occur in the text of \`${url}\``,
  downgradedRationale: (from: VerdictLabel, reason: string, rationale: string) =>
    `Downgraded from ${from} to unknown: ${reason}.${rationale.trim() === '' ? '' : ` Verifier's rationale: ${rationale.trim()}`}`,
  findingCaveat: () =>
    'aiwg-cite checked this citation offline and deterministically: no web tool calls were made and no quote was compared; confirm the claim itself with a verifier',
  noBadge: () => 'no badge: inside a code fence, a `>` quote, front matter or HTML',
  noClaims: () => 'No claims or citations were checked.',
} as const;
