import { fieldLabel } from '../categories/field-label.js';
import type { ListingAttributes, ListingStatus, SchemaRule } from '../db/schema.js';

/** The Bot API's limit for a media caption; text posts use the same, so every post reads alike. */
export const CAPTION_LIMIT = 1024;

const ELLIPSIS = '…';

/** Escapes text for the Bot API's HTML parse mode, which knows only these three entities. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const priceFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatPrice(price: number): string {
  return priceFormat.format(price);
}

function formatValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

const STATUS_LABELS: Record<ListingStatus, string> = {
  AVAILABLE: 'Available',
  PENDING: 'Pending',
  SOLD: 'Sold',
  ARCHIVED: 'Archived',
};

/**
 * One part of a caption: fixed markup around a piece of plain text. Only the text is ever cut, so
 * truncation can never split a tag or an entity.
 */
interface CaptionPart {
  /** What separates this part from the one before it. */
  separator: string;
  open: string;
  text: string;
  close: string;
}

/** The longest start of `text` whose escaped form fits in `room` characters, never splitting a character. */
function fittingPrefix(text: string, room: number): string {
  let used = 0;
  let prefix = '';
  for (const character of text) {
    const size = escapeHtml(character).length;
    if (used + size > room) break;
    used += size;
    prefix += character;
  }
  return prefix.trimEnd();
}

/**
 * Joins the parts in order, within `limit` characters of HTML: the first part that does not fit is
 * cut with an ellipsis and the rest are left out, so the end of the caption (description, then
 * attributes) gives way first. Counting the markup too keeps the result under the limit however
 * the platform counts.
 */
export function assembleCaption(parts: CaptionPart[], limit = CAPTION_LIMIT): string {
  let html = '';
  for (const part of parts) {
    const separator = html ? part.separator : '';
    const whole = `${separator}${part.open}${escapeHtml(part.text)}${part.close}`;
    if (html.length + whole.length <= limit) {
      html += whole;
      continue;
    }
    const room = limit - html.length - separator.length - part.open.length - part.close.length - ELLIPSIS.length;
    const prefix = room > 0 ? fittingPrefix(part.text, room) : '';
    if (prefix) html += `${separator}${part.open}${escapeHtml(prefix)}${ELLIPSIS}${part.close}`;
    else if (html.length + ELLIPSIS.length <= limit) html += ELLIPSIS;
    break;
  }
  return html;
}

export interface CaptionListing {
  title: string;
  description: string;
  price: number;
  status: ListingStatus;
  attributes: ListingAttributes;
  customTelegramCaption: string | null;
  schemaRules: SchemaRule[];
}

/**
 * The channel caption of a listing, in HTML parse mode: the custom caption as written, or the
 * title, price, the attributes in the category's rule order (labels from the field names) and the
 * description.
 */
export function listingCaption(listing: CaptionListing): string {
  const custom = listing.customTelegramCaption?.trim();
  if (custom) return assembleCaption([{ separator: '', open: '', text: custom, close: '' }]);

  const parts: CaptionPart[] = [
    { separator: '', open: '<b>', text: listing.title, close: '</b>' },
    { separator: '\n', open: '<b>Price:</b> ', text: formatPrice(listing.price), close: '' },
  ];
  if (listing.status !== 'AVAILABLE') {
    parts.push({ separator: '\n', open: '<b>Status:</b> ', text: STATUS_LABELS[listing.status], close: '' });
  }
  let first = true;
  for (const rule of listing.schemaRules) {
    const value = listing.attributes[rule.field];
    if (value === undefined || value === null || value === '') continue;
    parts.push({
      separator: first ? '\n\n' : '\n',
      open: `<b>${escapeHtml(fieldLabel(rule.field))}:</b> `,
      text: formatValue(value),
      close: '',
    });
    first = false;
  }
  const description = listing.description.trim();
  if (description) parts.push({ separator: '\n\n', open: '', text: description, close: '' });
  return assembleCaption(parts);
}

/** A caption written by an administrator: shown as typed, escaped and within the limit. */
export function plainCaption(text: string): string {
  return assembleCaption([{ separator: '', open: '', text: text.trim(), close: '' }]);
}
