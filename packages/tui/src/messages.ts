/**
 * Every user-facing sentence of `aiwg-cite watch`, in one place. Views add only colour and
 * layout. Citation messages and fixes come from the core (`rlmMessages`).
 */
export const watchMessages = {
  skippedDocument: (file: string, reason: string) => `${file}: skipped (${reason})`,
  watcherError: (detail: string) => `watcher: ${detail}`,
  discoveryFailed: (detail: string) => `could not list the documents again (${detail}); keeping the previous list`,
  /** The summary line of the plain (non-TTY) mode. */
  summaryLine: (label: string, counts: string, documents: number, durationMs: number) =>
    `${label}: ${counts} in ${documents} ${documents === 1 ? 'document' : 'documents'} (${Math.round(durationMs)} ms)`,
  rootGone: (root: string) => `${root}: the root was deleted, renamed or replaced; stopped watching`,
  watching: (root: string) => `watching ${root} (Ctrl-C to stop)`,
  title: () => 'aiwg-cite watch',
  updated: (clock: string, durationMs: number, rechecked: number) =>
    `updated ${clock} in ${Math.round(durationMs)} ms (${rechecked} ${rechecked === 1 ? 'document' : 'documents'} checked)`,
  documents: (count: number) => `${count} ${count === 1 ? 'document' : 'documents'}`,
  /** The facts line of the details view. */
  artifact: (artifact: string) => `artifact ${artifact}`,
  lines: (lines: string) => `lines ${lines}`,
  citedHash: (hash: string) => `cited hash ${hash}`,
  currentHash: (hash: string) => `current hash ${hash}`,
  /** The status filter's names, as the header shows the one in use. */
  filterLabels: {
    all: 'all problems',
    stale: 'stale',
    unversioned: 'un-versioned',
    missing: 'missing',
    malformed: 'malformed',
    other: 'other',
  },
  /** The header's count cells. */
  countLabels: {
    fresh: 'Fresh',
    stale: 'Stale',
    unversioned: 'Un-versioned',
    missing: 'Missing',
    malformed: 'Malformed',
    invalidRange: 'Invalid range',
    otherErrors: 'Other errors',
    otherWarnings: 'Other warnings',
  },
  stopped: () => 'stopped',
  noAttention: () => 'Nothing needs attention.',
  codeOnly: () => 'Code citations only: `watch --scholarly` also checks REF ids, @-mentions, DOIs and quotes.',
  noMatch: () => 'No citation matches the filter.',
  more: (count: number) => `… ${count} more`,
  above: (count: number) => `… ${count} above`,
  waiting: () => 'checking…',
  footer: () => '↑↓/jk move  Enter details  f filter  / path  a re-verify  h help  q quit',
  detailsFooter: () => 'Esc/Enter back  q quit',
  helpFooter: () => 'any key: back',
  pathPrompt: (draft: string) => `path: ${draft}▏  (Enter keep, Esc clear)`,
  blameLoading: () => 'staling commit: looking it up…',
  blameNone: (drift: string) =>
    drift === 'uncommitted'
      ? 'staling commit: none yet, the change is not committed'
      : `staling commit: none found (${drift}); \`aiwg-cite blame\` explains`,
  blameUnavailable: () => 'staling commit: unavailable (not a git repository, or the lookup failed)',
  staling: (sha: string, date: string, author: string) => `staling commit: ${sha.slice(0, 12)} ${date.slice(0, 10)} ${author}`,
  stalingSubject: (subject: string, drift: string) => `    ${subject} (drift: ${drift})`,
  help: [
    'aiwg-cite watch: keys',
    '',
    '  ↑ ↓  j k      move through the citations that need attention',
    '  Enter        details: citation, message, fix (Esc to go back)',
    '  f            cycle the status filter: all, stale, un-versioned, missing, malformed, other',
    '  2-5          show only stale, un-versioned, missing or malformed (1 or 0: all)',
    '  /            filter by path (type-ahead; Enter keeps it, Esc clears it)',
    '  a            re-verify every document from scratch',
    '  h  ?         this help',
    '  q  Ctrl-C    quit',
  ],
} as const;
