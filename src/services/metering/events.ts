/**
 * Usage event ingestion (SPEC §1 Metering, §4 /v1/events and /v1/events/batch).
 *
 * - Deduplication is by event id, in the database: the row's unique constraint decides inside the
 *   INSERT that stores it, so a re-sent id, even 100 copies at once, is stored and counted once, and
 *   an event whose write failed was never "seen". The first copy wins; later copies (whatever their
 *   content) are reported as duplicates. Ids are global, not per customer (the SPEC deduplicates by
 *   event id): an id already stored for ANOTHER customer's event is not a duplicate but an
 *   `event_id_conflict` (409 for a single event, a per-item issue of a batch), so the event is never
 *   dropped silently; the error says only that the id is taken, nothing about the other event. Use
 *   UUIDs, or prefix ids with something of your own.
 * - A batch is ALL OR NOTHING: if any event is invalid nothing is stored, and the error lists every
 *   invalid event (`details.issues[]`, path `events.<index>.<field>` and a message): 400
 *   validation_failed for malformed events, 422 invalid_events (with index, event_id and code) for
 *   unknown or foreign customers and subscriptions, future timestamps and event_id_conflict. Fix
 *   and resend the whole batch; resending is always safe, an id is never counted twice.
 * - Validation: the customer exists (a customer token may only send its own customer's events); a
 *   subscription_id names a subscription of that customer; the timestamp is an ISO 8601 date-time
 *   (offset within ±15:59, not before 1970) not more than the configured skew
 *   (EVENT_MAX_FUTURE_SKEW_SECONDS, default 300 s; settings.eventMaxFutureSkewMs) after the
 *   customer's current time (its test clock's for a sandbox customer); properties is an object;
 *   JSON numbers must be exact as doubles carry them (integers within ±2^53, other numbers with at
 *   most 15 significant digits, finite): anything else is refused and must be sent as a decimal
 *   string; `quantity`, read by the default meter, is numeric; top-level numeric values (numbers and
 *   decimal strings: what meters aggregate) are usage quantities, refused beyond
 *   MAX_QUANTITY_INTEGER_DIGITS / MAX_QUANTITY_DECIMALS, and when negative from a customer token.
 * - Late events: an event whose timestamp falls in a period its subscription has already closed
 *   (or before its charged_through_date) is stored with late = true and counted in the responses
 *   (late, late_count) and the usage summary (late_event_count). The close and ingestion lock the
 *   subscription row (db/metering/event-store.ts), so an event is either billed by the close or
 *   stored late; late events are billed as prior-period adjustments by the next close, or on a
 *   correction invoice once the subscription has ended (services/billing/late-usage.ts). An event
 *   without subscription_id is late when that holds for any subscription of its customer. Events
 *   more than LATE_USAGE_MAX_DAYS before the customer's now are refused (timestamp_too_old).
 * - Bounded sums: a request, and a customer's calendar month (UTC) of events, carry at most
 *   MAX_MONTHLY_QUANTITY units, counted as each event's magnitude (magnitudeOf); the month's sum is
 *   kept by the storing statement itself (usage_quantity_totals, whose CHECK refuses the excess), so
 *   what would pass it is a 422 quantity_limit_exceeded and nothing of the request is stored. With
 *   the catalog's price bounds no period's charge can overflow the money columns.
 * - Billability: an event no subscription period covers (no subscription, before its start, after
 *   its end, in a trial) is stored, answered billable: false with its unbillable_reason, and counted
 *   in the usage summary (unbillable_event_count). Without a timestamp an event is dated at receipt.
 * - Single events are coalesced: one statement of single events is in flight per process
 *   (SINGLE_EVENT_STATEMENTS), and events arriving meanwhile share the next statement (and
 *   commit), each event on its own so one event's problem never touches another. Under light load every event is its own
 *   statement; under heavy load one statement carries many, which is what lets one process take
 *   thousands of single-event requests per second. Each request still answers only once its
 *   event is durably stored (or found a duplicate).
 * - CloudEvents 1.0 structured mode: `type` → event_type, `id` → id, `time` → timestamp (the time of
 *   receipt when absent), `subject` → customer_id, `data` → properties, the extension attribute
 *   `subscriptionid` → subscription_id, `source` is stored. Other extension attributes are accepted
 *   and ignored, as the CloudEvents spec asks of consumers.
 * - Spend alerts: stored events announce their customers through the `usageRecorded` reaction
 *   (ServiceDeps.reactions, wired at the composition root to the spend alert evaluators: coalesced
 *   per process, one signal per customer with alerts, never per event).
 */
