/**
 * Usage event ingestion (SPEC §1 Metering, §4 /v1/events and /v1/events/batch).
 *
 * - Deduplication is by event id, in the database: the row's unique constraint decides inside the
 *   INSERT that stores it, so a re-sent id, even 100 copies at once, is stored and counted once, and
 *   an event whose write failed was never "seen". The first copy wins; later copies (whatever their
 *   content) are reported as duplicates. Ids are global, not per customer: use UUIDs or prefix them.
 * - A batch is ALL OR NOTHING: if any event is invalid nothing is stored, and the error lists every
 *   invalid event (`details.issues[]`, path `events.<index>.<field>` and a message): 400
 *   validation_failed for malformed events, 422 invalid_events (with index, event_id and code) for
 *   unknown or foreign customers and subscriptions and future timestamps. Fix and resend the whole
 *   batch; resending is always safe, an id is never counted twice.
 * - Validation: the customer exists (a customer token may only send its own customer's events); a
 *   subscription_id names a subscription of that customer; the timestamp is an ISO 8601 date-time
 *   not more than MAX_FUTURE_SKEW_MS after the customer's current time (its test clock's for a
 *   sandbox customer); properties is an object; numbers beyond ±2^53 must be sent as decimal
 *   strings (JSON parsing would round them); `quantity`, read by the default meter, is numeric.
 * - Late events: an event whose timestamp is before its subscription's charged_through_date (that
 *   period was already invoiced) is stored with late = true and counted in the responses and the
 *   usage summary. Aggregations always include late events: a true-up recomputes the invoiced
 *   period and bills the difference.
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
 */
import { daysInMonth } from '../core/index.js';
import type pg from 'pg';
import { storeEachEvent, storeEvents, type EventProblem, type EventRow } from '../db/events.js';
import type { AppDeps } from '../http/context.js';
import { DomainError, notFound } from './errors.js';
import { scheduleRollup } from './usage.js';

/** Largest batch accepted by /v1/events/batch (also for CloudEvents batches). */
export const MAX_BATCH_EVENTS = 1_000;
/** How far after "now" an event's timestamp may be: clients' clocks drift, events do not come from the future. */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;
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

export interface CloudEventInput {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time?: string | undefined;
  data?: Record<string, unknown> | undefined;
  subscriptionid?: string | undefined;
  [extension: string]: unknown;
}

export function fromCloudEvent(event: CloudEventInput): UsageEventInput {
  return {
    id: event.id,
    event_type: event.type,
    customer_id: event.subject,
    subscription_id: event.subscriptionid ?? null,
    timestamp: event.time,
    properties: event.data ?? {},
    source: event.source,
  };
}

/** Where a field of the event sits in the request, for error paths: plain JSON or CloudEvents names. */
export interface FieldNames {
  prefix: (index: number) => string;
  customer_id: string;
  subscription_id: string;
  timestamp: string;
}

export const JSON_FIELDS: FieldNames = { prefix: () => '', customer_id: 'customer_id', subscription_id: 'subscription_id', timestamp: 'timestamp' };
export const JSON_BATCH_FIELDS: FieldNames = { ...JSON_FIELDS, prefix: (i) => `events.${i}.` };
export const CLOUD_EVENT_FIELDS: FieldNames = { prefix: () => '', customer_id: 'subject', subscription_id: 'subscriptionid', timestamp: 'time' };
export const CLOUD_EVENT_BATCH_FIELDS: FieldNames = { ...CLOUD_EVENT_FIELDS, prefix: (i) => `${i}.` };

const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/** A real instant since 1970: ISO 8601 with seconds and an offset, on a date that exists (no Feb 30). */
export function isValidTimestamp(text: string): boolean {
  const m = ISO_TIMESTAMP.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const offset = m[8]!;
  const offsetOk = offset.length === 1 || (Number(offset.slice(1, 3)) <= 23 && Number(offset.slice(4, 6)) <= 59);
  return (
    year >= 1970 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    (day <= 28 || day <= daysInMonth(year, month)) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 59 &&
    offsetOk
  );
}

/**
 * Problems with a properties object: integers JSON parsing cannot keep exact, and a `quantity` the
 * default meter could not read.
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
    if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      issues.push({ path, message: 'is an integer beyond ±2^53, which JSON numbers cannot carry exactly: send it as a decimal string' });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push([`${path}.${key}`, child]);
    }
  }
  return issues;
}

export interface IngestContext {
  /** Set for customer tokens: the only customer whose events they may send. */
  ownCustomerId?: string | undefined;
  fields: FieldNames;
}

const PROBLEM_FIELD: Record<EventProblem['problem'], keyof Omit<FieldNames, 'prefix'>> = {
  customer_not_found: 'customer_id',
  subscription_not_found: 'subscription_id',
  subscription_customer_mismatch: 'subscription_id',
  timestamp_in_future: 'timestamp',
};

