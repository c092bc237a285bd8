import { escapeControls, type Finding, RLM_LABELS, type Summary } from '@aiwg-cite/core';
import type { EngineSnapshot, EngineUpdate, VerdictChange } from './engine.ts';
import { watchMessages } from './messages.ts';

/** The display label of a status (`FRESH`, `UN-VERSIONED`, …), or `(none)` for a citation that appeared or went away. */
export function statusLabel(kind: string, status: string | null): string {
  if (status === null) return '(none)';
  return (kind === 'rlm' ? RLM_LABELS[status] : undefined) ?? status.toUpperCase();
}

/** One log line per change of verdict: `file:line:col OLD -> NEW citation`, control characters escaped. */
export function formatVerdictChange(change: VerdictChange): string {
  return escapeControls(
    `${change.file}:${change.line}:${change.column} ${statusLabel(change.kind, change.before)} -> ${statusLabel(change.kind, change.after)} ${change.text}`,
  );
}

/** A header count: a label followed by its number. */
export interface CountCell {
  readonly label: string;
  readonly count: number;
  /** What colour the count takes when it is above zero. */
  readonly tone: 'good' | 'warn' | 'bad' | 'neutral';
}

/**
 * The header counts: `Fresh`, `Stale`, `Un-versioned`, `Missing` always; `Malformed` and
 * `Invalid range` when above zero; and, when other kinds of citation are checked, their errors
 * and warnings.
 */
export function countCells(summary: Summary, attention: readonly Finding[]): CountCell[] {
  const { rlm } = summary;
  const labels = watchMessages.countLabels;
  const cells: CountCell[] = [
    { label: labels.fresh, count: rlm.fresh, tone: 'good' },
    { label: labels.stale, count: rlm.stale, tone: 'warn' },
    { label: labels.unversioned, count: rlm.unversioned, tone: 'warn' },
    { label: labels.missing, count: rlm.missing, tone: 'bad' },
  ];
  if (rlm.malformed > 0) cells.push({ label: labels.malformed, count: rlm.malformed, tone: 'warn' });
  if (rlm.invalidRange > 0) cells.push({ label: labels.invalidRange, count: rlm.invalidRange, tone: 'bad' });
  const otherKinds = Object.keys(summary.kinds).some((kind) => kind !== 'rlm');
  if (otherKinds) {
    let errors = 0;
    let warnings = 0;
    for (const finding of attention) {
      if (finding.kind === 'rlm') continue;
      if (finding.severity === 'error') errors += 1;
      else if (finding.severity === 'warning') warnings += 1;
    }
    cells.push({ label: labels.otherErrors, count: errors, tone: 'bad' });
    cells.push({ label: labels.otherWarnings, count: warnings, tone: 'warn' });
  }
  return cells;
}

/** The counts as one plain string: `Fresh 12  Stale 3  Un-versioned 1  Missing 0`. */
export function formatCounts(summary: Summary, attention: readonly Finding[]): string {
  return countCells(summary, attention)
    .map((cell) => `${cell.label} ${cell.count}`)
    .join('  ');
}

/** The plain-mode summary line printed at start and after `a`. */
export function formatSummaryLine(snapshot: EngineSnapshot, update: EngineUpdate): string {
  return watchMessages.summaryLine(
    snapshot.verdict,
    formatCounts(snapshot.summary, snapshot.attention),
    snapshot.documents,
    update.durationMs,
  );
}

/**
 * The NDJSON form of an update, one JSON object per line: `{"type":"change",…}` for each change of
 * verdict (fields of {@link VerdictChange}), then `{"type":"summary",…}` with the verdict, the
 * `summary` object of the JSON report and the update's timing. At load, instead of changes, one
 * `{"type":"skipped","file","reason"}` per document that could not be checked. Nothing for a batch
 * that changed no verdict; the summary after new settings (the configuration or the corpus
 * changed), whose severities may have moved without a verdict.
 */
export function formatNdjson(snapshot: EngineSnapshot, update: EngineUpdate): string[] {
  if (update.reason === 'change' && update.changes.length === 0) return [];
  // A load reports the state itself, not every citation as a change from nothing.
  const lines =
    update.reason === 'load'
      ? snapshot.skipped.map((skipped) => JSON.stringify({ type: 'skipped', ...skipped }))
      : update.changes.map((change) => JSON.stringify({ type: 'change', ...change }));
  lines.push(
    JSON.stringify({
      type: 'summary',
      reason: update.reason,
      verdict: snapshot.verdict,
      documents: snapshot.documents,
      rechecked: update.rechecked,
      durationMs: Math.round(update.durationMs),
      summary: snapshot.summary,
    }),
  );
  return lines;
}
