/**
 * The readable version of an invoice's explanation (GET /v1/invoices/:id/explain), linked from the
 * hosted invoice page as "How was this calculated?": per line, the plan phases, the meter and its
 * filters, the window and the events counted, each tier, the adjustments and the steps from list
 * price to the amount; then the totals, the settlement and where rounding happened.
 */
import { toDisplay } from '../../core/index.js';
import type { Db } from '../../db/client.js';
import type { InvoiceExplanationView } from '../../schemas/invoicing.js';
import { explainInvoice } from '../invoicing/explain.js';
import { renderExplanationHtml, type ExplanationPage } from './html.js';

type Line = InvoiceExplanationView['lines'][number];

const date = (iso: string | null): string => (iso === null ? '—' : iso.replace('T00:00:00.000Z', '').replace('.000Z', 'Z'));

function lineRows(line: Line, money: (raw: string) => string): { label: string; value: string }[] {
  const rows: { label: string; value: string }[] = [];
  for (const phase of line.plan_phases) {
    rows.push({ label: `${phase.plan_name} (version ${phase.plan_version}), ${date(phase.from)} to ${date(phase.to)}`, value: `${phase.quantity} → ${money(phase.amount_nanos)}` });
    if (phase.proration) rows.push({ label: `Prorated: ${phase.proration.days_used} of ${phase.proration.days_in_period} days`, value: `${phase.proration.days_used}/${phase.proration.days_in_period}` });
  }
  for (const usage of line.usage) {
    const filters = usage.meter.filters.map((f) => `${f.property} ${f.operator} ${JSON.stringify(f.value)}`).join(', ');
    const meter = usage.meter.meter_id === null ? `default of ${usage.meter.event_type}` : `meter ${usage.meter.name ?? usage.meter.meter_id}`;
    rows.push({ label: `${meter}: ${usage.meter.aggregation}${usage.meter.property ? ` of ${usage.meter.property}` : ''}${filters ? ` where ${filters}` : ''}`, value: usage.aggregate });
    rows.push({ label: `Window ${date(usage.window.from)} to ${date(usage.window.to)}`, value: `${usage.event_count} events` });
    if (usage.first_event && usage.last_event) rows.push({ label: `First event ${date(usage.first_event.occurred_at)}, last ${date(usage.last_event.occurred_at)}`, value: '' });
  }
  for (const tier of line.tiers) rows.push({ label: `Tier ${tier.tier + 1}: ${tier.quantity} units above ${tier.from}${tier.up_to === null ? '' : ` up to ${tier.up_to}`}`, value: money(tier.amount_nanos) });
  for (const step of line.steps) rows.push({ label: step.step === 'list_price' ? 'List price' : `${step.step}: ${step.description}`, value: `${step.change_nanos.startsWith('-') ? '' : '+'}${money(step.change_nanos)} = ${money(step.amount_nanos)}` });
  if (line.tax) rows.push({ label: `Tax rule: ${line.tax.rule}`, value: `on ${money(line.tax.taxable_amount_nanos)}` });
  return rows;
}

export function explanationPage(explanation: InvoiceExplanationView): ExplanationPage {
  const money = (raw: string) => `${toDisplay(BigInt(raw), explanation.currency).text} ${explanation.currency}`;
  const title = `How invoice ${explanation.invoice_number ?? explanation.invoice_id} was calculated`;
  return {
    title,
    heading: title,
    facts: [
      { label: 'Period', value: `${date(explanation.period_start)} to ${date(explanation.period_end)}` },
      { label: 'Sum of the lines', value: money(explanation.totals.lines_sum_nanos) },
      { label: 'Total', value: money(explanation.totals.total_nanos) },
      ...explanation.settlement.slice(1).map((step) => ({ label: step.description, value: money(step.change_nanos) })),
      { label: 'Amount due', value: money(explanation.totals.amount_due_nanos) },
    ],
    lines: explanation.lines.map((line) => ({ description: line.description, amount: money(line.amount_nanos), rows: lineRows(line, money) })),
    notes: explanation.rounding.map((r) => `Rounding (${r.stage}): ${r.rule}.`),
  };
}

/** The hosted explanation page of an invoice. */
export async function hostedExplanationPage(db: Db, invoiceId: string, invoiceHref: string): Promise<string> {
  return renderExplanationHtml(explanationPage(await explainInvoice(db, invoiceId)), invoiceHref);
}
