import type { CategoryRow } from './queries.js';
import type { CategoryView } from './view.js';

/** A category as the API shows it: the listing count under both names clients use (`listingCount` and `_count.listings`). */
export function categoryPresenter(row: CategoryRow, listingCount: number): CategoryView {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    icon: row.icon,
    schemaRules: row.schemaRules,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    listingCount,
    _count: { listings: listingCount },
  };
}

export function categoryWithCountPresenter(row: CategoryRow & { listingCount: number }): CategoryView {
  return categoryPresenter(row, row.listingCount);
}
