/**
 * The customer portal page (issue 32): server-rendered HTML in the hosted invoice page's frame
 * (its stylesheet and CSP, plus a stylesheet of its own allowed by hash), no script at all. Each
 * subscription's usage is an inline SVG chart per meter (one bar per day of the period so far,
 * with the quantity the plan includes as a line) with the same numbers in a table, so screen
 * readers and text browsers get them too. Every form carries the page's form token.
 *
 * The page is a list of sections (`PortalSection`); "Features" shows only when the customer's plans
 * carry features (entitlements).
 */
import { parseQuantity, compareQuantity, ZERO_QUANTITY } from '../../core/index.js';
import { esc, hostedPageCsp, renderHostedPage } from '../documents/html.js';
import { formatAmount, formatDate, formatQuantity, lastDayOf } from '../documents/format.js';
import type { InvoiceSummaryView } from '../../schemas/invoicing.js';
import type { PortalMeterUsage, PortalOverview, PortalSubscription } from './overview.js';

export const PORTAL_STYLE = `
main{max-width:960px}
nav.portal{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between;margin:0 0 8px}
nav.portal form{margin:0}
section.card{border-top:1px solid #d0d7de;padding-top:16px;margin-top:24px}
section.card h2{font-size:20px;margin:0 0 12px}h3{font-size:16px;margin:16px 0 8px}
.sub{color:#59636e}
.meter{margin:12px 0 20px}
figure{margin:8px 0}figcaption{font-weight:600;margin-bottom:4px}
svg.chart{width:100%;height:auto;max-width:720px;display:block;border:1px solid #d0d7de;border-radius:6px;background:#fff}
.scroll{overflow-x:auto}
tbody th{font-size:inherit;color:inherit;font-weight:600;border-bottom:0;padding:5px 4px;text-align:left}
caption{text-align:left;padding:4px}
.scroll table{min-width:340px}
button,.button{font:inherit;font-weight:600;padding:8px 16px;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#1a7f37}
button.danger{background:#fff;color:#b3261e;border-color:#b3261e}
button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid #0969da;outline-offset:2px}
a{color:#0550ae}
.status{font-size:12px;font-weight:700;border:1px solid #59636e;border-radius:10px;padding:0 8px;color:#1f2328}
.status.Paid,.status.Active{border-color:#1a7f37;color:#1a7f37}.status.Open,.status.PastDue,.status.Cancelled{border-color:#9a6700;color:#7d4e00}
.progress{margin:4px 0}
.actions{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.actions form{margin:0}
details summary{cursor:pointer;color:#0550ae}
@media (max-width:640px){main{margin:0;padding:16px;border-radius:0;border-left:0;border-right:0}dl{grid-template-columns:1fr}dt{margin-top:6px}.summary{width:100%}}
`;

/** The portal page's Content-Security-Policy: the frame's policy with the portal's stylesheet allowed. */
export const PORTAL_PAGE_CSP = hostedPageCsp(PORTAL_STYLE);

/** What the page links and posts to, all relative to the page (they carry the session's token). */
export interface PortalLinks {
  pdf(invoiceId: string): string;
  /** The invoice's hosted page (to pay it), when it has one. */
  pay(invoice: InvoiceSummaryView): string | null;
  paymentMethodAction: string;
  cancelAction(subscriptionId: string): string;
  signOutAction: string;
  formToken: string;
  /** The seller's page the minter named, for "Back". */
  returnUrl: string | null;
}

export type PortalNotice = 'card_saved' | 'setup_incomplete' | 'setup_cancelled' | 'cancel_scheduled' | 'signed_out';

const NOTICES: Record<PortalNotice, { tone: 'ok' | 'info' | 'error'; text: string }> = {
  card_saved: { tone: 'ok', text: 'Your card was saved. It will be used for your next payments.' },
  setup_incomplete: { tone: 'info', text: 'The payment processor has not confirmed your card yet. If you completed its form, the card appears here once it is confirmed; otherwise add it again.' },
  setup_cancelled: { tone: 'info', text: 'No card was added.' },
  cancel_scheduled: { tone: 'ok', text: 'Your subscription is cancelled: it stays in service until the end of the current period, which is billed as usual.' },
  signed_out: { tone: 'info', text: 'You are signed out of the billing portal.' },
};

