/**
 * Subscription repository: the subscription row (its lock, reads, state and period moves) and its
 * plan phases. Every writer of a subscription takes `lockSubscription` first, so state moves, plan
 * changes and billing of one subscription are serialised in one order.
 */
import { Prisma, type BillingCadence, type Subscription, type SubscriptionPhase, type SubscriptionStatus } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { firstIdAt } from '../ids.js';
import { col, executeStatement, modelRowById, modelRows, modelTable, runStatement, statement } from './sql.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';

export type SubscriptionRow = Subscription;
export type SubscriptionPhaseRow = SubscriptionPhase;

/** A subscription with the cadence of its current plan (what rolling a period needs). */
export type SubscriptionWithCadence = Prisma.SubscriptionGetPayload<{ include: { plan: { select: { billingCadence: true } } } }>;

/** The subscriptions table as the Subscription model (read on the hot path of a period close without Prisma). */
const SUBSCRIPTIONS = modelTable<Subscription>('subscriptions', {
  id: col.text('id'),
  customerId: col.text('customer_id'),
  planId: col.text('plan_id'),
  planVersion: col.int('plan_version'),
  currency: col.text('currency'),
  status: col.label<SubscriptionStatus>('status'),
  trialDays: col.int('trial_days'),
  trialEnd: col.timeOrNull('trial_end'),
  periodStart: col.time('period_start'),
  periodEnd: col.time('period_end'),
  billingAnchor: col.time('billing_anchor'),
  chargedThroughDate: col.timeOrNull('charged_through_date'),
  closedThrough: col.timeOrNull('closed_through'),
  contractId: col.textOrNull('contract_id'),
  testClockId: col.textOrNull('test_clock_id'),
  cancelledAt: col.timeOrNull('cancelled_at'),
  pausedAt: col.timeOrNull('paused_at'),
  progressiveThresholdNanos: col.decimalOrNull('progressive_threshold_nanos'),
  billingError: col.jsonOrNull('billing_error'),
  workflowStartedAt: col.timeOrNull('workflow_started_at'),
  metadata: col.json('metadata'),
  createdAt: col.time('created_at'),
  updatedAt: col.time('updated_at'),
});
const SUBSCRIPTION_BY_ID = statement(`${SUBSCRIPTIONS.select('s')} WHERE s.id = $1::uuid`);
const LOCK_SUBSCRIPTION = statement('SELECT id FROM subscriptions WHERE id = $1::uuid FOR UPDATE');

/** Locks the subscription row for the rest of the transaction; false when it does not exist. */
export async function lockSubscription(tx: DbClient, id: string): Promise<boolean> {
  return (await runStatement(tx, LOCK_SUBSCRIPTION, [id])).length > 0;
}

export function setSubscriptionMetadata(tx: DbClient, id: string, metadata: Record<string, string>): Promise<SubscriptionRow> {
  return tx.subscription.update({ where: { id }, data: { metadata } });
}

export async function findSubscription(tx: DbClient, id: string): Promise<SubscriptionRow | null> {
  return modelRowById(tx, SUBSCRIPTIONS, SUBSCRIPTION_BY_ID, id);
}

export function findSubscriptionWithCadence(tx: DbClient, id: string): Promise<SubscriptionWithCadence | null> {
  return tx.subscription.findUnique({ where: { id }, include: { plan: { select: { billingCadence: true } } } });
}

/** A subscription row already read (under its lock) with its plan's billing cadence. */
const PLAN_CADENCE = statement('SELECT billing_cadence::text AS "billingCadence" FROM plans WHERE id = $1::uuid');

export async function withCadence(tx: DbClient, row: SubscriptionRow): Promise<SubscriptionWithCadence> {
  const [plan] = await runStatement<{ billingCadence: BillingCadence }>(tx, PLAN_CADENCE, [row.planId]);
  if (plan === undefined) throw new Error(`plan ${row.planId} does not exist`);
  return { ...row, plan };
}

/** The progressive billing threshold (raw units) of an existing subscription; null when it has none. */
export async function progressiveThreshold(tx: DbClient, id: string): Promise<bigint | null> {
  const row = await tx.subscription.findUniqueOrThrow({ where: { id }, select: { progressiveThresholdNanos: true } });
  return row.progressiveThresholdNanos === null ? null : BigInt(row.progressiveThresholdNanos.toFixed(0));
}

/**
 * The subscriptions of these customers that have a progressive billing threshold and may bill now
 * (not Trialing, not Expired), with their customer's time: `realNow`, or their test clock's, which
 * while it advances is the time every driven workflow has reached (its frozen time is the target).
 */
