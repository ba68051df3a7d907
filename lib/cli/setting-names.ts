/**
 * The edits that turn one name into another, ignoring case: a character added, removed or
 * replaced, or two neighbours swapped, each counting one (the optimal string alignment distance).
 */
function editsBetween(first: string, second: string): number {
  const a = first.toUpperCase();
  const b = second.toUpperCase();
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const replaced = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + replaced);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** Names shorter than this are another word two edits away (`HOST` is no typo of `PORT`): one edit only. */
const SHORT_NAME = 8;

/**
 * The setting `key` was probably meant to be, when it is not one: the nearest within two edits
 * (one for a short name).
 */
export function settingResembled(key: string, settings: readonly string[]): string | undefined {
  if (settings.includes(key)) return undefined;
  let nearest: { setting: string; edits: number } | undefined;
  for (const setting of settings) {
    const edits = editsBetween(key, setting);
    const allowed = setting.length < SHORT_NAME ? 1 : 2;
    if (edits <= allowed && (!nearest || edits < nearest.edits)) nearest = { setting, edits };
  }
  return nearest?.setting;
}