function problemMessage(problem: EventProblem, event: UsageEventInput, asCustomer: boolean): { code: string; message: string } {
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
        message: `is more than ${MAX_FUTURE_SKEW_MS / 60_000} minutes after the customer's current time (${problem.now_at ?? 'unknown'})`,
      };
  }
}

/** A single event's problem as the error its kind maps to (404 unknown references, 422, 400). */
function singleEventError(problem: EventProblem, event: UsageEventInput, context: IngestContext): DomainError {
  const { code, message } = problemMessage(problem, event, context.ownCustomerId !== undefined);
  const field = context.fields[PROBLEM_FIELD[problem.problem]];
  if (code === 'customer_not_found') return notFound('customer', event.customer_id);
  if (code === 'subscription_not_found') return notFound('subscription', String(event.subscription_id));
  if (code === 'timestamp_in_future') {
    return new DomainError('validation', 'validation_failed', `${field}: ${message}`, { issues: [{ path: field, code, message }] });
  }
  return new DomainError('unprocessable', code, message, { field });
}

/** Every invalid event of a batch in one 422, nothing stored. */
function batchError(problems: EventProblem[], events: UsageEventInput[], context: IngestContext): DomainError {
  const issues = problems.map((problem) => {
    const event = events[problem.index]!;
    const { code, message } = problemMessage(problem, event, context.ownCustomerId !== undefined);
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
  return events.flatMap((event, index) => (event.customer_id === context.ownCustomerId ? [] : [{ index, id: event.id, problem: 'customer_not_found' as const, now_at: null }]));
}

function toRow(event: UsageEventInput, idx: number): EventRow {
  return {
    idx,
    id: event.id,
    event_type: event.event_type,
    customer_id: event.customer_id,
    subscription_id: event.subscription_id ?? null,
    occurred_at: event.timestamp ?? null,
    properties: event.properties ?? {},
    source: event.source ?? null,
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

type SingleOutcome = { problem: EventProblem } | { stored: boolean; late: boolean };

interface Pending {
  row: EventRow;
  resolve: (outcome: SingleOutcome) => void;
  reject: (err: unknown) => void;
}

/** Coalesces concurrent single-event writes (see the module comment). */
class EventWriter {
  private readonly queue: Pending[] = [];
  private inFlight = 0;

  constructor(private readonly deps: Pick<AppDeps, 'pool' | 'clock'>) {}

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

  private async flush(batch: Pending[]): Promise<void> {
    let outcome;
    try {
      outcome = await storeEachEvent(this.deps.pool, batch.map((p, idx) => ({ ...p.row, idx })), this.deps.clock(), MAX_FUTURE_SKEW_MS);
    } catch (err) {
      for (const pending of batch) pending.reject(err);
      return;
    }
    const problems = new Map(outcome.problems.map((p) => [p.index, p]));
    const claimed = new Set<string>();
    batch.forEach((pending, idx) => {
      const problem = problems.get(idx);
      if (problem) return pending.resolve({ problem });
      const late = outcome.stored.get(pending.row.id);
      // Copies of one id in one statement: the first valid copy is the one stored.
      const stored = late !== undefined && !claimed.has(pending.row.id);
      if (stored) claimed.add(pending.row.id);
      return pending.resolve({ stored, late: stored && late });
    });
  }
}

const writers = new WeakMap<pg.Pool, EventWriter>();

function writerFor(deps: AppDeps): EventWriter {
  let writer = writers.get(deps.pool);
  if (!writer) writers.set(deps.pool, (writer = new EventWriter(deps)));
  return writer;
}

export interface IngestEventResult {
  /** True when this request stored the event; false when its id had been seen before. */
  accepted: boolean;
  event_id: string;
  duplicate: boolean;
  /** The stored event falls in an already invoiced period (false for duplicates). */
  late: boolean;
}

export async function ingestEvent(deps: AppDeps, event: UsageEventInput, context: IngestContext): Promise<IngestEventResult> {
  const [foreign] = foreignEvents([event], context);
  if (foreign) throw singleEventError(foreign, event, context);
  const outcome = await writerFor(deps).write(toRow(event, 0));
  if ('problem' in outcome) throw singleEventError(outcome.problem, event, context);
  if (outcome.stored) scheduleRollup(deps);
  return { accepted: outcome.stored, event_id: event.id, duplicate: !outcome.stored, late: outcome.late };
}

export interface IngestBatchResult {
  accepted_count: number;
  duplicate_count: number;
  late_count: number;
}

export async function ingestBatch(deps: AppDeps, events: UsageEventInput[], context: IngestContext): Promise<IngestBatchResult> {
  const foreign = foreignEvents(events, context);
  if (foreign.length > 0) throw batchError(foreign, events, context);
  const outcome = await storeEvents(deps.pool, events.map(toRow), deps.clock(), MAX_FUTURE_SKEW_MS);
  if (outcome.problems.length > 0) throw batchError(outcome.problems, events, context);
  if (outcome.accepted > 0) scheduleRollup(deps);
  return { accepted_count: outcome.accepted, duplicate_count: events.length - outcome.accepted, late_count: outcome.late };
}
