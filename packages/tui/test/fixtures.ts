import type { Finding, Summary } from '@aiwg-cite/core';
import type { EngineSnapshot } from '../src/engine.ts';

/** A finding with the fields the dashboard reads; test-only. */
export function finding(file: string, line: number, status: string, text = `[src/${status}.ts@0123456789abcdef, L1]`): Finding {
  const severity = status === 'fresh' ? 'ok' : status === 'missing' || status === 'invalid-range' ? 'error' : 'warning';
  return {
    file,
    line,
    column: 5,
    kind: 'rlm',
    text,
    status,
    severity,
    rule: `rlm/${status}`,
    message: `\`src/${status}.ts\` is ${status}`,
    fix: status === 'fresh' ? null : `fix the ${status} one`,
    artifact: `src/${status}.ts`,
    hash: '0123456789abcdef',
    currentHash: status === 'stale' ? 'fedcba9876543210' : null,
    lines: 'L1',
  };
}

/** A snapshot over the given attention list, with `fresh` fresh citations besides. */
export function snapshotOf(attention: Finding[], fresh = 0, documents = 2): EngineSnapshot {
  const count = (status: string) => attention.filter((item) => item.status === status).length;
  const summary: Summary = {
    files: documents,
    citations: attention.length + fresh,
    errors: attention.filter((item) => item.severity === 'error').length,
    warnings: attention.filter((item) => item.severity === 'warning').length,
    infos: 0,
    rlm: {
      total: attention.length + fresh,
      fresh,
      stale: count('stale'),
      unversioned: count('unversioned'),
      missing: count('missing'),
      malformed: count('malformed'),
      invalidRange: count('invalid-range'),
    },
    kinds: { rlm: { fresh } },
  };
  return { summary, verdict: summary.errors > 0 ? 'FAIL' : 'PASS', attention, documents, skipped: [] };
}
