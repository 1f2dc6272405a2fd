// A small deterministic mutex for workflow code (promise chaining only): the main loop and the
// update handlers take it around every await that reads or writes the subscription's state, so
// a command never interleaves with a billing step (the safe-message-handlers pattern).
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private users = 0;

  /** True when nobody holds or waits for the lock. */
  get idle(): boolean {
    return this.users === 0;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.users += 1;
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      return await fn();
    } finally {
      this.users -= 1;
      release();
    }
  }
}
