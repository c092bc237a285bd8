import { type ParseArgsConfig, parseArgs } from 'node:util';
import { AiwgCiteError } from '@aiwg-cite/core';
import { usageMessages } from './messages.ts';
import { didYouMean } from './suggest.ts';

/** Parses a command's arguments strictly: an unknown flag is a usage error (exit 2). */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error);
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    const names = Object.entries(options).flatMap(([name, option]) => [
      `--${name}`,
      ...(option.short === undefined ? [] : [`-${option.short}`]),
    ]);
    const hint = unknown === undefined ? '' : (shortHint(unknown, names) ?? didYouMean(unknown.replace(/=.*$/, ''), names));
    throw new AiwgCiteError('USAGE', usageMessages.badArguments(command, message, hint), { cause: error });
  }
}

/**
 * The hint for an unknown one-letter flag: the one long option with that initial (`-f` → `--fix`
 * only where nothing else starts with f), else none. Every other one letter is one edit away, so
 * "did you mean `-h`?" would be a guess, not a typo fixed.
 */
function shortHint(unknown: string, names: readonly string[]): string | undefined {
  if (!/^-[^-]$/.test(unknown)) return undefined;
  const initial = `--${unknown.slice(1)}`.toLowerCase();
  const matches = names.filter((name) => name.toLowerCase().startsWith(initial));
  return matches.length === 1 ? didYouMean(matches[0] as string, matches) : '';
}

/** Reads a whole-number option, or throws a usage error naming it. */
export function parseCount(command: string, flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new AiwgCiteError('USAGE', usageMessages.notWholeNumber(command, flag, value));
  return Number.parseInt(value, 10);
}

/** Reads an option restricted to a fixed set of values. */
export function parseChoice<const C extends string>(
  command: string,
  flag: string,
  value: string | undefined,
  choices: readonly C[],
  fallback: C,
): C {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as C;
  throw new AiwgCiteError('USAGE', usageMessages.notAChoice(command, flag, choices, value));
}