import type pg from 'pg';
import { customerIdsByExternalId } from '../../db/customers.js';
import { quantityBoundOf, storeEachEvent, storeEvents, type EventProblem, type EventRow, type StoreLimits } from '../../db/metering/event-store.js';
import type { ServiceDeps } from '../deps.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import { coefficientAt, ONE_UNIT, parseQuantity } from '../../core/index.js';
import { forgetUsageSummaries, scheduleRollup } from './usage.js';
import { numericMeterProperties, type NumericProperty } from './meters.js';
import type { IngestBatchResult, IngestEventResult, UnbillableReason } from '../../schemas/metering.js';

/** Largest batch accepted by /v1/events/batch (also for CloudEvents batches). */
export const MAX_BATCH_EVENTS = 1_000;
/**
 * Default of how far after "now" an event's timestamp may be: clients' clocks drift, events do not
 * come from the future. Configurable with EVENT_MAX_FUTURE_SKEW_SECONDS (settings.eventMaxFutureSkewMs).
 */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

export const maxFutureSkewMs = (deps: Pick<ServiceDeps, 'settings'>): number => deps.settings.eventMaxFutureSkewMs ?? MAX_FUTURE_SKEW_MS;

/**
 * Default of how long after its timestamp an event is still taken (LATE_USAGE_MAX_DAYS, as Stripe's
 * meter events): a late event is billed as a prior-period adjustment; an older one is refused with
 * timestamp_too_old rather than accepted and never billed.
 */
export const LATE_USAGE_MAX_DAYS = 35;

export const lateUsageMaxDays = (deps: Pick<ServiceDeps, 'settings'>): number => deps.settings.lateUsageMaxDays ?? LATE_USAGE_MAX_DAYS;

const limitsOf = (deps: Pick<ServiceDeps, 'settings' | 'clock'>): StoreLimits => ({
  now: deps.clock(),
  maxFutureSkewMs: maxFutureSkewMs(deps),
  lateUsageMaxDays: lateUsageMaxDays(deps),
});

