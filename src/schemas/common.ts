/**
 * Value schemas every resource and request shares: ids, money, currencies, dates and instants.
 * src/schemas is importable by the HTTP layer and by services alike (it depends on zod and the pure
 * core only), so the OpenAPI document and the services' view types come from the same definitions.
 */
import { z } from '@hono/zod-openapi';
import { daysInMonth, isCurrency, MONEY_LIMIT } from '../core/index.js';

export const UuidSchema = z.string().uuid({ message: 'must be a UUID' }).openapi({ example: '01900000-0000-7000-8000-000000000000' });

/** Money: raw units at scale 12 as a decimal-integer string within DECIMAL(38,0). */
export const MoneySchema = z
  .string({ message: 'must be a decimal-integer string (raw units, scale 12), not a number' })
  // abort on each: zod 4 runs later checks after a failed one. The length bound comes first so an
  // oversize string never reaches the regex or BigInt(), whose cost grows with the length.
  .max(39, { message: 'is out of range (a sign and at most 38 digits)', abort: true })
  .regex(/^-?(0|[1-9][0-9]*)$/, { message: 'must be a decimal-integer string of raw units (scale 12), e.g. "1500000000000" for 1.50', abort: true })
  .refine((v) => {
    const abs = v.startsWith('-') ? v.slice(1) : v;
    return BigInt(abs) < MONEY_LIMIT;
  }, 'is out of range (at most 38 digits)')
  .openapi({ example: '1500000000000', description: 'raw units at scale 12 (1 unit = 1000000000000)' });

export const NonNegativeMoneySchema = MoneySchema.refine((v) => !v.startsWith('-'), 'must not be negative');

export const PositiveMoneySchema = MoneySchema.refine((v) => !v.startsWith('-') && v !== '0', 'must be greater than zero');

/** An amount for display next to its exact `*_nanos`: rounded once, HalfEven, to the currency's minor unit. */
export const DisplayAmountSchema = (of: string, detail = '') =>
  z.string().openapi({ description: `${of} for display: rounded once, HalfEven, to the currency's minor unit${detail}`, example: '10.00' });

export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an upper-case ISO 4217 code')
  .refine(isCurrency, 'is not an ISO 4217 currency code')
  .openapi({ example: 'USD' });

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether year-month-day names a day of the (proleptic Gregorian) calendar from year 1 on. */
const isCalendarDay = (year: number, month: number, day: number): boolean =>
  year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

export const IsoDateSchema = z
  .string()
  .regex(ISO_DATE, { message: 'must be an ISO 8601 date (YYYY-MM-DD)', abort: true })
  .refine((v) => {
    const [, year, month, day] = ISO_DATE.exec(v)!;
    return isCalendarDay(Number(year), Number(month), Number(day));
  }, { message: 'is not a calendar date', abort: true })
  .openapi({ example: '2026-01-31', description: 'ISO 8601 calendar date (YYYY-MM-DD) that exists' });

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|([+-])(\d{2}):(\d{2}))$/i;
/** Accepted instants: [1970-01-01T00:00:00Z, 10000-01-01T00:00:00Z), which PostgreSQL and JS Date both hold. */
const MIN_INSTANT_MS = Date.UTC(1970, 0, 1);
const END_INSTANT_MS = Date.UTC(10000, 0, 1);

/**
 * Whether text is an ISO 8601 date-time with seconds and an offset naming a real instant of the
 * years 1970-9999 (UTC). Offsets stop at ±15:59, the most PostgreSQL accepts when it parses the text.
 */
export function isBoundedInstant(text: string): boolean {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  // year >= 1970 also keeps Date.UTC from reading years 0-99 as 1900-1999.
  if (year < 1970 || !isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 59 || offsetHours > 15 || offsetMinutes > 59) {
    return false;
  }
  const offsetMs = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const instant = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs;
  return instant >= MIN_INSTANT_MS && instant < END_INSTANT_MS;
}

/**
 * Every date-time a request carries (body field or query parameter): a real instant PostgreSQL can
 * store, so an impossible date or an absurd year is a 400 naming the field, never a database error.
 */
export const DateTimeSchema = z
  .string()
  // abort: refinements a route chains on would only repeat the complaint about the same field.
  .refine(isBoundedInstant, {
    message: 'must be an ISO 8601 date-time with seconds and an offset (Z or ±hh:mm up to ±15:59) from 1970 to 9999, e.g. "2026-01-31T12:00:00Z"',
    abort: true,
  })
  .openapi({
    format: 'date-time',
    example: '2026-01-31T12:00:00Z',
    description: 'ISO 8601 date-time with seconds and an offset (Z or ±hh:mm up to ±15:59): an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z',
  });

/** An instant the API answers with (always UTC, milliseconds). */
export const TimestampSchema = z.string().openapi({ format: 'date-time', example: '2026-01-31T12:00:00.000Z' });

/** Limits of `metadata`: your own key/value pairs on a resource (as Stripe's), never read by billing. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** `metadata` as requests send it: string values; on update, a key set to null is removed. */
export const MetadataInputSchema = z
  .record(
    z.string().min(1, 'keys must not be empty').max(METADATA_LIMITS.keyLength, `keys are at most ${METADATA_LIMITS.keyLength} characters`),
    z.string().max(METADATA_LIMITS.valueLength, `values are at most ${METADATA_LIMITS.valueLength} characters`).nullable(),
  )
  .refine((m) => Object.keys(m).length <= METADATA_LIMITS.keys, `at most ${METADATA_LIMITS.keys} keys`)
  .openapi({
    description: `your own key/value pairs (up to ${METADATA_LIMITS.keys} keys of ${METADATA_LIMITS.keyLength} characters, values up to ${METADATA_LIMITS.valueLength}); on update the keys sent are merged in and a key set to null is removed`,
    example: { crm_id: 'acct_8812' },
  });

/** `metadata` as the API answers it. */
export const MetadataSchema = z.record(z.string(), z.string()).openapi({ description: 'your own key/value pairs', example: { crm_id: 'acct_8812' } });

/** Customer ids of your own systems (unique), usable as `external_customer_id` in usage events. */
export const ExternalIdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
  .openapi({ description: "your system's id for the customer: unique, usable as external_customer_id in usage events", example: 'crm-8812' });
/**
 * A step of the resource's workflow that failed in a way no automatic retry fixes
 * (docs/failures.md), waiting for an operator: fix the data, then POST …/retry. Null when none.
 */
export const BillingErrorSchema = z
  .object({
    step: z.string().openapi({ description: 'what the workflow was doing, e.g. closeSubscriptionPeriod or finalize', example: 'closeSubscriptionPeriod' }),
    type: z.string().openapi({ description: 'DeterministicFailure, Unprocessable, NotFound, InvalidTransition, or RetriesExhausted (a transient failure outlasted its retry schedule)', example: 'DeterministicFailure' }),
    message: z.string().openapi({ description: 'the reason, as the failing code reported it' }),
    failed_at: z.string().openapi({ format: 'date-time', description: "when it failed (the entity's time: its test clock's for sandbox customers)" }),
  })
  .nullable()
  .openapi('BillingError');

export type BillingErrorView = z.infer<typeof BillingErrorSchema>;
