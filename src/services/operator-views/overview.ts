/**
 * The operator overview (/admin): MRR over the last 12 months and AR aging as charts, read from the
 * revenue reports the API serves (GET /admin/v1/reports/mrr's totals at 12 instants in one statement,
 * GET /admin/v1/reports/ar-aging), the
 * held workflows with a Retry button each, and the test-clock advances with their progress. While an
 * advance runs, the page reloads itself every few seconds (a meta refresh: no script).
 */
import { listClocksByAdvance } from '../../db/test-clocks.js';
import type { TestClockView } from '../../schemas/subscriptions.js';
import type { ServiceDeps } from '../deps.js';
import { formatAmount } from '../documents/format.js';
import { arAgingReport, mrrTotalsReport } from '../reports/reports.js';
import { testClockView } from '../subscriptions/test-clocks.js';
import { barChart, csrfField, esc, externalLink, link, operatorPage, table, type Bar, type PageSession } from './html.js';
import { listHeldWorkflows, type HeldWorkflow } from './held.js';
import { workflowLink, type OperatorViewSettings } from './temporal-links.js';

const LOCALE = 'en-US';
/** Months of MRR history the overview charts, this one included. */
export const MRR_MONTHS = 12;
/** Test clocks whose advances the overview lists (running ones first). */
const ADVANCES_SHOWN = 10;
/** Seconds between reloads while an advance runs. */
export const ADVANCE_REFRESH_SECONDS = 2;

/** One point of the MRR history: the month, the instant its MRR is read at, and each currency's total. */
export interface MrrPoint {
  month: string;
  asOf: Date;
  totals: Map<string, bigint>;
}

/**
 * The instants of the MRR history: the end of each of the previous MRR_MONTHS − 1 UTC months (the
 * first instant of the next), then `now` for the month so far.
 */
export function mrrInstants(now: Date): { month: string; asOf: Date }[] {
  const points: { month: string; asOf: Date }[] = [];
  for (let back = MRR_MONTHS - 1; back >= 0; back -= 1) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    points.push({ month: start.toISOString().slice(0, 7), asOf: back === 0 ? now : next });
  }
  return points;
}

/** The MRR history: the MRR report's totals at each of the instants, read in one statement. */
export async function mrrHistory(deps: Pick<ServiceDeps, 'db' | 'pool'>, now: Date): Promise<MrrPoint[]> {
  const instants = mrrInstants(now);
  const totals = await mrrTotalsReport(deps, instants.map((point) => point.asOf));
  return instants.map(({ month, asOf }) => ({ month, asOf, totals: totals.get(asOf.getTime()) ?? new Map<string, bigint>() }));
}

const AGING_BUCKETS = [
  ['current_nanos', 'Current'],
  ['days_1_30_nanos', '1–30 days'],
  ['days_31_60_nanos', '31–60 days'],
  ['days_61_90_nanos', '61–90 days'],
  ['over_90_nanos', 'Over 90 days'],
] as const;

export interface OverviewNotice {
  tone: 'ok' | 'error';
  text: string;
}

function mrrSection(history: MrrPoint[]): string {
  const currencies = [...new Set(history.flatMap((p) => [...p.totals.keys()]))].sort();
  const charts = currencies.map((currency) => {
    const bars: Bar[] = history.map((p) => {
      const value = p.totals.get(currency) ?? 0n;
      return { label: p.month, value, text: formatAmount(value, currency, LOCALE) };
    });
    const rows = history.map((p, i) => [esc(p.month), `<span class="mono">${esc(p.asOf.toISOString())}</span>`, esc(bars[i]!.text), `<span class="mono">${bars[i]!.value}</span>`]);
    return (
      `<div class="mrr" data-currency="${esc(currency)}"><h3>${esc(currency)}</h3>${barChart(`MRR in ${currency}, last ${MRR_MONTHS} months`, bars)}` +
      table(['Month', 'As of', 'MRR', 'MRR (raw units)'], rows, { numeric: [2, 3], caption: `MRR in ${currency} at the end of each month (the current month: now)` }) +
      '</div>'
    );
  });
  return `<section id="mrr"><h2>MRR, last ${MRR_MONTHS} months</h2>${charts.length === 0 ? '<p class="muted">No recurring revenue in the last 12 months.</p>' : charts.join('')}</section>`;
}

function agingSection(aging: Awaited<ReturnType<typeof arAgingReport>>): string {
  const charts = aging.totals.map((total) => {
    const bars: Bar[] = AGING_BUCKETS.map(([key, label]) => {
      const value = BigInt(total[key]);
      return { label, value, text: formatAmount(value, total.currency, LOCALE) };
    });
    const rows = bars.map((bar) => [esc(bar.label), esc(bar.text), `<span class="mono">${bar.value}</span>`]);
    rows.push(['<strong>Total</strong>', `<strong>${esc(formatAmount(BigInt(total.total_nanos), total.currency, LOCALE))}</strong>`, `<span class="mono">${total.total_nanos}</span>`]);
    return (
      `<div class="aging" data-currency="${esc(total.currency)}"><h3>${esc(total.currency)}</h3>${barChart(`Accounts receivable aging in ${total.currency}`, bars, (i) => `bar aged b${i}`)}` +
      table(['Bucket', 'Open amount', 'Raw units'], rows, { numeric: [1, 2], caption: `Open receivables in ${total.currency} by days past due` }) +
      '</div>'
    );
  });
  return `<section id="ar-aging"><h2>Accounts receivable aging</h2><p class="muted">As of ${esc(aging.as_of)} (each customer's invoices aged at its own time).</p>${
    charts.length === 0 ? '<p class="muted">Nothing is owed.</p>' : charts.join('')
  }</section>`;
}