/** "5 minutes", "90 seconds": a skew as people read it. */
function describeSkew(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${ms / 1000} seconds`;
}
export const MAX_EVENT_ID_LENGTH = 255;
export const MAX_EVENT_TYPE_LENGTH = 200;

export interface UsageEventInput {
  id: string;
  event_type: string;
  customer_id: string;
  subscription_id?: string | null | undefined;
  /** Absent only for CloudEvents without `time`: then the time of receipt. */
  timestamp?: string | undefined;
  properties?: Record<string, unknown> | undefined;
  source?: string | undefined;
}

/** A plain JSON event as sent: the customer named by our id or by its external_id. */
export type SentUsageEvent = Omit<UsageEventInput, 'customer_id'> & { customer_id?: string | undefined; external_customer_id?: string | undefined };

/**
 * Events naming their customer by external_customer_id get its id (one query for the request).
 * An external id no customer has is the error an unknown customer_id would be: 404 for a single
 * event, one issue per event in a batch's 422, nothing stored.
 */
export async function withCustomerIds(deps: ServiceDeps, events: SentUsageEvent[], fields: FieldNames, single: boolean): Promise<UsageEventInput[]> {
  const external = new Set<string>();
  for (const e of events) if (e.customer_id === undefined && e.external_customer_id !== undefined) external.add(e.external_customer_id);
  // The request schema has every event name its customer exactly one way: without external ids the
  // events go on as they came (no copy per event on the ingestion path).
  if (external.size === 0) return events as UsageEventInput[];
  const ids = await customerIdsByExternalId(deps.db, [...external]);
  const unknown: { index: number; event: SentUsageEvent }[] = [];
  const resolved = events.map((event, index) => {
    const { external_customer_id: externalId, ...rest } = event;
    const customerId = rest.customer_id ?? ids.get(externalId!);
    if (customerId === undefined) unknown.push({ index, event });
    return { ...rest, customer_id: customerId ?? '' };
  });
  if (unknown.length === 0) return resolved;
  const message = (e: SentUsageEvent) => `no customer has external_id ${JSON.stringify(e.external_customer_id)}`;
  if (single) throw new DomainError('not_found', 'customer_not_found', message(unknown[0]!.event), { external_customer_id: unknown[0]!.event.external_customer_id });
  const issues = unknown.map(({ index, event }) => ({ path: `${fields.prefix(index)}external_customer_id`, index, event_id: event.id, code: 'customer_not_found', message: message(event) }));
  throw new DomainError('unprocessable', 'invalid_events', `${issues.length} of ${events.length} events are invalid; nothing was stored: ${issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}

export interface CloudEventInput {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  /** Absent only from a customer token, whose own customer it then is (filled in before fromCloudEvent). */
  subject?: string | undefined;
  time?: string | undefined;
  data?: Record<string, unknown> | undefined;
  subscriptionid?: string | undefined;
  [extension: string]: unknown;
}

export function fromCloudEvent(event: CloudEventInput): UsageEventInput {
  return {
    id: event.id,
    event_type: event.type,
    customer_id: event.subject ?? '',
    subscription_id: event.subscriptionid ?? null,
    timestamp: event.time,
    properties: event.data ?? {},
    source: event.source,
  };
}

/** Where a field of the event sits in the request, for error paths: plain JSON or CloudEvents names. */
export interface FieldNames {
  prefix: (index: number) => string;
  id: string;
  customer_id: string;
  subscription_id: string;
  timestamp: string;
  properties: string;
}

export const JSON_FIELDS: FieldNames = { prefix: () => '', id: 'id', customer_id: 'customer_id', subscription_id: 'subscription_id', timestamp: 'timestamp', properties: 'properties' };
export const JSON_BATCH_FIELDS: FieldNames = { ...JSON_FIELDS, prefix: (i) => `events.${i}.` };
export const CLOUD_EVENT_FIELDS: FieldNames = { prefix: () => '', id: 'id', customer_id: 'subject', subscription_id: 'subscriptionid', timestamp: 'time', properties: 'data' };
export const CLOUD_EVENT_BATCH_FIELDS: FieldNames = { ...CLOUD_EVENT_FIELDS, prefix: (i) => `${i}.` };

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/** Significant digits of a finite number's shortest decimal form ("0.000123" → 3, "1.5e-7" → 2). */
function significantDigits(value: number): number {
  const mantissa = Math.abs(value).toExponential().split('e')[0]!;
  return mantissa.replace('.', '').length;
}

/** Most significant digits a JSON number other than a safe integer may have and still be exactly the text sent. */
export const MAX_NUMBER_DIGITS = 15;

/**
 * Problems with a properties object: numbers JSON parsing may have changed (JSON numbers become
 * doubles: integers beyond ±2^53, more than MAX_NUMBER_DIGITS significant digits, overflow to
 * infinity, which JSON would store as null), and a `quantity` the default meter could not read.
 * Any decimal with at most 15 significant digits survives the double exactly, so what is accepted
 * is stored as sent; exact quantities beyond that are decimal strings.
 */
export function propertyIssues(properties: Record<string, unknown>): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const quantity = properties.quantity;
  if (quantity !== undefined && !(typeof quantity === 'number' || (typeof quantity === 'string' && DECIMAL.test(quantity)))) {
    issues.push({ path: 'quantity', message: 'must be a number or a decimal string such as "12.5" (the default meter sums it)' });
  }
  const stack: [string, unknown][] = Object.entries(properties);
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [path, value] = entry;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      issues.push({ path, message: 'is a number beyond the range of JSON numbers: send it as a decimal string' });
    } else if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      issues.push({ path, message: 'is an integer beyond ±2^53, which JSON numbers cannot carry exactly: send it as a decimal string' });
    } else if (typeof value === 'number' && !Number.isInteger(value) && significantDigits(value) > MAX_NUMBER_DIGITS) {
      issues.push({ path, message: `has more than ${MAX_NUMBER_DIGITS} significant digits, which JSON numbers cannot carry exactly: send it as a decimal string` });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push([`${path}.${key}`, child]);
    }
  }
  // Top-level values are what meters aggregate: every numeric one is a usage quantity.
  const flagged = new Set(issues.map((issue) => issue.path));
  for (const [path, value] of Object.entries(properties)) {
    const problem = flagged.has(path) ? null : quantityProblem(value, true);
    if (problem) issues.push({ path, message: problem });
  }
  return issues;
}

