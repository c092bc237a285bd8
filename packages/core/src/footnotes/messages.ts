/**
 * Every user-facing sentence of the footnote gate (SPEC §7), in one place. The offending value
 * goes in backticks; the fix names the next step.
 */
export const footnoteMessages = {
  undefined: (label: string) => `footnote marker \`${label}\` has no definition`,
  undefinedFix: (label: string) => `add a definition for \`${label}\` or remove the marker`,
  missingTag: (label: string) => `footnote ${label} carries no verification tag`,
  missingTagFix: () => 'tag it `[VERIFIED: <url or record id>]`, `[INFERRED: …]`, `[ASSUMED: …]` or `[METHODOLOGY: …]`',
  multipleTags: (label: string, kinds: readonly string[]) =>
    `footnote ${label} carries ${kinds.length} tags (${kinds.join(', ')}); the first checked one decides`,
  placeholder: (label: string, placeholder: string) => `footnote ${label} holds the placeholder \`${placeholder}\` instead of a citation`,
  placeholderFix: () => 'replace the placeholder with the real citation, or delete the claim',
  unverified: (label: string, kind: string) => `footnote ${label} is tagged ${kind}: its author could not verify it`,
  unverifiedFix: () => 'verify the source and retag it, or soften the claim it supports',
  noEvidence: (label: string, payload: string) => `footnote ${label} is tagged VERIFIED with \`${payload}\` but names no URL or record id`,
  noEvidenceFix: () => 'add the URL or record id the verification used, e.g. `[VERIFIED: https://…]`',
  statuteFix: () => 'cite it as `<title> U.S.C. § <section>` or `<title> C.F.R. § <part>.<section>` with a title that exists',
} as const;

/** Why a checked footnote was or was not confirmed, as written in the certificate. */
export const certificateReasons = {
  statuteValid: (canonical: string) => `structurally valid: ${canonical}`,
  statuteInvalid: (problem: string) => `statute: ${problem}`,
  offline: (what: string) => `${what} not checked: run with --online`,
  needsSearch: () => 'needs-search: no DOI, arXiv id or URL; no search provider configured',
  placeholder: (placeholder: string) => `placeholder \`${placeholder}\` instead of a citation`,
  fromState: (reason: string) => `${reason} (resumed from state)`,
} as const;
