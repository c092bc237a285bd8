import type { Output } from './context.ts';

/** ANSI styles, or identity functions when colour is off. */
export interface Palette {
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Colour only on a TTY, never with NO_COLOR set, always with FORCE_COLOR set to a non-zero value. */
export function shouldColor(stream: Output, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}

/** A palette for a stream. */
export function paletteFor(stream: Output, env: Readonly<Record<string, string | undefined>>): Palette {
  if (!shouldColor(stream, env)) {
    return { red: plain, yellow: plain, green: plain, cyan: plain, dim: plain, bold: plain };
  }
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
