/**
 * Processor notifications as stored (GET /admin/v1/processor-events): what arrived, whether it was
 * applied and with what outcome, or the billing_error its workflow holds for an operator, whose
 * retry (POST /admin/v1/processor-events/:id/retry) applies it again (docs/failures.md).
 */
import type { Db } from '../../db/client.js';
import {
  findProcessorEvent,
  listProcessorEventRows,
  processorEventStatus,
  type ProcessorEvent,
  type ProcessorEventFilter,
  type ProcessorEventStatus,
} from '../../db/payments.js';
import { notFound, validation } from '../../errors.js';
import type { BillingErrorView } from '../../schemas/common.js';
import type { SubscriptionCommand } from '../../temporal/messages.js';
import { retryProcessorEventStep } from '../../temporal/workflows/processor-event.js';
import type { ServiceDeps } from '../deps.js';
import { billingErrorView, retryHeldStep } from '../failures/billing-errors.js';
import { toPage, type Page } from '../pagination.js';

export interface ProcessorEventView {
  id: string;
  type: string;
  object_id: string | null;
  status: ProcessorEventStatus;
  received_at: string;
  processed_at: string | null;
  outcome: string | null;
  billing_error: BillingErrorView;
}

const toView = (row: ProcessorEvent): ProcessorEventView => ({
  id: row.id,
  type: row.type,
  object_id: row.objectId,
  status: processorEventStatus(row),
  received_at: row.receivedAt.toISOString(),
  processed_at: row.processedAt?.toISOString() ?? null,
  outcome: row.outcome,
  billing_error: billingErrorView(row.billingError),
});

export async function listProcessorEvents(db: Db, filter: ProcessorEventFilter): Promise<Page<ProcessorEventView>> {
  let after: ProcessorEvent | null = null;
  if (filter.starting_after !== undefined) {
    after = await findProcessorEvent(db, filter.starting_after);
    if (after === null) throw validation('starting_after', `no processor event ${JSON.stringify(filter.starting_after)}`);
  }
  return toPage(await listProcessorEventRows(db, filter, after), filter.limit, toView);
}

async function findEvent(db: Db, id: string): Promise<ProcessorEvent> {
  const event = await findProcessorEvent(db, id);
  if (!event) throw notFound('processor_event', id);
  return event;
}

export async function getProcessorEvent(db: Db, id: string): Promise<ProcessorEventView> {
  return toView(await findEvent(db, id));
}

/**
 * An operator's retry of a notification whose application left a billing_error: its workflow clears
 * it and applies the notification again; answered once it ran (with a new billing_error when it
 * failed again). 409 no_billing_error when there is nothing to retry.
 */
export async function retryProcessorEvent(deps: Pick<ServiceDeps, 'db' | 'temporal'>, id: string, command: SubscriptionCommand): Promise<ProcessorEventView> {
  const event = await findEvent(deps.db, id);
  const held = { entity: 'processor_event' as const, what: `processor event ${id}`, billingError: event.billingError };
  await retryHeldStep(held, () => retryProcessorEventStep(deps.temporal, id, command));
  return getProcessorEvent(deps.db, id);
}
