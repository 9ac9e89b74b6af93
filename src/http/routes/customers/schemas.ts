/**
 * The requests of the customers routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { AccountTypeSchema, ConsolidationSchema, CustomerStatusSchema } from '../../../schemas/accounts.js';
import { CurrencySchema, ExternalIdSchema, MetadataInputSchema, UuidSchema } from '../../../schemas/common.js';
import { PaginationQuerySchema, NameSchema } from '../../schemas.js';

const EmailSchema = z.email({ message: 'must be an email address' }).max(254).openapi({ example: 'billing@example.com' });
const PaymentTermsSchema = z.number().int().min(0).max(365).openapi({ description: 'net terms in days, 0-365 (default 30)' });
const TaxIdSchema = z.string().trim().min(1, 'must not be empty').max(64);

const AddressLineSchema = z.string().trim().min(1, 'must not be empty').max(200);
const BillingAddressInputSchema = z
  .strictObject({
    line1: AddressLineSchema,
    line2: AddressLineSchema.nullable().optional(),
    city: AddressLineSchema,
    state: AddressLineSchema.nullable().optional(),
    postal_code: z.string().trim().min(1, 'must not be empty').max(32).nullable().optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as "US"'),
  })
  .transform((a) => ({ line1: a.line1, line2: a.line2 ?? null, city: a.city, state: a.state ?? null, postal_code: a.postal_code ?? null, country: a.country }))
  .openapi({ description: 'the bill-to postal address printed on invoice documents' });

export const CreateCustomerSchema = z
  .strictObject({
    display_name: NameSchema,
    email: EmailSchema,
    currency: CurrencySchema.optional().openapi({ description: 'ISO 4217; stored and returned as billing_currency (immutable). Required unless billing_currency is given' }),
    billing_currency: CurrencySchema.optional().openapi({
      description: 'the same as currency, under the name the customer is returned with: give either (both given, they must be equal)',
    }),
    account_type: AccountTypeSchema.openapi({ description: 'immutable after creation' }),
    parent_id: UuidSchema.nullable().optional().openapi({ description: 'required for a Subsidiary, null otherwise' }),
    legal_name: NameSchema.nullable().optional(),
    bill_to_id: UuidSchema.nullable().optional(),
    consolidation: ConsolidationSchema.optional().openapi({ description: 'default Standalone' }),
    payment_terms_days: PaymentTermsSchema.optional(),
    tax_id: TaxIdSchema.nullable().optional(),
    billing_address: BillingAddressInputSchema.nullable().optional(),
    test_clock_id: UuidSchema.nullable().optional().openapi({ description: 'sandbox test clock the customer follows' }),
    external_id: ExternalIdSchema.nullable().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.currency === undefined && body.billing_currency === undefined) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'is required (or billing_currency)' });
    } else if (body.currency !== undefined && body.billing_currency !== undefined && body.currency !== body.billing_currency) {
      ctx.addIssue({ code: 'custom', path: ['billing_currency'], message: `must equal currency (${body.currency}) when both are given` });
    }
  })
  // The one field the service stores as billing_currency.
  .transform(({ billing_currency, currency, ...body }) => ({ ...body, currency: (currency ?? billing_currency)! }))
  .openapi('CreateCustomerRequest');

export const UpdateCustomerSchema = z
  .strictObject({
    display_name: NameSchema.optional(),
    legal_name: NameSchema.nullable().optional(),
    email: EmailSchema.optional(),
    bill_to_id: UuidSchema.nullable().optional(),
    consolidation: ConsolidationSchema.optional(),
    payment_terms_days: PaymentTermsSchema.optional(),
    tax_id: TaxIdSchema.nullable().optional(),
    billing_address: BillingAddressInputSchema.nullable().optional(),
    parent_id: UuidSchema.nullable().optional(),
    external_id: ExternalIdSchema.nullable().optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, 'name at least one field to change')
  .openapi('UpdateCustomerRequest');

export const ChangeStatusSchema = z.strictObject({ status: CustomerStatusSchema }).openapi('ChangeCustomerStatusRequest');

export const ListCustomersQuerySchema = PaginationQuerySchema.extend({
  parent_id: UuidSchema.optional().openapi({ description: 'only the direct children of this customer' }),
  status: CustomerStatusSchema.optional(),
  currency: CurrencySchema.optional().openapi({ description: 'only customers billed in this currency' }),
  external_id: ExternalIdSchema.optional().openapi({ description: 'the customer with this external id' }),
});
