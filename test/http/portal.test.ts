/**
 * The customer portal over HTTP (issue 32, points 1 and 3): minting, renewing and revoking sessions;
 * the page's numbers; scoping to one customer (another customer's ids are 404); CSRF on every form;
 * the security headers; expiry and revocation; the audit trail. The browser test drives the same page
 * in Chromium (test/browser/portal.test.ts).
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { expectJson, terminatedAfterAll, useHarness } from '../support/harness.js';
import { eventId, notify } from '../support/payments.js';
import { formTokenOf, mintPortalSession, portalPath, portalScenario, PORTAL_DAYS, type PortalScenario } from '../support/portal.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);
let s: PortalScenario;

beforeAll(async () => {
  s = await portalScenario(h, cleanup);
}, 120_000);

const page = (path: string, init: RequestInit = {}) => h.app.request(path, init);

/** Posts a portal form as a browser on the portal's own origin would. */
const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  h.app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://billing.test', ...headers }, body: new URLSearchParams(form).toString() });

async function openPortal(customerId = s.customerId): Promise<{ path: string; html: string; id: string }> {
  const session = await mintPortalSession(h, customerId);
  const path = portalPath(session.url);
  const res = await page(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return { path, html: await res.text(), id: session.id };
}

describe('minting a portal session', () => {
  it('answers a link for the customer that expires after the TTL, keeps only the hash of its secret, and audits it', async () => {
    const before = Date.now();
    const session = await mintPortalSession(h, s.customerId, { return_url: 'https://example.com/account' });
    expect(session).toMatchObject({ customer_id: s.customerId, created_by: 'admin:test-admin', return_url: 'https://example.com/account' });
    expect(session.url).toMatch(new RegExp(`^http://billing\\.test/portal/${session.id}\\.[A-Za-z0-9_-]{43}$`));
    const expires = Date.parse(session.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60 * 60_000 + 1000);
    const secret = session.url.split('.').pop()!;
    const row = await h.deps.db.portalSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: session.id, action: 'portal_session.created', actorType: 'admin', customerId: s.customerId } })).toBe(1);
  });

  it('lets a customer token mint its own link (and only its own), an admin the link of the customer it names', async () => {
    const own = await expectJson<{ customer_id: string; created_by: string }>(await h.request('POST', '/v1/portal-sessions', { as: { customer: s.customerId } }), 201);
    expect(own).toMatchObject({ customer_id: s.customerId, created_by: `customer:${s.customerId}` });
    const notOwn = await expectJson<{ error: { code: string } }>(await h.request('POST', '/v1/portal-sessions', { body: { customer_id: s.other.customerId }, as: { customer: s.customerId } }), 404);
    expect(notOwn.error.code).toBe('customer_not_found');
    const unnamed = await expectJson<{ error: { code: string } }>(await h.request('POST', '/v1/portal-sessions'), 400);
    expect(unnamed.error.code).toBe('validation_failed');
    expect(await expectJson(await h.request('POST', '/v1/portal-sessions', { body: { customer_id: s.customerId } }), 201)).toMatchObject({ customer_id: s.customerId, created_by: expect.stringMatching(/^admin:/) });
    await expectJson(await h.request('POST', `/admin/v1/customers/${s.customerId}/portal-sessions`, { as: { customer: s.customerId } }), 403);
    const bad = await expectJson<{ error: { code: string } }>(await h.request('POST', `/admin/v1/customers/${s.customerId}/portal-sessions`, { body: { return_url: 'javascript:alert(1)' } }), 400);
    expect(bad.error.code).toBe('validation_failed');
  });
});

