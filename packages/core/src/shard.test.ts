import { describe, expect, it } from 'vitest';
import { parseShard, pathHash, selectShard, shardOf } from './shard.ts';

const paths = Array.from({ length: 2000 }, (_, at) => `docs/area${at % 17}/report-${at}.md`);

describe('--shard i/n', () => {
  it('partitions the documents: every path in exactly one shard, order kept', () => {
    for (const count of [1, 2, 3, 4, 7]) {
      const shards = Array.from({ length: count }, (_, at) => selectShard(paths, { index: at + 1, count }));
      const joined = shards.flat();
      expect(joined.length).toBe(paths.length);
      expect(new Set(joined).size).toBe(paths.length);
      for (const shard of shards) expect(shard).toEqual(paths.filter((path) => shard.includes(path)));
    }
  });

  it('spreads 2,000 paths over 4 shards within 15% of an even split', () => {
    for (let index = 1; index <= 4; index += 1) {
      const size = selectShard(paths, { index, count: 4 }).length;
      expect(Math.abs(size - 500)).toBeLessThan(75);
    }
  });

  it('hashes the UTF-8 bytes of the path with FNV-1a, so every machine agrees', () => {
    // FNV-1a 32 of the empty string and of "a" (published test vectors).
    expect(pathHash('')).toBe(0x811c9dc5);
    expect(pathHash('a')).toBe(0xe40c292c);
    expect(shardOf('docs/ü.md', 5)).toBe(shardOf('docs/ü.md', 5));
    expect(pathHash('docs/ü.md')).not.toBe(pathHash('docs/u.md'));
  });

  it('a document keeps its shard when others come and go', () => {
    const before = new Map(paths.map((path) => [path, shardOf(path, 4)]));
    const fewer = paths.filter((_, at) => at % 3 !== 0);
    for (let index = 1; index <= 4; index += 1) {
      for (const path of selectShard(fewer, { index, count: 4 })) expect(before.get(path)).toBe(index);
    }
  });

  it('reads i/n and refuses anything else with one line naming the flag', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/4', '5/4', '4', '1/0', 'a/b', '1/4/2', ' 1/4', '-1/4']) {
      expect(() => parseShard(bad)).toThrow(/--shard takes i\/n/);
    }
  });
});
