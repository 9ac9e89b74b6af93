/**
 * The operator views (/admin) in a real browser (the system's Chromium, driven by playwright-core),
 * against the API served on a real port with the real worker, PostgreSQL and Temporal server:
 * - sign-in with the admin API key (a wrong key refused), the session cookie (HttpOnly, SameSite=Strict),
 *   the pages' headers (CSP without script, X-Frame-Options) and no script element anywhere;
 * - the MRR and AR aging charts carry the numbers the reports API answers for the same instants;
 * - a subscription held on a billing_error (an invoice line overflowing its column at the period
 *   close) is listed with its Temporal UI link; after the cause is fixed, its Retry button runs the
 *   step again through the same service as POST /admin/v1/subscriptions/:id/retry: billed, no longer
 *   held, audited as subscription.billing_retried naming the operator's API key;
 * - a test-clock advance held mid-way (a row lock on its clock) shows as advancing with the API's
 *   progress figures; the page reloads itself (meta refresh, no script) until it shows it ready;
 * - forms without the session's CSRF token or from another origin are refused (403), the session
 *   cookie (nor its token as a bearer token) is no credential for the JSON admin API, and Log out ends the session.
 *
 * Screenshots of each page go to OPERATOR_SCREENSHOTS_DIR when it is set (docs/operator/*.png are made
 * so), else to a scratch folder. Skipped, saying so, when /usr/bin/chromium is absent.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { mrrInstants } from '../../src/services/operator-views/overview.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, waitForClockReady } from '../support/clock-usage.js';
import { injectOverflow } from '../support/faults.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { CHROMIUM_SKIPPED, hasChromium, servedBrowser, type ServedBrowser } from '../support/browser.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

interface Subscription {
  id: string;
  status: string;
  period_start: string;
  billing_error: { step: string; type: string; message: string } | null;
}
interface TestClock {
  id: string;
  status: string;
  advance: { subscriptions_done: number; subscriptions_total: number; simulated_time: string } | null;
}
interface MrrReport {
  totals: { currency: string; mrr_nanos: string }[];
}
interface AgingReport {
  totals: Record<string, string>[];
}

const START = '2026-01-01T00:00:00.000Z';
/** Past the first period's end and its invoice's grace (1 h). */
const AFTER_FIRST_PERIOD = '2026-02-01T02:00:00.000Z';
const AFTER_SECOND_PERIOD = '2026-03-01T02:00:00.000Z';

let served: ServedBrowser | undefined;
let baseUrl = '';
let profile = '';
let shots = '';
let browser: BrowserContext | undefined;

