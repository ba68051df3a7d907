/**
 * The API's types for clients, generated from its OpenAPI document by `npm run api:types`: do not edit.
 */

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The service: its name, version and where to read about it
         * @description Also at `/`. `data.links` gives the reference page, this document and the liveness check. A browser (`Accept` naming `text/html` above JSON) gets the same as an HTML page with those links; the answer varies by `Accept`.
         *
         *     No token needed.
         */
        get: operations["getApiAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The service: its name, version and where to read about it
         * @description Also at `/`. `data.links` gives the reference page, this document and the liveness check. A browser (`Accept` naming `text/html` above JSON) gets the same as an HTML page with those links; the answer varies by `Accept`.
         *
         *     No token needed.
         */
        get: operations["getApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail: who changed what, newest first
         * @description One entry per write by an administrator or agent (listings and their sales, categories and their seeding, settings, agent codes, agents, channel configs, profiles), made in the write's own transaction, so a refused write leaves none. Each entry is `{ id, at, actor: { id, role, email }, action, entity, entityId, changes, requestId, ip }`: `action` is `create`, `update`, `delete` or the operation's own verb (`sell`, `revoke`, `seed`; for a listing also `trash`, `restore`, and `purge` when the sweeper deletes it for good, with no actor); `changes` holds only the fields that changed, as `{ before, after }`, and a secret (bot token, password, agent code) only as `"***"`. `requestId` is the `X-Request-Id` of the answer to the write. Filters: `entity`, `entityId`, `actorId`, `action`, and `from`/`to` (ISO 8601, inclusive). Entries older than `AUDIT_RETENTION_DAYS` (default 365) are removed by the sweeper.
         *
         *     Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getAdminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/seed-categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Create the default categories that are missing
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getAdminSeedCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/agent-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invitation codes
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getAuthAgentCodes"];
        put?: never;
        /**
         * Create an invitation code
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postAuthAgentCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/agent-codes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an invitation code
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        delete: operations["deleteAuthAgentCodesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List registered agents
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getAuthAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an agent; their listings stay, without an agent
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        delete: operations["deleteAuthAgentsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a 6-digit password reset code
         * @description Always reports success, whether or not the e-mail belongs to an account. 429 after 5 requests an hour per e-mail and address, 20 per e-mail, and 30 per address across all e-mails.
         *
         *     No token needed.
         */
        post: operations["postAuthForgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in and receive a bearer token and a device token
         * @description Answers `data: { user, token, deviceToken }`. Keep `deviceToken` on the device and send it as `deviceToken` with the next sign-in: with a live device token of the named account, only that device's own failures count (10 wrong passwords per 15 minutes, then 429) and its password check goes before all others, so strangers' guesses can neither lock the owner out nor keep the owner waiting; each successful sign-in answers a new one, an account keeps its newest 10, and a password reset ends them all. Without one (or with one that is not live for the account): 429 after 10 attempts in 15 minutes per e-mail and address, 30 per address, and 50 per e-mail from addresses the account has not signed in from. In both cases, 429 with `Retry-After: 1` while two sign-ins from the same address (an IPv6 address by its /64) are still being checked, and 503 `PASSWORD_CHECKS_BUSY` with `Retry-After` when every place for password checks in the instance is taken. A wrong e-mail or password is 401 `Invalid email or password`.
         *
         *     No token needed.
         */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's profile
         * @description Needs a bearer token (any role).
         */
        get: operations["getAuthMe"];
        /**
         * Update the caller's profile
         * @description Changing `email` needs `currentPassword` (403 `Current password is incorrect` when missing or wrong). Wrong current passwords count like failed sign-ins of the account: after 5 within 15 minutes, 429 with `Retry-After`, even for the right one.
         *
         *     Needs a bearer token (any role).
         */
        put: operations["putAuthMe"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register an agent with an invitation code
         * @description An unusable code is 400 `Invalid or expired agent code`; an e-mail already registered is 409. Sign-ups and code checks (`verify-agent-code`) share one budget of 20 per 15 minutes per address (429 beyond, counted before the Idempotency-Key is taken); a wrong code also counts towards the shop-wide ceiling of 300 wrong codes per 15 minutes, past which wrong codes are 429 while a valid code is still accepted. Under an Idempotency-Key the answer is kept without its token: a replay with the same password answers a freshly issued one (422 with another password, 409 once the account has changed its password since). 503 `PASSWORD_CHECKS_BUSY` with `Retry-After` when every place for password checks is taken.
         *
         *     No token needed.
         */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the e-mailed code
         * @description Ends every token and device token the account had.
         *
         *     No token needed.
         */
        post: operations["postAuthResetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify-agent-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check an invitation code before signing up
         * @description An unknown or unusable code answers 200 with `valid: false`. Shares one budget of 20 per 15 minutes per address with `register`; past 300 wrong codes shop-wide in 15 minutes a wrong code is 429, while a valid one is still answered.
         *
         *     No token needed.
         */
        post: operations["postAuthVerifyAgentCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List categories with their listing counts
         * @description Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getCategories"];
        put?: never;
        /**
         * Create a category
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postCategories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One category
         * @description Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getCategoriesById"];
        put?: never;
        post?: never;
        /**
         * Delete a category no listing in the shop uses
         * @description A category that a listing in the shop uses is 409, naming how many. Listings in the trash do not keep it: they lose their category (`categoryId` null, `removedCategory` its display name), and a restore of one is then 409.
         *
         *     Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        delete: operations["deleteCategoriesById"];
        options?: never;
        head?: never;
        /**
         * Update a category
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        patch: operations["patchCategoriesById"];
        trace?: never;
    };
    "/api/commissions/asset-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Listing counts, stock and value, overall and by category
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getCommissionsAssetStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commissions/listing/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set or clear a listing's commission percent (0-100, null clears)
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        patch: operations["patchCommissionsListingById"];
        trace?: never;
    };
    "/api/commissions/listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Listings with their commission amounts
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getCommissionsListings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commissions/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Commission totals: average percent, estimated, collected and pending revenue
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getCommissionsSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cron/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run the sweeper (Vercel Cron)
         * @description 401 for any caller but the scheduler, 503 in production without CRON_SECRET. Posts channel entries left PENDING by an invocation that died and retries failed ones whose failure can heal (up to 5 attempts, about 1, 5, 15 and 60 minutes apart), removes expired idempotency keys, unattached direct uploads, audit entries past `AUDIT_RETENTION_DAYS`, listings in the trash past `TRASH_RETENTION_DAYS` (up to 1,000 per sweep) with their images, and the images of deleted listings whose files were left behind; answers how many of each.
         *
         *     The scheduler only: needs `Authorization: Bearer <CRON_SECRET>`.
         */
        get: operations["getCronSweep"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @description No token needed.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{asset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file of the API reference page
         * @description No token needed.
         */
        get: operations["getDocsByAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description No token needed.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness, with a database check
         * @description No token needed.
         */
        get: operations["getHealthReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List listings (an agent sees only their own)
         * @description Listings in the trash are left out. `trashed=true` lists the trash instead (an agent's own listings in it, an administrator's all), newest deletion first, each with `deletedAt`; the other filters and paging apply.
         *
         *     Needs a bearer token (any role).
         */
        get: operations["getListings"];
        put?: never;
        /**
         * Create a listing, with up to 10 images
         * @description An agent's listing is their own; an administrator names the agent in `agentId`. Images are resized to fit within 1200 x 2400 px and stored as WebP; an image with a side over 12,000 px or sides more than 1:8 apart is 400 `UNSUPPORTED_IMAGE`. `attributes` must satisfy the category's `schemaRules` (else 422). `imageRefs` (a JSON array of the image host's upload responses) adds images uploaded directly with `POST /api/uploads/signature`; files and refs together count against the 10-image limit.
         *
         *     Needs a bearer token (any role).
         */
        post: operations["postListings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/listings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One listing
         * @description Needs a bearer token (any role).
         */
        get: operations["getListingsById"];
        put?: never;
        post?: never;
        /**
         * Move a listing to the trash, or (`permanent=true`) delete it and its images for good
         * @description Without `permanent`, the listing goes to the trash: it leaves the storefront, every list, every count and the search at once, and its channel posts are deleted; its images are kept, so `POST /api/listings/:id/restore` brings it back as it was. A listing already in the trash is 404. The sweeper deletes a listing for good once it has been in the trash `TRASH_RETENTION_DAYS` (default 30). With `permanent=true` the listing and its images are deleted for good: by an administrator (a listing not in the trash passes through it first), or by its agent once it is in the trash (409 before). Another agent's listing is 404 then.
         *
         *     Needs a bearer token (any role).
         */
        delete: operations["deleteListingsById"];
        options?: never;
        head?: never;
        /**
         * Update a listing; new images are appended
         * @description `existingImages` (a JSON array) names the listing's images to keep, in order, each as answered (an absolute URL) or as stored (`/uploads/<file>`, or the image host's URL); an image the listing does not have is 400. New files, then `imageRefs`, are appended after them. Setting `status` to SOLD takes one from stock.
         *
         *     Needs a bearer token (any role).
         */
        patch: operations["patchListingsById"];
        trace?: never;
    };
    "/api/listings/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bring a listing back from the trash
         * @description By an administrator or the listing's agent (another agent's listing is 404). The listing comes back as it was: status, stock, attributes, photos, and so its counts, search and place in every list. An AVAILABLE listing is posted to the channel again when posting is on. A listing that is not in the trash is 409; of two restores at once, one restores and the other is 409. A listing whose category was deleted while it was in the trash (`categoryId` null, `removedCategory` naming it) cannot come back: 409 naming the category.
         *
         *     Needs a bearer token (any role).
         */
        post: operations["postListingsByIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/listings/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the list as a CSV file (an agent: their own listings)
         * @description The whole list, newest first, with the filters of `GET /api/listings` (same names; no pages): the listings out of the trash, or with `trashed=true` those in it. One row per listing: `id`, `title`, `description`, `price`, `stockQuantity`, `status`, `category` (its display name), one `attr:<field>` column per field of the rules of the categories in the file (each category's fields in its order, categories by display name), `images` (absolute URLs joined by ` | `) and `createdAt`. RFC 4180 (CRLF between rows, quotes where a cell holds a comma, quote or line break), UTF-8 with a byte order mark. A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is written behind a single quote, so a spreadsheet shows it as text; the import takes that quote off again. Streamed as it is read, in constant memory at any size. 60 exports an hour per caller (429 beyond). See docs/bulk-data.md.
         *
         *     Needs a bearer token (any role).
         */
        get: operations["getListingsExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/listings/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import listings from a CSV file, or check it first (`dryRun=true`)
         * @description The file an export writes, as the body (`Content-Type: text/csv`) or as the multipart field `file`: at most 4 MiB and 5,000 rows (413 beyond, writing nothing). A row without `id` creates a listing; a row with the `id` of a listing the caller manages updates it (another agent's listing fails the row: `Not authorized`; a listing in the trash fails it too, and stays there until `POST /api/listings/:id/restore` brings it back). An agent's rows are their own; an administrator's `agentEmail` column names the owner (required to create). A file that changes only some fields may carry `id` and those columns; to create, `title`, `price` and `category` (display name, or code) are needed. An empty cell leaves a field as it is (a new listing gets the default), except `description` and `attr:` columns, where it means empty. `images` may only name, in order, the listing's own images (those left out are removed); `createdAt` is not read. The answer is `data: { dryRun, created, updated, unchanged, failed, warnings, rows }`: each row by `row`, the line of the file it starts on (the header is line 1), with its `status` and, when failed, its `errors` (`field` is the column, `message` the words of the single-listing endpoints). Unknown columns are `warnings`, not failures. Valid rows are written 500 at a time, each 500 in one transaction (should the database fail part-way, the error names the row the import stopped at: the rows before it are written); failed rows are skipped. A row that changes nothing is reported `updated` and counted `unchanged`, and writes nothing (no `updatedAt`, no audit entry); each listing written gets its audit entry. Imported listings are not posted to the channel. 400 naming the row and column for a file that is not UTF-8 or not CSV (unbalanced quotes), without a header or the columns it needs, naming a column twice, or naming one id on two rows. 60 imports an hour per caller, dry runs included (429 beyond).
         *
         *     Needs a bearer token (any role).
         */
        post: operations["postListingsImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's notifications
         * @description The envelope also carries `unreadCount`.
         *
         *     Needs a bearer token (any role).
         */
        get: operations["getNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark one notification read
         * @description Needs a bearer token (any role).
         */
        put: operations["putNotificationsByIdRead"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark all of the caller's notifications read
         * @description Needs a bearer token (any role).
         */
        put: operations["putNotificationsReadAll"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description No token needed.
         */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/filter-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Filter values for a category
         * @description Per rule field, the values present among the category's AVAILABLE listings: a select field lists its own options that are present; any other field at most 100 values, those most listings carry, in natural order, with `hasMoreOptions: true` when it has more. Takes the list's filters: each field carries `counts`, the AVAILABLE listings each option would leave with the other filters (a field's own selection does not narrow its own counts; 0 when none), and beside `data` come `total`, `priceRange` `{ min, max }` of the filtered list and `countsExact`. A whole category is counted exactly from kept counts, and so are other filters matching at most 1,000 listings; past that, counts and total are estimated from a fixed sample of the table (about 3,000 candidates) and `countsExact` is false. Fields belong to a category, so without `category` `data` is `{}` while `total` and `priceRange` cover every available listing (a storefront's first screen); an unknown category matches no listing, as the list answers an empty page for it: `data` `{}`, `total` 0.
         *
         *     Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getPublicFilterOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search the storefront (available listings, by relevance with `q`, else newest first)
         * @description `pagination` is added when `page` is sent. `q` matches a listing when every word of it (split at spaces) is a substring of the title or description, ignoring case, or a word of the title, brand or model ignoring case and accents, or one typo (a letter added, missing, wrong, or two swapped) away from one; two typos for words of 8 letters or more, none under 4 letters. A word shorter than 3 characters or without a letter (`5g`, `m2`, `128`, `%`) matches only a whole word of the title, brand or model, ignoring case; punctuation alone matches nothing. Only the first 10,000 results are served: `pagination.totalPages` stops there, and a page past them (or past the last page) is empty. `sort=relevance` (the default with `q`) lists first every listing matching each word of `q` as typed in its title, brand or model, then the other matches (a word found only with typos or only in the description). Within each of the two, it ranks the newest 200 by, in order: the quality of the worst-matching word of `q` (a word of the title as typed, best; then a word of the brand or model as typed, or a substring of the title; then a word of the title, brand or model with typos; then a substring of the description only, last); then whether the title holds `q` whole; then the qualities of all words together; then newest first. When more than 200 of them match, the older ones follow, newest first. Without `q`, `relevance` is `newest`. An unknown `sort` is 400. Each item carries `hero` and `gallery` (URLs) and the same images as `heroPhoto` and `photos` (the `Photo` schema: size, placeholder, srcset).
         *
         *     Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getPublicListings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/listings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A storefront listing with its agent's contact links
         * @description The item as the list shows it (`hero`, `gallery`, `heroPhoto`, `photos`), with its agent.
         *
         *     No token needed.
         */
        get: operations["getPublicListingsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/listings/{id}/inquiry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count an inquiry click
         * @description 429 after 30 inquiries a minute per address on one listing, or 60 per address across all listings.
         *
         *     No token needed.
         */
        post: operations["postPublicListingsByIdInquiry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/messenger-bot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bot and channel, as the storefront shows them
         * @description Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getPublicMessengerBot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/suggest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Complete a storefront search
         * @description Up to 8 titles, brands, models and categories of AVAILABLE listings, each with `count`, the AVAILABLE listings behind it. The last word of `q` (2 to 100 characters, else 400) starts a word of the suggestion, or a known word one typo away from it does (two for 8 letters or more, none under 4); its other words appear in the suggestion. Completions of `q` as typed come first, then those with more listings.
         *
         *     Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getPublicSuggest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/telegram-bot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bot and channel, as the storefront shows them
         * @deprecated
         * @description Deprecated: the original service's path; use GET /api/public/messenger-bot.
         *
         *     Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getPublicTelegramBot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Store settings
         * @description Cached by the CDN: `public, max-age=0, s-maxage=60, stale-while-revalidate=60`, filed under the tags of what it shows (the `Vercel-Cache-Tag` header, which the CDN strips), which every write that changes it purges. Errors are not cached.
         *
         *     No token needed.
         */
        get: operations["getSettings"];
        /**
         * Update store settings (null clears a key)
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        put: operations["putSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List channel posting configurations (secrets masked)
         * @description Needs a bearer token (any role).
         */
        get: operations["getSyndicationConfig"];
        put?: never;
        /**
         * Create or update a channel posting configuration
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postSyndicationConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/config/{platform}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One channel posting configuration (secrets masked)
         * @description Needs a bearer token (any role).
         */
        get: operations["getSyndicationConfigByPlatform"];
        put?: never;
        post?: never;
        /**
         * Delete a channel posting configuration
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        delete: operations["deleteSyndicationConfigByPlatform"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/delete-message/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a channel message
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postSyndicationDeleteMessageByMessageId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/edit-message/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a channel message's caption
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postSyndicationEditMessageByMessageId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the channel is still posting: the posting log's states and latest events
         * @description From the posting log: `pending` (waiting or being posted), `failedRetrying` (failed, to be tried again by the sweeper), `failedForGood24h` (failed in the last 24 hours and not to be tried again), `succeeded24h`, `oldestPendingSeconds` (null when nothing waits), `lastSuccessAt`, `lastFailureAt`, and `lastRateLimitedAt` with `lastRetryAfterSeconds`, the last attempt the Bot API refused for flood control (429) and the wait it asked for. Times are when the attempt started; null when there was none.
         *
         *     Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getSyndicationHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Channel posting attempts (an agent sees their own)
         * @description Needs a bearer token (any role).
         */
        get: operations["getSyndicationLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/messenger/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bot and its channel
         * @description Needs a bearer token (any role).
         */
        get: operations["getSyndicationMessengerInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/messenger/setup-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Point the bot's webhook at this service
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postSyndicationMessengerSetupWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/messenger/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Inbound bot updates (acknowledged, not acted on)
         * @description Once a bot is configured, the Bot API's calls carry the webhook secret in `X-Telegram-Bot-Api-Secret-Token`, and any other caller is 401.
         *
         *     No token needed.
         */
        post: operations["postSyndicationMessengerWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/messenger/webhook-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bot's current webhook
         * @description Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getSyndicationMessengerWebhookInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/retry/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed posting attempt
         * @description Needs a bearer token (any role).
         */
        post: operations["postSyndicationRetryById"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/telegram/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bot and its channel
         * @deprecated
         * @description Deprecated: the original service's path; use GET /api/syndication/messenger/info.
         *
         *     Needs a bearer token (any role).
         */
        get: operations["getSyndicationTelegramInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/telegram/setup-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Point the bot's webhook at this service
         * @deprecated
         * @description Deprecated: the original service's path; use POST /api/syndication/messenger/setup-webhook.
         *
         *     Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        post: operations["postSyndicationTelegramSetupWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/telegram/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Inbound bot updates (acknowledged, not acted on)
         * @deprecated
         * @description Deprecated: the original service's path; use POST /api/syndication/messenger/webhook.
         *
         *     Once a bot is configured, the Bot API's calls carry the webhook secret in `X-Telegram-Bot-Api-Secret-Token`, and any other caller is 401.
         *
         *     No token needed.
         */
        post: operations["postSyndicationTelegramWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/telegram/webhook-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bot's current webhook
         * @deprecated
         * @description Deprecated: the original service's path; use GET /api/syndication/messenger/webhook-info.
         *
         *     Administrators only: needs a bearer token of a `SUPER_ADMIN`.
         */
        get: operations["getSyndicationTelegramWebhookInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/syndication/trigger/{listingId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post a listing to the channel now
         * @description Needs a bearer token (any role).
         */
        post: operations["postSyndicationTriggerByListingId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/signature": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign direct uploads of images to the image host
         * @description Returns the upload URL and the signed form `fields` to send with one `file` (multipart POST to `uploadUrl`) until `expiresAt`: a ticket makes one image, under its `publicId` (sending again replaces it), so ask for one ticket per photo (at most 60 an hour, 429 beyond). The image host stores the photo within 1200 x 2400 px as WebP in the service's folder; name the upload responses in a listing's `imageRefs`. An image no listing takes within a day is removed. 409 when images are kept on local disk.
         *
         *     Needs a bearer token (any role).
         */
        post: operations["postUploadsSignature"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description No token needed.
         */
        get: operations["getHealthAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        MessageSuccess: {
            /** @constant */
            success: true;
            message: string;
        };
        Acknowledgement: {
            /** @constant */
            success: true;
        };
        Pagination: {
            page: number;
            /** @description The limit applied: the one asked for, capped to the list maximum. */
            limit: number;
            /** @description Matching items, exact below 10,000, never an estimate. From 10,000 matches on, a storefront list says 10,000 and totalExact is false (as search engines answer "10,000+"), whatever its filters; other lists do the same when filtered by more than status, category, agent or commission, and otherwise give their kept count, exact at any size. An agent's channel log counts to 1,000 the same way. */
            total: number;
            /** @description ceil(total / limit), within the served results of a storefront list. */
            totalPages: number;
            /** @description False when more items match than total says (total is then the counting limit); true otherwise. */
            totalExact: boolean;
        };
        Health: {
            /** @constant */
            status: "ok";
            /** Format: date-time */
            timestamp: string;
            checks?: {
                [key: string]: string;
            };
        };
        Error: {
            /** @constant */
            success: false;
            /** @description What went wrong, in English (the spec's message) */
            error: string;
            /**
             * @description The stable identifier of the case: branch on this, not on `error`
             * @enum {string}
             */
            code: "VALIDATION_FAILED" | "MALFORMED_BODY" | "UNSUPPORTED_IMAGE" | "INVALID_AGENT_CODE" | "INVALID_RESET_CODE" | "UNAUTHENTICATED" | "INVALID_CREDENTIALS" | "FORBIDDEN" | "CURRENT_PASSWORD_INCORRECT" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "ALREADY_EXISTS" | "CONFLICT" | "NOT_CONFIGURED" | "IDEMPOTENCY_KEY_IN_PROGRESS" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "ATTRIBUTES_INVALID" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UPSTREAM_FAILED" | "DEPENDENCY_UNAVAILABLE" | "PASSWORD_CHECKS_BUSY";
            details?: components["schemas"]["ErrorDetail"][];
        };
        /**
         * @description `VALIDATION_FAILED` (400): A parameter, field or file is missing or invalid; `details` names each one at fault.
         *
         *     `MALFORMED_BODY` (400): The body is not well-formed JSON, multipart or CSV (or not UTF-8 text), or the upload was cut off.
         *
         *     `UNSUPPORTED_IMAGE` (400): A file is not a decodable image, or its dimensions are too large.
         *
         *     `INVALID_AGENT_CODE` (400): The invitation code is unknown, used up, revoked or expired.
         *
         *     `INVALID_RESET_CODE` (400): The password reset code is wrong, expired or used up.
         *
         *     `UNAUTHENTICATED` (401): No usable credentials: the token is missing, malformed, invalid, expired or revoked, or its user is gone.
         *
         *     `INVALID_CREDENTIALS` (401): The e-mail and password do not match an account.
         *
         *     `FORBIDDEN` (403): The caller's role may not do this, or the record belongs to another agent.
         *
         *     `CURRENT_PASSWORD_INCORRECT` (403): The change needs the account's current password, and it is missing or wrong.
         *
         *     `NOT_FOUND` (404): No record (or route) by that name.
         *
         *     `METHOD_NOT_ALLOWED` (405): The path does not answer this method; `Allow` lists those it does.
         *
         *     `ALREADY_EXISTS` (409): A unique value (an e-mail, a category name) is taken; `details` names the field.
         *
         *     `CONFLICT` (409): The record is not in a state that allows this (in use, sold out, not failed).
         *
         *     `NOT_CONFIGURED` (409): The feature needs a configuration the shop does not have (channel posting, the image host).
         *
         *     `IDEMPOTENCY_KEY_IN_PROGRESS` (409): A request with this Idempotency-Key is still running.
         *
         *     `PAYLOAD_TOO_LARGE` (413): The body is larger than the endpoint accepts.
         *
         *     `UNSUPPORTED_MEDIA_TYPE` (415): The body's Content-Type is not one the endpoint reads.
         *
         *     `ATTRIBUTES_INVALID` (422): The listing's attributes do not satisfy its category's rules; `details` names each.
         *
         *     `IDEMPOTENCY_KEY_REUSED` (422): The Idempotency-Key was used before with a different request.
         *
         *     `RATE_LIMITED` (429): Too many requests; `Retry-After` says when to try again.
         *
         *     `INTERNAL_ERROR` (500): An unexpected failure.
         *
         *     `UPSTREAM_FAILED` (502): An outside service (the image host, the Bot API) failed.
         *
         *     `DEPENDENCY_UNAVAILABLE` (503): The database or a required setting is unavailable; `Retry-After` says when to try again.
         *
         *     `PASSWORD_CHECKS_BUSY` (503): Every place for password checks in this instance is taken; `Retry-After` says when to try again.
         * @enum {string}
         */
        ErrorCode: "VALIDATION_FAILED" | "MALFORMED_BODY" | "UNSUPPORTED_IMAGE" | "INVALID_AGENT_CODE" | "INVALID_RESET_CODE" | "UNAUTHENTICATED" | "INVALID_CREDENTIALS" | "FORBIDDEN" | "CURRENT_PASSWORD_INCORRECT" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "ALREADY_EXISTS" | "CONFLICT" | "NOT_CONFIGURED" | "IDEMPOTENCY_KEY_IN_PROGRESS" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "ATTRIBUTES_INVALID" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UPSTREAM_FAILED" | "DEPENDENCY_UNAVAILABLE" | "PASSWORD_CHECKS_BUSY";
        /**
         * Photo
         * @description A listing photo for responsive display: `photos` on listing answers (in the order of `images` or `gallery`) and `heroPhoto` (the first, or null) on storefront items. Sizes and placeholder are null for an image stored before photos were described, until `npm run images:backfill` has run; its srcset is then the stored image alone.
         * @example {
         *       "url": "https://shop.example.com/uploads/3f2b7c1e.webp",
         *       "width": 1200,
         *       "height": 900,
         *       "placeholder": "mAgKDQQHmHeId3h4iIiHd4eAiHAI",
         *       "srcset": "https://shop.example.com/uploads/3f2b7c1e-320.webp 320w, https://shop.example.com/uploads/3f2b7c1e-640.webp 640w, https://shop.example.com/uploads/3f2b7c1e.webp 1200w"
         *     }
         */
        Photo: {
            /**
             * Format: uri
             * @description The stored image, as `images`, `hero` and `gallery` show it.
             */
            url: string;
            /** @description Intrinsic width in pixels. */
            width: number | null;
            /** @description Intrinsic height in pixels. */
            height: number | null;
            /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
            placeholder: string | null;
            /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
            srcset: string;
        };
        ErrorDetail: {
            field: string;
            message: string;
            /** @description The value sent, when it helps */
            received?: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getApiAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @example Marketplace Listing API */
                            name: string;
                            /** @example 0.1.0 */
                            version: string;
                            links: {
                                /** @constant */
                                docs: "/api/docs";
                                /** @constant */
                                openapi: "/api/openapi.json";
                                /** @constant */
                                health: "/health";
                            };
                        };
                    };
                    "text/html": string;
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @example Marketplace Listing API */
                            name: string;
                            /** @example 0.1.0 */
                            version: string;
                            links: {
                                /** @constant */
                                docs: "/api/docs";
                                /** @constant */
                                openapi: "/api/openapi.json";
                                /** @constant */
                                health: "/health";
                            };
                        };
                    };
                    "text/html": string;
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getAdminAudit: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                entity?: "listing" | "category" | "settings" | "agent-code" | "agent" | "syndication-config" | "user";
                entityId?: string;
                actorId?: string;
                action?: string;
                from?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            at: string;
                            actor: {
                                id: string | null;
                                role: ("SUPER_ADMIN" | "AGENT") | null;
                                email: string | null;
                            };
                            /** @example update */
                            action: string;
                            /** @enum {string} */
                            entity: "listing" | "category" | "settings" | "agent-code" | "agent" | "syndication-config" | "user";
                            entityId: string | null;
                            /**
                             * @example {
                             *       "price": {
                             *         "before": 949.99,
                             *         "after": 899.99
                             *       },
                             *       "status": {
                             *         "before": "AVAILABLE",
                             *         "after": "SOLD"
                             *       }
                             *     }
                             */
                            changes: {
                                [key: string]: {
                                    before: unknown;
                                    after: unknown;
                                };
                            };
                            requestId: string | null;
                            ip: string | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getAdminSeedCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Default names this call created. */
                            created: string[];
                            /** @description Default names that were there already, left as they were. */
                            existing: string[];
                            categories: {
                                /** Format: uuid */
                                id: string;
                                /** @example PHONES */
                                name: string;
                                /** @example Phones */
                                displayName: string;
                                /** @example smartphone */
                                icon: string;
                                /**
                                 * @example [
                                 *       {
                                 *         "field": "brand",
                                 *         "type": "string",
                                 *         "required": true
                                 *       },
                                 *       {
                                 *         "field": "storage",
                                 *         "type": "select",
                                 *         "required": true,
                                 *         "options": [
                                 *           "64GB",
                                 *           "128GB",
                                 *           "256GB",
                                 *           "512GB",
                                 *           "1TB"
                                 *         ]
                                 *       },
                                 *       {
                                 *         "field": "hasWarranty",
                                 *         "type": "boolean",
                                 *         "required": false
                                 *       }
                                 *     ]
                                 */
                                schemaRules: {
                                    field: string;
                                    /** @enum {string} */
                                    type: "string" | "number" | "boolean" | "select";
                                    required: boolean;
                                    options?: string[];
                                }[];
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                                listingCount: number;
                                _count: {
                                    listings: number;
                                };
                            }[];
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getAuthAgentCodes: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example 482915 */
                            code: string;
                            /** @example Dawit Bekele */
                            agentName: string;
                            agentPhone: string;
                            /** @enum {string} */
                            role: "SUPER_ADMIN" | "AGENT";
                            maxUses: number;
                            useCount: number;
                            isUsed: boolean;
                            revoked: boolean;
                            revokedAt: string | null;
                            expired: boolean;
                            usable: boolean;
                            /** Format: date-time */
                            expiresAt: string;
                            /** Format: uuid */
                            createdById: string;
                            usedById: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: `usable`. */
                            isActive?: boolean;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: `useCount`. */
                            uses?: number;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postAuthAgentCodes: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default AGENT */
                    role?: string;
                    /** @default 1 */
                    maxUses?: number;
                    /** @default  */
                    phone?: string;
                    /** @default 24 */
                    expiresInHours?: number;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example 482915 */
                            code: string;
                            agentName: string;
                            agentPhone: string;
                            maxUses: number;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: true. */
                            isActive?: boolean;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: 0. */
                            uses?: number;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "IDEMPOTENCY_KEY_IN_PROGRESS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The Idempotency-Key was used before with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "IDEMPOTENCY_KEY_REUSED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    deleteAuthAgentCodesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getAuthAgents: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example Sara Tesfaye */
                            name: string;
                            /** @example +251911234567 */
                            phone: string;
                            profileImage: string | null;
                            social_1: string | null;
                            social_2: string | null;
                            social_3: string | null;
                            social_4: string | null;
                            social_5: string | null;
                            social_6: string | null;
                            social_7: string | null;
                            social_8: string | null;
                            website: string | null;
                            customSocials: {
                                name: string;
                                url: string;
                            }[];
                            /**
                             * Format: email
                             * @example sara.tesfaye@example.com
                             */
                            email: string;
                            /** @enum {string} */
                            role: "SUPER_ADMIN" | "AGENT";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    deleteAuthAgentsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postAuthForgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSuccess"];
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example sara.tesfaye@example.com */
                    email: string;
                    /** @example correct-horse-battery-staple */
                    password: string;
                    /** @description The `deviceToken` an earlier sign-in on this device answered: with a valid one of this account, only this device's own failures can refuse the sign-in. One that is not valid for the account counts for nothing. */
                    deviceToken?: string;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** UserSummary */
                            user: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: email
                                 * @example sara.tesfaye@example.com
                                 */
                                email: string;
                                /** @example Sara Tesfaye */
                                name: string;
                                /** @enum {string} */
                                role: "SUPER_ADMIN" | "AGENT";
                            };
                            /**
                             * @description A bearer token: send it as `Authorization: Bearer <token>`.
                             * @example eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI4ZjE0In0.c2lnbmF0dXJl
                             */
                            token: string;
                            /**
                             * @description Keep it on this device and send it with the next sign-in (see the description).
                             * @example eyJhbGciOiJIUzI1NiJ9.eyJkZXZpY2UiOiJjNGE3In0.ZGV2aWNlLXNpZ25hdHVyZQ
                             */
                            deviceToken: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INVALID_CREDENTIALS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE" | "PASSWORD_CHECKS_BUSY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Profile */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example Sara Tesfaye */
                            name: string;
                            /** @example +251911234567 */
                            phone: string;
                            profileImage: string | null;
                            social_1: string | null;
                            social_2: string | null;
                            social_3: string | null;
                            social_4: string | null;
                            social_5: string | null;
                            social_6: string | null;
                            social_7: string | null;
                            social_8: string | null;
                            website: string | null;
                            customSocials: {
                                name: string;
                                url: string;
                            }[];
                            /**
                             * Format: email
                             * @example sara.tesfaye@example.com
                             */
                            email: string;
                            /** @enum {string} */
                            role: "SUPER_ADMIN" | "AGENT";
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the first word of `name`. */
                            firstName?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the rest of `name`. */
                            lastName?: string;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    putAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Multipart form data; JSON fields (such as `attributes`) are sent as JSON text. A client sending no files may send the same fields as a JSON object. */
        requestBody?: {
            content: {
                "multipart/form-data": {
                    name?: string;
                    /** Format: email */
                    email?: string;
                    phone?: string;
                    social_1?: string | null;
                    social_2?: string | null;
                    social_3?: string | null;
                    social_4?: string | null;
                    social_5?: string | null;
                    social_6?: string | null;
                    social_7?: string | null;
                    social_8?: string | null;
                    website?: string | null;
                    customSocials?: {
                        name: string;
                        url: string;
                    }[];
                    currentPassword?: string;
                    /**
                     * Format: binary
                     * @description An image file of at most 5 MB
                     */
                    profileImage?: string;
                };
                "application/json": {
                    name?: string;
                    /** Format: email */
                    email?: string;
                    phone?: string;
                    social_1?: string | null;
                    social_2?: string | null;
                    social_3?: string | null;
                    social_4?: string | null;
                    social_5?: string | null;
                    social_6?: string | null;
                    social_7?: string | null;
                    social_8?: string | null;
                    website?: string | null;
                    customSocials?: {
                        name: string;
                        url: string;
                    }[];
                    currentPassword?: string;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Profile */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example Sara Tesfaye */
                            name: string;
                            /** @example +251911234567 */
                            phone: string;
                            profileImage: string | null;
                            social_1: string | null;
                            social_2: string | null;
                            social_3: string | null;
                            social_4: string | null;
                            social_5: string | null;
                            social_6: string | null;
                            social_7: string | null;
                            social_8: string | null;
                            website: string | null;
                            customSocials: {
                                name: string;
                                url: string;
                            }[];
                            /**
                             * Format: email
                             * @example sara.tesfaye@example.com
                             */
                            email: string;
                            /** @enum {string} */
                            role: "SUPER_ADMIN" | "AGENT";
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the first word of `name`. */
                            firstName?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the rest of `name`. */
                            lastName?: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY" | "UNSUPPORTED_IMAGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CURRENT_PASSWORD_INCORRECT";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "ALREADY_EXISTS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE" | "PASSWORD_CHECKS_BUSY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                    name: string;
                    phone: string;
                    agentCode: string;
                    role?: unknown;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** UserSummary */
                            user: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: email
                                 * @example sara.tesfaye@example.com
                                 */
                                email: string;
                                /** @example Sara Tesfaye */
                                name: string;
                                /** @enum {string} */
                                role: "SUPER_ADMIN" | "AGENT";
                            };
                            /**
                             * @description A bearer token: send it as `Authorization: Bearer <token>`.
                             * @example eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI4ZjE0In0.c2lnbmF0dXJl
                             */
                            token: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY" | "INVALID_AGENT_CODE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "ALREADY_EXISTS" | "CONFLICT" | "IDEMPOTENCY_KEY_IN_PROGRESS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The Idempotency-Key was used before with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "IDEMPOTENCY_KEY_REUSED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE" | "PASSWORD_CHECKS_BUSY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postAuthResetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    token: string;
                    newPassword?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSuccess"];
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY" | "INVALID_RESET_CODE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE" | "PASSWORD_CHECKS_BUSY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postAuthVerifyAgentCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            valid: boolean;
                            agentName: string | null;
                            agentPhone: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getCategories: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example PHONES */
                            name: string;
                            /** @example Phones */
                            displayName: string;
                            /** @example smartphone */
                            icon: string;
                            /**
                             * @example [
                             *       {
                             *         "field": "brand",
                             *         "type": "string",
                             *         "required": true
                             *       },
                             *       {
                             *         "field": "storage",
                             *         "type": "select",
                             *         "required": true,
                             *         "options": [
                             *           "64GB",
                             *           "128GB",
                             *           "256GB",
                             *           "512GB",
                             *           "1TB"
                             *         ]
                             *       },
                             *       {
                             *         "field": "hasWarranty",
                             *         "type": "boolean",
                             *         "required": false
                             *       }
                             *     ]
                             */
                            schemaRules: {
                                field: string;
                                /** @enum {string} */
                                type: "string" | "number" | "boolean" | "select";
                                required: boolean;
                                options?: string[];
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            listingCount: number;
                            _count: {
                                listings: number;
                            };
                        }[];
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postCategories: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    displayName: string;
                    /** @default tag */
                    icon?: string;
                    /** @default [] */
                    schemaRules?: ({
                        field: string;
                        /** @constant */
                        type: "select";
                        /** @default false */
                        required?: boolean;
                        options: string[];
                    } | {
                        field: string;
                        /** @enum {string} */
                        type: "string" | "number" | "boolean";
                        /** @default false */
                        required?: boolean;
                        options?: unknown;
                    })[];
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Category */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example PHONES */
                            name: string;
                            /** @example Phones */
                            displayName: string;
                            /** @example smartphone */
                            icon: string;
                            /**
                             * @example [
                             *       {
                             *         "field": "brand",
                             *         "type": "string",
                             *         "required": true
                             *       },
                             *       {
                             *         "field": "storage",
                             *         "type": "select",
                             *         "required": true,
                             *         "options": [
                             *           "64GB",
                             *           "128GB",
                             *           "256GB",
                             *           "512GB",
                             *           "1TB"
                             *         ]
                             *       },
                             *       {
                             *         "field": "hasWarranty",
                             *         "type": "boolean",
                             *         "required": false
                             *       }
                             *     ]
                             */
                            schemaRules: {
                                field: string;
                                /** @enum {string} */
                                type: "string" | "number" | "boolean" | "select";
                                required: boolean;
                                options?: string[];
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            listingCount: number;
                            _count: {
                                listings: number;
                            };
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "ALREADY_EXISTS" | "IDEMPOTENCY_KEY_IN_PROGRESS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The Idempotency-Key was used before with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "IDEMPOTENCY_KEY_REUSED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getCategoriesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Category */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example PHONES */
                            name: string;
                            /** @example Phones */
                            displayName: string;
                            /** @example smartphone */
                            icon: string;
                            /**
                             * @example [
                             *       {
                             *         "field": "brand",
                             *         "type": "string",
                             *         "required": true
                             *       },
                             *       {
                             *         "field": "storage",
                             *         "type": "select",
                             *         "required": true,
                             *         "options": [
                             *           "64GB",
                             *           "128GB",
                             *           "256GB",
                             *           "512GB",
                             *           "1TB"
                             *         ]
                             *       },
                             *       {
                             *         "field": "hasWarranty",
                             *         "type": "boolean",
                             *         "required": false
                             *       }
                             *     ]
                             */
                            schemaRules: {
                                field: string;
                                /** @enum {string} */
                                type: "string" | "number" | "boolean" | "select";
                                required: boolean;
                                options?: string[];
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            listingCount: number;
                            _count: {
                                listings: number;
                            };
                        };
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    deleteCategoriesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    patchCategoriesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                    displayName?: string;
                    icon?: string;
                    schemaRules?: ({
                        field: string;
                        /** @constant */
                        type: "select";
                        /** @default false */
                        required?: boolean;
                        options: string[];
                    } | {
                        field: string;
                        /** @enum {string} */
                        type: "string" | "number" | "boolean";
                        /** @default false */
                        required?: boolean;
                        options?: unknown;
                    })[];
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Category */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example PHONES */
                            name: string;
                            /** @example Phones */
                            displayName: string;
                            /** @example smartphone */
                            icon: string;
                            /**
                             * @example [
                             *       {
                             *         "field": "brand",
                             *         "type": "string",
                             *         "required": true
                             *       },
                             *       {
                             *         "field": "storage",
                             *         "type": "select",
                             *         "required": true,
                             *         "options": [
                             *           "64GB",
                             *           "128GB",
                             *           "256GB",
                             *           "512GB",
                             *           "1TB"
                             *         ]
                             *       },
                             *       {
                             *         "field": "hasWarranty",
                             *         "type": "boolean",
                             *         "required": false
                             *       }
                             *     ]
                             */
                            schemaRules: {
                                field: string;
                                /** @enum {string} */
                                type: "string" | "number" | "boolean" | "select";
                                required: boolean;
                                options?: string[];
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            listingCount: number;
                            _count: {
                                listings: number;
                            };
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "ALREADY_EXISTS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getCommissionsAssetStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            totalAssets: number;
                            /** @description The sum of every listing's price. */
                            totalValue: number;
                            totalStock: number;
                            AVAILABLE: number;
                            SOLD: number;
                            PENDING: number;
                            ARCHIVED: number;
                            byCategory: {
                                /** Format: uuid */
                                categoryId: string;
                                categoryName: string;
                                categoryDisplayName: string;
                                icon: string;
                                count: number;
                                totalValue: number;
                                totalStock: number;
                                statusCounts: {
                                    AVAILABLE: number;
                                    SOLD: number;
                                    PENDING: number;
                                    ARCHIVED: number;
                                };
                            }[];
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    patchCommissionsListingById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    commissionPercent: number | null;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** CommissionListing */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                            commissionAmount: number | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getCommissionsListings: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                commissionFilter?: "set" | "unset" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                            commissionAmount: number | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getCommissionsSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Listings with a commission set. */
                            totalListings: number;
                            /** @description Their average percent, 2 decimals. */
                            totalCommissionPercent: number;
                            totalEstimatedRevenue: number;
                            /** @description Over SOLD listings. */
                            collectedCommission: number;
                            /** @description Over AVAILABLE and PENDING listings. */
                            pendingCommission: number;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getCronSweep: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            channelPosts: {
                                resumed: number;
                                retried: number;
                            };
                            idempotencyKeysRemoved: number;
                            unattachedUploadsRemoved: number;
                            auditEntriesRemoved: number;
                            trashedListingsPurged: number;
                            leftBehindImagesRemoved: number;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getDocsByAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                asset: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/css": string;
                    "text/javascript": string;
                    "image/png": string;
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy (no envelope) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getHealthReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy (no envelope) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getListings: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                trashed?: boolean;
                status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                categoryId?: string;
                minPrice?: number;
                maxPrice?: number;
                search?: string;
                city?: string;
                neighborhood?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postListings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Multipart form data; JSON fields (such as `attributes`) are sent as JSON text. A client sending no files may send the same fields as a JSON object. */
        requestBody?: {
            content: {
                "multipart/form-data": {
                    /** @example iPhone 15 Pro 256GB, Natural Titanium */
                    title?: string;
                    description?: string;
                    /** @example 899.99 */
                    price?: number | string;
                    /** Format: uuid */
                    categoryId?: string;
                    /** Format: uuid */
                    agentId?: string;
                    /** @enum {string} */
                    status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                    /**
                     * @example {
                     *       "brand": "Apple",
                     *       "model": "iPhone 15 Pro",
                     *       "storage": "256GB",
                     *       "condition": "Used - Like New",
                     *       "hasWarranty": true
                     *     }
                     */
                    attributes?: unknown;
                    /** @example 3 */
                    stockQuantity?: number | string;
                    customTelegramCaption?: string;
                    city?: string;
                    neighborhood?: string;
                    /**
                     * @example [
                     *       {
                     *         "public_id": "brostechnology/listings/3f2b7c1e",
                     *         "version": 1764100000,
                     *         "signature": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4",
                     *         "secure_url": "https://res.cloudinary.com/demo/image/upload/v1764100000/brostechnology/listings/3f2b7c1e.webp"
                     *       }
                     *     ]
                     */
                    imageRefs?: {
                        public_id: string;
                        version: number | string;
                        signature: string;
                        /** Format: uri */
                        secure_url: string;
                    }[];
                    images?: string[];
                };
                "application/json": {
                    /** @example iPhone 15 Pro 256GB, Natural Titanium */
                    title?: string;
                    description?: string;
                    /** @example 899.99 */
                    price?: number | string;
                    /** Format: uuid */
                    categoryId?: string;
                    /** Format: uuid */
                    agentId?: string;
                    /** @enum {string} */
                    status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                    /**
                     * @example {
                     *       "brand": "Apple",
                     *       "model": "iPhone 15 Pro",
                     *       "storage": "256GB",
                     *       "condition": "Used - Like New",
                     *       "hasWarranty": true
                     *     }
                     */
                    attributes?: unknown;
                    /** @example 3 */
                    stockQuantity?: number | string;
                    customTelegramCaption?: string;
                    city?: string;
                    neighborhood?: string;
                    /**
                     * @example [
                     *       {
                     *         "public_id": "brostechnology/listings/3f2b7c1e",
                     *         "version": 1764100000,
                     *         "signature": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4",
                     *         "secure_url": "https://res.cloudinary.com/demo/image/upload/v1764100000/brostechnology/listings/3f2b7c1e.webp"
                     *       }
                     *     ]
                     */
                    imageRefs?: {
                        public_id: string;
                        version: number | string;
                        signature: string;
                        /** Format: uri */
                        secure_url: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Listing */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY" | "UNSUPPORTED_IMAGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT" | "NOT_CONFIGURED" | "IDEMPOTENCY_KEY_IN_PROGRESS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The listing's attributes do not satisfy its category's rules; `details` names each. The Idempotency-Key was used before with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "ATTRIBUTES_INVALID" | "IDEMPOTENCY_KEY_REUSED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getListingsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Listing */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    deleteListingsById: {
        parameters: {
            query?: {
                permanent?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    patchListingsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Multipart form data; JSON fields (such as `attributes`) are sent as JSON text. A client sending no files may send the same fields as a JSON object. */
        requestBody?: {
            content: {
                "multipart/form-data": {
                    /** @example iPhone 15 Pro 256GB, Natural Titanium */
                    title?: string;
                    description?: string;
                    /** @example 899.99 */
                    price?: number | string;
                    /** Format: uuid */
                    categoryId?: string;
                    /** Format: uuid */
                    agentId?: string;
                    /** @enum {string} */
                    status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                    /**
                     * @example {
                     *       "brand": "Apple",
                     *       "model": "iPhone 15 Pro",
                     *       "storage": "256GB",
                     *       "condition": "Used - Like New",
                     *       "hasWarranty": true
                     *     }
                     */
                    attributes?: unknown;
                    /** @example 3 */
                    stockQuantity?: number | string;
                    customTelegramCaption?: string | null;
                    city?: string | null;
                    neighborhood?: string | null;
                    /**
                     * @example [
                     *       "https://shop.example.com/uploads/3f2b7c1e.webp"
                     *     ]
                     */
                    existingImages?: unknown;
                    /**
                     * @example [
                     *       {
                     *         "public_id": "brostechnology/listings/3f2b7c1e",
                     *         "version": 1764100000,
                     *         "signature": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4",
                     *         "secure_url": "https://res.cloudinary.com/demo/image/upload/v1764100000/brostechnology/listings/3f2b7c1e.webp"
                     *       }
                     *     ]
                     */
                    imageRefs?: {
                        public_id: string;
                        version: number | string;
                        signature: string;
                        /** Format: uri */
                        secure_url: string;
                    }[];
                    images?: string[];
                };
                "application/json": {
                    /** @example iPhone 15 Pro 256GB, Natural Titanium */
                    title?: string;
                    description?: string;
                    /** @example 899.99 */
                    price?: number | string;
                    /** Format: uuid */
                    categoryId?: string;
                    /** Format: uuid */
                    agentId?: string;
                    /** @enum {string} */
                    status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                    /**
                     * @example {
                     *       "brand": "Apple",
                     *       "model": "iPhone 15 Pro",
                     *       "storage": "256GB",
                     *       "condition": "Used - Like New",
                     *       "hasWarranty": true
                     *     }
                     */
                    attributes?: unknown;
                    /** @example 3 */
                    stockQuantity?: number | string;
                    customTelegramCaption?: string | null;
                    city?: string | null;
                    neighborhood?: string | null;
                    /**
                     * @example [
                     *       "https://shop.example.com/uploads/3f2b7c1e.webp"
                     *     ]
                     */
                    existingImages?: unknown;
                    /**
                     * @example [
                     *       {
                     *         "public_id": "brostechnology/listings/3f2b7c1e",
                     *         "version": 1764100000,
                     *         "signature": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4",
                     *         "secure_url": "https://res.cloudinary.com/demo/image/upload/v1764100000/brostechnology/listings/3f2b7c1e.webp"
                     *       }
                     *     ]
                     */
                    imageRefs?: {
                        public_id: string;
                        version: number | string;
                        signature: string;
                        /** Format: uri */
                        secure_url: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Listing */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY" | "UNSUPPORTED_IMAGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT" | "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The listing's attributes do not satisfy its category's rules; `details` names each */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "ATTRIBUTES_INVALID";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postListingsByIdRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Listing */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            description: string | null;
                            /** @example 899.99 */
                            price: number;
                            /** @enum {string} */
                            status: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                            city: string | null;
                            neighborhood: string | null;
                            /** @description Absolute URLs, in display order. */
                            images: string[];
                            /** @description The same images with their size, placeholder and srcset. */
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: string | number | boolean;
                            };
                            customTelegramCaption: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            categoryId: string | null;
                            agentId: string | null;
                            viewsCount: number;
                            inquiryClicks: number;
                            stockQuantity: number;
                            commissionPercent: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description When the listing was moved to the trash; null while it is in the shop. */
                            deletedAt: string | null;
                            /** @description Null only for a listing in the trash whose category was deleted since. */
                            category: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                displayName: string;
                                icon: string;
                            } | null;
                            /** @description The display name of the category deleted while the listing was in the trash; null otherwise. Such a listing cannot be restored. */
                            removedCategory: string | null;
                            agent: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                phone: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getListingsExport: {
        parameters: {
            query?: {
                status?: "AVAILABLE" | "PENDING" | "SOLD" | "ARCHIVED";
                categoryId?: string;
                minPrice?: number;
                maxPrice?: number;
                search?: string;
                city?: string;
                neighborhood?: string;
                trashed?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A CSV file (RFC 4180, UTF-8 with a byte order mark), streamed */
            200: {
                headers: {
                    /** @description `attachment; filename="listings-<date>.csv"` */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postListingsImport: {
        parameters: {
            query?: {
                dryRun?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file as the body (`Content-Type: text/csv`), or as the multipart field `file`. */
        requestBody: {
            content: {
                "text/csv": string;
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description A CSV file of listings (UTF-8, the columns of an export), of at most 4 MiB and 5,000 rows.
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** ImportReport */
                        data: {
                            /** @description True when nothing was written: the counts say what the import would do. */
                            dryRun: boolean;
                            created: number;
                            /** @description Rows naming a listing of the caller, whether or not they change it. */
                            updated: number;
                            /** @description Of the updated rows, those that change nothing: nothing is written for them. */
                            unchanged: number;
                            failed: number;
                            /** @description Columns the import does not read (an unknown or unnamed column): reported, never a failure. */
                            warnings: {
                                /**
                                 * @description The column at fault: `price`, `attr:storage`, `category`, ...
                                 * @example price
                                 */
                                field: string;
                                /**
                                 * @description In the words of the single-listing endpoints.
                                 * @example must be a non-negative number with at most 2 decimals
                                 */
                                message: string;
                                received?: unknown;
                            }[];
                            rows: {
                                /** @description The line of the file the row starts on; the header is line 1. */
                                row: number;
                                /** @description The listing: the one the row names, or the one it created. */
                                id?: string;
                                /** @enum {string} */
                                status: "created" | "updated" | "failed";
                                errors?: {
                                    /**
                                     * @description The column at fault: `price`, `attr:storage`, `category`, ...
                                     * @example price
                                     */
                                    field: string;
                                    /**
                                     * @description In the words of the single-listing endpoints.
                                     * @example must be a non-negative number with at most 2 decimals
                                     */
                                    message: string;
                                    received?: unknown;
                                }[];
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getNotifications: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                unreadOnly?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example Listing sold */
                            title: string;
                            body: string | null;
                            /** @example LISTING_SOLD */
                            type: string;
                            data: {
                                [key: string]: unknown;
                            } | null;
                            isRead: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        unreadCount: number;
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    putNotificationsByIdRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Notification */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example Listing sold */
                            title: string;
                            body: string | null;
                            /** @example LISTING_SOLD */
                            type: string;
                            data: {
                                [key: string]: unknown;
                            } | null;
                            isRead: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    putNotificationsReadAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            updated: number;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getPublicFilterOptions: {
        parameters: {
            query?: {
                category?: string;
                q?: string;
                search?: string;
                priceMin?: number;
                priceMax?: number;
                minPrice?: number;
                maxPrice?: number;
                amenities?: string;
                brand?: string;
                condition?: string;
                storage?: string;
                ram?: string;
                color?: string;
                processor?: string;
                screenSize?: string;
                os?: string;
                model?: string;
                connectivity?: string;
                caseSize?: string;
                beds?: string;
                baths?: string;
            };
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            [key: string]: {
                                field: string;
                                /** @enum {string} */
                                type: "string" | "number" | "boolean" | "select";
                                required: boolean;
                                options: string[];
                                /**
                                 * @example {
                                 *       "128GB": 12,
                                 *       "256GB": 30
                                 *     }
                                 */
                                counts: {
                                    [key: string]: number;
                                };
                                /** @constant */
                                hasMoreOptions?: true;
                            };
                        };
                        total: number;
                        priceRange: {
                            min: number | null;
                            max: number | null;
                        };
                        countsExact: boolean;
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getPublicListings: {
        parameters: {
            query?: {
                category?: string;
                q?: string;
                search?: string;
                priceMin?: number;
                priceMax?: number;
                minPrice?: number;
                maxPrice?: number;
                amenities?: string;
                brand?: string;
                condition?: string;
                storage?: string;
                ram?: string;
                color?: string;
                processor?: string;
                screenSize?: string;
                os?: string;
                model?: string;
                connectivity?: string;
                caseSize?: string;
                beds?: string;
                baths?: string;
                sort?: "relevance" | "newest" | "price_asc" | "price_desc";
                limit?: number;
                page?: number;
            };
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            /** @example 899.99 */
                            price: number;
                            inStock: boolean;
                            stockQuantity: number;
                            brand: string | null;
                            /**
                             * @description The category's display name.
                             * @example Phones
                             */
                            category: string;
                            /** Format: uuid */
                            categoryId: string;
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: unknown;
                            };
                            /**
                             * @example [
                             *       "brand: Apple",
                             *       "storage: 256GB",
                             *       "hasWarranty: true"
                             *     ]
                             */
                            tags: string[];
                            hero: string | null;
                            gallery: string[];
                            heroPhoto: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            } | null;
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            description: string;
                            /**
                             * @example [
                             *       "Brand: Apple",
                             *       "Storage: 256GB",
                             *       "Has Warranty: Yes"
                             *     ]
                             */
                            features: string[];
                        }[];
                        pagination?: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getPublicListingsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** StorefrontListingDetail */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @example iPhone 15 Pro 256GB, Natural Titanium */
                            title: string;
                            /** @example 899.99 */
                            price: number;
                            inStock: boolean;
                            stockQuantity: number;
                            brand: string | null;
                            /**
                             * @description The category's display name.
                             * @example Phones
                             */
                            category: string;
                            /** Format: uuid */
                            categoryId: string;
                            /**
                             * @example {
                             *       "brand": "Apple",
                             *       "model": "iPhone 15 Pro",
                             *       "storage": "256GB",
                             *       "condition": "Used - Like New",
                             *       "hasWarranty": true
                             *     }
                             */
                            attributes: {
                                [key: string]: unknown;
                            };
                            /**
                             * @example [
                             *       "brand: Apple",
                             *       "storage: 256GB",
                             *       "hasWarranty: true"
                             *     ]
                             */
                            tags: string[];
                            hero: string | null;
                            gallery: string[];
                            heroPhoto: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            } | null;
                            photos: {
                                /**
                                 * Format: uri
                                 * @description The stored image, as `images`, `hero` and `gallery` show it.
                                 */
                                url: string;
                                /** @description Intrinsic width in pixels. */
                                width: number | null;
                                /** @description Intrinsic height in pixels. */
                                height: number | null;
                                /** @description ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads. */
                                placeholder: string | null;
                                /** @description For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width. */
                                srcset: string;
                            }[];
                            description: string;
                            /**
                             * @example [
                             *       "Brand: Apple",
                             *       "Storage: 256GB",
                             *       "Has Warranty: Yes"
                             *     ]
                             */
                            features: string[];
                            agent: {
                                /** Format: uuid */
                                id: string;
                                /** @example Sara Tesfaye */
                                name: string;
                                /** @example +251911234567 */
                                phone: string;
                                profileImage: string | null;
                                social_1: string | null;
                                social_2: string | null;
                                social_3: string | null;
                                social_4: string | null;
                                social_5: string | null;
                                social_6: string | null;
                                social_7: string | null;
                                social_8: string | null;
                                website: string | null;
                                customSocials: {
                                    name: string;
                                    url: string;
                                }[];
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postPublicListingsByIdInquiry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description messenger, chat or call. Deprecated: telegram (use messenger) and whatsapp (use chat), the original service's names.
                     * @enum {string}
                     */
                    method: "messenger" | "chat" | "call" | "telegram" | "whatsapp";
                };
            };
        };
        responses: {
            /** @description Acknowledged */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getPublicMessengerBot: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: number;
                            first_name: string;
                            /** @example brostech_bot */
                            username: string;
                            /**
                             * Format: uri
                             * @example https://t.me/brostech_bot
                             */
                            link: string;
                        };
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getPublicSuggest: {
        parameters: {
            query: {
                q: string;
            };
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @example iPhone 15 Pro */
                            text: string;
                            /** @enum {string} */
                            kind: "title" | "brand" | "model" | "category";
                            count: number;
                        }[];
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getPublicTelegramBot: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: number;
                            first_name: string;
                            /** @example brostech_bot */
                            username: string;
                            /**
                             * Format: uri
                             * @example https://t.me/brostech_bot
                             */
                            link: string;
                        };
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds (or `*`): when one is the current answer, 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Settings */
                        data: {
                            /** @example Bros Technology */
                            siteName: string;
                            /** @example +251911234567 */
                            chatNumber: string;
                            callNumber1: string;
                            callNumber2: string;
                            /** @example brostech */
                            messengerHandle: string;
                            contactEmail: string;
                            socialUrl1: string;
                            socialUrl2: string;
                            location: string;
                            businessHours: string;
                            shopGoogleMapUrl: string;
                            shopMapAddress: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            whatsappNumber?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            telegramHandle?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            facebookUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            instagramUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            tiktokUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            youtubeUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            adminTelegramUsername?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            miniAppUrl?: string;
                        };
                    };
                };
            };
            /** @description `If-None-Match` names the current answer: no body */
            304: {
                headers: {
                    /** @description The CDN may keep the answer; browsers revalidate it with the ETag */
                    "Cache-Control"?: "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
                    /** @description A weak validator of the answer, to send back in `If-None-Match` */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    putSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    siteName?: string | null;
                    chatNumber?: string | null;
                    callNumber1?: string | null;
                    callNumber2?: string | null;
                    messengerHandle?: string | null;
                    contactEmail?: string | null;
                    socialUrl1?: string | null;
                    socialUrl2?: string | null;
                    location?: string | null;
                    businessHours?: string | null;
                    shopGoogleMapUrl?: string | null;
                    shopMapAddress?: string | null;
                    whatsappNumber?: string | null;
                    telegramHandle?: string | null;
                    facebookUrl?: string | null;
                    instagramUrl?: string | null;
                    tiktokUrl?: string | null;
                    youtubeUrl?: string | null;
                    adminTelegramUsername?: string | null;
                    miniAppUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Settings */
                        data: {
                            /** @example Bros Technology */
                            siteName: string;
                            /** @example +251911234567 */
                            chatNumber: string;
                            callNumber1: string;
                            callNumber2: string;
                            /** @example brostech */
                            messengerHandle: string;
                            contactEmail: string;
                            socialUrl1: string;
                            socialUrl2: string;
                            location: string;
                            businessHours: string;
                            shopGoogleMapUrl: string;
                            shopMapAddress: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            whatsappNumber?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            telegramHandle?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            facebookUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            instagramUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            tiktokUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            youtubeUrl?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            adminTelegramUsername?: string;
                            /** @description With LEGACY_CLIENT_FIELDS=1 only: the original service's name for a setting, or a setting it kept. */
                            miniAppUrl?: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string | null;
                            /** @example MESSENGER */
                            platform: string;
                            botToken: string | null;
                            channelId: string | null;
                            apiKey: string | null;
                            apiSecret: string | null;
                            isActive: boolean;
                            extraConfig: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description `environment`: the defaults from the environment, shown while no config is stored.
                             * @enum {string}
                             */
                            source: "database" | "environment";
                            createdAt: string | null;
                            updatedAt: string | null;
                        }[];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    platform: string;
                    botToken?: string | null;
                    channelId?: string | null;
                    isActive?: boolean;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** ChannelConfig */
                        data: {
                            id: string | null;
                            /** @example MESSENGER */
                            platform: string;
                            botToken: string | null;
                            channelId: string | null;
                            apiKey: string | null;
                            apiSecret: string | null;
                            isActive: boolean;
                            extraConfig: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description `environment`: the defaults from the environment, shown while no config is stored.
                             * @enum {string}
                             */
                            source: "database" | "environment";
                            createdAt: string | null;
                            updatedAt: string | null;
                        };
                    };
                };
            };
            /** @description The `data` envelope */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** ChannelConfig */
                        data: {
                            id: string | null;
                            /** @example MESSENGER */
                            platform: string;
                            botToken: string | null;
                            channelId: string | null;
                            apiKey: string | null;
                            apiSecret: string | null;
                            isActive: boolean;
                            extraConfig: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description `environment`: the defaults from the environment, shown while no config is stored.
                             * @enum {string}
                             */
                            source: "database" | "environment";
                            createdAt: string | null;
                            updatedAt: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationConfigByPlatform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                platform: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** ChannelConfig */
                        data: {
                            id: string | null;
                            /** @example MESSENGER */
                            platform: string;
                            botToken: string | null;
                            channelId: string | null;
                            apiKey: string | null;
                            apiSecret: string | null;
                            isActive: boolean;
                            extraConfig: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description `environment`: the defaults from the environment, shown while no config is stored.
                             * @enum {string}
                             */
                            source: "database" | "environment";
                            createdAt: string | null;
                            updatedAt: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    deleteSyndicationConfigByPlatform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                platform: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            platform: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationDeleteMessageByMessageId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            messageId: number;
                            /** @constant */
                            deleted: true;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationEditMessageByMessageId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption: string;
                };
            };
        };
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            messageId: number;
                            caption: string;
                            /** @constant */
                            edited: true;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED" | "MALFORMED_BODY";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A body over the endpoint's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "PAYLOAD_TOO_LARGE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The body's Content-Type is not one the endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Entries waiting to be posted (or being posted now). */
                            pending: number;
                            /** @description Failed entries the sweeper will try again. */
                            failedRetrying: number;
                            /** @description Entries of the last 24 hours that failed and will not be tried again (the failure cannot heal, or attempts ran out). */
                            failedForGood24h: number;
                            succeeded24h: number;
                            /** @description How long the oldest waiting entry has waited; null when none waits. */
                            oldestPendingSeconds: number | null;
                            lastSuccessAt: string | null;
                            lastFailureAt: string | null;
                            /** @description The last attempt the Bot API refused for flood control (429). */
                            lastRateLimitedAt: string | null;
                            /** @description The wait the Bot API asked for then. */
                            lastRetryAfterSeconds: number | null;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationLogs: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                status?: "PENDING" | "SUCCESS" | "FAILED";
                action?: "NEW_POST" | "EDITED" | "DELETED";
                listingId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            listingId: string;
                            /** @example MESSENGER */
                            platform: string;
                            /** @enum {string} */
                            status: "PENDING" | "SUCCESS" | "FAILED";
                            /** @enum {string} */
                            action: "NEW_POST" | "EDITED" | "DELETED";
                            channelInfo: string;
                            messageId: number | null;
                            errorMessage: string | null;
                            /** Format: date-time */
                            runAt: string;
                            listing: {
                                /** Format: uuid */
                                id: string;
                                title: string;
                            };
                        }[];
                        pagination: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationMessengerInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            bot: {
                                id: number;
                                first_name: string;
                                /** @example brostech_bot */
                                username: string;
                                photoUrl: null;
                            };
                            channel: {
                                id: number;
                                title: string | null;
                                username: string | null;
                                memberCount: number;
                                photoUrl: null;
                            };
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationMessengerSetupWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            url: string;
                            has_custom_certificate: boolean;
                            pending_update_count: number;
                            ip_address: string | null;
                            last_error_date: number | null;
                            last_error_message: string | null;
                            max_connections: number | null;
                            allowed_updates: string[] | null;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationMessengerWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Acknowledged */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationMessengerWebhookInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            url: string;
                            has_custom_certificate: boolean;
                            pending_update_count: number;
                            ip_address: string | null;
                            last_error_date: number | null;
                            last_error_message: string | null;
                            max_connections: number | null;
                            allowed_updates: string[] | null;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationRetryById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** ChannelPost */
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            listingId: string;
                            /** @example MESSENGER */
                            platform: string;
                            /** @enum {string} */
                            status: "PENDING" | "SUCCESS" | "FAILED";
                            /** @enum {string} */
                            action: "NEW_POST" | "EDITED" | "DELETED";
                            channelInfo: string;
                            messageId: number | null;
                            errorMessage: string | null;
                            /** Format: date-time */
                            runAt: string;
                            listing: {
                                /** Format: uuid */
                                id: string;
                                title: string;
                            };
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT" | "NOT_CONFIGURED" | "IDEMPOTENCY_KEY_IN_PROGRESS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The Idempotency-Key was used before with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "IDEMPOTENCY_KEY_REUSED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationTelegramInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            bot: {
                                id: number;
                                first_name: string;
                                /** @example brostech_bot */
                                username: string;
                                photoUrl: null;
                            };
                            channel: {
                                id: number;
                                title: string | null;
                                username: string | null;
                                memberCount: number;
                                photoUrl: null;
                            };
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationTelegramSetupWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            url: string;
                            has_custom_certificate: boolean;
                            pending_update_count: number;
                            ip_address: string | null;
                            last_error_date: number | null;
                            last_error_message: string | null;
                            max_connections: number | null;
                            allowed_updates: string[] | null;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationTelegramWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Acknowledged */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getSyndicationTelegramWebhookInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            url: string;
                            has_custom_certificate: boolean;
                            pending_update_count: number;
                            ip_address: string | null;
                            last_error_date: number | null;
                            last_error_message: string | null;
                            max_connections: number | null;
                            allowed_updates: string[] | null;
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postSyndicationTriggerByListingId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key from the same caller with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) without creating anything; the same key with a different request is 422; while the first request with the key still runs, 409. An answer that says try later (429, 5xx) is not kept, so the retry runs anew, and a request its rate limits refuse leaves no key. A kept answer never holds a secret the request did not carry. */
                "Idempotency-Key"?: string;
            };
            path: {
                listingId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uuid */
                            listingId: string;
                            messageId: number | null;
                            message: string;
                        };
                    };
                };
            };
            /** @description Invalid input: `details` lists each field at fault */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "VALIDATION_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The role may not call this, or the record belongs to another agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "FORBIDDEN";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description No record with that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_FOUND";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "CONFLICT" | "NOT_CONFIGURED" | "IDEMPOTENCY_KEY_IN_PROGRESS";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description The Idempotency-Key was used before with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "IDEMPOTENCY_KEY_REUSED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description An outside service (image host, Bot API) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UPSTREAM_FAILED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    postUploadsSignature: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `data` envelope */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** Format: uri */
                            uploadUrl: string;
                            cloudName: string;
                            apiKey: string;
                            publicId: string;
                            timestamp: number;
                            /** Format: date-time */
                            expiresAt: string;
                            folder: string;
                            transformation: string;
                            format: string;
                            signature: string;
                            fields: {
                                api_key: string;
                                public_id: string;
                                timestamp: number;
                                transformation: string;
                                format: string;
                                signature: string;
                            };
                        };
                    };
                };
            };
            /** @description Missing, malformed, invalid or expired token, or the user no longer exists */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "UNAUTHENTICATED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A unique value is taken, or the record is not in a state that allows this */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "NOT_CONFIGURED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Rate limit reached */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "RATE_LIMITED";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
    getHealthAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy (no envelope) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Unexpected failure (`Internal server error`) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "INTERNAL_ERROR";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
            /** @description A dependency is unavailable; try again */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: false;
                        /** @description What went wrong, in English (the spec's message) */
                        error: string;
                        /**
                         * @description The stable identifier of the case: branch on this, not on `error`
                         * @enum {string}
                         */
                        code: "DEPENDENCY_UNAVAILABLE";
                        details?: components["schemas"]["ErrorDetail"][];
                    };
                };
            };
        };
    };
}
