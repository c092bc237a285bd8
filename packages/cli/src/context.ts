import type { MessagePort } from 'node:worker_threads';
import { AiwgCiteError } from '@aiwg-cite/core';
import { type AiwgCiteConfig, type ConfigFileChoice, loadConfig } from '@aiwg-cite/node';
import { usageMessages } from './messages.ts';

/** A writable text stream (stdout or stderr). */
export interface Output {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
}

/** The signals a long-running command stops on. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Subscribes to process signals; returns the function that unsubscribes. */
export type SignalSource = (signal: StopSignal, handler: () => void) => () => void;

/**
 * The run context: everything a command may touch of its process (directory, environment,
 * streams, clock, signals), injected so every command, `watch` included, is testable in-process
 * and no command reaches for `process` itself.
 */
export interface CliContext {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The wall clock. @default () => new Date() */
  readonly clock?: () => Date;
  /** Process signals. @default none: a command run in-process is stopped by its caller */
  readonly signals?: SignalSource;
  /** The configuration file named by `--config PATH`. @default the root's (see {@link loadRunConfig}) */
  readonly configFile?: ConfigFileChoice;
  /** The file `check` starts a helper thread from (the bin, bin.ts); absent: every run keeps to one thread. */
  readonly helperEntry?: URL;
  /** In a helper thread of `check` (commands/check-helper.ts): its tie to the run it helps. */
  readonly helping?: HelperLink;
}

/** A helper thread's tie to the run it helps: what that run sent at the start, and the channel between them. */
export interface HelperLink {
  readonly data: unknown;
  readonly port: MessagePort;
}

/**
 * The configuration of a run: the file `--config` named, else the root's `aiwg-cite.config.json`
 * or package.json key. Every command that reads configuration asks here.
 */
export function loadRunConfig(root: string, context: Pick<CliContext, 'configFile'>): AiwgCiteConfig {
  return loadConfig(root, context.configFile);
}

/** A subcommand: parses its own arguments and returns the exit code. */
export interface Command {
  readonly summary: string;
  run(args: readonly string[], context: CliContext): Promise<number>;
}

/** The date of a run: its year, month and ISO day, as checks and certificates use it. */
export interface RunDate {
  readonly date: Date;
  readonly year: number;
  readonly month: number;
  /** `YYYY-MM-DD`. */
  readonly iso: string;
}

/**
 * The current time of a run: `AIWG_CITE_DATE` (`YYYY-MM-DD`, midnight UTC) when set, so runs,
 * reports and certificates are reproducible, else the context's clock. Every command asks here.
 */
export function runNow(context: Pick<CliContext, 'env' | 'clock'>): Date {
  const fixed = context.env.AIWG_CITE_DATE;
  if (fixed !== undefined && fixed !== '') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fixed);
    const date = match === null ? null : new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    if (date === null || date.toISOString().slice(0, 10) !== fixed) {
      throw new AiwgCiteError('USAGE', usageMessages.badDate(fixed));
    }
    return date;
  }
  return context.clock?.() ?? new Date();
}

/** {@link runNow} as a run date. */
export function runDate(context: Pick<CliContext, 'env' | 'clock'>): RunDate {
  const date = runNow(context);
  return { date, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, iso: date.toISOString().slice(0, 10) };
}
