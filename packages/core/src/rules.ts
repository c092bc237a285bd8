import type { Severity } from './report.ts';

/** Every rule id aiwg-cite reports, with its default severity. Ids are stable. */
export const RULES = {
  'rlm/fresh': { severity: 'ok', summary: 'the cited file still has the cited content hash' },
  'rlm/stale': { severity: 'warning', summary: 'the cited file changed since the citation was written' },
  'rlm/un-versioned': { severity: 'warning', summary: 'the citation names a file but no content hash' },
  'rlm/missing': { severity: 'error', summary: 'the cited file does not exist' },
  'rlm/not-a-file': { severity: 'error', summary: 'the cited path is a directory or other non-file' },
  'rlm/outside-root': { severity: 'error', summary: 'the cited path is absolute or leaves the project root' },
  'rlm/range': { severity: 'error', summary: 'the cited line range cannot exist in the cited file' },
  'rlm/malformed': { severity: 'warning', summary: 'a near-miss of the citation grammar' },
  'rlm/unknown-hash': { severity: 'error', summary: 'the cited hash matches no version of the file in git history' },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

/** A rule id known to the core. Other packages may report rules of their own. */
export type RuleId = keyof typeof RULES;

/** A per-rule severity override from configuration. */
export type SeverityOverride = 'error' | 'warning' | 'info' | 'off';
