/**
 * Billing a subscription period: rate it cumulatively to date and put the difference with what
 * finalized invoices already carry for the period on its billing group's one Draft
 * (core/invoicing.ts).
 *
 * - Periods are [period_start, period_end). Recurring fees (Flat, Committed commits) are charged for
 *   the whole period on its first invoice and prorated by whole days across plan phases; usage is
 *   rated from the period start (or the phase start) up to `upTo`, also in phases shorter than a day.
 * - A trial period bills nothing, even when the subscription is cancelled during it.
 * - Billing groups (consolidated billing): the Draft belongs to the account that pays (the payer:
 *   the customer's bill_to, else, when it consolidates to its parent, the parent's payer, else the
 *   customer itself) and is keyed by payer, currency and period. Subscriptions whose periods
 *   coincide (same anchor and cadence) and that bill to the same payer in one currency share one
 *   invoice per period; lines of a charge incurred by another customer than the payer name it.
 * - Locks: the subscription row (concurrent bills of one subscription are serialised), then the
 *   billing group (a transaction-scoped advisory lock: two subscriptions of a group never open two
 *   Drafts), then the Draft row (the lock finalization and Draft edits take). A partial unique
 *   index makes a second Draft for one group and period impossible in the database too.
 */
import { addQuantity, chargesToInvoice, formatQuantity, parseQuantity, ratePlan, type Billed, type ChargeLine, type RatedLine } from '../core/index.js';
import type { Customer, Invoice, Prisma, SubscriptionPhase } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { toSkuPrice } from '../db/catalog.js';
import { fromDecimal } from '../db/money.js';
import { newId } from '../ids.js';
import { notFound } from './errors.js';
import { insertLines, lockInvoice, recomputeTotals, type NewLine } from './invoices.js';
import { quantitiesForPeriod } from './usage.js';

type Tx = Prisma.TransactionClient;

export type BillingReason = 'manual' | 'subscription_cycle' | 'threshold' | 'plan_change' | 'subscription_final';

export interface BillResult {
  invoiceId: string | null;
  created: boolean;
  /** Total of the Draft after billing, raw units as a decimal string. */
  totalNanos: string;
}

interface TargetLine extends ChargeLine {
  kind: 'fee' | 'usage';
  plan_id: string;
  unit_amount_nanos: bigint;
  detail: RatedLine;
}

interface Period {
  start: Date;
  end: Date;
}

const NOTHING: BillResult = { invoiceId: null, created: false, totalNanos: '0' };
const civil = (d: Date): string => d.toISOString().slice(0, 10);
const RECURRING = new Set(['Flat', 'Committed']);

/** The charges of the period [start, end) rated to `upTo`, phase by phase. */
async function rateToDate(
  tx: Tx,
  subscription: { id: string; customerId: string },
  period: Period,
  phases: SubscriptionPhase[],
  upTo: Date,
): Promise<TargetLine[]> {
  const lines: TargetLine[] = [];
  for (const phase of phases) {
    const from = phase.startsAt > period.start ? phase.startsAt : period.start;
    const phaseEnd = phase.endsAt && phase.endsAt < period.end ? phase.endsAt : period.end;
    const usageTo = phaseEnd < upTo ? phaseEnd : upTo;
    if (from >= phaseEnd) continue;
    const plan = await tx.plan.findUniqueOrThrow({ where: { id: phase.planId }, include: { skus: { orderBy: { id: 'asc' } }, product: true } });
    const tags = plan.product?.tags ?? [];
    const service = { start: civil(from), end: civil(phaseEnd) };
    // Recurring fees are prorated by whole days: a phase shorter than a day has none, only usage.
    const wholeDays = service.start < service.end;
    const skus = plan.skus.map((row) => toSkuPrice(row, tags)).filter((sku) => wholeDays || !RECURRING.has(sku.pricing_model));
    if (skus.length === 0) continue;
    const eventTypes = [...new Set(skus.flatMap((s) => (s.meter_event_type ? [s.meter_event_type] : [])))];
    const usage = usageTo > from
      ? await quantitiesForPeriod(tx as unknown as Db, { subscriptionId: subscription.id, customerId: subscription.customerId, eventTypes, from, to: usageTo })
      : {};
    const periodDays = { start: civil(period.start), end: civil(period.end) };
    const prorated = wholeDays && !(service.start === periodDays.start && service.end === periodDays.end);
    const rated = ratePlan({ skus, usage, asOf: service.start, period: periodDays, ...(prorated ? { service } : {}) });
    for (const line of rated.lines) {
      lines.push({
        sku_id: line.sku_id,
        description: `${plan.name} · ${line.description}`,
        quantity: line.quantity,
        amount_nanos: line.amount_nanos,
        kind: RECURRING.has(line.pricing_model) ? 'fee' : 'usage',
        plan_id: plan.id,
        unit_amount_nanos: line.unit_amount_nanos,
        detail: line,
      });
    }
  }
  return lines;
}

