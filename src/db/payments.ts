/**
 * Payments repository: payment methods on file, processor customers, payments (one row per
 * collection attempt), refunds, processor notifications and dunning schedules. Rows are mapped to
 * API-shaped records here, so no Prisma row reaches a response; writes that must be atomic with
 * other changes take the caller's transaction.
 */
import { dunningAttemptShown, toDisplay } from '../core/index.js';
import { Prisma, type DunningSchedule, type DunningStatus, type Payment, type PaymentMethod, type PaymentStatus, type ProcessorEvent, type Refund } from '../generated/prisma/client.js';
import { newId } from '../ids.js';
import type { Db } from './client.js';
import { fromDecimal, toDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';

export type DbClient = Prisma.TransactionClient;
export type { DunningSchedule, DunningStatus, Payment, PaymentMethod, PaymentStatus, ProcessorEvent, Refund };

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

// ── Payment methods ──

export interface PaymentMethodRecord {
  id: string;
  customer_id: string;
  processor_payment_method_id: string;
  type: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
  is_default: boolean;
  status: 'attached' | 'detached';
  detached_at: string | null;
  created_at: string;
}

export const toPaymentMethodRecord = (row: PaymentMethod): PaymentMethodRecord => ({
  id: row.id,
  customer_id: row.customerId,
  processor_payment_method_id: row.processorPaymentMethodId,
  type: row.type,
  brand: row.brand,
  last4: row.last4,
  exp_month: row.expMonth,
  exp_year: row.expYear,
  is_default: row.isDefault,
  status: row.detachedAt ? 'detached' : 'attached',
  detached_at: iso(row.detachedAt),
  created_at: row.createdAt.toISOString(),
});

export async function findProcessorCustomerId(db: DbClient | Db, customerId: string): Promise<string | null> {
  return (await db.processorCustomer.findUnique({ where: { customerId } }))?.processorCustomerId ?? null;
}

/** Records the processor's customer of an account; the first one recorded wins a race. */
export async function saveProcessorCustomer(db: Db, customerId: string, processorCustomerId: string): Promise<string> {
  await db.processorCustomer.createMany({ data: [{ customerId, processorCustomerId }], skipDuplicates: true });
  return (await findProcessorCustomerId(db, customerId))!;
}

/** Serialises changes to one customer's payment methods (attach, detach, default). */
export async function lockCustomerPaymentMethods(tx: DbClient, customerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payment-methods:${customerId}`}, 0))`;
}

export const findPaymentMethod = (db: DbClient | Db, id: string) => db.paymentMethod.findUnique({ where: { id } });

export const findAttachedPaymentMethod = (db: DbClient | Db, customerId: string, processorPaymentMethodId: string) =>
  db.paymentMethod.findFirst({ where: { customerId, processorPaymentMethodId, detachedAt: null } });

export const findDefaultPaymentMethod = (db: DbClient | Db, customerId: string) =>
  db.paymentMethod.findFirst({ where: { customerId, isDefault: true, detachedAt: null } });

export async function insertPaymentMethod(
  tx: DbClient,
  row: {
    customerId: string;
    processorPaymentMethodId: string;
    type: string;
    brand: string | null;
    last4: string | null;
    expMonth: number | null;
    expYear: number | null;
    isDefault: boolean;
    /** The customer's now (its test clock's time when on one). */
    createdAt: Date;
  },
): Promise<PaymentMethod> {
  if (row.isDefault) await tx.paymentMethod.updateMany({ where: { customerId: row.customerId, isDefault: true }, data: { isDefault: false } });
  return tx.paymentMethod.create({ data: { id: newId(), ...row } });
}

/** Detaches a method; when it was the default, the newest other attached method becomes the default. */
export async function markPaymentMethodDetached(tx: DbClient, row: PaymentMethod, at: Date): Promise<PaymentMethod> {
  const detached = await tx.paymentMethod.update({ where: { id: row.id }, data: { detachedAt: at, isDefault: false } });
  if (row.isDefault) {
    const next = await tx.paymentMethod.findFirst({ where: { customerId: row.customerId, detachedAt: null }, orderBy: { id: 'desc' } });
    if (next) await tx.paymentMethod.update({ where: { id: next.id }, data: { isDefault: true } });
  }
  return detached;
}

export async function listPaymentMethods(db: Db, customerId: string, page: PageQuery) {
  return db.paymentMethod.findMany({
    where: { customerId, detachedAt: null, ...pageWhere(page) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
}

/** The attached payment methods of a customer, default first (for the 360 view). */
export async function attachedPaymentMethods(db: DbClient | Db, customerId: string): Promise<PaymentMethodRecord[]> {
  const rows = await db.paymentMethod.findMany({ where: { customerId, detachedAt: null }, orderBy: [{ isDefault: 'desc' }, { id: 'asc' }] });
  return rows.map(toPaymentMethodRecord);
}

// ── Payments ──

export type PaymentSource = 'auto_charge' | 'dunning' | 'on_demand' | 'hosted_page' | 'processor';
export type RefundStatus = 'Pending' | 'Succeeded' | 'Failed';
export type DunningClosedReason = 'payment_succeeded' | 'paid_manually' | 'voided' | 'exhausted';

export interface RefundRecord {
  id: string;
  payment_id: string;
  invoice_id: string;
  amount_nanos: string;
  amount: string;
  currency: string;
  status: RefundStatus;
  reason: string;
  source: 'api' | 'processor';
  processor_refund_id: string | null;
  credit_note_id: string | null;
  failure_message: string | null;
  created_at: string;
}

export interface PaymentRecord {
  id: string;
  invoice_id: string;
  customer_id: string;
  payment_method_id: string | null;
  attempt: number;
  source: PaymentSource;
  dunning_attempt: number | null;
  status: PaymentStatus;
  capture_method: 'automatic' | 'manual';
  amount_nanos: string;
  /** amount_nanos rounded once, HalfEven, to the currency's minor unit: what the processor was asked for. */
  amount: string;
  currency: string;
  refunded_nanos: string;
  processor_payment_intent_id: string | null;
  processor_status: string | null;
  failure_code: string | null;
  failure_message: string | null;
  attempted_at: string;
  settled_at: string | null;
  created_at: string;
  refunds: RefundRecord[];
}

export const toRefundRecord = (row: Refund): RefundRecord => ({
  id: row.id,
  payment_id: row.paymentId,
  invoice_id: row.invoiceId,
  amount_nanos: row.amountNanos.toFixed(0),
  amount: toDisplay(fromDecimal(row.amountNanos), row.currency).text,
  currency: row.currency,
  // The text columns hold only the values the payment services write (RefundStatus, api | processor).
  status: row.status as RefundStatus,
  reason: row.reason,
  source: row.source as RefundRecord['source'],
  processor_refund_id: row.processorRefundId,
  credit_note_id: row.creditNoteId,
  failure_message: row.failureMessage,
  created_at: row.createdAt.toISOString(),
});

export const toPaymentRecord = (row: Payment & { refunds?: Refund[] }): PaymentRecord => ({
  id: row.id,
  invoice_id: row.invoiceId,
  customer_id: row.customerId,
  payment_method_id: row.paymentMethodId,
  attempt: row.attempt,
  // Written only by the payment services, from PaymentSource and the two capture methods.
  source: row.source as PaymentSource,
  dunning_attempt: row.dunningAttempt,
  status: row.status,
  capture_method: row.captureMethod === 'manual' ? 'manual' : 'automatic',
  amount_nanos: row.amountNanos.toFixed(0),
  amount: toDisplay(fromDecimal(row.amountNanos), row.currency).text,
  currency: row.currency,
  refunded_nanos: row.refundedNanos.toFixed(0),
  processor_payment_intent_id: row.processorPaymentIntentId,
  processor_status: row.processorStatus,
  failure_code: row.failureCode,
  failure_message: row.failureMessage,
  attempted_at: row.attemptedAt.toISOString(),
  settled_at: iso(row.settledAt),
  created_at: row.createdAt.toISOString(),
  refunds: (row.refunds ?? []).map(toRefundRecord),
});

export const findPayment = (db: DbClient | Db, id: string) => db.payment.findUnique({ where: { id } });
/** The invoice's latest payment attempt (the highest attempt number), if any. */
export const latestPayment = (db: DbClient | Db, invoiceId: string) => db.payment.findFirst({ where: { invoiceId }, orderBy: { attempt: 'desc' } });
export const findPaymentByIntent = (db: DbClient | Db, paymentIntentId: string) => db.payment.findUnique({ where: { processorPaymentIntentId: paymentIntentId } });
export const findPaymentByRequest = (db: DbClient | Db, invoiceId: string, requestKey: string) =>
  db.payment.findUnique({ where: { invoiceId_requestKey: { invoiceId, requestKey } } });

/** Locks a payment row for the rest of the transaction and returns it. */
export async function lockPayment(tx: DbClient, id: string): Promise<Payment | null> {
  await tx.$queryRaw`SELECT id FROM payments WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.payment.findUnique({ where: { id } });
}

export async function insertPayment(
  tx: DbClient,
  row: {
    invoiceId: string;
    customerId: string;
    paymentMethodId: string | null;
    requestKey: string;
    source: string;
    dunningAttempt: number | null;
    status: PaymentStatus;
    captureMethod: string;
    amountNanos: bigint;
    amountMinor: bigint;
    currency: string;
    attemptedAt: Date;
    processorPaymentIntentId?: string | null;
  },
): Promise<Payment> {
  // Attempts are numbered per invoice; the caller holds the invoice's row lock, so this is race-free.
  const last = await tx.payment.aggregate({ where: { invoiceId: row.invoiceId }, _max: { attempt: true } });
  return tx.payment.create({
    data: {
      id: newId(),
      ...row,
      attempt: (last._max.attempt ?? 0) + 1,
      // An attempt exists from when it was made, in the invoice's time (its test clock's when on one).
      createdAt: row.attemptedAt,
      updatedAt: row.attemptedAt,
      amountNanos: toDecimal(row.amountNanos),
      processorPaymentIntentId: row.processorPaymentIntentId ?? null,
    },
  });
}

export const updatePayment = (tx: DbClient, id: string, data: Prisma.PaymentUpdateInput) => tx.payment.update({ where: { id }, data });

export async function listInvoicePayments(db: Db, invoiceId: string, page: PageQuery) {
  return db.payment.findMany({
    where: { invoiceId, ...pageWhere(page) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: { refunds: { orderBy: { id: 'asc' } } },
  });
}

/** Payments of every invoice, newest first, narrowed by customer, invoice and status. */
export async function listAllPayments(
  db: Db,
  filter: { customerId?: string | undefined; invoiceId?: string | undefined; status?: PaymentStatus | undefined },
  page: PageQuery,
) {
  return db.payment.findMany({
    where: {
      ...(filter.customerId ? { customerId: filter.customerId } : {}),
      ...(filter.invoiceId ? { invoiceId: filter.invoiceId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...pageWhere(page),
    },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: { refunds: { orderBy: { id: 'asc' } } },
  });
}

/** The invoice's collected payments, newest first (refunds go to the newest with money left). */
export const succeededPayments = (db: DbClient | Db, invoiceId: string) =>
  db.payment.findMany({ where: { invoiceId, status: 'Succeeded' }, orderBy: { id: 'desc' } });

// ── Refunds ──

export async function insertRefund(
  tx: DbClient,
  row: {
    paymentId: string;
    invoiceId: string;
    amountNanos: bigint;
    amountMinor: bigint;
    currency: string;
    status: string;
    reason: string;
    source: string;
    processorRefundId?: string | null;
    /** The credit note to issue with the refund, reserved while the processor is called. */
    creditNoteRequest?: CreditNoteRequest;
    /** The invoice's now (its test clock's time when on one). */
    createdAt: Date;
  },
): Promise<Refund> {
  const { creditNoteRequest, ...rest } = row;
  return tx.refund.create({
    data: {
      id: newId(),
      ...rest,
      updatedAt: row.createdAt,
      amountNanos: toDecimal(row.amountNanos),
      processorRefundId: row.processorRefundId ?? null,
      ...(creditNoteRequest ? { creditNoteRequest: { ...creditNoteRequest } } : {}),
    },
  });
}

/** What a refund's credit note will be, as reserved on the refund (money as decimal strings). */
export interface CreditNoteRequest {
  amount_nanos: string;
  due_reduction_nanos: string;
  credit_amount_nanos: string;
  out_of_band_amount_nanos: string;
  reason: string;
  memo: string | null;
}

/** Refunds of the invoice waiting for the processor whose credit note is reserved, not issued yet. */
export async function pendingCreditNoteReservations(tx: DbClient, invoiceId: string): Promise<{ refundId: string; amountNanos: bigint; request: CreditNoteRequest }[]> {
  const rows = await tx.refund.findMany({ where: { invoiceId, status: 'Pending', creditNoteId: null, NOT: { creditNoteRequest: { equals: Prisma.DbNull } } }, orderBy: { id: 'asc' } });
  return rows.map((r) => ({ refundId: r.id, amountNanos: fromDecimal(r.amountNanos), request: r.creditNoteRequest as unknown as CreditNoteRequest }));
}

export const updateRefund = (tx: DbClient | Db, id: string, data: Prisma.RefundUpdateInput) => tx.refund.update({ where: { id }, data });

/** Raises (or, for a failed refund, lowers back) what a payment counts as refunded. */
export async function addRefunded(tx: DbClient, paymentId: string, nanos: bigint, minor: bigint): Promise<void> {
  await tx.$executeRaw`
    UPDATE payments SET refunded_nanos = refunded_nanos + ${toDecimal(nanos)}, refunded_minor = refunded_minor + ${minor}, updated_at = now()
    WHERE id = ${paymentId}::uuid`;
}

// ── Processor notifications ──

/** Stores a notification once; false when its event id was stored before. */
export async function insertProcessorEvent(
  db: Db,
  row: { id: string; type: string; objectId: string | null; payload: Prisma.InputJsonValue; processed?: { at: Date; outcome: string } },
): Promise<boolean> {
  const created = await db.processorEvent.createMany({
    data: [{ id: row.id, type: row.type, objectId: row.objectId, payload: row.payload, processedAt: row.processed?.at ?? null, outcome: row.processed?.outcome ?? null }],
    skipDuplicates: true,
  });
  return created.count === 1;
}

export const findProcessorEvent = (db: DbClient | Db, id: string) => db.processorEvent.findUnique({ where: { id } });

export async function markProcessorEventProcessed(db: DbClient | Db, id: string, outcome: string, at: Date): Promise<void> {
  await db.processorEvent.updateMany({ where: { id, processedAt: null }, data: { processedAt: at, outcome } });
}

/**
 * Notifications stored but not applied (their workflow never started, e.g. Temporal was down). One
 * held on a billing_error is not: its workflow runs, waiting for an operator's retry.
 */
export const unprocessedProcessorEvents = (db: Db, receivedBefore: Date, limit: number) =>
  db.processorEvent.findMany({
    where: { processedAt: null, billingError: { equals: Prisma.DbNull }, receivedAt: { lt: receivedBefore } },
    orderBy: { receivedAt: 'asc' },
    take: limit,
    select: { id: true },
  });

/**
 * Where a notification stands: its workflow holds it on a billing_error until an operator's retry
 * clears it, or it was applied (or ignored), or it waits to be applied.
 */
export type ProcessorEventStatus = 'pending' | 'processed' | 'billing_error';

const PROCESSOR_EVENT_STATUS: Record<ProcessorEventStatus, Prisma.ProcessorEventWhereInput> = {
  billing_error: { NOT: { billingError: { equals: Prisma.DbNull } } },
  processed: { processedAt: { not: null }, billingError: { equals: Prisma.DbNull } },
  pending: { processedAt: null, billingError: { equals: Prisma.DbNull } },
};

export const processorEventStatus = (row: ProcessorEvent): ProcessorEventStatus =>
  row.billingError !== null ? 'billing_error' : row.processedAt !== null ? 'processed' : 'pending';

export interface ProcessorEventFilter {
  status?: ProcessorEventStatus | undefined;
  type?: string | undefined;
  object_id?: string | undefined;
  limit: number;
  /** An event id: the next page holds the events received before it. */
  starting_after?: string | undefined;
  /** Received at or after / before these instants. */
  created_gte?: string | undefined;
  created_lt?: string | undefined;
}

/**
 * Notifications newest first by arrival (their ids are the processor's, which do not order by
 * time), the id breaking ties; `limit + 1` rows. `after` is the cursor's row.
 */
export function listProcessorEventRows(db: Db, filter: ProcessorEventFilter, after: { id: string; receivedAt: Date } | null) {
  const received = {
    ...(filter.created_gte === undefined ? {} : { gte: new Date(filter.created_gte) }),
    ...(filter.created_lt === undefined ? {} : { lt: new Date(filter.created_lt) }),
  };
  return db.processorEvent.findMany({
    where: {
      ...(filter.status ? PROCESSOR_EVENT_STATUS[filter.status] : {}),
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.object_id ? { objectId: filter.object_id } : {}),
      ...(Object.keys(received).length > 0 ? { receivedAt: received } : {}),
      ...(after ? { OR: [{ receivedAt: { lt: after.receivedAt } }, { receivedAt: after.receivedAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take: filter.limit + 1,
  });
}

/** Sets (or clears, with null) the notification's billing_error under a row lock; the row before, or null when there is none. */
export async function setProcessorEventBillingError(tx: DbClient, id: string, error: Prisma.InputJsonValue | null): Promise<ProcessorEvent | null> {
  await tx.$queryRaw`SELECT id FROM processor_events WHERE id = ${id} FOR UPDATE`;
  const before = await tx.processorEvent.findUnique({ where: { id } });
  if (!before) return null;
  await tx.processorEvent.update({ where: { id }, data: { billingError: error === null ? Prisma.DbNull : error } });
  return before;
}

// ── Dunning schedules ──

export interface DunningScheduleRecord {
  id: string;
  subscription_id: string | null;
  invoice_id: string;
  customer_id: string;
  /** The attempt the schedule is at, 1 to its length (see dunningAttemptShown). */
  attempt_count: number;
  retries_made: number;
  next_attempt_at: string | null;
  status: DunningStatus;
  schedule_days: number[];
  failed_at: string;
  closed_reason: DunningClosedReason | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

export const toDunningRecord = (row: DunningSchedule): DunningScheduleRecord => ({
  id: row.id,
  subscription_id: row.subscriptionId,
  invoice_id: row.invoiceId,
  customer_id: row.customerId,
  attempt_count: dunningAttemptShown(row.attemptCount, row.scheduleDays.length),
  retries_made: row.attemptCount,
  next_attempt_at: iso(row.nextAttemptAt),
  status: row.status,
  schedule_days: row.scheduleDays,
  failed_at: row.failedAt.toISOString(),
  closed_reason: row.closedReason as DunningClosedReason | null,
  closed_at: iso(row.closedAt),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const findDunningByInvoice = (db: DbClient | Db, invoiceId: string) => db.dunningSchedule.findUnique({ where: { invoiceId } });

/** Sets (or clears, with null) the billing_error of the invoice's schedule; the row before, null when there is none. */
export async function setDunningBillingError(tx: DbClient, invoiceId: string, error: Prisma.InputJsonValue | null): Promise<DunningSchedule | null> {
  const before = await lockDunningByInvoice(tx, invoiceId);
  if (!before) return null;
  await tx.dunningSchedule.update({ where: { id: before.id }, data: { billingError: error === null ? Prisma.DbNull : error } });
  return before;
}

/** Locks the invoice's schedule row (if any) for the rest of the transaction and returns it. */
export async function lockDunningByInvoice(tx: DbClient, invoiceId: string): Promise<DunningSchedule | null> {
  await tx.$queryRaw`SELECT id FROM dunning_schedules WHERE invoice_id = ${invoiceId}::uuid FOR UPDATE`;
  return tx.dunningSchedule.findUnique({ where: { invoiceId } });
}

export async function insertDunningSchedule(
  tx: DbClient,
  row: { invoiceId: string; subscriptionId: string | null; customerId: string; scheduleDays: number[]; failedAt: Date; nextAttemptAt: Date; testClockId: string | null },
): Promise<DunningSchedule> {
  // A schedule exists from the failure that started it (in the invoice's time).
  return tx.dunningSchedule.create({ data: { id: newId(), ...row, status: 'Active', attemptCount: 0, createdAt: row.failedAt } });
}

export const updateDunningSchedule = (tx: DbClient, id: string, data: Prisma.DunningScheduleUpdateInput) => tx.dunningSchedule.update({ where: { id }, data });

export async function listDunningSchedules(
  db: Db,
  filter: { status?: DunningStatus | undefined; customer_id?: string | undefined; subscription_id?: string | undefined },
  page: PageQuery,
) {
  return db.dunningSchedule.findMany({
    where: {
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.customer_id ? { customerId: filter.customer_id } : {}),
      ...(filter.subscription_id ? { subscriptionId: filter.subscription_id } : {}),
      ...pageWhere(page),
    },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
}

/** Whether a subscription still has a schedule that is not Resolved other than `exceptInvoiceId`'s. */
export async function hasOpenDunning(db: DbClient | Db, subscriptionId: string, exceptInvoiceId: string): Promise<boolean> {
  return (await db.dunningSchedule.count({ where: { subscriptionId, status: { not: 'Resolved' }, invoiceId: { not: exceptInvoiceId } } })) > 0;
}

/** Active schedules on a test clock (their workflows follow it). */
export const activeDunningOnClock = (db: Db, testClockId: string) =>
  db.dunningSchedule.findMany({ where: { testClockId, status: 'Active' }, select: { invoiceId: true }, orderBy: { id: 'asc' } });

/**
 * Active schedules whose next retry is due by now: by `realNow` for real time, by their clock's
 * frozen time for schedules on a test clock.
 */
export async function overdueDunningSchedules(db: Db, realNow: Date, limit: number): Promise<DunningSchedule[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT d.id::text AS id FROM dunning_schedules d LEFT JOIN test_clocks c ON c.id = d.test_clock_id
    WHERE d.status = 'Active' AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= coalesce(c.frozen_time, ${realNow})
    ORDER BY d.next_attempt_at LIMIT ${limit}`;
  return db.dunningSchedule.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { nextAttemptAt: 'asc' } });
}

/** The subscriptions an invoice bills (its own, and every one named on its lines). */
export async function invoiceSubscriptionIds(db: DbClient | Db, invoiceId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT subscription_id::text AS id FROM invoices WHERE id = ${invoiceId}::uuid AND subscription_id IS NOT NULL
    UNION SELECT DISTINCT subscription_id::text FROM invoice_line_items WHERE invoice_id = ${invoiceId}::uuid AND subscription_id IS NOT NULL`;
  return rows.map((r) => r.id).sort();
}

/** The subscriptions of an invoice (see invoiceSubscriptionIds) that are Trialing. */
export async function trialingSubscriptionIds(db: DbClient | Db, invoiceId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id::text AS id FROM subscriptions s
    WHERE s.status = 'Trialing' AND (
      s.id = (SELECT subscription_id FROM invoices WHERE id = ${invoiceId}::uuid)
      OR s.id IN (SELECT subscription_id FROM invoice_line_items WHERE invoice_id = ${invoiceId}::uuid AND subscription_id IS NOT NULL))
    ORDER BY s.id`;
  return rows.map((r) => r.id);
}

/** The frozen time of a test clock, or null when there is no such clock. */
export async function testClockTime(db: DbClient | Db, testClockId: string | null): Promise<Date | null> {
  if (!testClockId) return null;
  return (await db.testClock.findUnique({ where: { id: testClockId }, select: { frozenTime: true } }))?.frozenTime ?? null;
}

// ── Invoices, as collection reads them ──

/** An invoice's status and number, or null when there is no such invoice. */
export const invoiceState = (db: DbClient | Db, invoiceId: string) =>
  db.invoice.findUnique({ where: { id: invoiceId }, select: { status: true, invoiceNumber: true } });

export const findInvoiceRow = (db: DbClient | Db, invoiceId: string) => db.invoice.findUnique({ where: { id: invoiceId } });

/** The invoice's newest payment waiting for a capture. */
export const findAuthorizedPayment = (db: DbClient | Db, invoiceId: string) =>
  db.payment.findFirst({ where: { invoiceId, status: 'RequiresCapture' }, orderBy: { id: 'desc' } });

export const findRefund = (db: DbClient | Db, id: string) => db.refund.findUnique({ where: { id } });

export const findPaymentWithRefunds = (db: Db, id: string) => db.payment.findUnique({ where: { id }, include: { refunds: { orderBy: { id: 'asc' } } } });
