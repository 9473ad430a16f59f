/**
 * Identifiers in Canton's shapes, drawn from a seeded generator so that a numeric seed gives the
 * same ids on every run (tests and screenshots), and a persisted generator state keeps new ids
 * unique after a restart.
 */
import { createHash, randomBytes } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** sfc32: small, fast and good enough for ids; its whole state is four 32-bit words. */
export class IdSource {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(state: readonly [number, number, number, number]) {
    [this.a, this.b, this.c, this.d] = state;
  }

  static fromSeed(seed: number): IdSource {
    const source = new IdSource([0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0]);
    for (let i = 0; i < 15; i++) source.next(); // let the seed diffuse through the state
    return source;
  }

  /**
   * Another stream, derived from this one's state without moving it: ids nobody else draws (the
   * generator's own stream names committed contracts), yet the same for the same seed.
   */
  fork(): IdSource {
    const [a, b, c, d] = this.state;
    const source = new IdSource([a ^ 0x85ebca6b, b ^ 0xc2b2ae35, c ^ 0x27d4eb2f, d ^ 0x165667b1]);
    for (let i = 0; i < 15; i++) source.next();
    return source;
  }

  static random(): IdSource {
    const bytes = randomBytes(16);
    return new IdSource([bytes.readUInt32LE(0), bytes.readUInt32LE(4), bytes.readUInt32LE(8), bytes.readUInt32LE(12)]);
  }

  get state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  /** The next 32-bit unsigned value. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /**
   * Random bytes between fixed ones, as one flat hex string. Building an id in a single
   * `toString` (rather than by concatenation) keeps it compact in memory: the ledger holds
   * hundreds of thousands of them.
   */
  private hexOf(parts: ReadonlyArray<readonly number[] | number>): string {
    const length = parts.reduce<number>((n, part) => n + (typeof part === 'number' ? part : part.length), 0);
    const buffer = Buffer.allocUnsafe(length);
    let at = 0;
    for (const part of parts) {
      if (typeof part !== 'number') {
        for (const byte of part) buffer[at++] = byte;
        continue;
      }
      for (let i = 0; i < part; i += 4) {
        const word = this.next();
        for (let j = 0; j < 4 && i + j < part; j++) buffer[at++] = (word >>> (8 * j)) & 0xff;
      }
    }
    return buffer.toString('hex');
  }

  /** `chars` random hex digits (an even number). */
  hex(chars: number): string {
    return this.hexOf([chars / 2]);
  }

  /** `hint::1220<64 hex>`, the shape of party, participant and synchronizer ids. */
  namespacedId(hint: string, namespace: string): string {
    return `${hint}::1220${namespace}`;
  }

  /** A V1 contract id: `00` + discriminator + `ca101220` + suffix (138 hex chars). */
  contractId(): string {
    return this.hexOf([[0x00], 32, [0xca, 0x10, 0x12, 0x20], 32]);
  }

  /** An update id: a multihash-prefixed sha256, `1220` + 64 hex. */
  updateId(): string {
    return this.hexOf([[0x12, 0x20], 32]);
  }

  reassignmentId(): string {
    return this.hexOf([[0x00], 32]);
  }

  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
