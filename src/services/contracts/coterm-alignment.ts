/**
 * Coterm realignment of a running subscription (adoption type Coterm with at least 30 days left in
 * the contract): its periods are moved to end on the contract's end date, as the rating core's
 * coterm math says (core/coterm.ts). Run by the subscription's workflow (update
 * `alignToContract`, under its lock), at the subscription's "now" N (day D):
 *
 * - coterm(D, contract end) gives the aligned calendar period [C, E1) that contains D and the day of
 *   month the aligned periods keep (the contract end's).
 * - The period in course [P0, P1) is cut short at N: [P0, N), its recurring fees prorated over the
 *   days served of the period it was ([P0, P1)); its Drafts follow the new end (db
 *   repointPeriodDrafts) and the workflow closes it at once (billed, finalized after the grace
 *   period). On D = P0's day nothing was served: the period is not cut, it becomes the stub.
 * - The stub [N, E1): its recurring fees prorated over the aligned calendar period [C, E1) (the
 *   core's first_period_amount for a list-price fee), usage from N.
 * - Later periods: the billing anchor moves to the contract end's day, so each period after E1 ends
 *   on the next aligned boundary, the last one on the contract end.
 * The proration bases are recorded per period (subscription_period_bases) and read by billing.
 * Audited (`subscription.cotermed`, before/after periods and anchor) with a
 * `contract.subscription_aligned` event, in the transaction of the move. Idempotent: the link
 * records the realignment (aligned_at, aligned_from); a second call answers what the first did.
 */
import { addDays, coterm, CoreValidationError, type BillingCadence } from '../../core/index.js';
import type { Db } from '../../db/client.js';
import { findContract, linkOfSubscription, markLinkAligned } from '../../db/contracts.js';
import { repointPeriodDrafts } from '../../db/invoices.js';
import { findSubscriptionWithCadence, lockSubscription, periodBasis, setPeriodBasis, updateSubscription } from '../../db/subscriptions.js';
import { getPlanPricing } from '../../db/catalog.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';
import type { ActorRef, SubscriptionSnapshot } from '../../temporal/messages.js';
import { recordAudit } from '../audit.js';
import { enqueueEvent } from '../outbox.js';
import { snapshotOf } from '../subscriptions/transitions.js';

export interface AlignInput {
  subscriptionId: string;
  /** The subscription's now (its test clock's time when it has one), ISO. */
  at: string;
  actor: ActorRef;
  requestId?: string | undefined;
}

export interface AlignResult {
  state: SubscriptionSnapshot;
  /** The period cut short at the realignment, for the workflow to close; null when none was cut. */
  closed: { start: string; end: string } | null;
}

const civil = (d: Date): string => d.toISOString().slice(0, 10);
const dateOf = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
const ALIGNABLE = new Set(['Active', 'PastDue']);

const notAlignable = (message: string) => new DomainError('unprocessable', 'coterm_not_alignable', message, { field: 'adoption_type' });

export async function alignSubscriptionToContract(db: Db, input: AlignInput): Promise<AlignResult> {
  const at = new Date(input.at);
  return db.$transaction(async (tx) => {
    if (!(await lockSubscription(tx, input.subscriptionId))) throw notFound('subscription', input.subscriptionId);
    const subscription = (await findSubscriptionWithCadence(tx, input.subscriptionId))!;
    const link = await linkOfSubscription(tx, subscription.id);
    if (link === null || link.adoption_type !== 'Coterm' || link.coterm_fee_nanos !== null) {
      throw notAlignable(`subscription ${subscription.id} is not adopted by a contract with Coterm alignment`);
    }
    if (link.aligned_at_instant !== null) {
      const closed = link.aligned_from === null ? null : { start: link.aligned_from.toISOString(), end: link.aligned_at_instant.toISOString() };
      return { state: snapshotOf(subscription), closed };
    }
    if (!ALIGNABLE.has(subscription.status)) throw invalidTransition('subscription', subscription.status, 'align to its contract');
    const contract = await findContract(tx, link.contract_id);
    if (contract === null) throw notFound('contract', link.contract_id);

    const plan = await getPlanPricing(tx, subscription.planId, subscription.planVersion);
    const periodAmount = plan.prices.filter((p) => p.pricing_model === 'Flat').reduce((sum, p) => sum + p.unit_amount_nanos, 0n);
    let result;
    try {
      result = coterm(civil(at), contract.end_date, periodAmount, subscription.plan.billingCadence as BillingCadence);
    } catch (err) {
      if (err instanceof CoreValidationError && err.code === 'contract_ended') throw notAlignable(`the contract ends on ${contract.end_date}: nothing is left to align to`);
      throw err;
    }
    if (result.kind !== 'Aligned') throw notAlignable(`only ${result.days_remaining} days are left in the contract: too few to align periods to`);

    const stubEnd = dateOf(result.first_period_end);
    const stubBasis = { start: addDays(result.first_period_end, -result.first_period_days_in_period), end: result.first_period_end };
    const { periodStart, periodEnd } = subscription;
    const cut = civil(at) > civil(periodStart);
    if (cut) {
      const basis = (await periodBasis(tx, subscription.id, periodStart)) ?? { start: civil(periodStart), end: civil(periodEnd) };
      await repointPeriodDrafts(tx, subscription.id, periodStart, at);
      await setPeriodBasis(tx, { subscriptionId: subscription.id, periodStart, periodEnd: at, basis });
      await setPeriodBasis(tx, { subscriptionId: subscription.id, periodStart: at, periodEnd: stubEnd, basis: stubBasis });
    } else {
      await repointPeriodDrafts(tx, subscription.id, periodStart, stubEnd);
      await setPeriodBasis(tx, { subscriptionId: subscription.id, periodStart, periodEnd: stubEnd, basis: stubBasis });
    }
    const updated = await updateSubscription(tx, subscription.id, {
      ...(cut ? { periodStart: at } : {}),
      periodEnd: stubEnd,
      // Its day of month is the anchor later periods keep: the contract end's.
      billingAnchor: dateOf(contract.end_date),
    });
    await markLinkAligned(tx, subscription.id, at, cut ? periodStart : null);
    await recordAudit(tx, {
      action: 'subscription.cotermed',
      actor: input.actor,
      entityType: 'subscription',
      entityId: subscription.id,
      customerId: subscription.customerId,
      before: { period_start: periodStart.toISOString(), period_end: periodEnd.toISOString(), billing_anchor: subscription.billingAnchor.toISOString() },
      after: {
        contract_id: contract.id,
        period_start: updated.periodStart.toISOString(),
        period_end: updated.periodEnd.toISOString(),
        billing_anchor: updated.billingAnchor.toISOString(),
        cut_period: cut ? { start: periodStart.toISOString(), end: at.toISOString() } : null,
        stub_basis: stubBasis,
        aligned_to: contract.end_date,
      },
      ...(input.requestId ? { requestId: input.requestId } : {}),
    });
    await enqueueEvent(
      tx,
      'contract.subscription_aligned',
      contract.id,
      {
        contract_id: contract.id,
        customer_id: subscription.customerId,
        subscription_id: subscription.id,
        period_start: updated.periodStart.toISOString(),
        period_end: updated.periodEnd.toISOString(),
        aligned_to: contract.end_date,
      },
      at,
    );
    return { state: snapshotOf(updated), closed: cut ? { start: periodStart.toISOString(), end: at.toISOString() } : null };
  });
}
