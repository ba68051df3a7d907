import * as v from 'valibot';
import { listingStatusEnum } from '../db/schema.js';
import { pageQuery } from '../http/common-schemas.js';

const STATUSES = listingStatusEnum.enumValues;
const COMMISSION_FILTERS = ['set', 'unset', 'all'] as const;

export const CommissionListingsQuery = v.object({
  ...pageQuery(20, 100),
  status: v.optional(v.picklist(STATUSES, `must be one of ${STATUSES.join(', ')}`)),
  commissionFilter: v.optional(v.picklist(COMMISSION_FILTERS, `must be one of ${COMMISSION_FILTERS.join(', ')}`), 'all'),
});

export type CommissionListingsQuery = v.InferOutput<typeof CommissionListingsQuery>;

const PERCENT_MESSAGE = 'must be a number from 0 to 100 with at most 2 decimals, or null';

/** `commissionPercent` is numeric(5,2): a percent with at most two decimals, or null to clear it. */
export const CommissionUpdateBody = v.object(
  {
    commissionPercent: v.nullable(
      v.pipe(
        v.number(PERCENT_MESSAGE),
        // The decimal pattern also refuses negatives and exponent forms such as 1e-7.
        v.check((value) => value <= 100 && /^\d+(\.\d{1,2})?$/.test(String(value)), PERCENT_MESSAGE),
      ),
    ),
  },
  (issue) => (issue.expected === 'Object' ? 'must be a JSON object' : 'is required'),
);
