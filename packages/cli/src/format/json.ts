import type { Report } from '@aiwg-cite/core';

/**
 * The stable JSON contract of `check --format json`: one compact document on stdout, nothing
 * else (pipe it through `jq` to read it). Compact because a large repository's report runs to
 * tens of megabytes, where indentation alone costs a noticeable part of a commit hook's budget.
 */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report)}\n`;
}
