import type { Report } from '@aiwg-cite/core';

/** The stable JSON contract of `check --format json`: one document on stdout, nothing else. */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
