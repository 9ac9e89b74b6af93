/**
 * Payments as the API returns them (SPEC §1 Payments, Dunning): payment methods, payments with their
 * refunds, dunning schedules, and the payment processor's notifications with their receipts.
 */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, DisplayAmountSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const PaymentMethodSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    processor_payment_method_id: z.string().openapi({ example: 'pm_card_visa' }),
    type: z.string().openapi({ example: 'card' }),
    brand: z.string().nullable().openapi({ example: 'visa' }),
    last4: z.string().nullable().openapi({ example: '4242' }),
    exp_month: z.number().int().nullable(),
    exp_year: z.number().int().nullable(),
    is_default: z.boolean().openapi({ description: 'the method invoices are charged to automatically' }),
    status: z.enum(['attached', 'detached']),
    detached_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  })
  .openapi('PaymentMethod');


export const PaymentStatusSchema = z.enum(['Pending', 'RequiresCapture', 'Succeeded', 'Failed', 'Canceled']).openapi('PaymentStatus');

export const RefundSchema = z
  .object({
    id: UuidSchema,
    payment_id: UuidSchema,
    invoice_id: UuidSchema,
    amount_nanos: MoneySchema,
    amount: DisplayAmountSchema('amount_nanos'),
    currency: z.string(),
    status: z.enum(['Pending', 'Succeeded', 'Failed']),
    reason: z.string(),
    source: z.enum(['api', 'processor']).openapi({ description: 'api: asked through this API; processor: made at the processor and reported by a notification' }),
    processor_refund_id: z.string().nullable(),
    credit_note_id: UuidSchema.nullable().openapi({ description: 'the credit note recording the money given back on the invoice' }),
    failure_message: z.string().nullable(),
    created_at: TimestampSchema,
  })
  .openapi('Refund');

export const PaymentSchema = z
  .object({
    id: UuidSchema,
    invoice_id: UuidSchema,
    customer_id: UuidSchema.openapi({ description: 'the payer charged (the invoice is addressed to it)' }),
    payment_method_id: UuidSchema.nullable(),
    attempt: z.number().int().openapi({ description: "the invoice's attempt number (1, 2, …); with the invoice id, the processor idempotency key" }),
    source: z.enum(['auto_charge', 'dunning', 'on_demand', 'hosted_page', 'processor']).openapi({
      description: 'what made the attempt: the auto-charge at finalization, a dunning retry, an on-demand charge (payment-intents), the payer on the hosted invoice page (Pay with the payment method on file), or the processor (a payment made at the processor, e.g. its checkout page)',
    }),
    dunning_attempt: z.number().int().nullable().openapi({ description: 'the dunning retry (1-4) this attempt was' }),
    status: PaymentStatusSchema,
    capture_method: z.enum(['automatic', 'manual']),
    amount_nanos: MoneySchema.openapi({ description: 'the amount due when charged, exact' }),
    amount: DisplayAmountSchema('amount_nanos', ': what the processor was asked for'),
    currency: z.string(),
    refunded_nanos: MoneySchema,
    processor_payment_intent_id: z.string().nullable(),
    processor_status: z.string().nullable(),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    attempted_at: TimestampSchema,
    settled_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
    refunds: z.array(RefundSchema),
  })
  .openapi('Payment');

export const DunningScheduleSchema = z
  .object({
    id: UuidSchema,
    subscription_id: UuidSchema.nullable().openapi({ description: 'the subscription in arrears (null for a consolidated invoice of several)' }),
    invoice_id: UuidSchema,
    customer_id: UuidSchema,
    attempt_count: z.number().int().min(1).openapi({
      description:
        'the dunning attempt the schedule is at (SPEC: 1 to 4 with the default schedule): while Active, the retry due next (1 until the first is made), ' +
        'staying at the last once it is made; a closed schedule keeps the figure it closed at',
    }),
    retries_made: z.number().int().min(0).openapi({ description: 'retries made so far: 0 until the first, at most the number of schedule_days' }),
    next_attempt_at: TimestampSchema.nullable().openapi({ description: 'when the next retry is due; null once none is left or the schedule is closed' }),
    status: z.enum(['Active', 'Resolved', 'Exhausted']),
    schedule_days: z.array(z.number().int()).openapi({ description: 'days after the failure of each retry', example: [3, 7, 14, 21] }),
    failed_at: TimestampSchema,
    closed_reason: z.enum(['payment_succeeded', 'paid_manually', 'voided', 'exhausted']).nullable(),
    closed_at: TimestampSchema.nullable(),
    billing_error: BillingErrorSchema.openapi({
      description: 'a retry that failed in a way no automatic retry fixes, held for an operator: fix the cause, then POST /admin/v1/invoices/{id}/dunning/retry; null when none',
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi('DunningSchedule');

/** A notification as the payment processor sends it (its own event format, read by the processor adapter). */
export const ProcessorNotificationSchema = z
  .record(z.string(), z.unknown())
  .openapi('ProcessorNotification', { description: 'a processor event', additionalProperties: true });

export const NotificationReceiptSchema = z
  .object({
    received: z.literal(true),
    event_id: z.string(),
    type: z.string(),
    action: z.enum(['queued', 'ignored', 'duplicate']).openapi({
      description: 'queued: applied by its workflow; ignored: a type or an object the engine does not handle; duplicate: this event id was received before (no second effect)',
    }),
  })
  .openapi('ProcessorNotificationReceipt');

/** The processor's event id (e.g. evt_…), not a UUID. */
export const ProcessorEventIdSchema = z.string().min(1).max(255);

export const ProcessorEventStatusSchema = z.enum(['pending', 'processed', 'billing_error']);

export const ProcessorEventSchema = z
  .object({
    id: ProcessorEventIdSchema.openapi({ description: "the processor's event id", example: 'evt_1QxYz2AbCdEf' }),
    type: z.string().openapi({ example: 'payment_intent.succeeded' }),
    object_id: z.string().nullable().openapi({ description: "the id of the processor object it is about (a PaymentIntent's, a charge's…)" }),
    status: ProcessorEventStatusSchema.openapi({
      description:
        'billing_error: applying it failed in a way no automatic retry fixes and waits for an operator (POST /admin/v1/processor-events/{id}/retry); ' +
        'processed: applied (or acknowledged and ignored), see outcome; pending: waiting for its workflow to apply it',
    }),
    received_at: TimestampSchema,
    processed_at: TimestampSchema.nullable(),
    outcome: z.string().nullable().openapi({ description: 'what applying it did, e.g. payment_succeeded, refund_recorded, ignored_type; null until applied', example: 'payment_succeeded' }),
    billing_error: BillingErrorSchema.openapi({
      description: 'the failure its workflow holds for an operator: fix the cause, then POST /admin/v1/processor-events/{id}/retry; null when none',
    }),
  })
  .openapi('ProcessorEvent');
