/**
 * Billing a subscription period: rate it cumulatively to date and put the difference with what
 * finalized invoices of the period already carry on the period's one Draft (core/invoicing.ts).
 *
 * - Periods are [period_start, period_end). Recurring fees (Flat, Committed commits) are charged for
 *   the whole period on its first invoice and prorated by whole days across plan phases; usage is
 *   rated from the period start (or the phase start) up to `upTo`.
 * - Trial periods bill nothing.
 * - The Draft is addressed to the account that pays: the customer's bill_to, else its parent when
 *   it consolidates to its parent, else itself. Lines of a charge addressed elsewhere name the
 *   customer that incurred it. Each invoice has one currency (the subscription's).
 * - The subscription row is locked for the transaction: concurrent bills of one subscription are
 *   serialised, and the partial unique index on Drafts makes a second Draft for a period impossible.
 */
import { addQuantity, chargesToInvoice, formatQuantity, parseQuantity, ratePlan, type Billed, type ChargeLine, type RatedLine } from '../core/index.js';
import type { Prisma, SubscriptionPhase } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { toSkuPrice } from '../db/catalog.js';
import { fromDecimal } from '../db/money.js';
import { newId } from '../ids.js';
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

const civil = (d: Date): string => d.toISOString().slice(0, 10);
const RECURRING = new Set(['Flat', 'Committed']);

/** The charges of the period [start, end) rated to `upTo`, phase by phase. */
async function rateToDate(
  tx: Tx,
  subscription: { id: string; customerId: string; periodStart: Date; periodEnd: Date },
  phases: SubscriptionPhase[],
  upTo: Date,
): Promise<TargetLine[]> {
  const lines: TargetLine[] = [];
  for (const phase of phases) {
    const from = phase.startsAt > subscription.periodStart ? phase.startsAt : subscription.periodStart;
    const phaseEnd = phase.endsAt && phase.endsAt < subscription.periodEnd ? phase.endsAt : subscription.periodEnd;
    const usageTo = phaseEnd < upTo ? phaseEnd : upTo;
    if (civil(from) >= civil(phaseEnd)) continue;
    const plan = await tx.plan.findUniqueOrThrow({ where: { id: phase.planId }, include: { skus: { orderBy: { id: 'asc' } }, product: true } });
    const tags = plan.product?.tags ?? [];
    const skus = plan.skus.map((row) => toSkuPrice(row, tags));
    const eventTypes = [...new Set(skus.flatMap((s) => (s.meter_event_type ? [s.meter_event_type] : [])))];
    const usage = usageTo > from
      ? await quantitiesForPeriod(tx as unknown as Db, { subscriptionId: subscription.id, customerId: subscription.customerId, eventTypes, from, to: usageTo })
      : {};
    const period = { start: civil(subscription.periodStart), end: civil(subscription.periodEnd) };
    const service = { start: civil(from), end: civil(phaseEnd) };
    const rated = ratePlan({ skus, usage, asOf: service.start, period, ...(service.start === period.start && service.end === period.end ? {} : { service }) });
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

/** What finalized (Open/Paid) invoices of this period already charged, per SKU. */
async function billedInPeriod(tx: Tx, subscriptionId: string, periodStart: Date): Promise<Map<string, Billed>> {
  const rows = await tx.$queryRaw<{ sku_id: string; quantity: string[]; amount: Prisma.Decimal }[]>`
    SELECT l.sku_id::text AS sku_id, array_agg(l.quantity) AS quantity, sum(l.amount_nanos) AS amount
    FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.subscription_id = ${subscriptionId}::uuid AND i.period_start = ${periodStart}
      AND i.status IN ('Open', 'Paid') AND l.kind IN ('fee', 'usage') AND l.sku_id IS NOT NULL
    GROUP BY l.sku_id`;
  const billed = new Map<string, Billed>();
  for (const row of rows) {
    const quantity = formatQuantity(row.quantity.reduce((sum, q) => addQuantity(sum, parseQuantity(q)), parseQuantity('0')));
    billed.set(row.sku_id, { quantity, amount_nanos: fromDecimal(row.amount) });
  }
  return billed;
}

async function billTo(tx: Tx, customerId: string) {
  const customer = await tx.customer.findUniqueOrThrow({ where: { id: customerId } });
  const payerId = customer.billToId ?? (customer.consolidation === 'ConsolidateToParent' && customer.parentId ? customer.parentId : customer.id);
  return { customer, payerId };
}

/**
 * Creates or refreshes the Draft of the subscription's current period with its charges up to
 * `upTo` (capped at the period end). Returns no invoice when there is nothing new to bill.
 */
export async function billSubscription(db: Db, input: { subscriptionId: string; upTo: Date; reason: BillingReason }): Promise<BillResult> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${input.subscriptionId}::uuid FOR UPDATE`;
    const subscription = await tx.subscription.findUniqueOrThrow({ where: { id: input.subscriptionId } });
    const draft = await tx.invoice.findFirst({ where: { subscriptionId: subscription.id, periodStart: subscription.periodStart, status: 'Draft' } });
    if (subscription.status === 'Trialing' || subscription.status === 'Expired') {
      return { invoiceId: draft?.id ?? null, created: false, totalNanos: draft?.totalNanos.toFixed(0) ?? '0' };
    }
    const upTo = input.upTo < subscription.periodEnd ? input.upTo : subscription.periodEnd;
    const phases = await tx.subscriptionPhase.findMany({
      where: { subscriptionId: subscription.id, startsAt: { lt: subscription.periodEnd }, OR: [{ endsAt: null }, { endsAt: { gt: subscription.periodStart } }] },
      orderBy: { startsAt: 'asc' },
    });
    const target = await rateToDate(tx, subscription, phases, upTo);
    const charges = chargesToInvoice(target, await billedInPeriod(tx, subscription.id, subscription.periodStart));
    if (!draft && charges.length === 0) return { invoiceId: null, created: false, totalNanos: '0' };

    const { customer, payerId } = await billTo(tx, subscription.customerId);
    const invoiceId = draft?.id ?? newId();
    if (draft) {
      // The same lock Draft edits and finalization take: a refresh never interleaves with them.
      await lockInvoice(tx, draft.id);
      await tx.invoiceLineItem.deleteMany({ where: { invoiceId, kind: { in: ['fee', 'usage', 'tax'] } } });
      await tx.invoice.update({ where: { id: invoiceId }, data: { billingReason: input.reason } });
    } else {
      await tx.invoice.create({
        data: {
          id: invoiceId,
          customerId: payerId,
          subscriptionId: subscription.id,
          currency: subscription.currency,
          billingReason: input.reason,
          periodStart: subscription.periodStart,
          periodEnd: subscription.periodEnd,
          testClockId: subscription.testClockId,
        },
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
          periodStart: subscription.periodStart,
          periodEnd: subscription.periodEnd,
          detail: JSON.parse(JSON.stringify(charge.detail, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue,
          ...onBehalf,
        }),
      ),
    );
    const totals = await recomputeTotals(tx, invoiceId);
    return { invoiceId, created: !draft, totalNanos: totals.totalNanos.toFixed(0) };
  });
}