export interface PortalSection {
  id: string;
  title: string;
  html: string;
}

const form = (action: string, token: string, inner: string): string =>
  `<form method="post" action="${esc(action)}"><input type="hidden" name="form_token" value="${esc(token)}">${inner}</form>`;

const toNumber = (quantity: string): number => Number(quantity);

/** "12,345" of a quantity (exact digits), with its unit. */
const qty = (quantity: string, unit: string, locale: string): string => `${formatQuantity(quantity, locale)} ${unit}`;

/**
 * One meter's chart: a bar per day (the running total for Sum and Count meters, the day's value
 * otherwise) and the included quantity as a dashed line. The numbers are also in the bars' titles
 * and the table that follows.
 */
export function usageChart(meter: PortalMeterUsage, chartId: string, locale: string): string {
  const width = 720;
  const height = 220;
  const pad = { left: 56, right: 12, top: 16, bottom: 28 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const shown = meter.points.map((p) => (meter.cumulative ? p.total : p.value));
  const max = Math.max(1, ...shown.map(toNumber), meter.included !== null ? toNumber(meter.included) : 0) * 1.1;
  const y = (value: number): number => pad.top + plotH - (value / max) * plotH;
  const slot = plotW / Math.max(1, meter.points.length);
  const barW = Math.max(2, slot * 0.7);
  const what = meter.cumulative ? 'total so far' : 'that day';
  const bars = meter.points
    .map((p, i) => {
      const value = shown[i]!;
      const top = y(toNumber(value));
      const over = meter.included !== null && compareQuantity(parseQuantity(value), parseQuantity(meter.included)) > 0;
      return (
        `<rect class="bar" data-day="${p.day}" data-value="${esc(value)}" x="${(pad.left + i * slot + (slot - barW) / 2).toFixed(1)}" y="${top.toFixed(1)}" ` +
        `width="${barW.toFixed(1)}" height="${(pad.top + plotH - top).toFixed(1)}" fill="${over ? '#bc4c00' : '#0969da'}">` +
        `<title>${p.day}: ${esc(qty(value, meter.unit, locale))} ${what}</title></rect>`
      );
    })
    .join('');
  const included =
    meter.included === null
      ? ''
      : `<g class="included" data-value="${esc(meter.included)}"><line x1="${pad.left}" x2="${width - pad.right}" y1="${y(toNumber(meter.included)).toFixed(1)}" y2="${y(toNumber(meter.included)).toFixed(1)}" stroke="#1a7f37" stroke-width="2" stroke-dasharray="6 4"/>` +
        `<text x="${pad.left + 4}" y="${(y(toNumber(meter.included)) - 5).toFixed(1)}" font-size="12" font-weight="600" fill="#116329">${esc(`${formatQuantity(meter.included, locale)} included`)}</text></g>`;
  const first = meter.points[0]?.day ?? '';
  const last = meter.points[meter.points.length - 1]?.day ?? '';
  const axis =
    `<line x1="${pad.left}" x2="${width - pad.right}" y1="${pad.top + plotH}" y2="${pad.top + plotH}" stroke="#59636e"/>` +
    `<text x="${pad.left - 6}" y="${pad.top + plotH}" text-anchor="end" font-size="12" fill="#59636e">0</text>` +
    `<text x="${pad.left - 6}" y="${pad.top + 10}" text-anchor="end" font-size="12" fill="#59636e">${esc(formatQuantity(String(Math.round(max)), locale))}</text>` +
    `<text x="${pad.left}" y="${height - 8}" font-size="12" fill="#59636e">${first}</text>` +
    `<text x="${width - pad.right}" y="${height - 8}" text-anchor="end" font-size="12" fill="#59636e">${last}</text>`;
  const latest = shown[shown.length - 1] ?? '0';
  const description = `${meter.points.length} days from ${first} to ${last}; ${meter.cumulative ? 'total so far' : 'latest day'} ${qty(latest, meter.unit, locale)}${
    meter.included !== null ? ` of ${qty(meter.included, meter.unit, locale)} included` : ''
  }. The table below lists every day.`;
  return (
    `<svg class="chart" id="${chartId}" role="img" aria-labelledby="${chartId}-title ${chartId}-desc" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${chartId}-title">${esc(`${meter.name}: ${meter.cumulative ? 'usage so far, by day' : 'usage per day'}`)}</title><desc id="${chartId}-desc">${esc(description)}</desc>` +
    `${axis}${bars}${included}</svg>`
  );
}

function meterBlock(meter: PortalMeterUsage, chartId: string, locale: string): string {
  const progress =
    meter.included === null
      ? `<p class="progress">${esc(qty(meter.periodValue, meter.unit, locale))} this period.</p>`
      : `<p class="progress"><strong>${esc(formatQuantity(meter.periodValue, locale))}</strong> of ${esc(qty(meter.included, meter.unit, locale))} included used this period${
          compareQuantity(parseQuantity(meter.periodValue), parseQuantity(meter.included)) > 0 ? ': usage above it is charged' : ''
        }.</p>`;
  const rows = meter.points
    .map((p) => `<tr><th scope="row">${p.day}</th><td class="num">${esc(formatQuantity(p.value, locale))}</td>${meter.cumulative ? `<td class="num">${esc(formatQuantity(p.total, locale))}</td>` : ''}</tr>`)
    .join('');
  const table =
    `<details><summary>Usage by day (table)</summary><div class="scroll"><table id="${chartId}-table"><caption class="sub">${esc(meter.name)} (${esc(meter.unit)}) by day</caption>` +
    `<thead><tr><th scope="col">Day</th><th scope="col" class="num">That day</th>${meter.cumulative ? '<th scope="col" class="num">Total so far</th>' : ''}</tr></thead><tbody>${rows}</tbody></table></div></details>`;
  return `<div class="meter" data-meter="${esc(meter.meterId)}"><figure><figcaption>${esc(meter.name)}</figcaption>${progress}${usageChart(meter, chartId, locale)}</figure>${table}</div>`;
}

function subscriptionBlock(sub: PortalSubscription, index: number, links: PortalLinks, locale: string): string {
  const v = sub.view;
  const period = `${formatDate(v.period_start)} to ${lastDayOf(v.period_end)}`;
  const state =
    v.status === 'Cancelled'
      ? `<p>Cancelled: in service until ${esc(lastDayOf(v.period_end))}, then it ends.</p>`
      : sub.cancellable
        ? form(links.cancelAction(v.id), links.formToken, `<button type="submit" class="danger">Cancel at end of period (${esc(lastDayOf(v.period_end))})</button>`)
        : '';
  const usage = sub.usage.length === 0 ? '<p class="sub">No metered usage on this plan.</p>' : sub.usage.map((m, i) => meterBlock(m, `chart-${index}-${i}`, locale)).join('');
  return (
    `<article class="subscription" data-subscription="${esc(v.id)}" aria-labelledby="sub-${index}"><h3 id="sub-${index}">${esc(sub.planName)} <span class="status ${esc(v.status)}">${esc(v.status)}</span></h3>` +
    `<p class="sub">Current period: ${esc(period)}</p>${usage}<div class="actions">${state}</div></article>`
  );
}

function upcomingBlock(sub: PortalSubscription, locale: string): string {
  if (sub.upcomingError) return `<p class="notice error">${esc(sub.planName)}: ${esc(sub.upcomingError)}</p>`;
  const invoice = sub.upcoming?.invoice;
  if (!sub.upcoming || !invoice) return '';
  const money = (raw: string): string => formatAmount(BigInt(raw), invoice.currency, locale);
  const lines = invoice.line_items
    .map((line) => `<tr><td>${esc(line.description)}</td><td class="num">${esc(formatQuantity(line.quantity, locale))}</td><td class="num">${esc(money(line.amount_nanos))}</td></tr>`)
    .join('');
  return (
    `<div class="upcoming" data-subscription="${esc(sub.view.id)}"><h3>${esc(sub.planName)}: period ending ${esc(lastDayOf(sub.upcoming.period_end))}</h3>` +
    `<div class="scroll"><table><thead><tr><th scope="col">Description</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${lines}</tbody></table></div>` +
    `<table class="summary"><tbody><tr><td>Total</td><td class="num">${esc(money(invoice.total_nanos))}</td></tr><tr class="strong"><td>Amount due</td><td class="num" data-amount-due>${esc(money(invoice.amount_due_nanos))}</td></tr></tbody></table>` +
    `<p class="sub">So far this period (as of ${esc(formatDate(sub.upcoming.as_of))}); usage until the period ends is added.</p></div>`
  );
}

function invoicesBlock(overview: PortalOverview, links: PortalLinks, locale: string): string {
  if (overview.invoices.length === 0) return '<p>No invoices yet.</p>';
  const rows = overview.invoices
    .map((invoice) => {
      const money = (raw: string): string => formatAmount(BigInt(raw), invoice.currency, locale);
      const label = invoice.invoice_number ?? invoice.id;
      const pay = links.pay(invoice);
      return (
        `<tr data-invoice="${esc(invoice.id)}"><th scope="row">${esc(label)}</th><td>${esc(formatDate(invoice.finalized_at ?? invoice.created_at))}</td>` +
        `<td><span class="status ${esc(invoice.status)}">${esc(invoice.status)}</span></td><td class="num">${esc(money(invoice.total_nanos))}</td><td class="num">${esc(money(invoice.amount_due_nanos))}</td>` +
        `<td><a href="${esc(links.pdf(invoice.id))}" download aria-label="Download PDF of ${esc(label)}">PDF</a>${pay ? ` · <a href="${esc(pay)}" aria-label="Pay ${esc(label)}">Pay</a>` : ''}</td></tr>`
      );
    })
    .join('');
  return `<div class="scroll"><table><thead><tr><th scope="col">Invoice</th><th scope="col">Date</th><th scope="col">Status</th><th scope="col" class="num">Total</th><th scope="col" class="num">Amount due</th><th scope="col">Documents</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function balancesBlock(overview: PortalOverview, locale: string): string {
  const balances = overview.creditBalances.map(
    (b) => `<dt>Credit balance (${esc(b.currency)})</dt><dd data-credit-balance="${esc(b.currency)}">${esc(formatAmount(BigInt(b.balance_nanos), b.currency, locale))}</dd>`,
  );
  const wallets = overview.wallets.map(
    (w) =>
      `<dt>Wallet (${esc(w.currency)})</dt><dd data-wallet="${esc(w.currency)}">${esc(formatAmount(BigInt(w.balance_nanos), w.currency, locale))}` +
      `${BigInt(w.promotional_balance_nanos) > 0n ? ` <span class="sub">(${esc(formatAmount(BigInt(w.promotional_balance_nanos), w.currency, locale))} promotional)</span>` : ''}</dd>`,
  );
  if (balances.length === 0 && wallets.length === 0) return '<p>No credit balance and no wallet.</p>';
  return `<dl>${balances.join('')}${wallets.join('')}</dl>`;
}

function paymentMethodBlock(overview: PortalOverview, links: PortalLinks): string {
  const card = overview.paymentMethod;
  const brand = card?.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card';
  const onFile = card
    ? `<p data-card>${esc(brand)}${card.last4 ? ` •••• ${esc(card.last4)}` : ''}${card.expMonth && card.expYear ? `, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}` : ''}</p>`
    : '<p data-card>No payment method on file: invoices are paid from their own page.</p>';
  return `${onFile}${form(links.paymentMethodAction, links.formToken, `<button type="submit">${card ? 'Replace card' : 'Add a card'}</button>`)}<p class="sub">You enter your card on the payment processor's secure page.</p>`;
}

/** What a feature gives: its value (Static), on/off (Boolean), or what is used of what is included (Metered). */
function featureTerms(feature: PortalOverview['entitlements'][number], locale: string): string {
  if (feature.kind === 'Static') return esc(typeof feature.value === 'string' ? feature.value : JSON.stringify(feature.value ?? null));
  if (feature.kind === 'Boolean' || feature.usage === null) return feature.has_access ? 'Included' : 'Not included';
  const included = feature.included === null ? '' : ` of ${esc(formatQuantity(feature.included, locale))} included`;
  const left = feature.balance === null ? '' : `; ${esc(formatQuantity(feature.balance, locale))} left`;
  const over = feature.overage !== null && compareQuantity(parseQuantity(feature.overage), ZERO_QUANTITY) > 0 ? `; ${esc(formatQuantity(feature.overage, locale))} charged as overage` : '';
  return `${esc(formatQuantity(feature.usage, locale))} used${included}${left}${over}`;
}

function featuresBlock(overview: PortalOverview, locale: string): string {
  const rows = overview.entitlements
    .map(
      (feature) =>
        `<tr data-feature="${esc(feature.feature)}"><th scope="row">${esc(feature.feature)}</th><td>${feature.has_access ? 'Yes' : '<strong>No</strong>'}</td>` +
        `<td>${featureTerms(feature, locale)}</td><td>${feature.resets_at ? esc(formatDate(feature.resets_at)) : '—'}</td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table><thead><tr><th scope="col">Feature</th><th scope="col">Available</th><th scope="col">This period</th><th scope="col">Resets</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The portal's sections, in order. */
export function portalSections(overview: PortalOverview, links: PortalLinks, locale: string): PortalSection[] {
  const upcoming = overview.subscriptions.map((s) => upcomingBlock(s, locale)).join('');
  return [
    {
      id: 'usage',
      title: 'Subscriptions and usage',
      html: overview.subscriptions.length === 0 ? '<p>No subscriptions.</p>' : overview.subscriptions.map((s, i) => subscriptionBlock(s, i, links, locale)).join(''),
    },
    ...(overview.entitlements.length > 0 ? [{ id: 'features', title: 'Features', html: featuresBlock(overview, locale) }] : []),
    { id: 'upcoming', title: 'Upcoming invoice', html: upcoming || '<p>Nothing to invoice for the current period.</p>' },
    { id: 'invoices', title: 'Invoices', html: invoicesBlock(overview, links, locale) },
    { id: 'balance', title: 'Credit balance and wallet', html: balancesBlock(overview, locale) },
    { id: 'payment-method', title: 'Payment method', html: paymentMethodBlock(overview, links) },
  ];
}

export function renderPortalPage(overview: PortalOverview, links: PortalLinks, locale: string, notice: PortalNotice | null, sellerName: string): string {
  const sections = portalSections(overview, links, locale);
  const toc = sections.map((s) => `<a href="#${s.id}">${esc(s.title)}</a>`).join(' · ');
  const shown = notice ? `<p class="notice ${NOTICES[notice].tone}" role="status">${esc(NOTICES[notice].text)}</p>` : '';
  const back = links.returnUrl ? `<a href="${esc(links.returnUrl)}">← Back to ${esc(sellerName)}</a>` : `<span class="sub">${esc(sellerName)}</span>`;
  const body =
    `<nav class="portal" aria-label="Portal">${back}${form(links.signOutAction, links.formToken, '<button type="submit" class="secondary">Sign out</button>')}</nav>` +
    `<header><div><h1>Billing</h1><div class="number">${esc(overview.customer.name)} · ${esc(overview.customer.email)}</div></div></header>` +
    `<p class="sub">${toc}</p>${shown}` +
    sections.map((s) => `<section class="card" id="${s.id}" aria-labelledby="${s.id}-h"><h2 id="${s.id}-h">${esc(s.title)}</h2>${s.html}</section>`).join('');
  return renderHostedPage(`Billing · ${overview.customer.name}`, body, PORTAL_STYLE);
}

/** The page a signed-out (revoked by the customer) session shows. */
export function renderSignedOutPage(sellerName: string, returnUrl: string | null): string {
  return renderHostedPage(
    'Signed out',
    `<h1>Signed out</h1><p class="notice info" role="status">${esc(NOTICES.signed_out.text)}</p>${returnUrl ? `<p><a href="${esc(returnUrl)}">Back to ${esc(sellerName)}</a></p>` : ''}`,
    PORTAL_STYLE,
  );
}
