import type { ErrorCode } from '../http/error-codes.js';
import { IMPORT_MAX_ROWS } from '../listings/csv/limits.js';
import { BULK_CALLS_PER_HOUR } from '../listings/csv/rate-limits.js';
import { COUNTED_LISTINGS, SAMPLED_CANDIDATES } from '../listings/read-tuning.js';
import { SERVED_RESULTS } from '../storefront/read-plan.js';

/** What the route table cannot say about an operation: its summary, success shape and particular errors. */
export interface OperationNotes {
  summary: string;
  description?: string;
  /** 201 for writes that create a record; both for a write that creates or updates one. */
  successStatus?: 200 | 201 | readonly [200, 201];
  /**
   * The success body: the envelope with `data` (default), with `pagination` (always, or when a
   * page is asked for), with a `message`, or outside it. `data` is described in answers.ts.
   */
  reply?: 'data' | 'paginated' | 'paginated-on-request' | 'message' | 'success' | 'health' | 'document' | 'page' | 'asset' | 'csv';
  /** Error codes beyond those implied by access, inputs and options (see errorCodesOf in document.ts). */
  errors?: ErrorCode[];
  /** A browser asking for `text/html` gets the answer as an HTML page. */
  pageForBrowsers?: boolean;
}

/** Keyed `METHOD /api/path/:param`. An operation missing here gets a summary made from its method and path. */
export const OPERATION_NOTES: Record<string, OperationNotes> = {
  'GET /api': {
    summary: 'The service: its name, version and where to read about it',
    description:
      'Also at `/`. `data.links` gives the reference page, this document and the liveness check. A browser (`Accept` naming `text/html` above JSON) gets the same as an HTML page with those links; the answer varies by `Accept`.',
    pageForBrowsers: true,
  },
  'GET /api/health': { summary: 'Liveness', reply: 'health' },
  'GET /api/health/ready': { summary: 'Readiness, with a database check', reply: 'health' },

  'POST /api/auth/register': {
    summary: 'Register an agent with an invitation code',
    successStatus: 201,
    errors: ['INVALID_AGENT_CODE', 'ALREADY_EXISTS', 'CONFLICT', 'PASSWORD_CHECKS_BUSY'],
    description:
      'An unusable code is 400 `Invalid or expired agent code`; an e-mail already registered is 409. Sign-ups and code checks (`verify-agent-code`) share one budget of 20 per 15 minutes per address (429 beyond, counted before the Idempotency-Key is taken); a wrong code also counts towards the shop-wide ceiling of 300 wrong codes per 15 minutes, past which wrong codes are 429 while a valid code is still accepted. Under an Idempotency-Key the answer is kept without its token: a replay with the same password answers a freshly issued one (422 with another password, 409 once the account has changed its password since). 503 `PASSWORD_CHECKS_BUSY` with `Retry-After` when every place for password checks is taken.',
  },
  'POST /api/auth/login': {
    summary: 'Sign in and receive a bearer token and a device token',
    errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED', 'PASSWORD_CHECKS_BUSY'],
    description:
      'Answers `data: { user, token, deviceToken }`. Keep `deviceToken` on the device and send it as `deviceToken` with the next sign-in: with a live device token of the named account, only that device\'s own failures count (10 wrong passwords per 15 minutes, then 429) and its password check goes before all others, so strangers\' guesses can neither lock the owner out nor keep the owner waiting; each successful sign-in answers a new one, an account keeps its newest 10, and a password reset ends them all. Without one (or with one that is not live for the account): 429 after 10 attempts in 15 minutes per e-mail and address, 30 per address, and 50 per e-mail from addresses the account has not signed in from. In both cases, 429 with `Retry-After: 1` while two sign-ins from the same address (an IPv6 address by its /64) are still being checked, and 503 `PASSWORD_CHECKS_BUSY` with `Retry-After` when every place for password checks in the instance is taken. A wrong e-mail or password is 401 `Invalid email or password`.',
  },
  'GET /api/auth/me': { summary: 'The caller\'s profile' },
  'PUT /api/auth/me': {
    summary: 'Update the caller\'s profile',
    errors: ['CURRENT_PASSWORD_INCORRECT', 'ALREADY_EXISTS', 'RATE_LIMITED', 'PASSWORD_CHECKS_BUSY'],
    description:
      'Changing `email` needs `currentPassword` (403 `Current password is incorrect` when missing or wrong). Wrong current passwords count like failed sign-ins of the account: after 5 within 15 minutes, 429 with `Retry-After`, even for the right one.',
  },
  'POST /api/auth/forgot-password': {
    summary: 'E-mail a 6-digit password reset code',
    reply: 'message',
    errors: ['RATE_LIMITED'],
    description: 'Always reports success, whether or not the e-mail belongs to an account. 429 after 5 requests an hour per e-mail and address, 20 per e-mail, and 30 per address across all e-mails.',
  },
  'POST /api/auth/reset-password': {
    summary: 'Set a new password with the e-mailed code',
    reply: 'message',
    errors: ['INVALID_RESET_CODE', 'RATE_LIMITED', 'PASSWORD_CHECKS_BUSY'],
    description: 'Ends every token and device token the account had.',
  },
  'POST /api/auth/verify-agent-code': {
    summary: 'Check an invitation code before signing up',
    description:
      'An unknown or unusable code answers 200 with `valid: false`. Shares one budget of 20 per 15 minutes per address with `register`; past 300 wrong codes shop-wide in 15 minutes a wrong code is 429, while a valid one is still answered.',
  },
  'GET /api/auth/agent-codes': { summary: 'List invitation codes', reply: 'paginated' },
  'POST /api/auth/agent-codes': { summary: 'Create an invitation code', successStatus: 201 },
  'DELETE /api/auth/agent-codes/:id': { summary: 'Revoke an invitation code' },
  'GET /api/auth/agents': { summary: 'List registered agents', reply: 'paginated' },
  'DELETE /api/auth/agents/:id': { summary: 'Remove an agent; their listings stay, without an agent' },

  'GET /api/categories': { summary: 'List categories with their listing counts' },
  'POST /api/categories': { summary: 'Create a category', successStatus: 201, errors: ['ALREADY_EXISTS'] },
  'GET /api/categories/:id': { summary: 'One category' },
  'PATCH /api/categories/:id': { summary: 'Update a category', errors: ['ALREADY_EXISTS'] },
  'DELETE /api/categories/:id': {
    summary: 'Delete a category no listing in the shop uses',
    errors: ['CONFLICT'],
    description:
      'A category that a listing in the shop uses is 409, naming how many. Listings in the trash do not keep it: they lose their category (`categoryId` null, `removedCategory` its display name), and a restore of one is then 409.',
  },
  'GET /api/admin/seed-categories': { summary: 'Create the default categories that are missing' },
  'GET /api/admin/audit': {
    summary: 'The audit trail: who changed what, newest first',
    reply: 'paginated',
    description:
      'One entry per write by an administrator or agent (listings and their sales, categories and their seeding, settings, agent codes, agents, channel configs, profiles), made in the write\'s own transaction, so a refused write leaves none. ' +
      'Each entry is `{ id, at, actor: { id, role, email }, action, entity, entityId, changes, requestId, ip }`: `action` is `create`, `update`, `delete` or the operation\'s own verb (`sell`, `revoke`, `seed`; for a listing also `trash`, `restore`, and `purge` when the sweeper deletes it for good, with no actor); `changes` holds only the fields that changed, as `{ before, after }`, and a secret (bot token, password, agent code) only as `"***"`. ' +
      '`requestId` is the `X-Request-Id` of the answer to the write. Filters: `entity`, `entityId`, `actorId`, `action`, and `from`/`to` (ISO 8601, inclusive). Entries older than `AUDIT_RETENTION_DAYS` (default 365) are removed by the sweeper.',
  },

  'GET /api/listings': {
    summary: 'List listings (an agent sees only their own)',
    reply: 'paginated',
    description: 'Listings in the trash are left out. `trashed=true` lists the trash instead (an agent\'s own listings in it, an administrator\'s all), newest deletion first, each with `deletedAt`; the other filters and paging apply.',
  },
  'POST /api/listings': {
    summary: 'Create a listing, with up to 10 images',
    successStatus: 201,
    errors: ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'NOT_CONFIGURED', 'ATTRIBUTES_INVALID', 'UPSTREAM_FAILED'],
    description: 'An agent\'s listing is their own; an administrator names the agent in `agentId`. Images are resized to fit within 1200 x 2400 px and stored as WebP; an image with a side over 12,000 px or sides more than 1:8 apart is 400 `UNSUPPORTED_IMAGE`. `attributes` must satisfy the category\'s `schemaRules` (else 422). `imageRefs` (a JSON array of the image host\'s upload responses) adds images uploaded directly with `POST /api/uploads/signature`; files and refs together count against the 10-image limit.',
  },
  'GET /api/listings/:id': { summary: 'One listing' },
  'PATCH /api/listings/:id': {
    summary: 'Update a listing; new images are appended',
    errors: ['CONFLICT', 'NOT_CONFIGURED', 'ATTRIBUTES_INVALID', 'UPSTREAM_FAILED'],
    description: '`existingImages` (a JSON array) names the listing\'s images to keep, in order, each as answered (an absolute URL) or as stored (`/uploads/<file>`, or the image host\'s URL); an image the listing does not have is 400. New files, then `imageRefs`, are appended after them. Setting `status` to SOLD takes one from stock.',
  },
  'DELETE /api/listings/:id': {
    summary: 'Move a listing to the trash, or (`permanent=true`) delete it and its images for good',
    errors: ['CONFLICT'],
    description:
      'Without `permanent`, the listing goes to the trash: it leaves the storefront, every list, every count and the search at once, and its channel posts are deleted; its images are kept, so `POST /api/listings/:id/restore` brings it back as it was. A listing already in the trash is 404. ' +
      'The sweeper deletes a listing for good once it has been in the trash `TRASH_RETENTION_DAYS` (default 30). ' +
      'With `permanent=true` the listing and its images are deleted for good: by an administrator (a listing not in the trash passes through it first), or by its agent once it is in the trash (409 before). Another agent\'s listing is 404 then.',
  },
  'POST /api/listings/:id/restore': {
    summary: 'Bring a listing back from the trash',
    errors: ['CONFLICT'],
    description:
      'By an administrator or the listing\'s agent (another agent\'s listing is 404). The listing comes back as it was: status, stock, attributes, photos, and so its counts, search and place in every list. An AVAILABLE listing is posted to the channel again when posting is on. A listing that is not in the trash is 409; of two restores at once, one restores and the other is 409. A listing whose category was deleted while it was in the trash (`categoryId` null, `removedCategory` naming it) cannot come back: 409 naming the category.',
  },
  'GET /api/listings/export': {
    summary: 'Export the list as a CSV file (an agent: their own listings)',
    reply: 'csv',
    description:
      'The whole list, newest first, with the filters of `GET /api/listings` (same names; no pages): the listings out of the trash, or with `trashed=true` those in it. One row per listing: `id`, `title`, `description`, `price`, `stockQuantity`, `status`, `category` (its display name), one `attr:<field>` column per field of the rules of the categories in the file (each category\'s fields in its order, categories by display name), `images` (absolute URLs joined by ` | `) and `createdAt`. ' +
      'RFC 4180 (CRLF between rows, quotes where a cell holds a comma, quote or line break), UTF-8 with a byte order mark. A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is written behind a single quote, so a spreadsheet shows it as text; the import takes that quote off again. ' +
      `Streamed as it is read, in constant memory at any size. ${BULK_CALLS_PER_HOUR} exports an hour per caller (429 beyond). See docs/bulk-data.md.`,
  },
  'POST /api/listings/import': {
    summary: 'Import listings from a CSV file, or check it first (`dryRun=true`)',
    description:
      `The file an export writes, as the body (\`Content-Type: text/csv\`) or as the multipart field \`file\`: at most 4 MiB and ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows (413 beyond, writing nothing). A row without \`id\` creates a listing; a row with the \`id\` of a listing the caller manages updates it (another agent's listing fails the row: \`Not authorized\`; a listing in the trash fails it too, and stays there until \`POST /api/listings/:id/restore\` brings it back). An agent's rows are their own; an administrator's \`agentEmail\` column names the owner (required to create). ` +
      'A file that changes only some fields may carry `id` and those columns; to create, `title`, `price` and `category` (display name, or code) are needed. An empty cell leaves a field as it is (a new listing gets the default), except `description` and `attr:` columns, where it means empty. `images` may only name, in order, the listing\'s own images (those left out are removed); `createdAt` is not read. ' +
      'The answer is `data: { dryRun, created, updated, unchanged, failed, warnings, rows }`: each row by `row`, the line of the file it starts on (the header is line 1), with its `status` and, when failed, its `errors` (`field` is the column, `message` the words of the single-listing endpoints). Unknown columns are `warnings`, not failures. ' +
      'Valid rows are written 500 at a time, each 500 in one transaction (should the database fail part-way, the error names the row the import stopped at: the rows before it are written); failed rows are skipped. A row that changes nothing is reported `updated` and counted `unchanged`, and writes nothing (no `updatedAt`, no audit entry); each listing written gets its audit entry. Imported listings are not posted to the channel. ' +
      `400 naming the row and column for a file that is not UTF-8 or not CSV (unbalanced quotes), without a header or the columns it needs, naming a column twice, or naming one id on two rows. ${BULK_CALLS_PER_HOUR} imports an hour per caller, dry runs included (429 beyond).`,
  },
  'POST /api/uploads/signature': {
    summary: 'Sign direct uploads of images to the image host',
    errors: ['NOT_CONFIGURED'],
    description: 'Returns the upload URL and the signed form `fields` to send with one `file` (multipart POST to `uploadUrl`) until `expiresAt`: a ticket makes one image, under its `publicId` (sending again replaces it), so ask for one ticket per photo (at most 60 an hour, 429 beyond). The image host stores the photo within 1200 x 2400 px as WebP in the service\'s folder; name the upload responses in a listing\'s `imageRefs`. An image no listing takes within a day is removed. 409 when images are kept on local disk.',
  },

  'GET /api/public/listings': {
    summary: 'Search the storefront (available listings, by relevance with `q`, else newest first)',
    reply: 'paginated-on-request',
    description:
      '`pagination` is added when `page` is sent. ' +
      '`q` matches a listing when every word of it (split at spaces) is a substring of the title or description, ignoring case, ' +
      'or a word of the title, brand or model ignoring case and accents, or one typo (a letter added, missing, wrong, or two swapped) away from one; two typos for words of 8 letters or more, none under 4 letters. ' +
      'A word shorter than 3 characters or without a letter (`5g`, `m2`, `128`, `%`) matches only a whole word of the title, brand or model, ignoring case; punctuation alone matches nothing. ' +
      `Only the first ${SERVED_RESULTS.toLocaleString('en-US')} results are served: \`pagination.totalPages\` stops there, and a page past them (or past the last page) is empty. ` +
      '`sort=relevance` (the default with `q`) lists first every listing matching each word of `q` as typed in its title, brand or model, then the other matches (a word found only with typos or only in the description). ' +
      'Within each of the two, it ranks the newest 200 by, in order: the quality of the worst-matching word of `q` ' +
      '(a word of the title as typed, best; then a word of the brand or model as typed, or a substring of the title; then a word of the title, brand or model with typos; then a substring of the description only, last); ' +
      'then whether the title holds `q` whole; then the qualities of all words together; then newest first. When more than 200 of them match, the older ones follow, newest first. ' +
      'Without `q`, `relevance` is `newest`. An unknown `sort` is 400. ' +
      'Each item carries `hero` and `gallery` (URLs) and the same images as `heroPhoto` and `photos` (the `Photo` schema: size, placeholder, srcset).',
  },
  'GET /api/public/listings/:id': {
    summary: 'A storefront listing with its agent\'s contact links',
    description: 'The item as the list shows it (`hero`, `gallery`, `heroPhoto`, `photos`), with its agent.',
  },
  'POST /api/public/listings/:id/inquiry': {
    summary: 'Count an inquiry click',
    reply: 'success',
    description: '429 after 30 inquiries a minute per address on one listing, or 60 per address across all listings.',
  },
  'GET /api/cron/sweep': {
    summary: 'Run the sweeper (Vercel Cron)',
    description:
      '401 for any caller but the scheduler, 503 in production without CRON_SECRET. Posts channel entries left PENDING by an invocation that died and retries failed ones whose failure can heal (up to 5 attempts, about 1, 5, 15 and 60 minutes apart), removes expired idempotency keys, unattached direct uploads, audit entries past `AUDIT_RETENTION_DAYS`, listings in the trash past `TRASH_RETENTION_DAYS` (up to 1,000 per sweep) with their images, and the images of deleted listings whose files were left behind; answers how many of each.',
  },
  'GET /api/public/filter-options': {
    summary: 'Filter values for a category',
    description:
      'Per rule field, the values present among the category\'s AVAILABLE listings: a select field lists its own options that are present; any other field at most 100 values, those most listings carry, in natural order, with `hasMoreOptions: true` when it has more. ' +
      'Takes the list\'s filters: each field carries `counts`, the AVAILABLE listings each option would leave with the other filters (a field\'s own selection does not narrow its own counts; 0 when none), and beside `data` come `total`, `priceRange` `{ min, max }` of the filtered list and `countsExact`. ' +
      `A whole category is counted exactly from kept counts, and so are other filters matching at most ${COUNTED_LISTINGS.toLocaleString('en-US')} listings; past that, counts and total are estimated from a fixed sample of the table (about ${SAMPLED_CANDIDATES.toLocaleString('en-US')} candidates) and \`countsExact\` is false. ` +
      'Fields belong to a category, so without `category` `data` is `{}` while `total` and `priceRange` cover every available listing (a storefront\'s first screen); an unknown category matches no listing, as the list answers an empty page for it: `data` `{}`, `total` 0.',
  },
  'GET /api/public/suggest': {
    summary: 'Complete a storefront search',
    description:
      'Up to 8 titles, brands, models and categories of AVAILABLE listings, each with `count`, the AVAILABLE listings behind it. ' +
      'The last word of `q` (2 to 100 characters, else 400) starts a word of the suggestion, or a known word one typo away from it does (two for 8 letters or more, none under 4); its other words appear in the suggestion. ' +
      'Completions of `q` as typed come first, then those with more listings.',
  },
  'GET /api/public/messenger-bot': { summary: 'The bot and channel, as the storefront shows them', errors: ['NOT_FOUND', 'UPSTREAM_FAILED'] },

  'GET /api/syndication/config': { summary: 'List channel posting configurations (secrets masked)' },
  'POST /api/syndication/config': { summary: 'Create or update a channel posting configuration', successStatus: [200, 201] },
  'GET /api/syndication/config/:platform': { summary: 'One channel posting configuration (secrets masked)' },
  'DELETE /api/syndication/config/:platform': { summary: 'Delete a channel posting configuration' },
  'GET /api/syndication/messenger/info': { summary: 'The bot and its channel', errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'] },
  'POST /api/syndication/messenger/setup-webhook': { summary: 'Point the bot\'s webhook at this service', errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'] },
  'GET /api/syndication/messenger/webhook-info': { summary: 'The bot\'s current webhook', errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'] },
  'POST /api/syndication/messenger/webhook': {
    summary: 'Inbound bot updates (acknowledged, not acted on)',
    reply: 'success',
    errors: ['UNAUTHENTICATED'],
    description: 'Once a bot is configured, the Bot API\'s calls carry the webhook secret in `X-Telegram-Bot-Api-Secret-Token`, and any other caller is 401.',
  },
  'POST /api/syndication/delete-message/:messageId': { summary: 'Delete a channel message', errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'] },
  'POST /api/syndication/edit-message/:messageId': { summary: 'Edit a channel message\'s caption', errors: ['NOT_CONFIGURED', 'UPSTREAM_FAILED'] },
  'GET /api/syndication/health': {
    summary: 'Whether the channel is still posting: the posting log\'s states and latest events',
    description:
      'From the posting log: `pending` (waiting or being posted), `failedRetrying` (failed, to be tried again by the sweeper), `failedForGood24h` (failed in the last 24 hours and not to be tried again), `succeeded24h`, `oldestPendingSeconds` (null when nothing waits), ' +
      '`lastSuccessAt`, `lastFailureAt`, and `lastRateLimitedAt` with `lastRetryAfterSeconds`, the last attempt the Bot API refused for flood control (429) and the wait it asked for. Times are when the attempt started; null when there was none.',
  },
  'GET /api/syndication/logs': { summary: 'Channel posting attempts (an agent sees their own)', reply: 'paginated' },
  'POST /api/syndication/trigger/:listingId': { summary: 'Post a listing to the channel now', errors: ['CONFLICT', 'NOT_CONFIGURED', 'UPSTREAM_FAILED', 'RATE_LIMITED'] },
  'POST /api/syndication/retry/:id': { summary: 'Retry a failed posting attempt', errors: ['CONFLICT', 'NOT_CONFIGURED', 'UPSTREAM_FAILED', 'RATE_LIMITED'] },

  'GET /api/notifications': {
    summary: 'The caller\'s notifications',
    description: 'The envelope also carries `unreadCount`.',
  },
  'PUT /api/notifications/read-all': { summary: 'Mark all of the caller\'s notifications read' },
  'PUT /api/notifications/:id/read': { summary: 'Mark one notification read' },

  'GET /api/commissions/asset-stats': { summary: 'Listing counts, stock and value, overall and by category' },
  'GET /api/commissions/summary': { summary: 'Commission totals: average percent, estimated, collected and pending revenue' },
  'GET /api/commissions/listings': { summary: 'Listings with their commission amounts', reply: 'paginated' },
  'PATCH /api/commissions/listing/:id': { summary: 'Set or clear a listing\'s commission percent (0-100, null clears)' },

  'GET /api/settings': { summary: 'Store settings' },
  'PUT /api/settings': { summary: 'Update store settings (null clears a key)' },

  'GET /api/openapi.json': { summary: 'This OpenAPI document', reply: 'document' },
  'GET /api/docs': { summary: 'The API reference page', reply: 'page' },
  'GET /api/docs/:asset': { summary: 'A file of the API reference page', reply: 'asset' },
};
