import { AiwgCiteError, type DocumentChecker, type RunStage } from '@aiwg-cite/core';
import packageJson from '../../package.json' with { type: 'json' };
import { type CliContext, loadRunConfig } from '../context.ts';
import { refsMessages, runMessages, usageMessages } from '../messages.ts';

/** The flags `check` takes for the online checks (SPEC §6). */
export const ONLINE_FLAGS = {
  online: { type: 'boolean' },
  offline: { type: 'boolean' },
  'no-cache': { type: 'boolean' },
} as const;

/** Their lines in `check --help`. */
export const ONLINE_HELP = `  --online             also resolve DOIs (doi.org, Crossref, OpenAlex), arXiv ids and URLs over the
                       network; never on by default, never in the commit hook
  --offline            make no network requests (the default); a usage error together with --online
  --no-cache           trust no stored result: neither read nor write the result cache, nor (with
                       --online) the online cache; every document is checked again
`;

/** What `check` needs from the online layer: a checker wrapper and a coverage note. */
export interface OnlineStep {
  /** Adds the online checker, which upgrades the offline doi/arxiv findings it re-checks. */
  readonly checkers: (offline: readonly DocumentChecker[]) => readonly DocumentChecker[];
  /** The pipeline's online stage: saves the cache, ends progress and notes the request count; none offline. */
  readonly stage?: RunStage;
}

const PASS_THROUGH: OnlineStep = { checkers: (offline) => offline };

/**
 * Reads `--online`, `--offline` and `--no-cache`. `@aiwg-cite/online` (HTTP, cache, listr2) is
 * imported only when `--online` is given, so a default `check` never loads it.
 */
export async function prepareOnline(
  values: { online?: boolean; offline?: boolean; 'no-cache'?: boolean; staged?: boolean },
  root: string,
  context: CliContext,
): Promise<OnlineStep> {
  if (values.online === true && values.offline === true) throw new AiwgCiteError('USAGE', usageMessages.onlineAndOffline());
  if (values.online !== true) {
    return PASS_THROUGH;
  }
  if (values.staged === true) throw new AiwgCiteError('USAGE', usageMessages.onlineWithStaged());
  const online = await import('@aiwg-cite/online');
  const session = await openCliOnlineSession(root, context, values['no-cache'] === true);
  // Reference lists (References / Bibliography sections) are verified as `aiwg-cite refs` does;
  // that session opens only when a document has one.
  let refs: import('@aiwg-cite/online').RefsSession | null = null;
  const openRefs = () => {
    refs ??= online.openRefsSession({
      root,
      env: context.env,
      version: packageJson.version,
      urls: loadRunConfig(root, context).online ?? {},
      useCache: values['no-cache'] !== true,
      entries: 0,
      warn: (message) => context.stderr.write(`${refsMessages.warning(message)}\n`),
    });
    return refs;
  };
  return {
    checkers: (offline) => [online.withOnline([...offline, online.createReferenceListChecker(openRefs)], session.checker)],
    stage: {
      async run() {
        const notes = [await session.close()];
        if (refs !== null) notes.push(runMessages.referenceLists((refs as import('@aiwg-cite/online').RefsSession).close()));
        return { notes };
      },
    },
  };
}

/**
 * Opens the online session of one CLI run (`check --online`, `certify --online`): the project's
 * configuration (placeholder DOIs, service URLs), the environment, progress on stderr. Loads the
 * online package only when called.
 */
export async function openCliOnlineSession(
  root: string,
  context: CliContext,
  noCache: boolean,
): Promise<import('@aiwg-cite/online').OnlineSession> {
  const online = await import('@aiwg-cite/online');
  const config = loadRunConfig(root, context);
  return online.openOnlineSession({
    root,
    env: context.env,
    useCache: !noCache,
    stderr: context.stderr,
    version: packageJson.version,
    createProgress: async (stream) =>
      stream.isTTY === true && (stream.columns ?? 0) > 0
        ? (await import('../progress-tty.ts')).createTtyProgress(stream as typeof stream & NodeJS.WriteStream, online.describeProgress)
        : online.createPlainProgress(stream),
    placeholderDois: config.doi?.placeholders ?? [],
    urls: config.online ?? {},
  });
}
