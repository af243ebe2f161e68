/** A counting semaphore: at most `n` tasks run at once; the others start in arrival order as slots free up. */
export function createSlots(n: number) {
  let free = n;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> | void => {
    if (free > 0) return void free--;
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift(); // the slot passes straight to the longest waiter
    if (next) next();
    else free++;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
