import { availableParallelism } from 'node:os';
import { AiwgCiteError, type BatchHelper, type BatchPorts, type BatchShare, checkDocumentShare } from '@aiwg-cite/core';
import type { CliContext, HelperLink } from '../context.ts';
import { usageMessages } from '../messages.ts';
import type { HelperCacheWork, ResultCacheRun, StoredEntry } from './check-cache.ts';
import type { ScholarlyThread } from './check-scholarly.ts';

/**
 * `check`'s helper thread (issues 13 and 18): on a machine with more than one core, a run that has
 * many documents to read (a first run, a clone, `--no-cache`) starts one worker thread running
 * this same `check` (the bin, with {@link HELPER_FLAG} before the arguments), which builds the run
 * as the main thread did and then reads and checks batches of documents from a queue the main
 * thread takes from too, one document at a time. The worker hands back what it found
 * before the history stage, the result-cache entries it made (the main thread writes the cache's
 * files, one writer), the stamps it made and what the scholarly checks held back; the main thread
 * takes all of it as its own, so the report is byte for byte the one a run on one thread gives.
 */

/** The argument a helper thread's bin starts with (bin.ts reads it; a user never types it). */
export const HELPER_FLAG = '--aiwg-cite-helper';

/**
 * How many documents left to read make a helper worth its start. A worker loads the bundle, builds
 * the run again (configuration, corpus) and compiles the checks afresh before it checks at full
 * speed, and its findings cross back by copy: measured on 2 cores (BENCHMARKS.md, "helper
 * thread"), a cold run of 3,000 or 5,000 documents was slower with it (1.15×, 1.12×), of 10,000
 * faster (0.90×), of 100,000 much faster (0.71×).
 */
const DEFAULT_MINIMUM = 8000;

/** Documents a helper asks for at once: few enough that neither thread waits long for the other at the end. */
const BATCH = 64;

/**
 * What a helper thread sends: that it took its first batch; after each batch, what the batch found
 * with the cache entries it stored, its lookups and the stamps it made; at last what the scholarly
 * checks held back.
 */
type FromHelper =
  | { readonly kind: 'started' }
  | {
      readonly kind: 'part';
      readonly entries: readonly StoredEntry[];
      readonly share: BatchShare;
      readonly cache: HelperCacheWork | null;
    }
  | { readonly kind: 'done'; readonly held: readonly (readonly [string, number])[] };

/** What the main thread tells its helper when it starts it. */
interface HelperStart {
  /** The documents of the queue, and the queue's head, shared by both threads (one Int32). */
  readonly files: readonly string[];
  readonly head: SharedArrayBuffer;
  readonly now: number;
  readonly identityInPipeline: boolean;
  /** `--config PATH`, which main.ts takes off the arguments. */
  readonly configFile: CliContext['configFile'];
}

/**
 * How many documents to read make this run start a helper thread, or `null` for none:
 * `AIWG_CITE_THREADS=1` never, `=2` whatever the run's size (tests), unset or `auto` from
 * {@link DEFAULT_MINIMUM} on a machine with two cores or more.
 */
export function helperMinimum(env: CliContext['env']): number | null {
  const named = env.AIWG_CITE_THREADS;
  if (named === '1') return null;
  if (forced(env)) return 1;
  if (named !== undefined && named !== '' && named !== 'auto') throw new AiwgCiteError('USAGE', usageMessages.badThreads(named));
  return availableParallelism() > 1 ? DEFAULT_MINIMUM : null;
}

/** `AIWG_CITE_THREADS=2`: a helper whatever the run's size, which takes its first batch before the main thread takes any. */
function forced(env: CliContext['env']): boolean {
  return env.AIWG_CITE_THREADS === '2';
}

