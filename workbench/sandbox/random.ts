// The sandbox's deterministic randomness: one small PRNG (sfc32) seeded from `--seed` and the store id,
// so the same seed gives the same world on every run and every machine, and two stores differ.
import { createHash } from 'node:crypto';

// Crockford base32 without I, L, O, U: ids read back aloud without ambiguity (`cst_9XK2PL`).
const ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `parts` are joined and hashed, so `new Random(1, 'demo-store', 'catalog')` names one stream. */
  constructor(...parts: Array<string | number>) {
    const digest = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
    this.a = digest.readUInt32LE(0);
    this.b = digest.readUInt32LE(4);
    this.c = digest.readUInt32LE(8);
    this.d = digest.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `count` distinct items, in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
    return out;
  }

  /** `prefix` + `length` characters of the id alphabet. */
  id(prefix: string, length = 6): string {
    let s = prefix;
    for (let i = 0; i < length; i++) s += ID_ALPHABET[Math.floor(this.next() * ID_ALPHABET.length)];
    return s;
  }
}

/** Ids that never repeat within one world: draws again on a clash (with the examples' ids, say). */
export class IdSource {
  private readonly used = new Set<string>();

  constructor(private readonly random: Random) {}

  reserve(id: string): string {
    this.used.add(id);
    return id;
  }

  next(prefix: string, length = 6): string {
    for (;;) {
      const id = this.random.id(prefix, length);
      if (!this.used.has(id)) return this.reserve(id);
    }
  }
}