const ENTITY_LABEL: Record<HeldWorkflow['entity'], string> = {
  subscription: 'Subscription',
  invoice: 'Invoice',
  dunning_schedule: 'Dunning schedule (invoice)',
  contract: 'Contract',
  processor_event: 'Processor notification',
  wallet_top_up: 'Wallet top-up',
};

/** Where the operator views show a held resource: its own page, or its invoice's for a dunning schedule. */
function resourceHref(held: { entity: HeldWorkflow['entity']; id: string }): string | null {
  if (held.entity === 'subscription') return `/admin/subscriptions/${held.id}`;
  if (held.entity === 'invoice' || held.entity === 'dunning_schedule') return `/admin/invoices/${held.id}`;
  return null;
}

/** The Retry form of a held resource. */
export const retryForm = (session: PageSession, entity: HeldWorkflow['entity'], id: string): string =>
  `<form class="retry" method="post" action="/admin/held/${esc(entity)}/${esc(encodeURIComponent(id))}/retry">${csrfField(session)}<button type="submit">Retry</button></form>`;

function heldSection(held: HeldWorkflow[], session: PageSession, settings: OperatorViewSettings): string {
  const rows = held.map((h) => {
    const href = resourceHref(h);
    const workflow = workflowLink(settings, h.entity, h.id);
    return [
      esc(ENTITY_LABEL[h.entity]),
      href ? link(href, h.id) : `<span class="mono">${esc(h.id)}</span>`,
      h.customerId ? link(`/admin/customers/${h.customerId}`, h.customerName ?? h.customerId) : '<span class="muted">—</span>',
      `<span class="mono">${esc(h.billingError.step)}</span><br><span class="muted">${esc(h.billingError.type)}</span>`,
      `<span class="error">${esc(h.billingError.message)}</span>`,
      esc(h.billingError.failed_at),
      externalLink(workflow.url, workflow.workflowId),
      retryForm(session, h.entity, h.id),
    ];
  });
  return `<section id="held"><h2>Held workflows <span class="badge">${held.length}</span></h2><p class="muted">Each waits for an operator: fix the cause, then retry (the step runs again; it stays here when it fails again).</p>${table(
    ['Kind', 'Resource', 'Customer', 'Step', 'Error', 'Failed at', 'Workflow', ''],
    rows,
    { empty: 'No workflow is held.' },
  )}</section>`;
}

function advancesSection(clocks: TestClockView[], settings: OperatorViewSettings): string {
  const rows = clocks.map((clock) => {
    const advance = clock.advance!;
    const workflow = workflowLink(settings, 'test_clock_advance', clock.id);
    const progress = `<progress value="${advance.subscriptions_done}" max="${Math.max(advance.subscriptions_total, 1)}">${advance.subscriptions_done} of ${advance.subscriptions_total}</progress> <span class="done">${advance.subscriptions_done} of ${advance.subscriptions_total}</span> subscriptions`;
    return [
      `${esc(clock.name)}<br><span class="mono muted">${esc(clock.id)}</span>`,
      `<span class="status badge">${esc(clock.status)}</span>${advance.error ? `<br><span class="error">${esc(advance.error.message)}</span>` : ''}`,
      `<span class="simulated">${esc(advance.simulated_time)}</span><br><span class="muted">to ${esc(clock.frozen_time)}</span>`,
      progress,
      `${esc(advance.started_at)}<br><span class="muted">${advance.finished_at ? `finished ${esc(advance.finished_at)}` : 'running'}</span>`,
      externalLink(workflow.url, workflow.workflowId),
    ];
  });
  const running = clocks.filter((c) => c.status === 'advancing').length;
  return `<section id="advances"><h2>Test-clock advances</h2><p class="muted">${
    running > 0 ? `${running} running: this page reloads every ${ADVANCE_REFRESH_SECONDS} seconds.` : 'None running.'
  }</p>${table(['Clock', 'Status', 'Clock time reached', 'Progress', 'Started (wall time)', 'Workflow'], rows, { empty: 'No test clock was advanced yet.' })}</section>`;
}

const noticeHtml = (notice: OverviewNotice | undefined): string => (notice ? `<p class="notice ${notice.tone}" role="status">${esc(notice.text)}</p>` : '');

/** The overview page, read at `now` (the wall clock). */
export async function operatorOverviewPage(
  deps: Pick<ServiceDeps, 'db' | 'pool' | 'clock'>,
  settings: OperatorViewSettings,
  session: PageSession,
  notice?: OverviewNotice,
): Promise<string> {
  const now = deps.clock();
  const [history, aging, held, clocks] = await Promise.all([
    mrrHistory(deps, now),
    arAgingReport(deps, undefined, {}),
    listHeldWorkflows(deps),
    listClocksByAdvance(deps.db, ADVANCES_SHOWN).then((rows) => rows.map(testClockView)),
  ]);
  const running = clocks.some((c) => c.status === 'advancing');
  return operatorPage({
    title: 'Billing operator',
    session,
    refreshSeconds: running ? ADVANCE_REFRESH_SECONDS : undefined,
    body: `<h1>Overview</h1>${noticeHtml(notice)}${heldSection(held, session, settings)}${advancesSection(clocks, settings)}${mrrSection(history)}${agingSection(aging)}`,
  });
}
