import { resolve } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import { readRegularFile } from '@aiwg-cite/node';
import type { CliContext } from '../context.ts';
import { inputMessages, usageMessages } from '../messages.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads a file given on the command line (relative to the cwd), or stdin for `-`. */
export async function readInput(path: string, context: CliContext): Promise<Uint8Array> {
  if (path === '-') {
    if (context.stdin === undefined) throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.noStdin());
    const parts: Buffer[] = [];
    for await (const part of context.stdin) parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
    return Buffer.concat(parts);
  }
  try {
    return readRegularFile(resolve(context.cwd, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? inputMessages.noSuchFile() : code === 'EISDIR' ? inputMessages.isDirectory() : (error as Error).message;
    throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.cannotRead(path, why), { data: { path }, cause: error });
  }
}

/** Decodes UTF-8 exactly, a BOM kept as U+FEFF: text that would not survive a round trip is refused. */
export function decodeExact(bytes: Uint8Array, path: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.notUtf8(path), { data: { path }, cause: error });
  }
}

/** Parses a JSON input, naming the file when it is not JSON. */
export function parseJsonInput(bytes: Uint8Array, path: string): unknown {
  const text = decodeExact(bytes, path);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.notJson(path, (error as Error).message), { data: { path }, cause: error });
  }
}

/** A usage error of an interop command, pointing at its help. */
export function usageError(command: string, problem: string): AiwgCiteError {
  return new AiwgCiteError('USAGE', usageMessages.badArguments(command, problem, ''));
}