/** The pipeline's helper port: a worker started from `entry` (the bin) with the run's arguments, when asked. */
export function startHelper(
  entry: URL,
  args: readonly string[],
  context: CliContext,
  run: { readonly minimum: number; readonly now: Date; readonly cache: ResultCacheRun | null; readonly thread: ScholarlyThread },
): BatchHelper {
  return {
    minimum: run.minimum,
    start(files) {
      // The queue's head, taken with an atomic add by either thread: no message per batch, so a
      // main thread busy with its own documents never keeps the helper waiting.
      const head = new SharedArrayBuffer(4);
      const at = new Int32Array(head);
      const start: HelperStart = {
        files,
        head,
        now: run.now.getTime(),
        identityInPipeline: run.thread.identityInPipeline(),
        configFile: context.configFile,
      };
      let begun = (): void => undefined;
      const started = new Promise<void>((resolve) => {
        begun = resolve;
      });
      const parts: BatchShare[] = [];
      const done = new Promise<readonly BatchShare[]>((resolve, reject) => {
        // Loaded here, not with the module: a commit hook's `check --staged` never starts a worker (~3 ms).
        const { Worker } = process.getBuiltinModule('node:worker_threads');
        // The worker writes nothing to the terminal: its streams are its own, never read.
        const worker = new Worker(entry, {
          argv: [HELPER_FLAG, ...args],
          workerData: start,
          env: { ...context.env },
          stdin: false,
          stdout: true,
          stderr: true,
        });
        let settled = false;
        worker.on('message', (message: FromHelper) => {
          if (settled) return;
          if (message.kind === 'started') {
            begun();
            return;
          }
          if (message.kind === 'part') {
            run.cache?.store(message.entries);
            const { early, verified, cached } = message.share;
            if (message.cache !== null) run.cache?.adopt(message.cache, early.length + verified.length + cached.length);
            parts.push(message.share);
            return;
          }
          settled = true;
          begun();
          run.thread.adoptHeld(message.held);
          resolve(parts);
          void worker.terminate();
        });
        worker.on('error', (error) => {
          if (settled) return;
          settled = true;
          begun();
          reject(error);
        });
        worker.on('exit', (code) => {
          if (settled) return;
          settled = true;
          begun();
          reject(new Error(`the helper thread ended (${code}) before it answered`));
        });
      });
      // This thread lets its event loop turn once every batch of its own, so that the helper's
      // parts are received (and their copies read) while both threads check.
      let checked = 0;
      return {
        next: () => files[Atomics.add(at, 0, 1)],
        done,
        pause: () => (++checked % BATCH === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : null),
        ...(forced(context.env) ? { started } : {}),
      };
    },
  };
}

/** The context of a helper thread's run: the clock of the run it helps, and no output. */
export function helperContext(context: CliContext, link: HelperLink): CliContext {
  const start = link.data as HelperStart;
  const silent = { write: () => true };
  const config = start.configFile === undefined ? {} : { configFile: start.configFile };
  return { ...context, ...config, clock: () => new Date(start.now), stdout: silent, stderr: silent };
}

/**
 * The helper thread's part, once its run is built as the main thread's: takes the main thread's
 * choice of body identity, then checks batches from the shared queue, handing on after each what
 * it found, the cache entries it stored and the stamps it made, and at last its held-back counts.
 */
export async function helpCheck(
  link: HelperLink,
  ports: BatchPorts,
  run: { readonly cache: ResultCacheRun | null; readonly entries: StoredEntry[]; readonly thread: ScholarlyThread },
): Promise<number> {
  const start = link.data as HelperStart;
  const at = new Int32Array(start.head);
  run.thread.assumeIdentityInPipeline(start.identityInPipeline);
  let taking = false;
  const take = (): readonly string[] => {
    const first = Atomics.add(at, 0, BATCH);
    if (!taking) link.port.postMessage({ kind: 'started' } satisfies FromHelper);
    taking = true;
    return start.files.slice(first, first + BATCH);
  };
  const hand = (share: BatchShare): void => {
    link.port.postMessage({
      kind: 'part',
      entries: run.entries.splice(0),
      share: postable(share),
      cache: run.cache?.work() ?? null,
    } satisfies FromHelper);
  };
  await checkDocumentShare(take, ports, hand);
  const done: FromHelper = { kind: 'done', held: run.thread.held() };
  link.port.postMessage(done);
  return 0;
}

/**
 * A share as it is posted to the main thread: the texts of a result the cache answered, a view of
 * the bytes of the whole segment it was read from, are copied alone (a posted view takes its
 * whole buffer along, a copy per document).
 */
export function postable(share: BatchShare): BatchShare {
  if (!share.cached.some(([, result]) => result.okJson?.json instanceof Uint8Array)) return share;
  const cached = share.cached.map(([file, result]) => {
    const texts = result.okJson;
    if (texts === undefined || !(texts.json instanceof Uint8Array)) return [file, result] as const;
    return [file, { ...result, okJson: { ...texts, json: new Uint8Array(texts.json) } }] as const;
  });
  return { ...share, cached };
}
