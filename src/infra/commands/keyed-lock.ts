/**
 * Serialises work per key inside this process: `run(key, work)` starts after every earlier piece
 * of work on that key finished. Hot streams (ledger accounts) use it so that two requests of one
 * process never race each other to a conflict; across processes the expected revision decides.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Whether work on `key` is queued or running. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** `run` holding every key, taken in sorted order (two multi-key holders never wait crosswise). */
  async runAll<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const take = (index: number): Promise<T> => (index === sorted.length ? work() : this.run(sorted[index], () => take(index + 1)));
    return take(0);
  }
}
