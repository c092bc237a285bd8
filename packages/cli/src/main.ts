import { resolve } from 'node:path';
import { AiwgCiteError, escapeControls, isAiwgCiteError } from '@aiwg-cite/core';
import packageJson from '../package.json' with { type: 'json' };
import { COMMANDS } from './commands/registry.ts';
import type { CliContext } from './context.ts';
import { cliMessages } from './messages.ts';
import { didYouMean } from './suggest.ts';

const USAGE = `Usage: aiwg-cite <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`)
  .join('\n')}

Run \`aiwg-cite help <command>\` (or \`aiwg-cite <command> --help\`) for a command's options.
Options for every command:
  --no-color     no colour (also NO_COLOR=1; FORCE_COLOR=1 forces colour when output is not a terminal)
  --config PATH  read the configuration from PATH (a JSON file, or a package.json with an
                 "aiwg-cite" key) instead of the root's aiwg-cite.config.json
Exit codes: 0 pass, 1 findings that fail the run, 2 usage or tool error.
`;

/** Runs the CLI and returns its exit code. Never calls `process.exit`. */
export async function main(argv: readonly string[], context: CliContext): Promise<number> {
  let parsed: { args: string[]; context: CliContext };
  try {
    parsed = applyGlobalFlags(argv, context);
  } catch (error) {
    context.stderr.write(`aiwg-cite: ${describeFailure(error)}\n`);
    return 2;
  }
  const { args, context: effective } = parsed;
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h') {
    effective.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === 'help') {
    // `help CMD` is `CMD --help`, so the two always agree.
    if (rest.length === 0) {
      effective.stdout.write(USAGE);
      return 0;
    }
    return main([rest[0] as string, '--help'], effective);
  }
  if (name === '--version' || name === '-v') {
    effective.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (entry === undefined) {
      const hint = didYouMean(name, Object.keys(COMMANDS));
      throw new AiwgCiteError('USAGE', cliMessages.unknownCommand(name, hint));
    }
    const command = await entry.load();
    return await command.run(rest, effective);
  } catch (error) {
    effective.stderr.write(`aiwg-cite: ${describeFailure(error)}\n`);
    return 2;
  }
}

/**
 * Options every command takes, read before the command parses its own: `--no-color` turns colour
 * off as NO_COLOR does (the palette reads the environment); `--config PATH` (or `--config=PATH`)
 * names the configuration file, relative to the working directory. Arguments after `--` are left
 * alone.
 */
export function applyGlobalFlags(argv: readonly string[], context: CliContext): { args: string[]; context: CliContext } {
  const end = argv.indexOf('--');
  const head = end === -1 ? [...argv] : argv.slice(0, end);
  const args: string[] = [];
  let effective = context;
  for (let at = 0; at < head.length; at += 1) {
    const arg = head[at] as string;
    if (arg === '--no-color') {
      effective = { ...effective, env: { ...effective.env, NO_COLOR: '1', FORCE_COLOR: undefined } };
    } else if (arg === '--config' || arg.startsWith('--config=')) {
      const separate = arg === '--config';
      const name = separate ? head[at + 1] : arg.slice('--config='.length);
      if (separate) at += 1;
      if (name === undefined || name === '') throw new AiwgCiteError('USAGE', cliMessages.configNeedsPath());
      effective = { ...effective, configFile: { path: resolve(context.cwd, name), name } };
    } else {
      args.push(arg);
    }
  }
  if (end !== -1) args.push(...argv.slice(end));
  return { args, context: effective };
}

function describeFailure(error: unknown): string {
  // A message may name a file or quote text from the repository: no terminal escape gets through.
  if (isAiwgCiteError(error)) return escapeControls(error.message);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return (error as Error).message;
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return cliMessages.internalError(message);
}
