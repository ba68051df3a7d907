import type { RequestContext } from '../../http/endpoint.js';
import { enforceRateLimit } from '../../rate-limit/enforce-rate-limit.js';

/** Each caller may export, and import (a dry run counts too), this often an hour: a spreadsheet's pace, not a loop's. */
export const BULK_CALLS_PER_HOUR = 60;

function countBulkCall(kind: 'export' | 'import', { user }: RequestContext): Promise<void> {
  return enforceRateLimit({ key: `listing-${kind}:${user!.id}`, limit: BULK_CALLS_PER_HOUR, windowSeconds: 3600 });
}

export const countExport = (_input: unknown, ctx: RequestContext) => countBulkCall('export', ctx);
export const countImport = (_input: unknown, ctx: RequestContext) => countBulkCall('import', ctx);
