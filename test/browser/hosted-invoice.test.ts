/**
 * The hosted invoice page in a real browser (the system's Chromium, driven by playwright-core): the
 * API served on a real port with its public address as the links' base, a payer opening
 * hosted_invoice_url, seeing the amounts, clicking Pay and seeing the invoice Paid; a tampered or
 * expired link answered with an HTML page. The processor is stripe-mock (through the official SDK);
 * the processor's own checkout page, which this closed network cannot reach, is played by the test
 * (page.route): it sends the signed notification the processor would send, then the payer back.
 *
 * Skipped, saying so, when /usr/bin/chromium is absent.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostedLinkToken } from '../../src/services/documents/hosted-links.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { CHROMIUM_SKIPPED, hasChromium, servedBrowser, type ServedBrowser } from '../support/browser.js';
import { expectJson, terminatedAfterAll, useHarness } from '../support/harness.js';
import { eventId, eventually, intentEvent, notify, openInvoiceThroughApi, outboxOf, paymentsOf } from '../support/payments.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

interface Invoice {
  id: string;
  status: string;
  invoice_number: string | null;
  total: string;
  amount_due: string;
  hosted_invoice_url: string | null;
}

let served: ServedBrowser | undefined;
let baseUrl = '';
let profile = '';
let browser: BrowserContext | undefined;

describe.skipIf(!hasChromium)(`the hosted invoice page in Chromium${hasChromium ? '' : ` (${CHROMIUM_SKIPPED})`}`, () => {
  beforeAll(async () => {
    // The same API as the harness's, listening on a port, its links on that address.
    served = await servedBrowser(h, { name: 'hosted' });
    ({ baseUrl, browser, profile } = served);
  });

  afterAll(async () => {
    await served?.close();
  });

  /** An Open 49.00 invoice finalized through the API, with a card on file (its auto-charge refused by stripe-mock) or without. */
  async function openInvoice(withCard: boolean): Promise<Invoice & { customerId: string }> {
    const { customerId, invoiceId } = await openInvoiceThroughApi(h, cleanup, withCard);
    return { ...(await getInvoice(invoiceId)), customerId };
  }

  /** The invoice as the API shows it, with its link on the served address. */
  async function getInvoice(id: string): Promise<Invoice> {
    const invoice = await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${id}`));
    return { ...invoice, hosted_invoice_url: invoice.hosted_invoice_url && `${baseUrl}${new URL(invoice.hosted_invoice_url).pathname}` };
  }

  async function open(url: string): Promise<{ page: Page; status: number; headers: Record<string, string> }> {
    const page = await browser!.newPage();
    const response = await page.goto(url);
    return { page, status: response!.status(), headers: response!.headers() };
  }

  it('shows the amounts, pays on the processor checkout page, and shows the invoice Paid', async () => {
    const invoice = await openInvoice(false);
    const url = invoice.hosted_invoice_url!;
    const { page, status, headers } = await open(url);
    expect(status).toBe(200);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(await page.locator('script').count()).toBe(0);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Invoice');
    const body = await page.locator('main').innerText();
    for (const expected of [invoice.invoice_number!, '$49.00', 'Base fee']) expect(body).toContain(expected);
    // Without a card on file: one button, to the processor's checkout page.
    const pay = page.getByRole('button', { name: 'Pay $49.00' });
    await expect.poll(() => pay.count()).toBe(1);

    // Pay: the form posts to the service, which opens a checkout session at the processor (stripe-mock) and
    // sends the browser to its page.
    const [checkout] = await Promise.all([page.waitForRequest((request) => request.url().startsWith('https://checkout.stripe.com/')), pay.click()]);
    expect(checkout.redirectedFrom()?.url()).toBe(`${url}/pay`);
    expect(checkout.redirectedFrom()?.method()).toBe('POST');
    // The processor's page cannot be reached from this closed network: the test plays the processor. The
    // payer pays there; the processor signs its notification about the PaymentIntent the session made
    // (carrying the invoice id), then sends the payer back to the success URL it was given.
    const intent = { id: '', invoice_id: invoice.id, processor_payment_intent_id: `pi_checkout_${eventId()}` };
    const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', intent, { amount: 4900, currency: 'usd', capture_method: 'automatic' })));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    await page.goto(`${url}?checkout=complete`);

    // Back on the page: Paid, and no Pay button any more.
    const paidText = await page.locator('main').innerText();
    expect(paidText).toMatch(/Paid on \d{4}-\d{2}-\d{2}\. Thank you\./);
    expect(await page.locator('.mark.PAID').count()).toBe(1);
    expect(await page.getByRole('button').count()).toBe(0);

    // Through the engine's own payment path: Paid, the processor's payment recorded, the events and audit trail.
    expect((await getInvoice(invoice.id)).status).toBe('Paid');
    expect((await paymentsOf(h, invoice.id)).map((p) => [p.source, p.status, p.amount])).toEqual([['processor', 'Succeeded', '49.00']]);
    expect((await outboxOf(h, invoice.id, ['payment.succeeded', 'invoice.paid'])).map((e) => e.type)).toEqual(['payment.succeeded', 'invoice.paid']);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: invoice.id, action: 'invoice.checkout_started', actorType: 'customer', actorId: invoice.customerId } })).toBe(1);
    await page.close();
  });

  it('charges the card on file from the Pay button through the invoice workflow; the processor confirms it: Paid', async () => {
    const invoice = await openInvoice(true);
    const url = invoice.hosted_invoice_url!;
    const { page } = await open(url);
    // The auto-charge was refused (stripe-mock answers every confirmation so): the page says so.
    expect(await page.locator('.notice.error').innerText()).toContain('The last payment attempt failed');
    const pay = page.getByRole('button', { name: 'Pay $49.00 with Visa •••• 4242' });
    await expect.poll(() => pay.count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Pay with another card' }).count()).toBe(1);

    const [answer] = await Promise.all([page.waitForResponse((response) => response.url() === `${url}/pay`), pay.click()]);
    expect(answer.status()).toBe(303);
    await page.waitForURL(url);
    await page.waitForLoadState();
    // A second attempt of source hosted_page, recorded before the processor was called (stripe-mock refuses it too).
    const payments = await paymentsOf(h, invoice.id);
    expect(payments.map((p) => [p.attempt, p.source, p.status])).toEqual([
      [1, 'auto_charge', 'Failed'],
      [2, 'hosted_page', 'Failed'],
    ]);
    expect(await page.locator('.notice.error').innerText()).toContain('The last payment attempt failed');

    // The processor's word on that PaymentIntent (a real card would have said it at once): Paid, on reload.
    const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', payments[1]!)));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    await eventually(async () => expect((await getInvoice(invoice.id)).status).toBe('Paid'));
    await page.reload();
    expect(await page.locator('.notice.ok').innerText()).toMatch(/^Paid on /);
    expect(await page.getByRole('button').count()).toBe(0);
    await page.close();
  });

  it('answers a tampered or expired link with an HTML page saying what to do', async () => {
    const invoice = await openInvoice(false);
    const url = new URL(invoice.hosted_invoice_url!);
    const [id = '', expires = '', signature = ''] = url.pathname.split('/').pop()!.split('.');

    const tampered = await open(`${baseUrl}/hosted/invoices/${id}.${Number(expires) + 1}.${signature}`);
    expect(tampered.status).toBe(404);
    expect(tampered.headers['content-type']).toMatch(/^text\/html/);
    expect(tampered.headers['x-error-code']).toBe('hosted_link_not_found');
    expect(await tampered.page.locator('h1').innerText()).toBe('This invoice link is not valid');
    expect(await tampered.page.locator('main').innerText()).toContain('copying the whole link');
    await tampered.page.close();

    const expiredToken = hostedLinkToken(h.secrets.hosted_link_secret, id, new Date(Date.now() - 86_400_000));
    const expired = await open(`${baseUrl}/hosted/invoices/${expiredToken}`);
    expect(expired.status).toBe(410);
    expect(expired.headers['content-type']).toMatch(/^text\/html/);
    expect(await expired.page.locator('h1').innerText()).toBe('This invoice link has expired');
    expect(await expired.page.locator('main').innerText()).toContain('for a new link to the invoice');
    await expired.page.close();
  });
});
