/**
 * A small seeded PRNG for the run generator: sfc32 (Chris Doty-Humphrey's
 * "small fast counting" generator, from PractRand), seeded through splitmix32.
 * Deterministic across engines (only 32-bit integer ops), fast, and good
 * enough for synthetic data; not cryptographic.
 */

/** splitmix32 step: spreads a small seed over 32 bits. */
function splitmix32(state: number): number {
  state = (state + 0x9e3779b9) | 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) >>> 0;
}

/**
 * A seeded pseudo-random number generator. The same seed gives the same
 * sequence on every engine.
 *
 * @example
 * import { Prng } from 'src/core/generate/prng.js';
 * const rng = new Prng(42);
 * rng.int(6) + 1; // a die roll, the same one every time for seed 42
 */
export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    // Any finite number is a seed: fold the fraction and the high bits in, so
    // 1.5 and 2 ** 40 + 1 differ from 1.
    const lo = seed | 0;
    const hi = Math.floor(seed / 4294967296) | 0;
    const frac = Math.floor((seed - Math.floor(seed)) * 4294967296) | 0;
    let s = splitmix32(lo ^ Math.imul(hi, 0x85ebca6b) ^ Math.imul(frac, 0xc2b2ae35));
    this.#a = s;
    s = splitmix32(s);
    this.#b = s;
    s = splitmix32(s);
    this.#c = s;
    this.#d = 1;
    // Discard the first outputs: sfc32 needs a few rounds to mix its state.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /**
   * The next unsigned 32-bit integer.
   *
   * @example
   * import { Prng } from 'src/core/generate/prng.js';
   * new Prng(1).uint32(); // an integer in [0, 2 ** 32)
   */
  uint32(): number {
    const a = this.#a;
    const b = this.#b;
    const c = this.#c;
    const d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    const r = (c << 21) | (c >>> 11);
    this.#c = (r + t) | 0;
    return t >>> 0;
  }

  /**
   * A float in [0, 1).
   *
   * @example
   * import { Prng } from 'src/core/generate/prng.js';
   * declare function rare(): void;
   * const rng = new Prng(7);
   * if (rng.next() < 0.1) rare();
   */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /**
   * An integer in [0, n).
   *
   * @example
   * import { Prng } from 'src/core/generate/prng.js';
   * const items = ['a', 'b', 'c'];
   * const index = new Prng(7).int(items.length); // 0, 1 or 2
   */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /**
   * An integer in [lo, hi] (both inclusive).
   *
   * @example
   * import { Prng } from 'src/core/generate/prng.js';
   * const latencyMs = new Prng(7).range(400, 9000);
   */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /**
   * `true` with probability `p`.
   *
   * @example
   * import { Prng } from 'src/core/generate/prng.js';
   * const fails = new Prng(7).chance(0.05); // true about one time in 20
   */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /**
   * A uniformly chosen element of a non-empty array.
   *
   * @example
   * import { Prng } from 'src/core/generate/prng.js';
   * const command = new Prng(7).pick(['ls', 'cat README.md', 'npm test']);
   */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}
