/** Ledger and credit wallet resources as the API returns them. */
import { z } from '@hono/zod-openapi';
import { ACCOUNT_KINDS, JOURNAL_KINDS } from '../core/index.js';
import { BillingErrorSchema, CurrencySchema, DisplayAmountSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const AccountKindSchema = z.enum(ACCOUNT_KINDS).openapi({ description: 'ledger account kind' });

export const AccountBalanceSchema = z
  .object({
    account_id: UuidSchema,
    customer_id: UuidSchema,
    currency: CurrencySchema,
    kind: AccountKindSchema,
    normal_side: z.enum(['debit', 'credit']).openapi({ description: 'the side the account grows on' }),
    debits_nanos: MoneySchema,
    credits_nanos: MoneySchema,
    balance_nanos: MoneySchema.openapi({ description: 'on the normal side: debits − credits for debit-normal accounts, credits − debits otherwise' }),
  })
  .openapi('LedgerAccountBalance');
export type AccountBalanceView = z.infer<typeof AccountBalanceSchema>;

export const CustomerLedgerSchema = z
  .object({
    customer_id: UuidSchema,
    as_of: TimestampSchema.nullable().openapi({ description: 'entries effective at or before this instant; null = everything' }),
    accounts: z.array(AccountBalanceSchema),
  })
  .openapi('CustomerLedger');
export type CustomerLedgerView = z.infer<typeof CustomerLedgerSchema>;

export const LedgerEntrySchema = z
  .object({
    id: UuidSchema,
    journal_id: UuidSchema,
    journal_kind: z.enum(JOURNAL_KINDS),
    business_key: z.string().openapi({ description: 'one journal per business event, e.g. invoice_finalized:<invoice id>' }),
    source_type: z.string().openapi({ example: 'invoice' }),
    source_id: UuidSchema,
    invoice_id: UuidSchema.nullable(),
    reverses_journal_id: UuidSchema.nullable(),
    description: z.string(),
    account: AccountKindSchema,
    currency: CurrencySchema,
    side: z.enum(['debit', 'credit']),
    amount_nanos: MoneySchema,
    effective_at: TimestampSchema,
  })
  .openapi('LedgerEntry');
export type LedgerEntryView = z.infer<typeof LedgerEntrySchema>;

export const TrialBalanceSchema = z
  .object({
    customer_id: UuidSchema.nullable(),
    as_of: TimestampSchema.nullable(),
    currencies: z.array(
      z.object({
        currency: CurrencySchema,
        accounts: z.array(z.object({ kind: AccountKindSchema, debits_nanos: MoneySchema, credits_nanos: MoneySchema })),
        total_debits_nanos: MoneySchema,
        total_credits_nanos: MoneySchema,
        difference_nanos: MoneySchema.openapi({ description: 'debits − credits: always "0"' }),
      }),
    ),
  })
  .openapi('TrialBalance');
export type TrialBalanceView = z.infer<typeof TrialBalanceSchema>;

/** One grant of credit to a wallet: a paid top-up or a promotional grant. */
export const WalletGrantSchema = z
  .object({
    id: UuidSchema,
    kind: z.enum(['paid', 'promotional']),
    amount_nanos: MoneySchema.openapi({ description: 'the credit granted' }),
    remaining_nanos: MoneySchema.openapi({ description: 'what is left of it (drawdowns and expiry take from it)' }),
    expires_at: TimestampSchema.nullable().openapi({ description: 'when what is left of it is written off; null: never' }),
    granted_at: TimestampSchema.openapi({ description: "when it was granted (the customer's time)" }),
  })
  .openapi('WalletGrant');
export type WalletGrantView = z.infer<typeof WalletGrantSchema>;

export const WalletSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    currency: CurrencySchema,
    balance_nanos: MoneySchema,
    paid_balance_nanos: MoneySchema,
    promotional_balance_nanos: MoneySchema,
    balance: DisplayAmountSchema('balance_nanos'),
    paid_balance: DisplayAmountSchema('paid_balance_nanos'),
    promotional_balance: DisplayAmountSchema('promotional_balance_nanos'),
    auto_recharge: z
      .object({ threshold_nanos: MoneySchema, target_nanos: MoneySchema })
      .nullable()
      .openapi({ description: 'below threshold_nanos after a drawdown, one top-up brings the balance to target_nanos' }),
    grants: z.array(WalletGrantSchema),
    created_at: TimestampSchema,
  })
  .openapi('Wallet');
export type WalletView = z.infer<typeof WalletSchema>;

/** What a promotional grant answers: the wallet as it stands after it, plus the grant it created. */
export const WalletWithGrantSchema = WalletSchema.extend({
  grant: WalletGrantSchema.openapi({ description: 'the grant this request created (also listed in grants)' }),
}).openapi('WalletWithGrant');
export type WalletWithGrantView = z.infer<typeof WalletWithGrantSchema>;

export const WalletTransactionSchema = z
  .object({
    id: UuidSchema,
    wallet_id: UuidSchema,
    kind: z.enum(['top_up', 'promotional_grant', 'drawdown', 'expiry', 'void_return']),
    amount_nanos: MoneySchema.openapi({ description: 'signed: credit added (+) or taken (−)' }),
    balance_after_nanos: MoneySchema,
    invoice_id: UuidSchema.nullable(),
    grant_id: UuidSchema.nullable(),
    top_up_id: UuidSchema.nullable(),
    journal_id: UuidSchema.nullable(),
    description: z.string(),
    occurred_at: TimestampSchema,
  })
  .openapi('WalletTransaction');
export type WalletTransactionView = z.infer<typeof WalletTransactionSchema>;

export const WalletTopUpSchema = z
  .object({
    id: UuidSchema,
    wallet_id: UuidSchema,
    customer_id: UuidSchema,
    currency: CurrencySchema,
    source: z.enum(['api', 'auto_recharge']),
    status: z.enum(['Pending', 'Succeeded', 'Failed']),
    amount_nanos: MoneySchema,
    processor_payment_intent_id: z.string().nullable(),
    failure_message: z.string().nullable(),
    billing_error: BillingErrorSchema.openapi({
      description:
        "a step of the auto-recharge's workflow (recording the top-up Failed) that failed in a way no automatic retry fixes, held for an operator: " +
        'the top-up stays Pending meanwhile; fix the cause, then POST /admin/v1/customers/{id}/wallets/{currency}/top-ups/{top_up_id}/retry; null when none',
    }),
    requested_at: TimestampSchema,
  })
  .openapi('WalletTopUp');
export type WalletTopUpView = z.infer<typeof WalletTopUpSchema>;