export async function thresholdSubscriptionsOf(tx: DbClient, customerIds: string[], realNow: Date): Promise<{ id: string; now: Date }[]> {
  if (customerIds.length === 0) return [];
  const rows = await tx.subscription.findMany({
    where: { customerId: { in: customerIds }, progressiveThresholdNanos: { not: null }, status: { notIn: ['Trialing', 'Expired'] } },
    select: { id: true, testClock: { select: { frozenTime: true, status: true, simulatedTime: true } } },
    orderBy: { id: 'asc' },
  });
  return rows.map(({ id, testClock: clock }) => ({
    id,
    now: clock === null ? realNow : clock.status === 'ready' ? clock.frozenTime : (clock.simulatedTime ?? clock.frozenTime),
  }));
}

export interface SubscriptionChanges {
  status?: SubscriptionStatus;
  planId?: string;
  planVersion?: number;
  periodStart?: Date;
  periodEnd?: Date;
  pausedAt?: Date | null;
  cancelledAt?: Date;
  billingAnchor?: Date;
  trialEnd?: Date;
}

export function updateSubscription(tx: DbClient, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow> {
  return tx.subscription.update({ where: { id }, data: changes });
}

const ROLL_PERIOD = statement('UPDATE subscriptions SET period_start = $1, period_end = $2, updated_at = $3 WHERE id = $4::uuid AND period_end = $5');

/**
 * Moves the subscription into `next` only while its period still ends at `expectedPeriodEnd`, so a
 * retry after a committed move changes nothing. Returns the rows moved (0 or 1).
 */
export async function rollPeriodFrom(
  tx: DbClient,
  id: string,
  expectedPeriodEnd: Date,
  next: { periodStart: Date; periodEnd: Date },
): Promise<number> {
  // updated_at as Prisma's @updatedAt sets it: the writer's clock.
  return executeStatement(tx, ROLL_PERIOD, [next.periodStart, next.periodEnd, new Date(), id, expectedPeriodEnd]);
}

export type NewSubscription = Pick<
  SubscriptionRow,
  | 'id'
  | 'customerId'
  | 'planId'
  | 'planVersion'
  | 'currency'
  | 'status'
  | 'trialDays'
  | 'trialEnd'
  | 'periodStart'
  | 'periodEnd'
  | 'billingAnchor'
  | 'testClockId'
  | 'progressiveThresholdNanos'
> & { createdAt?: Date | undefined; metadata?: Record<string, string> | undefined };

export function insertSubscription(tx: DbClient, subscription: NewSubscription): Promise<SubscriptionRow> {
  return tx.subscription.create({ data: subscription });
}

export interface SubscriptionFilter {
  customerId?: string | undefined;
  status?: SubscriptionStatus | undefined;
  planId?: string | undefined;
  currency?: string | undefined;
  testClockId?: string | undefined;
}

/** One page, newest first: up to `limit + 1` rows, the extra one telling there are more. */
export function listSubscriptions(tx: DbClient, filter: SubscriptionFilter, page: PageQuery): Promise<SubscriptionRow[]> {
  return tx.subscription.findMany({
    where: {
      ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
      ...(filter.status !== undefined ? { status: filter.status } : {}),
      ...(filter.planId !== undefined ? { planId: filter.planId } : {}),
      ...(filter.currency !== undefined ? { currency: filter.currency } : {}),
      ...(filter.testClockId !== undefined ? { testClockId: filter.testClockId } : {}),
      ...pageWhere(page),
    },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
}

/** Ids of a test clock's subscriptions that have not expired, or whose period ended at or after `expiredSince`. */
export async function subscriptionIdsOnClock(tx: DbClient, testClockId: string, expiredSince: Date): Promise<string[]> {
  const rows = await tx.subscription.findMany({
    where: { testClockId, OR: [{ status: { not: 'Expired' } }, { periodEnd: { gte: expiredSince } }] },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((row) => row.id);
}

/**
 * Advances the charged_through_date of every subscription an invoice bills to the end of the
 * latest period the invoice bills it for (never backwards).
 */
export async function advanceChargedThrough(tx: DbClient, invoiceId: string): Promise<void> {
  await tx.$executeRaw`
      UPDATE subscriptions s SET charged_through_date = billed.period_end, updated_at = now()
      FROM (SELECT subscription_id, max(period_end) AS period_end FROM invoice_line_items
            WHERE invoice_id = ${invoiceId}::uuid AND subscription_id IS NOT NULL AND period_end IS NOT NULL
            GROUP BY subscription_id) billed
      WHERE s.id = billed.subscription_id AND (s.charged_through_date IS NULL OR s.charged_through_date < billed.period_end)`;
}

// ── Plan phases ──────────────────────────────────────────────────────────────────────────────

export function insertPhase(
  tx: DbClient,
  phase: { id: string; subscriptionId: string; planId: string; planVersion: number; startsAt: Date },
): Promise<SubscriptionPhaseRow> {
  return tx.subscriptionPhase.create({ data: phase });
}

/** The phases overlapping [start, end), in start order. */
const PHASES = modelTable<SubscriptionPhase>('subscription_phases', {
  id: col.text('id'),
  subscriptionId: col.text('subscription_id'),
  planId: col.text('plan_id'),
  planVersion: col.int('plan_version'),
  startsAt: col.time('starts_at'),
  endsAt: col.timeOrNull('ends_at'),
  createdAt: col.time('created_at'),
});
const PHASES_OVERLAPPING = statement(`${PHASES.select('p')} WHERE p.subscription_id = $1::uuid AND p.starts_at < $2 AND (p.ends_at IS NULL OR p.ends_at > $3) ORDER BY p.starts_at`);

export function phasesOverlapping(tx: DbClient, subscriptionId: string, period: { start: Date; end: Date }): Promise<SubscriptionPhaseRow[]> {
  return modelRows(tx, PHASES, PHASES_OVERLAPPING, [subscriptionId, period.end, period.start]);
}

/** Whether a change to `planId` (at `planVersion`) at `at` is recorded: a phase of it opened then, closing another one. */
export async function hasPlanChangeAt(tx: DbClient, subscriptionId: string, planId: string, planVersion: number, at: Date): Promise<boolean> {
  const [opened, closed] = await Promise.all([
    tx.subscriptionPhase.count({ where: { subscriptionId, planId, planVersion, startsAt: at, endsAt: null } }),
    tx.subscriptionPhase.count({ where: { subscriptionId, endsAt: at } }),
  ]);
  return opened > 0 && closed > 0;
}

/** Ends the open phase at `at`. */
export async function closeOpenPhase(tx: DbClient, subscriptionId: string, at: Date): Promise<void> {
  await tx.subscriptionPhase.updateMany({ where: { subscriptionId, endsAt: null }, data: { endsAt: at } });
}

/** Civil days [start, end) a period's recurring fees are prorated over. */
export interface PeriodBasis {
  start: string;
  end: string;
}

const civilOfDate = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * The calendar period a subscription period's recurring fees are prorated over when it is not the
 * period itself (a period cut short or a stub of a coterm realignment); null for a regular period.
 */
const PERIOD_BASIS = statement(
  'SELECT basis_start::text AS start, basis_end::text AS end FROM subscription_period_bases WHERE subscription_id = $1::uuid AND period_start = $2',
);

export async function periodBasis(tx: DbClient, subscriptionId: string, periodStart: Date): Promise<PeriodBasis | null> {
  const [row] = await runStatement<PeriodBasis>(tx, PERIOD_BASIS, [subscriptionId, periodStart]);
  return row ?? null;
}

/** Every phase of these subscriptions, by subscription then start (phasesOverlapping for many periods at once). */
export function phasesOfSubscriptions(tx: DbClient, subscriptionIds: string[]): Promise<SubscriptionPhaseRow[]> {
  return tx.subscriptionPhase.findMany({ where: { subscriptionId: { in: subscriptionIds } }, orderBy: [{ subscriptionId: 'asc' }, { startsAt: 'asc' }] });
}

/** The phases among `phases` (of one subscription, by start) that overlap the period: what phasesOverlapping reads. */
export const overlapping = (phases: readonly SubscriptionPhaseRow[], period: { start: Date; end: Date }): SubscriptionPhaseRow[] =>
  phases.filter((phase) => phase.startsAt < period.end && (phase.endsAt === null || phase.endsAt > period.start));

/** Every recorded proration basis of these subscriptions, keyed `<subscription id>|<period start ISO>`. */
export async function periodBasesOf(tx: DbClient, subscriptionIds: string[]): Promise<Map<string, PeriodBasis>> {
  const rows = await tx.subscriptionPeriodBasis.findMany({ where: { subscriptionId: { in: subscriptionIds } } });
  return new Map(rows.map((row) => [`${row.subscriptionId}|${row.periodStart.toISOString()}`, { start: civilOfDate(row.basisStart), end: civilOfDate(row.basisEnd) }]));
}

/** Records (or replaces) the proration basis of a subscription period. */
export async function setPeriodBasis(tx: DbClient, input: { subscriptionId: string; periodStart: Date; periodEnd: Date; basis: PeriodBasis }): Promise<void> {
  const data = { periodEnd: input.periodEnd, basisStart: new Date(`${input.basis.start}T00:00:00.000Z`), basisEnd: new Date(`${input.basis.end}T00:00:00.000Z`) };
  await tx.subscriptionPeriodBasis.upsert({
    where: { subscriptionId_periodStart: { subscriptionId: input.subscriptionId, periodStart: input.periodStart } },
    create: { subscriptionId: input.subscriptionId, periodStart: input.periodStart, ...data },
    update: data,
  });
}

// ── Failures and workflow starts ─────────────────────────────────────────────────────────────

/** Sets (or clears, with null) the billing error shown on the subscription; the row before, or null when it does not exist. */
export async function setSubscriptionBillingError(tx: DbClient, id: string, error: Prisma.InputJsonValue | null): Promise<SubscriptionRow | null> {
  const before = await tx.subscription.findUnique({ where: { id } });
  if (!before) return null;
  await tx.subscription.update({ where: { id }, data: { billingError: error === null ? Prisma.DbNull : error } });
  return before;
}

/** Records that the subscription's workflow was started. */
export async function markWorkflowStarted(tx: DbClient, id: string, at: Date): Promise<void> {
  await tx.subscription.updateMany({ where: { id, workflowStartedAt: null }, data: { workflowStartedAt: at } });
}

/**
 * Subscriptions created before `createdBefore` (wall time; of one test clock, when given) whose
 * workflow was never started, oldest first. By id (UUIDv7 = wall-clock creation), since created_at is
 * the clock's time for a subscription on a test clock.
 */
export function subscriptionsWithoutWorkflow(tx: DbClient, createdBefore: Date, limit: number, testClockId?: string): Promise<SubscriptionRow[]> {
  return tx.subscription.findMany({
    where: { workflowStartedAt: null, id: { lt: firstIdAt(createdBefore.getTime()) }, ...(testClockId !== undefined ? { testClockId } : {}) },
    orderBy: { id: 'asc' },
    take: limit,
  });
}

/** A subscription of a plan with its test clock's time (for a plan migration). */
export type SubscriptionOnPlan = Prisma.SubscriptionGetPayload<{ include: { testClock: { select: { frozenTime: true } } } }>;

/** The subscriptions of a plan in these states, except those on `exceptVersion`, in id (creation) order. */
export function subscriptionsOnPlan(
  tx: DbClient,
  planId: string,
  filter: { statuses: readonly SubscriptionStatus[]; exceptVersion: number; fromVersion?: number | undefined },
): Promise<SubscriptionOnPlan[]> {
  return tx.subscription.findMany({
    where: {
      planId,
      status: { in: [...filter.statuses] },
      planVersion: filter.fromVersion === undefined ? { not: filter.exceptVersion } : filter.fromVersion,
    },
    include: { testClock: { select: { frozenTime: true } } },
    orderBy: { id: 'asc' },
  });
}

/**
 * Whether the subscription is the only one that can bill into its period's Draft: its customer pays
 * for itself (no bill-to, no consolidation into a parent), no other customer bills to it (bill-to
 * or a consolidating child), it has no other live subscription in that currency, and it belongs to
 * no contract (whose true-ups bill on their own schedule).
 */
export async function billsAloneInItsGroup(tx: DbClient, subscriptionId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ alone: boolean }[]>`
    SELECT (c.bill_to_id IS NULL
            AND NOT (c.consolidation = 'ConsolidateToParent' AND c.parent_id IS NOT NULL)
            AND s.contract_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM contract_subscriptions l WHERE l.subscription_id = s.id)
            AND NOT EXISTS (SELECT 1 FROM customers o
                             WHERE o.bill_to_id = c.id OR (o.parent_id = c.id AND o.consolidation = 'ConsolidateToParent'))
            AND NOT EXISTS (SELECT 1 FROM subscriptions t
                             WHERE t.customer_id = s.customer_id AND t.id <> s.id AND t.currency = s.currency AND t.status <> 'Expired')) AS alone
      FROM subscriptions s JOIN customers c ON c.id = s.customer_id
     WHERE s.id = ${subscriptionId}::uuid`;
  return rows[0]?.alone === true;
}
