import { AiwgCiteError } from './errors.ts';
import { shardMessages } from './messages.ts';

/** One slice of a run split across machines: shard `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Reads `i/n` (1 ≤ i ≤ n), as `--shard 2/4` writes it, or throws a usage error naming the flag. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text);
  const index = match === null ? Number.NaN : Number.parseInt(match[1] as string, 10);
  const count = match === null ? Number.NaN : Number.parseInt(match[2] as string, 10);
  if (!(count >= 1 && index >= 1 && index <= count)) {
    throw new AiwgCiteError('USAGE', shardMessages.badShard(text));
  }
  return { index, count };
}

const encoder = new TextEncoder();

/**
 * FNV-1a (32 bits) over the path's UTF-8 bytes: the same number on every machine, Node version
 * and operating system, and independent of which other documents exist, so a document stays in
 * its shard when others are added or removed.
 */
export function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(path)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The shard (1-based) a root-relative POSIX path belongs to among `count`. */
export function shardOf(path: string, count: number): number {
  return (pathHash(path) % count) + 1;
}

/** The documents of one shard, in their original order; the shards of a count partition the set. */
export function selectShard(documents: readonly string[], shard: Shard): string[] {
  if (shard.count === 1) return [...documents];
  return documents.filter((path) => shardOf(path, shard.count) === shard.index);
}
