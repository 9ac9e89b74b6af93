/**
 * Payment methods on file (SPEC §4 rule 4: customers with one are charged automatically). Attaching
 * takes a processor payment method id (e.g. pm_card_visa), attaches it to the account's processor
 * customer (created on first use) and keeps its display details; the first one, or one attached
 * with set_default, is the default the invoice workflow charges. Detaching removes it at the
 * processor and here; the newest remaining method then becomes the default.
 */
import type { PageQuery } from '../../db/pages.js';
import { customerNow } from '../../db/contracts.js';
import { findCustomer } from '../../db/customers.js';
import {
  findAttachedPaymentMethod,
  findDefaultPaymentMethod,
  findPaymentMethod,
  findProcessorCustomerId,
  insertPaymentMethod,
  listPaymentMethods as listPaymentMethodRows,
  lockCustomerPaymentMethods,
  markPaymentMethodDetached,
  saveProcessorCustomer,
  toPaymentMethodRecord,
  type PaymentMethodRecord,
} from '../../db/payments.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError } from '../../processor/index.js';
import { recordAudit, type Actor } from '../audit.js';
import { toPage } from '../pagination.js';
import type { ServiceDeps } from '../deps.js';

export interface AttachInput {
  processor_payment_method_id: string;
  set_default?: boolean;
}

interface Context {
  actor: Actor;
  requestId: string;
}

/** Processor errors of an API call: a refusal is the caller's problem (422), an outage a 503. */
async function processor<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProcessorRejectedError) {
      throw new DomainError('unprocessable', 'payment_method_rejected', `the processor refused the payment method: ${err.message}`, { processor_code: err.code });
    }
    if (err instanceof ProcessorUnavailableError) throw new DomainError('unavailable', 'payment_processor_unavailable', err.message);
    throw err;
  }
}

/** The account's customer at the processor, created there on first use (its id is the idempotency key). */
export async function ensureProcessorCustomer(
  deps: ServiceDeps,
  customer: { id: string; email: string; legal_name: string | null; display_name: string },
): Promise<string> {
  const known = await findProcessorCustomerId(deps.db, customer.id);
  if (known) return known;
  const created = await processor(() =>
    deps.processor.createCustomer({ customerId: customer.id, email: customer.email, name: customer.legal_name ?? customer.display_name }, `customer:${customer.id}`),
  );
  return saveProcessorCustomer(deps.db, customer.id, created);
}

export async function attachPaymentMethod(deps: ServiceDeps, customerId: string, input: AttachInput, context: Context): Promise<PaymentMethodRecord> {
  const customer = await findCustomer(deps.db, customerId);
  if (!customer) throw notFound('customer', customerId);
  if (customer.status === 'Closed') throw invalidTransition('customer', customer.status, 'attach a payment method to');
  const attachedTo = await ensureProcessorCustomer(deps, customer);
  const details = await processor(() => deps.processor.attachPaymentMethod(input.processor_payment_method_id, attachedTo));
  const row = await deps.db.$transaction(async (tx) => {
    await lockCustomerPaymentMethods(tx, customerId);
    const existing = await findAttachedPaymentMethod(tx, customerId, details.id);
    if (existing) return existing;
    const isDefault = input.set_default === true || !(await findDefaultPaymentMethod(tx, customerId));
    const created = await insertPaymentMethod(tx, {
      customerId,
      processorPaymentMethodId: details.id,
      type: details.type,
      brand: details.brand,
      last4: details.last4,
      expMonth: details.expMonth,
      expYear: details.expYear,
      isDefault,
      createdAt: await customerNow(tx, customerId, new Date()),
    });
    await recordAudit(tx, {
      action: 'payment_method.attached',
      actor: context.actor,
      entityType: 'payment_method',
      entityId: created.id,
      customerId,
      after: { processor_payment_method_id: created.processorPaymentMethodId, type: created.type, brand: created.brand, is_default: isDefault },
      requestId: context.requestId,
    });
    return created;
  });
  return toPaymentMethodRecord(row);
}

export async function listPaymentMethods(deps: ServiceDeps, customerId: string, page: PageQuery) {
  if (!(await findCustomer(deps.db, customerId))) throw notFound('customer', customerId);
  return toPage(await listPaymentMethodRows(deps.db, customerId, page), page.limit, toPaymentMethodRecord);
}

export async function getPaymentMethod(deps: ServiceDeps, id: string): Promise<PaymentMethodRecord> {
  const row = await findPaymentMethod(deps.db, id);
  if (!row) throw notFound('payment_method', id);
  return toPaymentMethodRecord(row);
}

export async function detachPaymentMethod(deps: ServiceDeps, id: string, context: Context, at: Date): Promise<PaymentMethodRecord> {
  const row = await findPaymentMethod(deps.db, id);
  if (!row) throw notFound('payment_method', id);
  if (row.detachedAt) return toPaymentMethodRecord(row);
  try {
    await processor(() => deps.processor.detachPaymentMethod(row.processorPaymentMethodId));
  } catch (err) {
    // The processor no longer knows it (detached there already): it still leaves the engine's file.
    if (!(err instanceof DomainError && err.code === 'payment_method_rejected')) throw err;
  }
  const detached = await deps.db.$transaction(async (tx) => {
    await lockCustomerPaymentMethods(tx, row.customerId);
    const current = (await findPaymentMethod(tx, id))!;
    if (current.detachedAt) return current;
    const detachedAt = await customerNow(tx, row.customerId, at);
    const done = await markPaymentMethodDetached(tx, current, detachedAt);
    await recordAudit(tx, {
      action: 'payment_method.detached',
      actor: context.actor,
      entityType: 'payment_method',
      entityId: id,
      customerId: row.customerId,
      before: { is_default: current.isDefault },
      after: { detached_at: detachedAt },
      requestId: context.requestId,
    });
    return done;
  });
  return toPaymentMethodRecord(detached);
}
