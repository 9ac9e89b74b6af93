/**
 * Customers: accounts, their hierarchy and status (SPEC §2 Customer).
 *
 * Hierarchy rules (each violation is a 422 with its own code, naming the field):
 * - Organization and Individual are top-level accounts: parent_id must be null (parent_not_allowed).
 * - A Subsidiary must have a parent (subsidiary_requires_parent) that is an Organization or a
 *   Subsidiary (individual_cannot_have_children), exists (404 parent_not_found) and is not Closed
 *   (parent_closed). Trees are at most MAX_HIERARCHY_DEPTH levels deep, root included
 *   (hierarchy_too_deep), and never cyclic (hierarchy_cycle); nobody is their own parent or
 *   bill-to (self_reference).
 * - ConsolidateToParent needs a parent (consolidation_requires_parent) with the same billing
 *   currency, since the charges roll up onto the parent's invoice (consolidation_currency_mismatch).
 * - bill_to_id must name an existing (404 bill_to_not_found), non-Closed customer (bill_to_closed).
 * - account_type and billing_currency are fixed at creation: changing them would re-validate every
 *   child, subscription and invoice of the account.
 *
 * Status moves: Active ⇄ Suspended, Active|Suspended → Closed; Closed is final and a Closed
 * customer cannot be updated (409 invalid_state_transition). Closing is refused (409) while the
 * customer has open subscriptions (Trialing, Active, PastDue, Paused), Draft or Open invoices,
 * non-Closed children or non-Closed customers billed to it.
 *
 * Every mutation takes the customer-graph lock and writes its audit entry in the same transaction.
 */
import { missingReference } from '../../db/catalog.js';
import type { Db, DbClient } from '../../db/client.js';
import {
  ancestorIds,
  countOpenBillToDependents,
  countOpenChildren,
  countOpenInvoices,
  countOpenSubscriptions,
  findCustomer,
  insertCustomer,
  listCustomers as listCustomerRows,
  lockCustomerForUpdate,
  lockCustomerGraph,
  recentAuditEntries,
  recentInvoices,
  recentSubscriptions,
  subtreeHeight,
  subtreeRows,
  updateCustomer as updateCustomerRow,
  type BillingAddress,
  type CustomerChanges,
  type CustomerListQuery,
  type CustomerRecord,
} from '../../db/customers.js';
import { attachedPaymentMethods } from '../../db/payments.js';
import type { AccountType, Consolidation, CustomerStatus } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';
import { recordAudit, type RequestContext } from '../audit.js';
import { ledgerBalancesForOverview } from '../ledger/ledger.js';
import { customerCreditBalances } from '../wallets/customer-balance.js';
import { conflict, DomainError, invalidTransition, notFound, validation } from '../../errors.js';
import type { CustomerOverview, CustomerView, HierarchyNode } from '../../schemas/accounts.js';
import { mergeMetadata } from '../metadata.js';

/** Levels of a customer tree, the top-level account included. */
export const MAX_HIERARCHY_DEPTH = 5;
export const RECENT_AUDIT_ENTRIES = 20;
/** Newest subscriptions and newest invoices the 360 view shows, each. */
export const RECENT_DOCUMENTS = 100;

export type { RequestContext };

export interface CreateCustomerInput {
  display_name: string;
  email: string;
  currency: string;
  account_type: AccountType;
  parent_id?: string | null;
  legal_name?: string | null;
  bill_to_id?: string | null;
  consolidation?: Consolidation;
  payment_terms_days?: number;
  tax_id?: string | null;
  billing_address?: BillingAddress | null;
  test_clock_id?: string | null;
  external_id?: string | null;
  metadata?: Record<string, string | null>;
}

export type UpdateCustomerInput = Omit<CustomerChanges, 'status' | 'metadata'> & { metadata?: Record<string, string | null> };

/** Metadata after an update: the keys sent are merged in, a key set to null is removed. */
const TRANSITIONS: Record<CustomerStatus, readonly CustomerStatus[]> = {
  Active: ['Suspended', 'Closed'],
  Suspended: ['Active', 'Closed'],
  Closed: [],
};
const STATUS_VERB: Record<CustomerStatus, string> = { Active: 'activate', Suspended: 'suspend', Closed: 'close' };

const rule = (code: string, field: string, message: string): DomainError =>
  new DomainError('unprocessable', code, `${field}: ${message}`, { field });

/** The fields the hierarchy rules read, as they will be after the write. */
type Placement = Pick<CustomerRecord, 'id' | 'account_type' | 'parent_id' | 'consolidation' | 'billing_currency'>;

