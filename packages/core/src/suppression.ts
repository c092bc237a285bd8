import type { Suppression } from './markdown/scan.ts';
import type { Finding } from './report.ts';
import { namesFinding } from './rules.ts';

/**
 * Whether an `aiwg-cite-disable-next-line` comment silences a finding: one on the finding's line
 * with no rule list, or naming its rule id or its kind. The one suppression test of every mode.
 */
export function isSuppressed(finding: Finding, suppressions: readonly Suppression[]): boolean {
  for (const suppression of suppressions) {
    if (suppression.line !== finding.line) continue;
    if (suppression.rules.length === 0) return true;
    if (suppression.rules.some((rule) => namesFinding(rule, finding))) return true;
  }
  return false;
}
