import type { Executor } from '../db/client.js';
import { DEFAULT_CATEGORIES } from './default-categories.js';
import { insertMissingCategories } from './queries.js';

export interface SeedOutcome {
  /** Default names inserted by this call, in definition order. */
  created: string[];
  /** Default names that were already there, left exactly as they were. */
  existing: string[];
}

/** Creates the default categories that are missing; never updates or deletes one. Safe to repeat. */
export async function seedDefaultCategories(executor: Executor): Promise<SeedOutcome> {
  const inserted = new Set(await insertMissingCategories(executor, DEFAULT_CATEGORIES));
  const names = DEFAULT_CATEGORIES.map((definition) => definition.name);
  return {
    created: names.filter((name) => inserted.has(name)),
    existing: names.filter((name) => !inserted.has(name)),
  };
}