/** What finalized (Open/Paid) invoices already charged for this subscription's period, per SKU. */
async function billedInPeriod(tx: Tx, subscriptionId: string, periodStart: Date): Promise<Map<string, Billed>> {
  const rows = await tx.$queryRaw<{ sku_id: string; quantity: string[]; amount: Prisma.Decimal }[]>`
    SELECT l.sku_id::text AS sku_id, array_agg(l.quantity) AS quantity, sum(l.amount_nanos) AS amount
    FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.subscription_id = ${subscriptionId}::uuid AND l.period_start = ${periodStart}
      AND i.status IN ('Open', 'Paid') AND l.kind IN ('fee', 'usage') AND l.sku_id IS NOT NULL
    GROUP BY l.sku_id`;
  const billed = new Map<string, Billed>();
  for (const row of rows) {
    const quantity = formatQuantity(row.quantity.reduce((sum, q) => addQuantity(sum, parseQuantity(q)), parseQuantity('0')));
    billed.set(row.sku_id, { quantity, amount_nanos: fromDecimal(row.amount) });
  }
  return billed;
}

/** Most hops followed from a customer to its payer (hierarchies are at most 5 levels deep). */
const MAX_PAYER_HOPS = 8;

/**
 * The account that pays a customer's charges: its bill_to when set, else its parent's payer when it
 * consolidates to its parent, else itself.
 */
export async function payerOf(tx: Tx, customer: Customer): Promise<string> {
  let current = customer;
  for (let hop = 0; hop < MAX_PAYER_HOPS; hop += 1) {
    if (current.billToId) return current.billToId;
    if (current.consolidation !== 'ConsolidateToParent' || !current.parentId) return current.id;
    current = await tx.customer.findUniqueOrThrow({ where: { id: current.parentId } });
  }
  return current.id;
}

/** Locks a Draft that was found unlocked; null when it was finalized meanwhile. */
async function lockedDraft(tx: Tx, draft: Invoice | null): Promise<Invoice | null> {
  if (!draft) return null;
  const locked = await lockInvoice(tx, draft.id);
  return locked.status === 'Draft' ? locked : null;
}

export interface BillInput {
  subscriptionId: string;
  /** The period to bill; the subscription's current period when absent. */
  period?: Period;
  upTo: Date;
  /** Why; null keeps the reason of an existing Draft (a refresh). */
  reason: BillingReason | null;
}

/**
 * Creates or refreshes the Draft of the subscription's billing group for the period with the
 * subscription's charges up to `upTo` (capped at the period end). Returns no invoice when there is
 * nothing new to bill.
 */
export async function billSubscription(db: Db, input: BillInput): Promise<BillResult> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${input.subscriptionId}::uuid FOR UPDATE`;
    const subscription = await tx.subscription.findUnique({ where: { id: input.subscriptionId } });
    if (!subscription) throw notFound('subscription', input.subscriptionId);
    const period = input.period ?? { start: subscription.periodStart, end: subscription.periodEnd };
    const inTrial = subscription.status === 'Trialing' || (subscription.trialEnd !== null && period.end <= subscription.trialEnd);
    if (inTrial || (subscription.status === 'Expired' && !input.period)) return NOTHING;

    const customer = await tx.customer.findUniqueOrThrow({ where: { id: subscription.customerId } });
    const payerId = await payerOf(tx, customer);
    const group = { customerId: payerId, currency: subscription.currency, periodStart: period.start, periodEnd: period.end };
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`billing-group:${payerId}:${subscription.currency}:${period.start.toISOString()}:${period.end.toISOString()}`}, 0))`;
    const draft = await lockedDraft(tx, await tx.invoice.findFirst({ where: { ...group, status: 'Draft' } }));

    const upTo = input.upTo < period.end ? input.upTo : period.end;
    const phases = await tx.subscriptionPhase.findMany({
      where: { subscriptionId: subscription.id, startsAt: { lt: period.end }, OR: [{ endsAt: null }, { endsAt: { gt: period.start } }] },
      orderBy: { startsAt: 'asc' },
    });
    const target = await rateToDate(tx, subscription, period, phases, upTo);
    const charges = chargesToInvoice(target, await billedInPeriod(tx, subscription.id, period.start));
    if (!draft && charges.length === 0) return NOTHING;

    const invoiceId = draft?.id ?? newId();
    if (draft) {
      await tx.invoiceLineItem.deleteMany({
        where: { invoiceId, OR: [{ kind: 'tax' }, { subscriptionId: subscription.id, periodStart: period.start, kind: { in: ['fee', 'usage'] } }] },
      });
      await tx.invoice.update({
        where: { id: invoiceId },
        data: {
          ...(input.reason ? { billingReason: input.reason } : {}),
          // A Draft that several subscriptions bill into belongs to none of them alone.
          ...(draft.subscriptionId !== null && draft.subscriptionId !== subscription.id ? { subscriptionId: null } : {}),
        },
      });
    } else {
      await tx.invoice.create({
        data: { id: invoiceId, ...group, subscriptionId: subscription.id, billingReason: input.reason ?? 'subscription_cycle', testClockId: subscription.testClockId },
      });
    }
    const onBehalf = payerId === customer.id ? {} : { customerId: customer.id, customerName: customer.displayName };
    await insertLines(
      tx,
      invoiceId,
      charges.map(
        (charge): NewLine => ({
          kind: charge.kind,
          description: charge.description,
          amountNanos: charge.amount_nanos,
          quantity: charge.quantity,
          unitAmountNanos: charge.unit_amount_nanos,
          skuId: charge.sku_id,
          planId: charge.plan_id,
          subscriptionId: subscription.id,
          periodStart: period.start,
          periodEnd: period.end,
          detail: JSON.parse(JSON.stringify(charge.detail, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue,
          ...onBehalf,
        }),
      ),
    );
    const totals = await recomputeTotals(tx, invoiceId);
    return { invoiceId, created: !draft, totalNanos: totals.totalNanos.toFixed(0) };
  });
}
