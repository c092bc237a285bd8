/**
 * A set of git object ids kept as one string of hex digits, as the citation index's summary
 * stores them: parsing 100,000 ids as one string takes a few milliseconds where an array of
 * 100,000 strings took tens, and asking whether it holds an id, given as its bytes where the git
 * index file holds them, needs no string per id (a table keyed by each id's first four bytes).
 */
export class BlobSet {
  /** The ids, concatenated, `width` hex digits each. */
  readonly hex: string;
  /** Hex digits per id: 40 (SHA-1) or 64 (SHA-256). */
  readonly width: number;
  #bytes: Buffer | undefined;
  #table: Uint32Array | undefined;

  private constructor(hex: string, width: number) {
    this.hex = hex;
    this.width = width;
  }

  /** The set of `ids` (hex, all one width); an empty set has the width of SHA-1. */
  static of(ids: Iterable<string>): BlobSet {
    const list = [...ids];
    return new BlobSet(list.join(''), list[0]?.length ?? 40);
  }

  /** The set a summary stored, or `null` when it is not `width`-digit lowercase hex ids. */
  static parse(hex: unknown, width: unknown): BlobSet | null {
    if (typeof hex !== 'string' || (width !== 40 && width !== 64) || hex.length % width !== 0) return null;
    const bytes = Buffer.from(hex, 'hex');
    // Decoding stops at the first character that is not hex; upper case would decode but never match.
    if (bytes.length * 2 !== hex.length || bytes.toString('hex') !== hex) return null;
    const set = new BlobSet(hex, width);
    set.#bytes = bytes;
    return set;
  }

  get size(): number {
    return this.hex.length / this.width;
  }

  /** The ids, hex. */
  ids(): string[] {
    const out: string[] = [];
    for (let at = 0; at < this.hex.length; at += this.width) out.push(this.hex.slice(at, at + this.width));
    return out;
  }

  /** This set with `more` (hex ids of the same width) added after. */
  with(more: Iterable<string>): BlobSet {
    const added = [...more];
    return new BlobSet(this.hex + added.join(''), this.size === 0 ? (added[0]?.length ?? this.width) : this.width);
  }

  /** Whether the set holds the id whose bytes stand in `source` from `at` on (as many as the set's ids have). */
  hasBytes(source: Uint8Array, at: number): boolean {
    const length = this.width / 2;
    if (at < 0 || at + length > source.length) return false;
    const bytes = this.#bytesOf();
    const table = this.#tableOf(bytes);
    const mask = table.length - 1;
    const key =
      ((source[at] as number) << 24) | ((source[at + 1] as number) << 16) | ((source[at + 2] as number) << 8) | (source[at + 3] as number);
    let slot = key & mask;
    for (let entry = table[slot] as number; entry !== 0; entry = table[slot] as number) {
      const start = (entry - 1) * length;
      let same = true;
      for (let offset = 0; offset < length && same; offset += 1) same = bytes[start + offset] === source[at + offset];
      if (same) return true;
      slot = (slot + 1) & mask;
    }
    return false;
  }

  #bytesOf(): Buffer {
    this.#bytes ??= Buffer.from(this.hex, 'hex');
    return this.#bytes;
  }

  /** Open addressing: each slot holds an id's position plus one (0: empty), at least half the slots empty. */
  #tableOf(bytes: Buffer): Uint32Array {
    if (this.#table !== undefined) return this.#table;
    const length = this.width / 2;
    const count = bytes.length / length;
    let size = 16;
    while (size < count * 2) size *= 2;
    const table = new Uint32Array(size);
    const mask = size - 1;
    for (let index = 0; index < count; index += 1) {
      let slot = bytes.readUInt32BE(index * length) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = index + 1;
    }
    this.#table = table;
    return table;
  }
}
