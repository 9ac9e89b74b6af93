/**
 * The requests of the reports routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, DateTimeSchema, UuidSchema } from '../../../schemas/common.js';
import { MAX_SCHEDULE_MONTHS } from '../../../services/reports/reports.js';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const MonthSchema = z
  .string()
  .regex(MONTH, 'must be a month as YYYY-MM')
  .refine((v) => Number(v.slice(0, 4)) >= 1970, 'must be 1970-01 or later')
  .openapi({ example: '2026-01' });

const FilterQuerySchema = z.object({
  customer_id: UuidSchema.optional().openapi({ description: "one customer's figures (default: every customer)" }),
  currency: CurrencySchema.optional().openapi({ description: 'one currency (default: each currency separately)' }),
  format: z.enum(['json', 'csv']).optional().openapi({ description: 'csv for a CSV table (also with Accept: text/csv); default json' }),
});

export const AsOfQuerySchema = FilterQuerySchema.extend({
  as_of: DateTimeSchema.optional().openapi({
    description: "the instant the report is as of (default: now; AR aging without it ages each customer's invoices at that customer's own time, its test clock's frozen time when it has one)",
  }),
});

export const MovementsQuerySchema = FilterQuerySchema.extend({
  from: DateTimeSchema.openapi({ description: 'start instant (MRR at from)' }),
  to: DateTimeSchema.openapi({ description: 'end instant (MRR at to), after from' }),
});

export const DeferredQuerySchema = FilterQuerySchema.extend({
  from: MonthSchema.openapi({ description: 'first UTC month of the schedule' }),
  to: MonthSchema.openapi({ description: `last UTC month (at most ${MAX_SCHEDULE_MONTHS} months from from)` }),
});
