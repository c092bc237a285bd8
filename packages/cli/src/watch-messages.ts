/**
 * The sentences of a `check` that a running `watch` answers: the asking side's trace
 * (`AIWG_CITE_WATCH=trace`), the watch's reasons to decline and its problems. Apart from
 * messages.ts, which re-exports them, so that the client the bin loads before anything else
 * (watch-client.ts) carries only these.
 */
export const watchServeMessages = {
  noWatch: () => 'no watch runs here; checking',
  noAnswer: () => 'the watch did not answer; checking',
  declined: (why: string) => `the watch does not answer this check (${why}); checking`,
  answered: () => 'answered by the running watch',
  cutShort: () => 'the watch stopped while answering; run `aiwg-cite check --no-watch`',
  /** The watch's own trace line of one answer. */
  traced: (answer: string, waitedMs: number, rebuilt: boolean) =>
    `${answer}, after ${waitedMs.toFixed(0)} ms for the events before it${rebuilt ? '; held state rebuilt' : ''}`,
  answeredIn: (ms: number) => `answered check in ${ms.toFixed(0)} ms`,
  declinedBecause: (why: string) => `declined check (${why})`,
  cannotListen: (socket: string, reason: string) => `cannot answer check at ${socket}: ${reason}`,
  tooManyDirectories: (count: number, limit: number) =>
    `${count} directories, more than ${limit}: watching only those of the documents and the files they cite; a document saved into another is seen when git's index changes, or on \`a\`, and a running watch does not answer \`check\``,
  anotherWatch: (socket: string) => `another aiwg-cite watch answers check in this repository; this one does not (${socket})`,
  /** Why a watch does not answer: each short, after "does not answer this check (". */
  why: {
    notARequest: 'not a request',
    loading: 'the watch is still loading',
    configurationChanged: 'the configuration changed since the watch read it',
    noSyncEvent: 'the watch saw no event of its sync file',
    notACheck: 'not a check',
    invalid: 'the request is not a valid check',
    paths: 'paths',
    flag: (flag: string) => `--${flag}`,
    notRlm: 'not --rlm',
    rlmOfScholarly: '--rlm, and the watch runs every check',
    corpusChanged: 'the corpus, the configuration or the month changed since the watch read them',
    anotherRoot: 'another root',
    anotherConfig: 'another --config',
    anotherEnvironment: 'another environment',
    anotherStrict: 'another --strict',
    anotherIncludeCode: 'another --include-code',
    historyNote: 'a history note',
    unheldDocument: 'a document the watch does not hold',
    notEveryDirectory: 'the watch does not watch every directory',
  },
} as const;
