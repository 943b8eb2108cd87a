// A promise with its resolve and reject at hand: how a run (and a worker's
// branch job) hands back one outcome from callbacks that end it.
export interface Settlement<T> {
  promise: Promise<T>;
  resolve(v: T): void;
  reject(e: unknown): void;
}

export function settlement<T>(): Settlement<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
