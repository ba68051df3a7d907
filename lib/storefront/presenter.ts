import { profileImageUrl } from '../auth/presenter.js';
import { fieldLabel } from '../categories/field-label.js';
import type { SchemaRule } from '../db/schema.js';
import { photosPresenter } from '../media/photo-presenter.js';
import type { PhotoRecords } from '../media/photo-records.js';
import { publicImageUrl } from '../media/public-image-url.js';
import type { PublicAgentRow, PublicListingRow } from './queries.js';
import type { PublicAgentView, PublicListingView } from './view.js';

function attributeText(value: unknown, booleanText: (value: boolean) => string): string {
  if (typeof value === 'boolean') return booleanText(value);
  if (Array.isArray(value)) return value.map((item) => attributeText(item, booleanText)).join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

const isShown = (value: unknown) => value !== null && value !== undefined && value !== '';

/**
 * Attributes worth showing (a missing or empty value says nothing), in the order of the category's
 * rules (whose fields are unique), then any others as stored. Runs for every item of every
 * storefront page, so it walks the few rules and attributes without building or sorting anything.
 */
function shownAttributes(attributes: Record<string, unknown>, rules: SchemaRule[]): Array<[string, unknown]> {
  const shown: Array<[string, unknown]> = [];
  for (const { field } of rules) {
    const value = attributes[field];
    if (isShown(value) && Object.hasOwn(attributes, field)) shown.push([field, value]);
  }
  for (const field in attributes) {
    const value = attributes[field];
    if (isShown(value) && !rules.some((rule) => rule.field === field)) shown.push([field, value]);
  }
  return shown;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The storefront's listing item: `hero` and `gallery` as URLs, and the same images as `heroPhoto` and `photos` for responsive display. */
export function publicListingPresenter(row: PublicListingRow, photoRecords: PhotoRecords): PublicListingView {
  const attributes = row.attributes ?? {};
  const shown = shownAttributes(attributes, row.categoryRules ?? []);
  const gallery = row.images.map(publicImageUrl);
  const photos = photosPresenter(row.images, photoRecords);
  const brand = attributes.brand;
  return {
    id: row.id,
    title: row.title,
    price: row.price,
    inStock: row.status === 'AVAILABLE' && row.stockQuantity > 0,
    stockQuantity: row.stockQuantity,
    brand: brand === null || brand === undefined || brand === '' ? null : attributeText(brand, String),
    category: row.categoryDisplayName,
    categoryId: row.categoryId,
    attributes,
    tags: shown.map(([name, value]) => `${name}: ${attributeText(value, String)}`),
    hero: gallery[0] ?? null,
    gallery,
    heroPhoto: photos[0] ?? null,
    photos,
    description: row.description,
    features: shown.map(([name, value]) => `${fieldLabel(name)}: ${attributeText(value, yesNo)}`),
  };
}

/** The agent on a public detail: contact and profile links only, never the e-mail or secrets. */
export function publicAgentPresenter(agent: PublicAgentRow): PublicAgentView {
  return {
    id: agent.id,
    name: agent.name,
    phone: agent.phone,
    profileImage: profileImageUrl(agent.profileImage),
    social_1: agent.social_1,
    social_2: agent.social_2,
    social_3: agent.social_3,
    social_4: agent.social_4,
    social_5: agent.social_5,
    social_6: agent.social_6,
    social_7: agent.social_7,
    social_8: agent.social_8,
    website: agent.website,
    customSocials: agent.customSocials,
  };
}
