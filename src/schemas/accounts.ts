/** Customers as the API returns them: the account, its 360 view and its entity hierarchy (SPEC §2, §4). */
import { auditSnapshot } from './audit.js';
import { z } from '@hono/zod-openapi';
import { CurrencySchema, ExternalIdSchema, MetadataSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';
import { PaymentMethodSchema } from './payments.js';

export const AccountTypeSchema = z.enum(['Organization', 'Individual', 'Subsidiary']).openapi('AccountType');
export const CustomerStatusSchema = z.enum(['Active', 'Suspended', 'Closed']).openapi('CustomerStatus');
export const ConsolidationSchema = z.enum(['Standalone', 'ConsolidateToParent']).openapi('Consolidation');

export const BillingAddressSchema = z
  .object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2', example: 'US' }),
  })
  .openapi('BillingAddress', { description: 'the bill-to postal address printed on invoice documents' });

export const CustomerSchema = z
  .object({
    id: UuidSchema,
    display_name: z.string(),
    legal_name: z.string().nullable(),
    email: z.string(),
    account_type: AccountTypeSchema,
    status: CustomerStatusSchema,
    parent_id: UuidSchema.nullable(),
    bill_to_id: UuidSchema.nullable(),
    consolidation: ConsolidationSchema,
    billing_currency: CurrencySchema,
    payment_terms_days: z.number().int(),
    tax_id: z.string().nullable(),
    billing_address: BillingAddressSchema.nullable(),
    test_clock_id: UuidSchema.nullable(),
    external_id: ExternalIdSchema.nullable(),
    metadata: MetadataSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi('Customer');

export type CustomerView = z.infer<typeof CustomerSchema>;

/** The 360 view: the customer object (the very fields POST and PATCH answer with) plus its related sections. */
export const CustomerOverviewSchema = CustomerSchema.extend({
  subscriptions: z.array(
    z.object({
      id: UuidSchema,
      plan_id: UuidSchema,
      plan_version: z.number().int().openapi({ description: 'the plan version the subscription is billed on' }),
      status: z.enum(['Trialing', 'Active', 'PastDue', 'Paused', 'Cancelled', 'Expired']),
      currency: CurrencySchema,
      period_start: TimestampSchema,
      period_end: TimestampSchema,
      charged_through_date: TimestampSchema.nullable(),
      contract_id: UuidSchema.nullable(),
    }),
  ),
  invoices: z.array(
    z.object({
      id: UuidSchema,
      subscription_id: UuidSchema.nullable(),
      status: z.enum(['Draft', 'Open', 'Paid', 'Void']),
      invoice_number: z.string().nullable().openapi({ description: 'assigned at finalization' }),
      currency: CurrencySchema,
      total_nanos: MoneySchema,
      created_at: TimestampSchema,
    }),
  ),
  ledger_balances: z.object({
    accounts_receivable_nanos: MoneySchema,
    prepaid_credit_nanos: MoneySchema,
    deferred_revenue_nanos: MoneySchema,
    customer_credit_nanos: MoneySchema.openapi({ description: "the customer_credit liability: the customer's credit balance in the billing currency, per the ledger" }),
  }),
  credit_balances: z
    .array(z.object({ currency: CurrencySchema, balance_nanos: MoneySchema }))
    .openapi({ description: "the customer's credit balance per currency (from credit notes), applied automatically to its next invoices in that currency at finalization" }),
  recent_audit: z.array(
    z.object({
      id: UuidSchema,
      action: z.string(),
      actor_type: z.string(),
      actor_id: z.string(),
      entity_type: z.string(),
      entity_id: z.string(),
      request_id: z.string().nullable(),
      created_at: TimestampSchema,
      before: auditSnapshot('the resource before the change (null on creation)'),
      after: auditSnapshot('the resource after the change (null on deletion)'),
    }),
  ),
  payment_methods: z.array(PaymentMethodSchema).openapi({ description: 'attached payment methods, the default (charged automatically) first' }),
}).openapi('CustomerOverview');

export type CustomerOverview = z.infer<typeof CustomerOverviewSchema>;

/**
 * One node of the hierarchy tree. Written out because the type is recursive, which z.infer cannot
 * name; the schema below is checked against it, so the two cannot drift apart.
 */
export interface HierarchyNode {
  id: string;
  display_name: string;
  account_type: z.infer<typeof AccountTypeSchema>;
  status: z.infer<typeof CustomerStatusSchema>;
  consolidation: z.infer<typeof ConsolidationSchema>;
  billing_currency: string;
  children: HierarchyNode[];
}

export const HierarchyNodeSchema: z.ZodType<HierarchyNode> = z
  .object({
    id: UuidSchema,
    display_name: z.string(),
    account_type: AccountTypeSchema,
    status: CustomerStatusSchema,
    consolidation: ConsolidationSchema,
    billing_currency: CurrencySchema,
    children: z.array(z.lazy(() => HierarchyNodeSchema)),
  })
  .openapi('CustomerHierarchyNode');