describe('the portal page', () => {
  it('shows usage per day against the included quantity, the upcoming invoice, the invoices, and is a locked-down page without script', async () => {
    const session = await mintPortalSession(h, s.customerId);
    const res = await page(portalPath(session.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    // One bar per day so far, each the running total of API calls; the included 1,000 as a line.
    const bars = [...html.matchAll(/<rect class="bar" data-day="([0-9-]+)" data-value="([0-9.]+)"/g)].map((m) => [m[1], m[2]]);
    expect(bars).toEqual(PORTAL_DAYS.map((d) => [d.day, d.total]));
    expect(html).toContain('<g class="included" data-value="1000">');
    expect(html).toContain('<strong>1,300</strong> of 1,000 units included used this period: usage above it is charged');
    // Upcoming: 49.00 + 300 calls above the included 1,000 at 0.01 = 52.00.
    expect(html).toMatch(/data-amount-due>\$52\.00</);
    expect(html).toContain(`data-invoice="${s.invoice.id}"`);
    expect(html).toContain(s.invoice.invoice_number);
    expect(html).not.toContain(s.other.invoiceId);
    // Every form carries the page's form token.
    const forms = html.match(/<form /g)!.length;
    expect(html.match(/name="form_token"/g)!.length).toBe(forms);
    expect(forms).toBe(4); // sign out, two cancels, card
  });

  it('downloads its own invoices as PDF, and answers another customer\'s invoice 404', async () => {
    const { path } = await openPortal();
    const pdf = await page(`${path}/invoices/${s.invoice.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    const other = await page(`${path}/invoices/${s.other.invoiceId}/pdf`);
    expect(other.status).toBe(404);
    expect(other.headers.get('x-error-code')).toBe('invoice_not_found');
    expect(other.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('forms', () => {
  it("refuses a form without the page's token, with a forged one or from another site; cancels another customer's subscription never", async () => {
    const { path, html } = await openPortal();
    const formToken = formTokenOf(html);
    const cancel = `${path}/subscriptions/${s.usageSubscriptionId}/cancel`;
    expect((await post(cancel, {})).status).toBe(400);
    const forged = await post(cancel, { form_token: `${Date.now()}.${'A'.repeat(43)}` });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('x-error-code')).toBe('portal_form_refused');
    const crossSite = await post(cancel, { form_token: formToken }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    // A form token of another customer's portal page does not work here.
    const otherPage = await openPortal(s.other.customerId);
    expect((await post(cancel, { form_token: formTokenOf(otherPage.html) })).status).toBe(403);
    // Another customer's subscription, with this page's valid token: as if it did not exist.
    const foreign = await post(`${path}/subscriptions/${s.other.subscriptionId}/cancel`, { form_token: formToken });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('x-error-code')).toBe('subscription_not_found');
    for (const id of [s.usageSubscriptionId, s.other.subscriptionId]) {
      expect((await expectJson<{ status: string }>(await h.request('GET', `/admin/v1/subscriptions/${id}`))).status).toBe('Active');
    }
  });

  it('refuses a card setup return for a checkout session this portal session did not open', async () => {
    const { path } = await openPortal();
    const res = await page(`${path}/payment-method/complete?session_id=cs_test_someone_else`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-error-code')).toBe('checkout_session_not_found');
    expect(await h.deps.db.paymentMethod.count({ where: { customerId: s.customerId } })).toBe(0);
  });
});

describe('adding a card', () => {
  it("opens a setup-mode checkout at the processor, and takes the processor's setup_intent.succeeded only for the customer's own processor customer", async () => {
    const { path, html, id } = await openPortal();
    const res = await post(`${path}/payment-method`, { form_token: formTokenOf(html) });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const row = await h.deps.db.portalSession.findUniqueOrThrow({ where: { id } });
    expect(row.setupCheckoutSessionId).toMatch(/^cs_/);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: id, action: 'portal.payment_method_setup_started', actorType: 'customer', actorId: s.customerId } })).toBe(1);
    const { processorCustomerId } = await h.deps.db.processorCustomer.findUniqueOrThrow({ where: { customerId: s.customerId } });
    const setupEvent = (customer: string) => ({
      id: eventId(),
      object: 'event',
      type: 'setup_intent.succeeded',
      data: { object: { id: 'seti_http', object: 'setup_intent', status: 'succeeded', customer, payment_method: 'pm_card_visa', metadata: { customer_id: s.customerId } } },
    });
    // A SetupIntent of another processor customer cannot name ours.
    expect(await expectJson(await notify(h, setupEvent('cus_someone_else')))).toMatchObject({ action: 'ignored' });
    expect(await h.deps.db.paymentMethod.count({ where: { customerId: s.customerId } })).toBe(0);
    const receipt = await expectJson<{ event_id: string; action: string }>(await notify(h, setupEvent(processorCustomerId)));
    expect(receipt.action).toBe('queued');
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_method_attached');
    const methods = await h.deps.db.paymentMethod.findMany({ where: { customerId: s.customerId } });
    expect(methods.map((m) => [m.processorPaymentMethodId, m.isDefault])).toEqual([['pm_card_visa', true]]);
  });
});

describe('session lifetime', () => {
  it('answers a tampered link 404, an expired one 410, and a revoked one 410, each as an HTML page', async () => {
    const { path, id } = await openPortal();
    const tampered = await page(path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(tampered.status).toBe(404);
    expect(tampered.headers.get('x-error-code')).toBe('portal_session_not_found');
    expect(await tampered.text()).toContain('This billing portal link is not valid');
    expect((await page(`/portal/${s.customerId}.${'x'.repeat(43)}`)).status).toBe(404);

    await h.deps.db.portalSession.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await page(path);
    expect(expired.status).toBe(410);
    expect(expired.headers.get('x-error-code')).toBe('portal_session_expired');

    const live = await openPortal();
    const revoked = await expectJson<{ revoked_at: string | null }>(await h.request('POST', `/admin/v1/portal-sessions/${live.id}/revoke`));
    expect(revoked.revoked_at).not.toBeNull();
    const gone = await page(live.path);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('x-error-code')).toBe('portal_session_revoked');
    expect(await gone.text()).toContain('You are signed out of the billing portal');
    await expectJson(await h.request('POST', `/admin/v1/portal-sessions/${live.id}/renew`), 409);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: live.id, action: 'portal_session.revoked', actorType: 'admin' } })).toBe(1);
  });

  it('renews a session with a new link: the previous one stops working', async () => {
    const { path, id } = await openPortal();
    const renewed = await expectJson<{ id: string; url: string; expires_at: string }>(await h.request('POST', `/admin/v1/portal-sessions/${id}/renew`));
    expect(renewed.id).toBe(id);
    expect(portalPath(renewed.url)).not.toBe(path);
    expect((await page(path)).status).toBe(404);
    expect((await page(portalPath(renewed.url))).status).toBe(200);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: id, action: 'portal_session.renewed' } })).toBe(1);
  });

  it("signs out from the page's form: the session is revoked by the customer", async () => {
    const { path, html, id } = await openPortal();
    const res = await post(`${path}/sign-out`, { form_token: formTokenOf(html) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are signed out of the billing portal.');
    expect((await page(path)).status).toBe(410);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: id, action: 'portal_session.revoked', actorType: 'customer', actorId: s.customerId } })).toBe(1);
  });
});
