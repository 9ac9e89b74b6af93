/**
 * Simulates the payment processor's answer about an invoice's latest payment, locally: signs a
 * notification with the local PROCESSOR_WEBHOOK_SECRET exactly as the processor would (the SDK's
 * test-header helper) and posts it to the API's /v1/webhooks/processor.
 *   npm run payments:simulate -- <invoice-id> [failed|succeeded|canceled]   (default failed)
 * BILLING_URL (default http://127.0.0.1:3000) picks the API; the secret and the API key come from
 * PROCESSOR_WEBHOOK_SECRET and BILLING_API_KEY, else from the local dev secrets `npm start` made.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { DATA_DIR } from '../src/dev/paths.js';
import type { DevSecrets } from '../src/dev/secrets.js';

const TYPES = { failed: 'payment_intent.payment_failed', succeeded: 'payment_intent.succeeded', canceled: 'payment_intent.canceled' } as const;
const [invoiceId, outcome = 'failed'] = process.argv.slice(2);
if (!invoiceId || !(outcome in TYPES)) {
  process.stderr.write('usage: npm run payments:simulate -- <invoice-id> [failed|succeeded|canceled]\n');
  process.exit(2);
}
const secretsFile = path.join(DATA_DIR, 'dev-secrets.json');
const local = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as DevSecrets) : undefined;
const webhookSecret = process.env.PROCESSOR_WEBHOOK_SECRET ?? local?.processor_webhook_secret;
const apiKey = process.env.BILLING_API_KEY ?? local?.api_key;
if (!webhookSecret || !apiKey) {
  process.stderr.write('set PROCESSOR_WEBHOOK_SECRET and BILLING_API_KEY, or run `npm start` once to create the local dev secrets\n');
  process.exit(2);
}
const base = process.env.BILLING_URL ?? 'http://127.0.0.1:3000';

const listed = await fetch(`${base}/admin/v1/invoices/${invoiceId}/payments?limit=200`, { headers: { 'x-api-key': apiKey } });
if (!listed.ok) throw new Error(`listing the invoice's payments: ${listed.status} ${await listed.text()}`);
const payments = (await listed.json()) as { id: string; processor_payment_intent_id: string | null }[];
// Newest first: the latest payment at the processor.
const payment = payments.find((p) => p.processor_payment_intent_id);
if (!payment) throw new Error(`invoice ${invoiceId} has no payment at the processor yet (attach a payment method and finalize it)`);

const type = TYPES[outcome as keyof typeof TYPES];
const event = {
  id: `evt_local_${randomUUID().replace(/-/g, '')}`,
  object: 'event',
  type,
  created: Math.floor(Date.now() / 1000),
  data: {
    object: {
      id: payment.processor_payment_intent_id,
      object: 'payment_intent',
      metadata: { invoice_id: invoiceId, payment_id: payment.id },
      status: outcome === 'succeeded' ? 'succeeded' : outcome === 'canceled' ? 'canceled' : 'requires_payment_method',
      ...(outcome === 'failed' ? { last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } } : {}),
    },
  },
};
const payload = JSON.stringify(event);
const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
const res = await fetch(`${base}/v1/webhooks/processor`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
process.stdout.write(`${type} for ${payment.processor_payment_intent_id}: ${res.status} ${await res.text()}\n`);
