/** A counting semaphore: at most `size` tasks run at once, the rest wait in arrival order. */
export interface ProcessingSlots {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createProcessingSlots(size: number): ProcessingSlots {
  let running = 0;
  const waiting: Array<() => void> = [];

  const acquire = (): Promise<void> => {
    if (running < size) {
      running += 1;
      return Promise.resolve();
    }
    // The releasing task hands its slot straight to the next waiter, so `running` stays unchanged.
    return new Promise((resolve) => waiting.push(resolve));
  };

  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
