import crypto from 'node:crypto';
import type { IncomingRequest } from './incoming-request.js';
import type { ContentReply } from './reply.js';

/** Text placed in a page: every character HTML gives a meaning is written as an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The look every page of the service shares: readable on any screen, nothing loaded from elsewhere. */
const STYLE = [
  'body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1b1b1b; }',
  'h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }',
  'label { display: block; margin-top: 1rem; font-weight: 600; }',
  'input { display: block; width: 100%; box-sizing: border-box; padding: 0.4rem; font: inherit; }',
  'button { margin-top: 1.5rem; padding: 0.5rem 1.2rem; font: inherit; }',
  '.error { color: #a40000; margin: 0.2rem 0 0; }',
  'code { background: #f2f2f2; padding: 0 0.2rem; }',
].join('\n');

/**
 * Pages run no script and load nothing: the one inline style is allowed by its hash, and a form
 * may post only to this origin.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** A whole page around `body` (already HTML), sent as it is with its own policy and never kept. */
export function htmlPage(title: string, body: string, status = 200): ContentReply {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
  return {
    status,
    body: html,
    contentType: 'text/html; charset=utf-8',
    headers: { 'Cache-Control': 'no-store', 'Content-Security-Policy': PAGE_POLICY, 'Referrer-Policy': 'no-referrer' },
  };
}

/** The weight an `Accept` header gives a media type by name (wildcards aside); 0 when it is not named. */
function weightOf(accept: string, mediaType: string): number {
  for (const entry of accept.split(',')) {
    const [type, ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (type !== mediaType) continue;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = quality === undefined ? 1 : Number(quality.slice(2));
    return Number.isFinite(weight) ? weight : 0;
  }
  return 0;
}

/**
 * Whether the caller is a browser asking for a page: its `Accept` names `text/html` and ranks JSON
 * no higher. Programs (`*\/*`, `application/json`, or no header) get JSON.
 */
export function asksForHtml(request: IncomingRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const html = weightOf(accept, 'text/html');
  return html > 0 && html >= weightOf(accept, 'application/json');
}
