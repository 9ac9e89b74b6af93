/**
 * Customer repository: rows of `customers` (and the customer's subscriptions, invoices and audit
 * entries for the 360 view) mapped to API-shaped records, so no Prisma row ever reaches a response. Prisma
 * errors are translated into domain errors here, at the edge.
 */
import {
  Prisma,
  type AccountType,
  type Consolidation,
  type Customer as CustomerRow,
  type CustomerStatus,
  type InvoiceStatus,
  type SubscriptionStatus,
} from '../generated/prisma/client.js';
import { conflict, notFound } from '../errors.js';
import type { DbClient } from './client.js';
import { isPrismaError, missingReference } from './catalog.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import { fromDecimal } from './money.js';
import { col, modelRowById, modelTable, statement } from './sql.js';


export interface CustomerRecord {
  id: string;
  display_name: string;
  legal_name: string | null;
  email: string;
  account_type: AccountType;
  status: CustomerStatus;
  parent_id: string | null;
  bill_to_id: string | null;
  consolidation: Consolidation;
  billing_currency: string;
  payment_terms_days: number;
  tax_id: string | null;
  billing_address: BillingAddress | null;
  test_clock_id: string | null;
  external_id: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** The bill-to postal address printed on invoices. */
export interface BillingAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** The jsonb column's value: unchanged (undefined), SQL NULL, or the address. */
const addressColumn = (address: BillingAddress | null | undefined) =>
  address === undefined ? undefined : address === null ? Prisma.DbNull : ({ ...address } satisfies Prisma.InputJsonObject);

export type NewCustomer = Omit<CustomerRecord, 'status' | 'created_at' | 'updated_at'>;

export type CustomerChanges = Partial<
  Pick<
    CustomerRecord,
    'display_name' | 'legal_name' | 'email' | 'bill_to_id' | 'consolidation' | 'payment_terms_days' | 'tax_id' | 'billing_address' | 'parent_id' | 'status' | 'external_id' | 'metadata'
  >
>;

export interface SubscriptionSummary {
  id: string;
  plan_id: string;
  plan_version: number;
  status: SubscriptionStatus;
  currency: string;
  period_start: string;
  period_end: string;
  charged_through_date: string | null;
  contract_id: string | null;
}

export interface InvoiceSummary {
  id: string;
  subscription_id: string | null;
  status: InvoiceStatus;
  invoice_number: string | null;
  currency: string;
  total_nanos: string;
  created_at: string;
}

export interface AuditEntrySummary {
  id: string;
  action: string;
  actor_type: string;
  actor_id: string;
  entity_type: string;
  entity_id: string;
  request_id: string | null;
  created_at: string;
  before: unknown;
  after: unknown;
}

/** One node of a subtree, with its level below the subtree's root (root = 1). */
export interface HierarchyRow {
  id: string;
  parent_id: string | null;
  display_name: string;
  account_type: AccountType;
  status: CustomerStatus;
  consolidation: Consolidation;
  billing_currency: string;
  depth: number;
}

/** Subscription states that still bill (or may bill again); a customer with one cannot close. */
export const OPEN_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['Trialing', 'Active', 'PastDue', 'Paused'];
/** Invoice states still to be finalized or collected; a customer with one cannot close. */
export const OPEN_INVOICE_STATUSES: readonly InvoiceStatus[] = ['Draft', 'Open'];

export function toCustomerRecord(row: CustomerRow): CustomerRecord {
  return {
    id: row.id,
    display_name: row.displayName,
    legal_name: row.legalName,
    email: row.email,
    account_type: row.accountType,
    status: row.status,
    parent_id: row.parentId,
    bill_to_id: row.billToId,
    consolidation: row.consolidation,
    billing_currency: row.billingCurrency,
    payment_terms_days: row.paymentTermsDays,
    tax_id: row.taxId,
    billing_address: (row.billingAddress as BillingAddress | null) ?? null,
    test_clock_id: row.testClockId,
    external_id: row.externalId,
    metadata: row.metadata as Record<string, string>,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Serialises every change to the customer graph (parents, bill-to links, statuses) for the rest of
 * the transaction, so two concurrent moves cannot together build a cycle or close a parent while a
 * child is being added. Customer writes are rare admin operations, so one lock costs nothing.
 */
export async function lockCustomerGraph(tx: DbClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('billing:customer_graph'))`;
}

/** The customers table as the Customer model (read on the hot paths of billing without Prisma). */
const CUSTOMERS = modelTable<CustomerRow>('customers', {
  id: col.text('id'),
  displayName: col.text('display_name'),
  legalName: col.textOrNull('legal_name'),
  email: col.text('email'),
  accountType: col.label<AccountType>('account_type'),
  status: col.label<CustomerStatus>('status'),
  parentId: col.textOrNull('parent_id'),
  billToId: col.textOrNull('bill_to_id'),
  consolidation: col.label<Consolidation>('consolidation'),
  billingCurrency: col.text('billing_currency'),
  paymentTermsDays: col.int('payment_terms_days'),
  taxId: col.textOrNull('tax_id'),
  billingAddress: col.jsonOrNull('billing_address'),
  testClockId: col.textOrNull('test_clock_id'),
  externalId: col.textOrNull('external_id'),
  metadata: col.json('metadata'),
  createdAt: col.time('created_at'),
  updatedAt: col.time('updated_at'),
});
const CUSTOMER_BY_ID = statement(`${CUSTOMERS.select('c')} WHERE c.id = $1::uuid`);

export async function findCustomer(tx: DbClient, id: string): Promise<CustomerRecord | null> {
  const row = await modelRowById(tx, CUSTOMERS, CUSTOMER_BY_ID, id);
  return row === null ? null : toCustomerRecord(row);
}

/** A customer known to exist (referenced by a subscription or an invoice). */
export async function getCustomer(tx: DbClient, id: string): Promise<CustomerRecord> {
  const customer = await findCustomer(tx, id);
  if (customer === null) throw new Error(`customer ${id} does not exist`);
  return customer;
}

/** Locks the customer row for the rest of the transaction; a concurrent status change waits for it. */
export async function lockCustomerForUpdate(tx: DbClient, id: string): Promise<void> {
  await tx.$executeRaw`SELECT id FROM customers WHERE id = ${id}::uuid FOR UPDATE`;
}

/**
 * Share-locks the customer row for the rest of the transaction (a status change, which locks it
 * FOR UPDATE, waits) and returns its status; undefined when it does not exist.
 */
export async function lockCustomerShared(tx: DbClient, id: string): Promise<CustomerStatus | undefined> {
  const [locked] = await tx.$queryRaw<{ status: CustomerStatus }[]>`SELECT status::text FROM customers WHERE id = ${id}::uuid FOR SHARE`;
  return locked?.status;
}

export async function insertCustomer(tx: DbClient, customer: NewCustomer): Promise<CustomerRecord> {
  // A customer on a test clock is created at the clock's time.
  const clock = customer.test_clock_id === null ? null : await tx.testClock.findUnique({ where: { id: customer.test_clock_id }, select: { frozenTime: true } });
  try {
    const row = await tx.customer.create({
      data: {
        id: customer.id,
        ...(clock === null ? {} : { createdAt: clock.frozenTime }),
        displayName: customer.display_name,
        legalName: customer.legal_name,
        email: customer.email,
        accountType: customer.account_type,
        parentId: customer.parent_id,
        billToId: customer.bill_to_id,
        consolidation: customer.consolidation,
        billingCurrency: customer.billing_currency,
        paymentTermsDays: customer.payment_terms_days,
        taxId: customer.tax_id,
        billingAddress: addressColumn(customer.billing_address),
        testClockId: customer.test_clock_id,
        externalId: customer.external_id,
        metadata: customer.metadata,
      },
    });
    return toCustomerRecord(row);
  } catch (err) {
    if (isPrismaError(err, 'P2002') && customer.external_id !== null) throw externalIdTaken(customer.external_id);
    // Parent and bill-to are checked under the graph lock before the insert; the test clock is left
    // to its foreign key, so a violation here means the clock does not exist.
    if (isPrismaError(err, 'P2003') && customer.test_clock_id !== null) {
      throw missingReference('test_clock_id', 'test clock', customer.test_clock_id);
    }
    throw err;
  }
}

export async function updateCustomer(tx: DbClient, id: string, changes: CustomerChanges): Promise<CustomerRecord> {
  try {
    const row = await tx.customer.update({
      where: { id },
      data: {
        displayName: changes.display_name,
        legalName: changes.legal_name,
        email: changes.email,
        billToId: changes.bill_to_id,
        consolidation: changes.consolidation,
        paymentTermsDays: changes.payment_terms_days,
        taxId: changes.tax_id,
        billingAddress: addressColumn(changes.billing_address),
        parentId: changes.parent_id,
        status: changes.status,
        externalId: changes.external_id,
        metadata: changes.metadata,
      },
    });
    return toCustomerRecord(row);
  } catch (err) {
    if (isPrismaError(err, 'P2025')) throw notFound('customer', id);
    if (isPrismaError(err, 'P2002') && changes.external_id) throw externalIdTaken(changes.external_id);
    throw err;
  }
}

export interface CustomerListQuery extends PageQuery {
  parent_id?: string;
  status?: CustomerStatus;
  external_id?: string;
  currency?: string;
}

const externalIdTaken = (externalId: string) =>
  conflict('external_id_taken', `external_id ${JSON.stringify(externalId)} is another customer's`, { field: 'external_id' });

/** Customer ids by external id, for the given external ids that exist. */
export async function customerIdsByExternalId(tx: DbClient, externalIds: string[]): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await tx.customer.findMany({ where: { externalId: { in: externalIds } }, select: { id: true, externalId: true } });
  return new Map(rows.map((row) => [row.externalId!, row.id]));
}

/** One page, newest first, fetched with one extra row so the caller knows has_more. */
export async function listCustomers(tx: DbClient, query: CustomerListQuery): Promise<CustomerRecord[]> {
  const rows = await tx.customer.findMany({
    where: {
      ...pageWhere(query),
      ...(query.parent_id === undefined ? {} : { parentId: query.parent_id }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.external_id === undefined ? {} : { externalId: query.external_id }),
      ...(query.currency === undefined ? {} : { billingCurrency: query.currency }),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return rows.map(toCustomerRecord);
}

/** Ids from `id` up to its root, `id` first; at most `maxLevels` rows even if the data had a cycle. */
export async function ancestorIds(tx: DbClient, id: string, maxLevels: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, 1 AS depth FROM customers WHERE id = ${id}::uuid
      UNION ALL
      SELECT c.id, c.parent_id, chain.depth + 1
      FROM customers c JOIN chain ON c.id = chain.parent_id
      WHERE chain.depth < ${maxLevels}
    )
    SELECT id::text AS id FROM chain ORDER BY depth`;
  return rows.map((row) => row.id);
}

/** The subtree rooted at `id` (root first, then level by level), at most `maxLevels` deep. */
export async function subtreeRows(tx: DbClient, id: string, maxLevels: number): Promise<HierarchyRow[]> {
  return tx.$queryRaw<HierarchyRow[]>`
    WITH RECURSIVE tree AS (
      SELECT id, parent_id, 1 AS depth FROM customers WHERE id = ${id}::uuid
      UNION ALL
      SELECT c.id, c.parent_id, tree.depth + 1
      FROM customers c JOIN tree ON c.parent_id = tree.id
      WHERE tree.depth < ${maxLevels}
    )
    SELECT c.id::text AS id, c.parent_id::text AS parent_id, c.display_name, c.account_type::text AS account_type,
           c.status::text AS status, c.consolidation::text AS consolidation, c.billing_currency, tree.depth
    FROM tree JOIN customers c ON c.id = tree.id
    ORDER BY tree.depth, c.id`;
}

/** Levels of the subtree rooted at `id` (1 for a customer without children). */
export async function subtreeHeight(tx: DbClient, id: string, maxLevels: number): Promise<number> {
  const rows = await subtreeRows(tx, id, maxLevels);
  return rows.reduce((height, row) => Math.max(height, row.depth), 0);
}

export async function countOpenChildren(tx: DbClient, id: string): Promise<number> {
  return tx.customer.count({ where: { parentId: id, status: { not: 'Closed' } } });
}

/** Customers not yet Closed whose invoices go to `id`. */
export async function countOpenBillToDependents(tx: DbClient, id: string): Promise<number> {
  return tx.customer.count({ where: { billToId: id, status: { not: 'Closed' } } });
}

export async function countOpenSubscriptions(tx: DbClient, customerId: string): Promise<number> {
  return tx.subscription.count({ where: { customerId, status: { in: [...OPEN_SUBSCRIPTION_STATUSES] } } });
}

export async function countOpenInvoices(tx: DbClient, customerId: string): Promise<number> {
  return tx.invoice.count({ where: { customerId, status: { in: [...OPEN_INVOICE_STATUSES] } } });
}

/** Newest first. */
export async function recentSubscriptions(tx: DbClient, customerId: string, take: number): Promise<SubscriptionSummary[]> {
  const rows = await tx.subscription.findMany({ where: { customerId }, orderBy: { id: 'desc' }, take });
  return rows.map((row) => ({
    id: row.id,
    plan_id: row.planId,
    plan_version: row.planVersion,
    status: row.status,
    currency: row.currency,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    charged_through_date: row.chargedThroughDate === null ? null : row.chargedThroughDate.toISOString(),
    contract_id: row.contractId,
  }));
}

/** Invoices addressed to the customer, newest first. */
export async function recentInvoices(tx: DbClient, customerId: string, take: number): Promise<InvoiceSummary[]> {
  const rows = await tx.invoice.findMany({ where: { customerId }, orderBy: { id: 'desc' }, take });
  return rows.map((row) => ({
    id: row.id,
    subscription_id: row.subscriptionId,
    status: row.status,
    invoice_number: row.invoiceNumber,
    currency: row.currency,
    total_nanos: fromDecimal(row.totalNanos).toString(),
    created_at: row.createdAt.toISOString(),
  }));
}

/** The customer's audit trail, newest first. */
export async function recentAuditEntries(tx: DbClient, customerId: string, take: number): Promise<AuditEntrySummary[]> {
  const rows = await tx.auditLogEntry.findMany({ where: { customerId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    actor_type: row.actorType,
    actor_id: row.actorId,
    entity_type: row.entityType,
    entity_id: row.entityId,
    request_id: row.requestId,
    created_at: row.createdAt.toISOString(),
    before: row.before,
    after: row.after,
  }));
}
