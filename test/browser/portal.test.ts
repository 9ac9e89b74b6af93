/**
 * The customer portal in a real browser (issue 32, point 4): the system's Chromium driven by
 * playwright-core against the API listening on a real port. A customer opens its portal link and
 * sees its usage chart with the right numbers (and the same numbers in a table reached by keyboard),
 * downloads an invoice's PDF, adds a card through a SetupIntent-backed checkout session at the
 * processor (stripe-mock through the official SDK; the processor's own page, unreachable from this
 * closed network, is played by the test, which also sends the processor's signed setup_intent.succeeded),
 * and cancels a subscription at the end of its period. Desktop and phone widths.
 *
 * Screenshots go to a scratch folder; with PORTAL_SCREENSHOTS=docs/portal they refresh the ones
 * docs/portal.md shows. Skipped, saying so, when /usr/bin/chromium is absent.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { CHROMIUM_SKIPPED, hasChromium, servedBrowser, type ServedBrowser } from '../support/browser.js';
import { expectJson, terminatedAfterAll, useHarness } from '../support/harness.js';
import { eventId, notify } from '../support/payments.js';
import { mintPortalSession, portalPath, portalScenario, PORTAL_DAYS, type PortalScenario } from '../support/portal.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

let served: ServedBrowser | undefined;
let baseUrl = '';
let profile = '';
let shots = '';
let browser: BrowserContext | undefined;
let s: PortalScenario;

describe.skipIf(!hasChromium)(`the customer portal in Chromium${hasChromium ? '' : ` (${CHROMIUM_SKIPPED})`}`, () => {
  beforeAll(async () => {
    served = await servedBrowser(h, { name: 'portal', viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    ({ baseUrl, browser, profile } = served);
    shots = process.env.PORTAL_SCREENSHOTS ?? join(profile, 'screenshots');
    await mkdir(shots, { recursive: true });
    s = await portalScenario(h, cleanup);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
  });

  /** A fresh portal link for the scenario's customer, on the served address. */
  async function portalUrl(): Promise<string> {
    const session = await mintPortalSession(h, s.customerId, { return_url: 'https://example.com/account' });
    return `${baseUrl}${portalPath(session.url)}`;
  }

  async function open(url: string): Promise<{ page: Page; status: number; headers: Record<string, string> }> {
    const page = await browser!.newPage();
    const response = await page.goto(url);
    return { page, status: response!.status(), headers: response!.headers() };
  }

  it('shows the usage chart with the right numbers, readable by keyboard and on a phone', async () => {
    const url = await portalUrl();
    const { page, status, headers } = await open(url);
    expect(status).toBe(200);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('h1').innerText()).toBe('Billing');

    // The chart: an image named by its title, one bar per day with the running total, the included 1,000 as a line.
    const chart = page.getByRole('img', { name: 'api_calls (default): usage so far, by day' });
    await expect.poll(() => chart.count()).toBe(1);
    const bars = chart.locator('rect.bar');
    expect(await bars.evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-day'), r.getAttribute('data-value')]))).toEqual(PORTAL_DAYS.map((d) => [d.day, d.total]));
    // Taller bar for a larger total; the last two above the included line are drawn in the warning colour.
    const heights = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
    expect(await bars.evaluateAll((rects) => rects.map((r) => r.getAttribute('fill')))).toEqual(['#0969da', '#0969da', '#bc4c00', '#bc4c00']);
    expect(await chart.locator('g.included').getAttribute('data-value')).toBe('1000');
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(500);
    expect(await page.locator('main').innerText()).toContain('1,300 of 1,000 units included used this period');

    // The same numbers as a table, opened from the keyboard.
    await page.locator('#usage summary').first().focus();
    await page.keyboard.press('Enter');
    const rows = page.locator(`article[data-subscription="${s.usageSubscriptionId}"] details table tbody tr`);
    await expect.poll(() => rows.count()).toBe(PORTAL_DAYS.length);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText.split('\t').map((cell) => cell.trim())))).toEqual(
      PORTAL_DAYS.map((d) => [d.day, d.calls.toLocaleString('en-US'), Number(d.total).toLocaleString('en-US')]),
    );
    // Upcoming invoice: 49.00 + 300 calls above the included 1,000 at 0.01.
    expect(await page.locator('#upcoming [data-amount-due]').first().innerText()).toBe('$52.00');
    await page.screenshot({ path: join(shots, 'overview.png'), fullPage: true });

    // A phone: nothing wider than the screen but the scrollable tables.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'phone.png'), fullPage: true });
    await page.close();
  });

  it('downloads an invoice PDF', async () => {
    const { page } = await open(await portalUrl());
    const link = page.getByRole('link', { name: `Download PDF of ${s.invoice.invoice_number}` });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toContain(s.invoice.invoice_number);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // The same bytes as the API's PDF of that invoice.
    const api = Buffer.from(await (await h.request('GET', `/v1/invoices/${s.invoice.id}/pdf`)).arrayBuffer());
    expect(bytes.equals(api)).toBe(true);
    await page.close();
  });

  it("adds a card on the processor's page through a SetupIntent; the processor's word saves it as the default", async () => {
    const url = await portalUrl();
    const { page } = await open(url);
    expect(await page.locator('[data-card]').innerText()).toContain('No payment method on file');
    // The processor's page cannot be reached from this closed network: the test plays it.
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Processor</title><h1>Card details (the processor’s page)</h1>' }),
    );
    const [checkout] = await Promise.all([page.waitForRequest((request) => request.url().startsWith('https://checkout.stripe.com/')), page.getByRole('button', { name: 'Add a card' }).click()]);
    expect(checkout.redirectedFrom()?.url()).toBe(`${url}/payment-method`);
    expect(checkout.redirectedFrom()?.method()).toBe('POST');
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    expect(await page.locator('h1').innerText()).toBe('Card details (the processor’s page)');
    // The portal session remembers the checkout session (setup mode) it opened at stripe-mock.
    const sessionId = url.split('/').pop()!.split('.')[0]!;
    const row = await h.deps.db.portalSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.setupCheckoutSessionId).toMatch(/^cs_/);
    const processorCustomer = await h.deps.db.processorCustomer.findUniqueOrThrow({ where: { customerId: s.customerId } });

    // The customer enters the card there; the processor sends the customer back to the success URL with its session id.
    await page.goto(`${url}/payment-method/complete?session_id=${row.setupCheckoutSessionId}`);
    // stripe-mock answers every SetupIntent unconfirmed: the page says the processor has not confirmed the card yet.
    expect(new URL(page.url()).searchParams.get('notice')).toBe('setup_incomplete');
    expect(await page.locator('.notice').innerText()).toContain('has not confirmed your card yet');

    // The processor's signed word about the SetupIntent: it succeeded with pm_card_visa for our customer.
    const receipt = await expectJson<{ event_id: string }>(
      await notify(h, {
        id: eventId(),
        object: 'event',
        type: 'setup_intent.succeeded',
        api_version: '2025-01-27',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: 'seti_portal_test',
            object: 'setup_intent',
            status: 'succeeded',
            customer: processorCustomer.processorCustomerId,
            payment_method: 'pm_card_visa',
            metadata: { customer_id: s.customerId, portal_session_id: sessionId },
          },
        },
      }),
    );
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_method_attached');
    await page.goto(url);
    expect(await page.locator('[data-card]').innerText()).toMatch(/^Visa •••• 4242/);
    expect(await page.getByRole('button', { name: 'Replace card' }).count()).toBe(1);
    const methods = await h.deps.db.paymentMethod.findMany({ where: { customerId: s.customerId, detachedAt: null } });
    expect(methods.map((m) => [m.processorPaymentMethodId, m.isDefault])).toEqual([['pm_card_visa', true]]);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: sessionId, action: 'portal.payment_method_setup_started', actorType: 'customer' } })).toBe(1);
    await page.locator('#payment-method').screenshot({ path: join(shots, 'payment-method.png') });
    await page.close();
  });

  it('cancels a subscription at the end of its period', async () => {
    const { page } = await open(await portalUrl());
    const growth = page.locator(`article[data-subscription="${s.usageSubscriptionId}"]`);
    const cancel = growth.getByRole('button', { name: 'Cancel at end of period (2026-03-31)' });
    await Promise.all([page.waitForURL(/notice=cancel_scheduled/), cancel.click()]);
    expect(await page.locator('.notice.ok').innerText()).toContain('stays in service until the end of the current period');
    expect(await growth.innerText()).toContain('Cancelled: in service until 2026-03-31, then it ends.');
    expect(await growth.getByRole('button').count()).toBe(0);
    const subscription = await expectJson<{ status: string }>(await h.request('GET', `/admin/v1/subscriptions/${s.usageSubscriptionId}`));
    expect(subscription.status).toBe('Cancelled');
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: s.usageSubscriptionId, action: 'subscription.cancelled', actorType: 'customer', actorId: s.customerId } })).toBe(1);
    // The other subscription is untouched.
    expect((await expectJson<{ status: string }>(await h.request('GET', `/admin/v1/subscriptions/${s.flatSubscriptionId}`))).status).toBe('Active');
    await page.screenshot({ path: join(shots, 'cancelled.png'), fullPage: true });
    await page.close();
  });
});