describe.skipIf(!hasChromium)(`the operator views in Chromium${hasChromium ? '' : ` (${CHROMIUM_SKIPPED})`}`, () => {
  beforeAll(async () => {
    served = await servedBrowser(h, { name: 'operator', viewport: { width: 1280, height: 900 } });
    ({ baseUrl, browser, profile } = served);
    shots = process.env.OPERATOR_SCREENSHOTS_DIR ? resolve(process.env.OPERATOR_SCREENSHOTS_DIR) : join(profile, 'screenshots');
    await mkdir(shots, { recursive: true });
  });

  afterAll(async () => {
    await served?.close();
  });

  const screenshot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const get = async <T>(path: string) => expectJson<T>(await h.request('GET', path));

  async function subscribe(clockId: string | null, planId: string): Promise<{ customerId: string; subscriptionId: string }> {
    const customerId = await makeCustomer(h.deps.db, clockId === null ? {} : { testClockId: clockId });
    const subscription = await expectJson<Subscription>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    cleanup.push(subscriptionWorkflowId(subscription.id));
    return { customerId, subscriptionId: subscription.id };
  }

  /** Signs in through the form; answers the page on the overview. */
  async function signIn(): Promise<Page> {
    await browser!.clearCookies();
    const page = await browser!.newPage();
    await page.goto(`${baseUrl}/admin`);
    await page.getByLabel('Admin API key').fill(h.secrets.api_key);
    await Promise.all([page.waitForURL(`${baseUrl}/admin`), page.getByRole('button', { name: 'Sign in' }).click()]);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Overview');
    return page;
  }

  /** The value of a signed-in page's CSRF field, and the session cookie as a Cookie header. */
  async function sessionOf(page: Page): Promise<{ csrf: string; cookie: string }> {
    const csrf = (await page.locator('input[name="csrf_token"]').first().getAttribute('value'))!;
    const cookies = await browser!.cookies(`${baseUrl}/admin`);
    return { csrf, cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') };
  }

  it('signs in with the admin API key only, sets a strict HttpOnly session cookie and serves pages without script', async () => {
    const page = await browser!.newPage();
    const login = await page.goto(`${baseUrl}/admin`);
    expect(login!.status()).toBe(200);
    const headers = login!.headers();
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(headers['cache-control']).toBe('private, no-store');
    await screenshot(page, 'login');

    // A wrong key: 401, the form again, no cookie.
    await page.getByLabel('Admin API key').fill(`bsk_test_${'x'.repeat(24)}`);
    const [refused] = await Promise.all([page.waitForResponse((r) => r.url() === `${baseUrl}/admin/login`), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(refused.status()).toBe(401);
    expect(await page.locator('.notice.error').innerText()).toBe('That is not the admin API key.');
    expect(await browser!.cookies(`${baseUrl}/admin`)).toEqual([]);
    await page.close();

    const overview = await signIn();
    const [cookie] = await browser!.cookies(`${baseUrl}/admin`);
    expect(cookie).toMatchObject({ name: 'operator_session', httpOnly: true, sameSite: 'Strict', path: '/admin' });
    // The key never appears in a URL or the page.
    expect(overview.url()).toBe(`${baseUrl}/admin`);
    expect(await overview.content()).not.toContain(h.secrets.api_key);
    expect(await overview.locator('script').count()).toBe(0);
    await overview.close();
  });

  it('charts MRR over the last 12 months and AR aging with the numbers of the reports API', async () => {
    // Something to chart: a subscription billed now, and an Open invoice from a clock's first period.
    const plan = await makePlan(h.deps.db, { flatNanos: 75n * UNIT });
    await subscribe(null, plan);
    const clockId = await makeTestClock(h.deps.db, START);
    await subscribe(clockId, plan);
    await advanceClock(h, clockId, AFTER_FIRST_PERIOD);

    const page = await signIn();
    /** The charts' numbers and the reports API's for the same instants, read one after the other. */
    const read = async () => {
      await page.reload();
      const months = await page.locator('#mrr div.mrr').evaluateAll((charts) =>
        charts.map((chart) => ({
          currency: chart.getAttribute('data-currency'),
          bars: [...chart.querySelectorAll('rect')].map((r) => [r.getAttribute('data-label'), r.getAttribute('data-value')]),
          asOf: [...chart.querySelectorAll('tbody tr')].map((tr) => tr.children[1]!.textContent!),
        })),
      );
      const aging = await page.locator('#ar-aging div.aging').evaluateAll((charts) =>
        charts.map((chart) => ({ currency: chart.getAttribute('data-currency'), bars: [...chart.querySelectorAll('rect')].map((r) => r.getAttribute('data-value')) })),
      );
      const asOf = months[0]?.asOf ?? [];
      const labels = months[0]?.bars.map((bar) => bar[0]) ?? [];
      const reports = await Promise.all(asOf.map((at) => get<MrrReport>(`/admin/v1/reports/mrr?as_of=${at}`)));
      const currencies = [...new Set(reports.flatMap((r) => r.totals.map((t) => t.currency)))].sort();
      const agingReport = await get<AgingReport>('/admin/v1/reports/ar-aging');
      const buckets = ['current_nanos', 'days_1_30_nanos', 'days_31_60_nanos', 'days_61_90_nanos', 'over_90_nanos'];
      return {
        page: { currencies: months.map((m) => m.currency), mrr: months.map((m) => m.bars), asOf: months.map((m) => m.asOf), aging },
        api: {
          currencies,
          mrr: currencies.map((currency) => reports.map((r, i) => [labels[i], r.totals.find((t) => t.currency === currency)?.mrr_nanos ?? '0'])),
          asOf: months.map(() => asOf),
          aging: agingReport.totals.map((t) => ({ currency: t.currency, bars: buckets.map((b) => t[b]) })),
        },
      };
    };
    // Again while other work (earlier files' workflows) changed the figures between the two reads.
    let figures = await read();
    for (let attempt = 1; attempt < 5 && JSON.stringify(figures.page) !== JSON.stringify(figures.api); attempt += 1) figures = await read();
    expect(figures.page).toEqual(figures.api);
    expect(figures.page.asOf[0]).toHaveLength(12);

    // Twelve months, ending with this one (read now), USD among them with this test's subscription in it.
    const labels = await page.locator('#mrr .mrr[data-currency="USD"] rect').evaluateAll((rects) => rects.map((r) => r.getAttribute('data-label')));
    expect(labels).toEqual(mrrInstants(new Date()).map((p) => p.month));
    const usdNow = await page.locator('#mrr .mrr[data-currency="USD"] rect').last().getAttribute('data-value');
    expect(BigInt(usdNow!)).toBeGreaterThanOrEqual(75n * UNIT);
    // The numbers are also in a table and in each bar's tooltip, as printed.
    const lastRow = await page.locator('#mrr .mrr[data-currency="USD"] tbody tr').last().innerText();
    expect(lastRow).toContain(BigInt(usdNow!).toString());
    expect(await page.locator('#ar-aging .aging[data-currency="USD"] svg[role="img"]').count()).toBe(1);
    await page.close();
  });

  it('lists a held subscription with its workflow link and retries it from the Retry button, audited as the operator', async () => {
    const eventType = `operator_poison_${process.pid}`;
    const clockId = await makeTestClock(h.deps.db, START);
    const plan = await makePlan(h.deps.db, { meterEventType: eventType });
    const held = await subscribe(clockId, plan);
    await h.deps.db.usageEvent.create({
      data: { id: `raw-${newId()}`, eventType, customerId: held.customerId, subscriptionId: held.subscriptionId, occurredAt: new Date('2026-01-15T00:00:00.000Z'), properties: { quantity: '2' } },
    });
    const dropTrigger = await injectOverflow(h.deps.db, { table: 'invoice_line_items', when: `NEW.subscription_id = '${held.subscriptionId}'::uuid`, on: 'INSERT' });
    try {
      await advanceClock(h, clockId, AFTER_FIRST_PERIOD);
    } finally {
      await dropTrigger();
    }
    const before = await get<Subscription>(`/v1/subscriptions/${held.subscriptionId}`);
    expect(before.billing_error).toMatchObject({ step: 'closeAndRollSubscriptionPeriod', type: 'DeterministicFailure' });

    const page = await signIn();
    const row = page.locator('#held tbody tr', { has: page.locator(`a[href="/admin/subscriptions/${held.subscriptionId}"]`) });
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('closeAndRollSubscriptionPeriod');
    expect(text).toContain(before.billing_error!.message);
    const workflowHref = await row.locator('a[target="_blank"]').getAttribute('href');
    expect(workflowHref).toBe(`http://localhost:8233/namespaces/${h.deps.settings.temporalNamespace}/workflows?query=${encodeURIComponent(`WorkflowId="subscription:${held.subscriptionId}"`)}`);

    // The subscription's page shows the hold too, with the same Retry.
    const detail = await browser!.newPage();
    await detail.goto(`${baseUrl}/admin/subscriptions/${held.subscriptionId}`);
    expect(await detail.locator('#billing-error').innerText()).toContain('closeAndRollSubscriptionPeriod');
    expect(await detail.locator('a[target="_blank"]').first().getAttribute('href')).toContain(encodeURIComponent(`subscription:${held.subscriptionId}`));
    await screenshot(detail, 'subscription-held');
    await detail.close();
    await screenshot(page, 'overview-held');

    // The cause is fixed (the trigger dropped): Retry bills the period.
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/retry')), row.getByRole('button', { name: 'Retry' }).click()]);
    expect(answer.status()).toBe(303);
    await page.waitForURL(/\/admin\?retried=/);
    expect(await page.locator('.notice.ok').innerText()).toBe(`Retried the subscription ${held.subscriptionId}: the step went through and it is no longer held.`);
    expect(await page.locator(`#held a[href="/admin/subscriptions/${held.subscriptionId}"]`).count()).toBe(0);

    const after = await get<Subscription>(`/v1/subscriptions/${held.subscriptionId}`);
    expect(after).toMatchObject({ billing_error: null, period_start: '2026-02-01T00:00:00.000Z' });
    const fingerprint = `api_key:${createHash('sha256').update(h.secrets.api_key).digest('hex').slice(0, 16)}`;
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: held.subscriptionId, action: 'subscription.billing_retried' } });
    expect(audit.map((a) => [a.actorType, a.actorId])).toEqual([['api_key', fingerprint]]);

    // The invoice the retry billed has its own page, linked to its workflow.
    const invoices = await expectPage<{ id: string }>(await h.request('GET', `/admin/v1/invoices?subscription_id=${held.subscriptionId}`));
    expect(invoices.data).toHaveLength(1);
    const invoicePage = await browser!.newPage();
    await invoicePage.goto(`${baseUrl}/admin/invoices/${invoices.data[0]!.id}`);
    expect(await invoicePage.locator('a[target="_blank"]').first().getAttribute('href')).toContain(encodeURIComponent(`invoice:${invoices.data[0]!.id}`));
    await screenshot(invoicePage, 'invoice');
    await invoicePage.goto(`${baseUrl}/admin/customers/${held.customerId}`);
    expect(await invoicePage.locator(`a[href="/admin/subscriptions/${held.subscriptionId}"]`).count()).toBe(1);
    expect(await invoicePage.locator(`a[href$="${encodeURIComponent(`CustomerId="${held.customerId}"`)}"]`).count()).toBe(1);
    await screenshot(invoicePage, 'customer');
    await invoicePage.close();
    await page.close();
  });

  it('shows a running test-clock advance with its progress and reloads until it is ready', async () => {
    const clockId = await makeTestClock(h.deps.db, START);
    const plan = await makePlan(h.deps.db, { flatNanos: 20n * UNIT });
    await subscribe(clockId, plan);
    await subscribe(clockId, plan);
    await expectJson<TestClock>(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: AFTER_SECOND_PERIOD } }), 202);
    // Hold the advance mid-way: its progress and its end are written to the clock's row, which this lock keeps.
    const lock = await h.deps.pool.connect();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await lock.query('COMMIT');
      lock.release();
    };
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM test_clocks WHERE id = $1 FOR UPDATE', [clockId]);
      const clock = await get<TestClock>(`/admin/v1/test-clocks/${clockId}`);
      expect(clock.status).toBe('advancing');

      const page = await signIn();
      const row = page.locator('#advances tbody tr', { hasText: clockId });
      expect(await row.locator('.status').innerText()).toBe('advancing');
      expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe('2');
      const progress = row.locator('progress');
      expect(await progress.getAttribute('value')).toBe(String(clock.advance!.subscriptions_done));
      expect(await row.locator('.done').innerText()).toBe(`${clock.advance!.subscriptions_done} of ${clock.advance!.subscriptions_total}`);
      expect(await row.locator('.simulated').innerText()).toBe(clock.advance!.simulated_time);
      await screenshot(page, 'overview-advance-running');

      await release();
      // The page reloads itself (no script: the meta refresh) until the advance is ready; the test only reads it.
      await expect.poll(() => row.locator('.status').innerText({ timeout: 5_000 }).catch(() => ''), { timeout: 120_000, interval: 500 }).toBe('ready');
      const ready = await waitForClockReady(h, clockId);
      expect(ready.advance).toMatchObject({ subscriptions_done: 2, subscriptions_total: 2 });
      expect(await row.locator('.done').innerText()).toBe('2 of 2');
      await screenshot(page, 'overview');
      await page.close();
    } finally {
      await release();
    }
  });

  it('refuses forms without the session CSRF token or from another site, keeps the JSON admin API on its own credentials, and logs out', async () => {
    const page = await signIn();
    const { csrf, cookie } = await sessionOf(page);
    const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${baseUrl}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: baseUrl, ...headers }, body: new URLSearchParams(body) });
    const target = `/admin/held/subscription/${newId()}/retry`;

    const noToken = await post(target, {});
    expect(noToken.status).toBe(403);
    expect(noToken.headers.get('x-error-code')).toBe('operator_form_refused');
    expect(noToken.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await post(target, { csrf_token: `${csrf.slice(0, -4)}${csrf.endsWith('AAAA') ? 'BBBB' : 'AAAA'}` })).status).toBe(403);
    expect((await post(target, { csrf_token: csrf }, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(target, { csrf_token: csrf }, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    // With the token, from this origin: the form is taken (a subscription that does not exist is 404).
    const taken = await post(target, { csrf_token: csrf });
    expect(taken.status).toBe(404);
    // The session cookie is no credential for the JSON admin API.
    expect((await fetch(`${baseUrl}/admin/v1/reports/mrr?as_of=2026-01-01T00:00:00Z`, { headers: { Cookie: cookie } })).status).toBe(401);
    const sessionToken = cookie.replace(/^operator_session=/, '');
    expect((await fetch(`${baseUrl}/admin/v1/reports/mrr?as_of=2026-01-01T00:00:00Z`, { headers: { Authorization: `Bearer ${sessionToken}` } })).status).toBe(401);

    await Promise.all([page.waitForURL(`${baseUrl}/admin`), page.getByRole('button', { name: 'Log out' }).click()]);
    expect(await page.getByLabel('Admin API key').count()).toBe(1);
    expect(await browser!.cookies(`${baseUrl}/admin`)).toEqual([]);
    await page.close();
  });
});
