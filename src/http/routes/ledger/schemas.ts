/**
 * The requests of the ledger routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { ACCOUNT_KINDS } from '../../../core/index.js';
import { CurrencySchema, DateTimeSchema, MoneySchema, NonNegativeMoneySchema, UuidSchema } from '../../../schemas/common.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const AsOfQuerySchema = z.object({
  as_of: DateTimeSchema.optional().openapi({ description: 'balances of the entries effective at or before this instant (default: all)' }),
});

export const EntriesQuerySchema = PaginationQuerySchema.extend({
  account: z.enum(ACCOUNT_KINDS).optional().openapi({ description: 'only entries of this account kind' }),
  currency: CurrencySchema.optional(),
  from: DateTimeSchema.optional().openapi({ description: 'entries effective at or after this instant' }),
  to: DateTimeSchema.optional().openapi({ description: 'entries effective before this instant' }),
  source_id: UuidSchema.optional().openapi({ description: 'the source document: an invoice (every journal about it), a credit note, refund, top-up or grant' }),
});

export const TrialBalanceQuerySchema = z.object({
  customer_id: UuidSchema.optional().openapi({ description: "one customer's accounts (default: every customer)" }),
  as_of: DateTimeSchema.optional(),
});

export const WalletParamsSchema = z.object({ id: UuidSchema, currency: CurrencySchema });

export const TopUpSchema = z
  .strictObject({
    amount_nanos: MoneySchema.openapi({ description: "raw units, a positive whole number of the currency's minor units" }),
    payment_method_id: UuidSchema.optional().openapi({ description: "one of the customer's attached payment methods (default: its default method)" }),
  })
  .openapi('WalletTopUpRequest');

export const GrantSchema = z
  .strictObject({
    amount_nanos: MoneySchema.openapi({ description: 'raw units, > 0' }),
    expires_at: DateTimeSchema.nullable().optional().openapi({ description: 'when what is left of it expires (default: never)' }),
    description: z.string().trim().min(1).max(200).optional(),
  })
  .openapi('WalletGrantRequest');

export const AutoRechargeSchema = z
  .strictObject({
    threshold_nanos: NonNegativeMoneySchema.openapi({ description: 'a drawdown that takes the balance below this recharges it' }),
    target_nanos: MoneySchema.openapi({ description: 'the balance a recharge brings it back to (> threshold_nanos)' }),
  })
  .openapi('WalletAutoRechargeRequest');
