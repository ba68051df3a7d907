import crypto from 'node:crypto';
import type { Database } from '../../lib/db/client.js';
import { categories, listings, type ListingAttributes, type ListingStatus, type SchemaRule } from '../../lib/db/schema.js';

export const PHONE_RULES: SchemaRule[] = [
  { field: 'brand', type: 'string', required: true },
  { field: 'model', type: 'string', required: true },
  { field: 'storage', type: 'select', required: true, options: ['64GB', '128GB', '256GB', '512GB', '1TB'] },
  { field: 'condition', type: 'select', required: false, options: ['Brand New', 'Used - Like New', 'Used - Good', 'Used - Fair'] },
  { field: 'batteryHealth', type: 'number', required: false },
  { field: 'hasWarranty', type: 'boolean', required: false },
];

export async function buildCategory(db: Database, overrides: Partial<{ name: string; displayName: string; icon: string; schemaRules: SchemaRule[] }> = {}) {
  const suffix = crypto.randomBytes(3).toString('hex').toUpperCase();
  const [row] = await db
    .insert(categories)
    .values({
      name: overrides.name ?? `PHONES_${suffix}`,
      displayName: overrides.displayName ?? `Phones ${suffix}`,
      icon: overrides.icon ?? 'smartphone',
      schemaRules: overrides.schemaRules ?? PHONE_RULES,
    })
    .returning();
  return row!;
}

export async function buildListing(
  db: Database,
  values: {
    categoryId: string;
    agentId?: string | null;
    title?: string;
    description?: string;
    price?: number;
    status?: ListingStatus;
    attributes?: ListingAttributes;
    stockQuantity?: number;
    images?: string[];
    commissionPercent?: number | null;
    city?: string;
    neighborhood?: string;
    createdAt?: Date;
  },
) {
  const [row] = await db
    .insert(listings)
    .values({
      title: 'iPhone 15 Pro',
      description: 'Mint condition, boxed.',
      price: 999.99,
      attributes: { brand: 'Apple', model: 'iPhone 15 Pro', storage: '256GB' },
      stockQuantity: 1,
      ...values,
    })
    .returning();
  return row!;
}