/** Checks the hierarchy rules; `moved` says whether parent_id is new (cycle and depth checks). */
async function checkPlacement(tx: DbClient, subject: Placement, moved: boolean, isNew: boolean): Promise<void> {
  const { account_type: type, parent_id: parentId } = subject;
  if (type !== 'Subsidiary' && parentId !== null) {
    throw rule('parent_not_allowed', 'parent_id', `an ${type} is a top-level account and cannot have a parent`);
  }
  if (type === 'Subsidiary' && parentId === null) {
    throw rule('subsidiary_requires_parent', 'parent_id', 'a Subsidiary must have a parent Organization or Subsidiary');
  }
  if (parentId === null) {
    if (subject.consolidation === 'ConsolidateToParent') {
      throw rule('consolidation_requires_parent', 'consolidation', 'ConsolidateToParent requires a parent_id');
    }
    return;
  }
  if (parentId === subject.id) throw rule('self_reference', 'parent_id', 'a customer cannot be its own parent');
  const parent = await findCustomer(tx, parentId);
  if (parent === null) throw missingReference('parent_id', 'customer', parentId);
  if (parent.account_type === 'Individual') {
    throw rule('individual_cannot_have_children', 'parent_id', `customer ${parentId} is an Individual, which cannot have children`);
  }
  if (parent.status === 'Closed') throw rule('parent_closed', 'parent_id', `customer ${parentId} is Closed`);
  if (subject.consolidation === 'ConsolidateToParent' && parent.billing_currency !== subject.billing_currency) {
    throw rule(
      'consolidation_currency_mismatch',
      'consolidation',
      `ConsolidateToParent needs the parent's billing currency ${parent.billing_currency}, not ${subject.billing_currency}`,
    );
  }
  if (!moved) return;
  const chain = await ancestorIds(tx, parentId, MAX_HIERARCHY_DEPTH + 1);
  if (chain.includes(subject.id)) {
    throw rule('hierarchy_cycle', 'parent_id', `customer ${parentId} is a descendant of ${subject.id}; the move would create a cycle`);
  }
  const height = isNew ? 1 : await subtreeHeight(tx, subject.id, MAX_HIERARCHY_DEPTH + 1);
  if (chain.length + height > MAX_HIERARCHY_DEPTH) {
    throw rule('hierarchy_too_deep', 'parent_id', `a customer tree may be at most ${MAX_HIERARCHY_DEPTH} levels deep`);
  }
}

async function checkBillTo(tx: DbClient, customerId: string, billToId: string | null): Promise<void> {
  if (billToId === null) return;
  if (billToId === customerId) throw rule('self_reference', 'bill_to_id', 'a customer cannot be its own bill_to');
  const billTo = await findCustomer(tx, billToId);
  if (billTo === null) throw missingReference('bill_to_id', 'customer', billToId);
  if (billTo.status === 'Closed') throw rule('bill_to_closed', 'bill_to_id', `customer ${billToId} is Closed`);
}

async function existingCustomer(tx: DbClient, id: string): Promise<CustomerRecord> {
  const customer = await findCustomer(tx, id);
  if (customer === null) throw notFound('customer', id);
  return customer;
}

export async function createCustomer(db: Db, input: CreateCustomerInput, context: RequestContext): Promise<CustomerView> {
  const id = newId();
  const draft = {
    id,
    display_name: input.display_name,
    legal_name: input.legal_name ?? null,
    email: input.email,
    account_type: input.account_type,
    parent_id: input.parent_id ?? null,
    bill_to_id: input.bill_to_id ?? null,
    consolidation: input.consolidation ?? 'Standalone',
    billing_currency: input.currency,
    payment_terms_days: input.payment_terms_days ?? 30,
    tax_id: input.tax_id ?? null,
    billing_address: input.billing_address ?? null,
    test_clock_id: input.test_clock_id ?? null,
    external_id: input.external_id ?? null,
    metadata: mergeMetadata({}, input.metadata ?? {}),
  };
  return db.$transaction(async (tx) => {
    await lockCustomerGraph(tx);
    await checkPlacement(tx, draft, true, true);
    await checkBillTo(tx, id, draft.bill_to_id);
    const customer = await insertCustomer(tx, draft);
    await recordAudit(tx, {
      action: 'customer.created',
      actor: context.actor,
      entityType: 'customer',
      entityId: id,
      customerId: id,
      after: customer,
      requestId: context.requestId,
    });
    return customer;
  });
}

