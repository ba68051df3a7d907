/** A source of numbers in [0, 1), as `Math.random` gives them. */
export type Random = () => number;

/** A small deterministic generator (mulberry32), so a seed of the same size always makes the same store. */
export function randomSource(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A whole number from `low` to `high`, both included. */
export function between(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** A standard normal number (Box-Muller), for log-normal prices and counts. */
export function normal(random: Random): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * Picks among items by weight in O(1) per pick (Vose's alias method): a table built once makes a
 * million picks from a vocabulary of hundreds of thousands cost a few array reads each.
 */
export class WeightedPicker<T> {
  private readonly chance: Float64Array;
  private readonly alias: Int32Array;

  constructor(
    readonly items: readonly T[],
    weights: ArrayLike<number>,
  ) {
    const count = items.length;
    if (count === 0 || weights.length !== count) throw new Error('a weighted pick needs one weight per item, and at least one item');
    this.chance = new Float64Array(count);
    this.alias = new Int32Array(count);
    let total = 0;
    for (let index = 0; index < count; index += 1) total += weights[index]!;
    const scaled = new Float64Array(count);
    const small: number[] = [];
    const large: number[] = [];
    for (let index = 0; index < count; index += 1) {
      scaled[index] = (weights[index]! * count) / total;
      (scaled[index]! < 1 ? small : large).push(index);
    }
    while (small.length > 0 && large.length > 0) {
      const less = small.pop()!;
      const more = large.pop()!;
      this.chance[less] = scaled[less]!;
      this.alias[less] = more;
      scaled[more] = scaled[more]! + scaled[less]! - 1;
      (scaled[more]! < 1 ? small : large).push(more);
    }
    for (const index of [...small, ...large]) this.chance[index] = 1;
  }

  /** The index of a pick: one random number serves both the column and the coin. */
  pickIndex(random: Random): number {
    const spot = random() * this.chance.length;
    const column = Math.floor(spot);
    return spot - column < this.chance[column]! ? column : this.alias[column]!;
  }

  pick(random: Random): T {
    return this.items[this.pickIndex(random)]!;
  }
}

/** A picker over `[item, weight]` pairs. */
export function weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): WeightedPicker<T> {
  return new WeightedPicker(
    pairs.map(([item]) => item),
    pairs.map(([, weight]) => weight),
  );
}