/**
 * Values a numeric meter of the event's type (Sum, Max, LATEST, WEIGHTED_SUM) could not count: the
 * property it reads is present but is no JSON number and no plain decimal string ("NaN", "0x10",
 * " 5", true, null). Refused with a 400 naming it, rather than stored and counted as nothing.
 */
export function meterPropertyIssues(properties: Record<string, unknown>, numeric: readonly NumericProperty[]): { path: string; message: string }[] {
  return numeric.flatMap(({ property, meter, aggregation, reader }) => {
    const value = properties[property];
    if (value === undefined || (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL.test(value))) return [];
    return [{ path: property, message: `is read by the ${reader ?? `${aggregation} meter "${meter}"`}: must be a number or a decimal string such as "12.5"` }];
  });
}

/**
 * Most usage a customer may send per calendar month (UTC) of event timestamps: the sum over its
 * events of each event's magnitude (magnitudeOf), in quantity units. With the catalog's price bounds
 * (core MAX_UNIT_AMOUNT) a period's charge stays far inside the money columns. A batch may carry at
 * most as much. Enforced by usage_quantity_totals' CHECK (its migration holds the same number).
 */
export const MAX_MONTHLY_QUANTITY = 10n ** 18n;

/**
 * A quantity's absolute value in units of 10^-12, read with the core's decimal parser (numbers and
 * decimal strings were validated before: at most MAX_QUANTITY_DECIMALS decimals); 0 for anything else.
 */
function scaledAbs(value: unknown): bigint {
  const text = typeof value === 'number' ? Math.abs(value).toFixed(MAX_QUANTITY_DECIMALS) : typeof value === 'string' && DECIMAL.test(value) ? value.replace('-', '') : null;
  return text === null ? 0n : coefficientAt(parseQuantity(text), MAX_QUANTITY_DECIMALS);
}

/**
 * What an event adds to its customer's month of usage: the largest |value| among the properties
 * its meters can read (`quantity`, read by default meters, and every numeric meter's property of its
 * type), scaled by 10^12. Other properties (ids, timestamps as numbers) count for nothing.
 */
export function magnitudeOf(properties: Record<string, unknown>, numeric: readonly NumericProperty[]): bigint {
  let largest = scaledAbs(properties.quantity);
  for (const { property } of numeric) {
    const value = scaledAbs(properties[property]);
    if (value > largest) largest = value;
  }
  return largest;
}

/** A scaled magnitude as the decimal string the store adds up (null for none). */
const magnitudeText = (scaled: bigint): string | null =>
  scaled === 0n ? null : `${scaled / ONE_UNIT}.${(scaled % ONE_UNIT).toString().padStart(MAX_QUANTITY_DECIMALS, '0')}`;

/**
 * The events' magnitudes (magnitudeOf), after refusing with a 400 naming each the values a numeric
 * meter of the event's type could not count, and with a 422 a batch carrying more than
 * MAX_MONTHLY_QUANTITY (meters cached per process, see numericMeterProperties).
 */
