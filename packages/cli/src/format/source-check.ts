import { type Report, toSourceCheckDocument } from '@aiwg-cite/core';

/**
 * `check --format source-check`: every citation as a strict source-check verifier result (seed
 * 001's schema: claim_id, claim_text, claim_type, verdict from the enum, headline, …), plus the
 * skill's one-line summary. One JSON document on stdout.
 */
export function formatSourceCheck(report: Report): string {
  return `${JSON.stringify(toSourceCheckDocument(report), null, 2)}\n`;
}
