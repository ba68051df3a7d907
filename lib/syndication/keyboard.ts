import type { Settings } from '../settings/queries.js';

export interface LinkButton {
  text: string;
  url: string;
}

/** An http(s) URL as given, or undefined: the Bot API refuses a whole post over one bad button URL. */
function httpUrl(value: string): string | undefined {
  const trimmed = value.trim();
  try {
    const url = new URL(trimmed);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** `@shop`, `shop` or `https://t.me/shop` -> `https://t.me/shop`. */
function messengerLink(handle: string): string | undefined {
  const name = handle
    .trim()
    .replace(/^(?:https?:\/\/)?(?:t\.me|telegram\.me)\//i, '')
    .replace(/^@/, '')
    .replace(/\/$/, '');
  return /^[A-Za-z0-9_]{3,64}$/.test(name) ? `https://t.me/${name}` : undefined;
}

/** `+1 (555) 010-0200` -> `https://wa.me/15550100200`. */
function chatNumberLink(number: string): string | undefined {
  const digits = number.replace(/\D/g, '');
  return digits.length >= 5 ? `https://wa.me/${digits}` : undefined;
}

/**
 * The one row of buttons under a channel post: Location, Explore, Order. A button whose link
 * source is unset (or unusable) is left out.
 */
export function channelButtons(listingId: string, settings: Pick<Settings, 'shopGoogleMapUrl' | 'messengerHandle' | 'chatNumber'>, storefrontUrl: string | undefined): LinkButton[] {
  const buttons: LinkButton[] = [];
  const location = httpUrl(settings.shopGoogleMapUrl);
  if (location) buttons.push({ text: 'Location', url: location });
  if (storefrontUrl) buttons.push({ text: 'Explore', url: `${storefrontUrl}/listings/${listingId}` });
  const order = messengerLink(settings.messengerHandle) ?? chatNumberLink(settings.chatNumber);
  if (order) buttons.push({ text: 'Order', url: order });
  return buttons;
}