async function meteredMagnitudes(deps: ServiceDeps, events: UsageEventInput[], context: IngestContext): Promise<bigint[]> {
  const issues: { path: string; message: string }[] = [];
  const magnitudes: bigint[] = [];
  for (const [i, event] of events.entries()) {
    const numeric = await numericMeterProperties(deps.db, event.event_type);
    for (const issue of meterPropertyIssues(event.properties ?? {}, numeric)) {
      issues.push({ path: `${context.fields.prefix(i)}${context.fields.properties}.${issue.path}`, message: issue.message });
    }
    magnitudes.push(magnitudeOf(event.properties ?? {}, numeric));
  }
  if (issues.length > 0) throw new DomainError('validation', 'validation_failed', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
  const total = magnitudes.reduce((sum, m) => sum + m, 0n);
  if (total > MAX_MONTHLY_QUANTITY * ONE_UNIT) {
    throw new DomainError(
      'unprocessable',
      'quantity_limit_exceeded',
      `the events carry ${magnitudeText(total)} units of usage in all, more than one request may carry (${MAX_MONTHLY_QUANTITY}, MAX_MONTHLY_QUANTITY); nothing was stored`,
      { limit: MAX_MONTHLY_QUANTITY.toString() },
    );
  }
  return magnitudes;
}

/**
 * The 422 for an ingestion statement refused by the monthly bound (usage_quantity_totals' CHECK):
 * nothing of the request was stored.
 */
function quantityLimitError(err: unknown): unknown {
  const bound = quantityBoundOf(err);
  if (bound === null) return err;
  const month = bound.month ?? 'a calendar month';
  return new DomainError(
    'unprocessable',
    'quantity_limit_exceeded',
    `the events would take the customer's usage in ${month} (UTC) past ${MAX_MONTHLY_QUANTITY} units (MAX_MONTHLY_QUANTITY: the sum of each event's largest metered |quantity|); nothing was stored`,
    { limit: MAX_MONTHLY_QUANTITY.toString(), ...(bound.customerId === null ? {} : { customer_id: bound.customerId }), ...(bound.month === null ? {} : { month: bound.month }) },
  );
}

/**
 * Bounds of a usage quantity: a top-level property that is a JSON number or a decimal string.
 * Meters sum, count and compare these values, and rating multiplies their period totals by unit
 * prices, so they are refused at the door when they could never be billed: more than
 * MAX_QUANTITY_INTEGER_DIGITS digits before the decimal point or more than MAX_QUANTITY_DECIMALS
 * after it, from anyone; negative, from a customer token (a customer could lower its own bill).
 * Admin credentials may send negative values: corrections, and the level deltas WEIGHTED_SUM meters
 * carry; billing never counts a period's usage below zero (services/billing/contract-pricing.ts).
 */
export const MAX_QUANTITY_INTEGER_DIGITS = 18;
const NEGATIVE_MESSAGE = 'is a negative quantity: only admin credentials may send negative values (corrections)';
export const MAX_QUANTITY_DECIMALS = 12;

/** Integer digits and decimals of a finite number's shortest decimal form (1.5e-7 → 0 and 8). */
function numberDigits(value: number): { integer: number; decimals: number } {
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const exponent = Number(exponentText);
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return { integer: Math.max(1, exponent + 1), decimals: Math.max(0, fraction - exponent) };
}

function quantityProblem(value: unknown, allowNegative: boolean): string | null {
  let negative: boolean;
  let digits: { integer: number; decimals: number };
  if (typeof value === 'number' && Number.isFinite(value)) {
    negative = value < 0;
    digits = numberDigits(value);
  } else if (typeof value === 'string' && DECIMAL.test(value)) {
    negative = value.startsWith('-') && /[1-9]/.test(value);
    const [integer = '', fraction = ''] = value.replace('-', '').split('.');
    digits = { integer: integer.replace(/^0+(?=.)/, '').length, decimals: fraction.length };
  } else {
    return null;
  }
  if (negative && !allowNegative) return NEGATIVE_MESSAGE;
  if (digits.integer > MAX_QUANTITY_INTEGER_DIGITS) return `is a quantity with more than ${MAX_QUANTITY_INTEGER_DIGITS} digits before the decimal point`;
  if (digits.decimals > MAX_QUANTITY_DECIMALS) return `is a quantity with more than ${MAX_QUANTITY_DECIMALS} decimal places`;
  return null;
}

/** Top-level negative quantities of an event's properties (refused from customer tokens). */
export function negativeQuantityIssues(properties: Record<string, unknown>): { path: string; message: string }[] {
  return Object.entries(properties).flatMap(([path, value]) => (quantityProblem(value, false) === NEGATIVE_MESSAGE ? [{ path, message: NEGATIVE_MESSAGE }] : []));
}

/** A customer token's events with negative quantities, as the 400 naming each one. */
function refuseCustomerNegatives(events: UsageEventInput[], context: IngestContext): void {
  if (context.ownCustomerId === undefined) return;
  const issues = events.flatMap((event, i) =>
    negativeQuantityIssues(event.properties ?? {}).map((issue) => ({ path: `${context.fields.prefix(i)}${context.fields.properties}.${issue.path}`, message: issue.message })),
  );
  if (issues.length > 0) throw new DomainError('validation', 'validation_failed', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
}

export interface IngestContext {
  /** Set for customer tokens: the only customer whose events they may send. */
  ownCustomerId?: string | undefined;
  fields: FieldNames;
}

/** What error messages need besides the request. */
interface Reporting extends IngestContext {
  maxFutureSkewMs: number;
  lateUsageMaxDays: number;
}

const PROBLEM_FIELD: Record<EventProblem['problem'], keyof Omit<FieldNames, 'prefix'>> = {
  customer_not_found: 'customer_id',
  subscription_not_found: 'subscription_id',
  subscription_customer_mismatch: 'subscription_id',
  timestamp_in_future: 'timestamp',
  timestamp_too_old: 'timestamp',
  event_id_conflict: 'id',
};

function problemMessage(problem: EventProblem, event: UsageEventInput, context: Reporting): { code: string; message: string } {
  const asCustomer = context.ownCustomerId !== undefined;
  switch (problem.problem) {
    case 'customer_not_found':
      return { code: 'customer_not_found', message: `customer ${event.customer_id} does not exist` };
    case 'subscription_not_found':
      return { code: 'subscription_not_found', message: `subscription ${String(event.subscription_id)} does not exist` };
    case 'subscription_customer_mismatch':
      // A customer token learns nothing about other customers' subscriptions.
      return asCustomer
        ? { code: 'subscription_not_found', message: `subscription ${String(event.subscription_id)} does not exist` }
        : { code: 'subscription_customer_mismatch', message: `subscription ${String(event.subscription_id)} belongs to another customer` };
    case 'timestamp_in_future':
      return {
        code: 'timestamp_in_future',
        message: `is more than ${describeSkew(context.maxFutureSkewMs)} after the customer's current time (${problem.now_at ?? 'unknown'})`,
      };
    case 'timestamp_too_old':
      return {
        code: 'timestamp_too_old',
        message: `is more than ${context.lateUsageMaxDays} days before the customer's current time (${problem.now_at ?? 'unknown'}): usage that late can no longer be billed (LATE_USAGE_MAX_DAYS)`,
      };
    case 'event_id_conflict':
      // Says only that the id is taken: nothing of the other event or its customer.
      return {
        code: 'event_id_conflict',
        message: `event id ${event.id} is already used by an event of another customer; event ids are global: use UUIDs or prefix them with something of your own`,
      };
  }
}

/** A single event's problem as the error its kind maps to (404 unknown references, 409 id conflict, 422, 400). */
function singleEventError(problem: EventProblem, event: UsageEventInput, context: Reporting): DomainError {
  const { code, message } = problemMessage(problem, event, context);
  const field = context.fields[PROBLEM_FIELD[problem.problem]];
  if (code === 'customer_not_found') return notFound('customer', event.customer_id);
  if (code === 'subscription_not_found') return notFound('subscription', String(event.subscription_id));
  if (code === 'event_id_conflict') return conflict('event_id_conflict', message, { event_id: event.id, field });
  if (code === 'timestamp_in_future' || code === 'timestamp_too_old') {
    return new DomainError('validation', 'validation_failed', `${field}: ${message}`, { issues: [{ path: field, code, message }] });
  }
  return new DomainError('unprocessable', code, message, { field });
}

/** Every invalid event of a batch in one 422, nothing stored. */
function batchError(problems: EventProblem[], events: UsageEventInput[], context: Reporting): DomainError {
  const issues = problems.map((problem) => {
    const event = events[problem.index]!;
    const { code, message } = problemMessage(problem, event, context);
    return { path: `${context.fields.prefix(problem.index)}${context.fields[PROBLEM_FIELD[problem.problem]]}`, index: problem.index, event_id: event.id, code, message };
  });
  return new DomainError(
    'unprocessable',
    'invalid_events',
    `${issues.length} of ${events.length} events are invalid; nothing was stored: ${issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}

/** Events of other customers, for a customer token: reported as unknown customers. */
function foreignEvents(events: UsageEventInput[], context: IngestContext): EventProblem[] {
  if (context.ownCustomerId === undefined) return [];
  const own = context.ownCustomerId.toLowerCase();
  return events.flatMap((event, index) => (event.customer_id.toLowerCase() === own ? [] : [{ index, id: event.id, problem: 'customer_not_found' as const, now_at: null }]));
}

function toRow(event: UsageEventInput, idx: number, magnitude: bigint): EventRow {
  return {
    idx,
    id: event.id,
    event_type: event.event_type,
    customer_id: event.customer_id,
    subscription_id: event.subscription_id ?? null,
    occurred_at: event.timestamp ?? null,
    properties: event.properties ?? {},
    source: event.source ?? null,
    magnitude: magnitudeText(magnitude),
  };
}

/** Most single events coalesced into one statement. */
const MAX_COALESCED_EVENTS = MAX_BATCH_EVENTS;
/**
 * Statements of single events in flight at once per process. One is enough, and measured best:
 * while it runs, the next group gathers, so under load each statement (and commit) carries many
 * events, and under light load an event waits for nothing.
 */
export const SINGLE_EVENT_STATEMENTS = 1;

type SingleOutcome = { problem: EventProblem } | { stored: boolean; late: boolean; unbillableReason: string | null };

interface Pending {
  row: EventRow;
  resolve: (outcome: SingleOutcome) => void;
  reject: (err: unknown) => void;
}

/** Coalesces concurrent single-event writes (see the module comment). */
class EventWriter {
  private readonly queue: Pending[] = [];
  private inFlight = 0;

  constructor(private readonly deps: Pick<ServiceDeps, 'pool' | 'clock' | 'settings'>) {}

  write(row: EventRow): Promise<SingleOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < SINGLE_EVENT_STATEMENTS && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_COALESCED_EVENTS);
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  /**
   * Stores a group in one statement. Should the statement fail on its data (SQLSTATE class 22 or
   * 23: nothing validation lets through is meant to, but one request must never fail its
   * neighbours), each event is retried in a statement of its own, so only the culprit fails.
   */
  private async flush(batch: Pending[]): Promise<void> {
    let outcome;
    try {
      outcome = await storeEachEvent(this.deps.pool, batch.map((p, idx) => ({ ...p.row, idx })), limitsOf(this.deps));
    } catch (err) {
      if (batch.length > 1 && isDataError(err)) {
        await Promise.all(batch.map((pending) => this.flush([pending])));
        return;
      }
      for (const pending of batch) pending.reject(err);
      return;
    }
    const problems = new Map(outcome.problems.map((p) => [p.index, p]));
    const claimed = new Set<string>();
    batch.forEach((pending, idx) => {
      const problem = problems.get(idx);
      if (problem) return pending.resolve({ problem });
      const row = outcome.stored.get(pending.row.id);
      // Copies of one id in one statement: the first valid copy of the customer it was stored for
      // is the one stored; copies of other customers are event_id_conflict problems (above).
      const stored = row !== undefined && row.customerId.toLowerCase() === pending.row.customer_id.toLowerCase() && !claimed.has(pending.row.id);
      if (stored) claimed.add(pending.row.id);
      return pending.resolve({ stored, late: stored && row.late, unbillableReason: stored ? row.unbillableReason : null });
    });
  }
}

/** Data exceptions and integrity violations: failures caused by a statement's rows, not by the database. */
const isDataError = (err: unknown): boolean => /^2[23]/.test(String((err as { code?: unknown }).code ?? ''));

const writers = new WeakMap<pg.Pool, EventWriter>();

function writerFor(deps: ServiceDeps): EventWriter {
  let writer = writers.get(deps.pool);
  if (!writer) writers.set(deps.pool, (writer = new EventWriter(deps)));
  return writer;
}

/**
 * Events naming an entitlement reservation (`properties.reservation_id`) commit it (the
 * `reservationsUsed` reaction), before the request answers, so a product's next check sees the usage
 * instead of the hold. A failure leaves the hold to expire (it only ever overstates what is used).
 */
async function announceReservationUses(deps: ServiceDeps, events: readonly UsageEventInput[]): Promise<void> {
  const uses = events.flatMap((e) => (typeof e.properties?.reservation_id === 'string' ? [{ customerId: e.customer_id, reservationId: e.properties.reservation_id }] : []));
  if (uses.length === 0) return;
  try {
    await deps.reactions.reservationsUsed(deps, uses);
  } catch (err) {
    deps.logger.warn({ err, reservations: uses.length }, 'could not commit the entitlement reservations usage events named; they expire instead');
  }
}

export async function ingestEvent(deps: ServiceDeps, event: UsageEventInput, ingest: IngestContext): Promise<IngestEventResult> {
  refuseCustomerNegatives([event], ingest);
  const [magnitude = 0n] = await meteredMagnitudes(deps, [event], ingest);
  const context: Reporting = { ...ingest, maxFutureSkewMs: maxFutureSkewMs(deps), lateUsageMaxDays: lateUsageMaxDays(deps) };
  const [foreign] = foreignEvents([event], context);
  if (foreign) throw singleEventError(foreign, event, context);
  const outcome = await writerFor(deps)
    .write(toRow(event, 0, magnitude))
    .catch((err: unknown) => {
      throw quantityLimitError(err);
    });
  if ('problem' in outcome) throw singleEventError(outcome.problem, event, context);
  if (outcome.stored) {
    scheduleRollup(deps);
    forgetUsageSummaries([event.customer_id]);
    deps.reactions.usageRecorded(deps, [event.customer_id]);
    await announceReservationUses(deps, [event]);
  }
  const unbillable = outcome.unbillableReason === null ? {} : { unbillable_reason: outcome.unbillableReason as UnbillableReason };
  return { accepted: outcome.stored, event_id: event.id, duplicate: !outcome.stored, late: outcome.late, billable: outcome.unbillableReason === null, ...unbillable };
}

export async function ingestBatch(deps: ServiceDeps, events: UsageEventInput[], ingest: IngestContext): Promise<IngestBatchResult> {
  refuseCustomerNegatives(events, ingest);
  const magnitudes = await meteredMagnitudes(deps, events, ingest);
  const limits = limitsOf(deps);
  const context: Reporting = { ...ingest, ...limits };
  const foreign = foreignEvents(events, context);
  if (foreign.length > 0) throw batchError(foreign, events, context);
  const outcome = await storeEvents(
    deps.pool,
    events.map((event, idx) => toRow(event, idx, magnitudes[idx]!)),
    limits,
  ).catch((err: unknown) => {
    throw quantityLimitError(err);
  });
  if (outcome.problems.length > 0) throw batchError(outcome.problems, events, context);
  if (outcome.accepted > 0) {
    scheduleRollup(deps);
    const customers = new Set(events.map((event) => event.customer_id));
    forgetUsageSummaries(customers);
    deps.reactions.usageRecorded(deps, customers);
    await announceReservationUses(deps, events);
  }
  return { accepted_count: outcome.accepted, duplicate_count: events.length - outcome.accepted, late_count: outcome.late, unbillable_count: outcome.unbillable };
}
