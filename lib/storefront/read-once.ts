import type { Executor } from '../db/client.js';

/**
 * `read` made once for each object of a request (its filters, one search of them), however many
 * of the request's reads ask for it: they share the one promise. Kept no longer than the object.
 */
export function readOncePer<Key extends object, Value>(read: (executor: Executor, key: Key) => Promise<Value>): (executor: Executor, key: Key) => Promise<Value> {
  const made = new WeakMap<Key, Promise<Value>>();
  return (executor, key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = read(executor, key)));
    return value;
  };
}