export async function updateCustomer(db: Db, id: string, changes: UpdateCustomerInput, context: RequestContext): Promise<CustomerView> {
  return db.$transaction(async (tx) => {
    await lockCustomerGraph(tx);
    const before = await existingCustomer(tx, id);
    if (before.status === 'Closed') throw invalidTransition('customer', before.status, 'update');
    const parentId = changes.parent_id === undefined ? before.parent_id : changes.parent_id;
    if (changes.parent_id !== undefined || changes.consolidation !== undefined) {
      const placement = { ...before, parent_id: parentId, consolidation: changes.consolidation ?? before.consolidation };
      await checkPlacement(tx, placement, parentId !== before.parent_id, false);
    }
    if (changes.bill_to_id !== undefined && changes.bill_to_id !== before.bill_to_id) await checkBillTo(tx, id, changes.bill_to_id);
    const { metadata, ...fields } = changes;
    const after = await updateCustomerRow(tx, id, { ...fields, ...(metadata === undefined ? {} : { metadata: mergeMetadata(before.metadata, metadata) }) });
    await recordAudit(tx, {
      action: 'customer.updated',
      actor: context.actor,
      entityType: 'customer',
      entityId: id,
      customerId: id,
      before,
      after,
      requestId: context.requestId,
    });
    return after;
  });
}

export async function changeCustomerStatus(db: Db, id: string, status: CustomerStatus, context: RequestContext): Promise<CustomerView> {
  return db.$transaction(async (tx) => {
    await lockCustomerGraph(tx);
    // Waits for subscriptions being created for this customer (they hold the row FOR SHARE), so
    // the closability check below sees them.
    await lockCustomerForUpdate(tx, id);
    const before = await existingCustomer(tx, id);
    if (!TRANSITIONS[before.status].includes(status)) throw invalidTransition('customer', before.status, STATUS_VERB[status]);
    if (status === 'Closed') await assertClosable(tx, id);
    const after = await updateCustomerRow(tx, id, { status });
    await recordAudit(tx, {
      action: 'customer.status_changed',
      actor: context.actor,
      entityType: 'customer',
      entityId: id,
      customerId: id,
      before: { status: before.status },
      after: { status: after.status },
      requestId: context.requestId,
    });
    return after;
  });
}

async function assertClosable(tx: DbClient, id: string): Promise<void> {
  const [subscriptions, invoices, children, dependents] = await Promise.all([
    countOpenSubscriptions(tx, id),
    countOpenInvoices(tx, id),
    countOpenChildren(tx, id),
    countOpenBillToDependents(tx, id),
  ]);
  if (subscriptions > 0) {
    throw conflict('customer_has_open_subscriptions', `customer ${id} has ${subscriptions} Trialing, Active, PastDue or Paused subscription(s)`, {
      open_subscriptions: subscriptions,
    });
  }
  if (invoices > 0) {
    throw conflict('customer_has_open_invoices', `customer ${id} has ${invoices} Draft or Open invoice(s)`, { open_invoices: invoices });
  }
  if (children > 0) {
    throw conflict('customer_has_open_children', `customer ${id} has ${children} child account(s) that are not Closed`, { open_children: children });
  }
  if (dependents > 0) {
    throw conflict('customer_is_bill_to', `customer ${id} receives the invoices of ${dependents} customer(s) that are not Closed`, {
      bill_to_dependents: dependents,
    });
  }
}

export async function listCustomers(db: Db, query: CustomerListQuery): Promise<CustomerView[]> {
  return listCustomerRows(db, query);
}

/** The 360 view; its ledger balances are in the customer's billing currency. */
export async function getCustomerOverview(db: Db, id: string): Promise<CustomerOverview> {
  const customer = await existingCustomer(db, id);
  const [subscriptions, invoices, audit, paymentMethods] = await Promise.all([
    recentSubscriptions(db, id, RECENT_DOCUMENTS),
    recentInvoices(db, id, RECENT_DOCUMENTS),
    recentAuditEntries(db, id, RECENT_AUDIT_ENTRIES),
    attachedPaymentMethods(db, id),
  ]);
  return {
    ...customer,
    subscriptions,
    invoices,
    ledger_balances: await ledgerBalancesForOverview(db, id, customer.billing_currency),
    credit_balances: await customerCreditBalances(db, id),
    recent_audit: audit,
    payment_methods: paymentMethods,
  };
}

/** The tree rooted at the customer; children in id (creation) order. */
export async function getCustomerHierarchy(db: Db, id: string): Promise<HierarchyNode> {
  const rows = await subtreeRows(db, id, MAX_HIERARCHY_DEPTH);
  const nodes = new Map<string, HierarchyNode>();
  let root: HierarchyNode | undefined;
  // Rows come level by level, so every parent is in the map before its children.
  for (const row of rows) {
    const node: HierarchyNode = {
      id: row.id,
      display_name: row.display_name,
      account_type: row.account_type,
      status: row.status,
      consolidation: row.consolidation,
      billing_currency: row.billing_currency,
      children: [],
    };
    nodes.set(row.id, node);
    if (row.depth === 1) root = node;
    else if (row.parent_id !== null) nodes.get(row.parent_id)?.children.push(node);
  }
  if (root === undefined) throw notFound('customer', id);
  return root;
}
