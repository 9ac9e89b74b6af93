/**
 * What an invoice or credit note document says, independent of how it is drawn (PDF or the hosted
 * HTML page draw this same model, so the two never disagree). Every amount comes from the raw
 * `*_nanos` of the API's view, formatted by format.ts with the one display rounding: the document's
 * numbers are the API's.
 */
import type { CreditNoteView, InvoiceLineView, InvoiceView } from '../../schemas/invoicing.js';
import { formatAmount, formatDate, formatQuantity, formatUnitPrice, lastDayOf } from './format.js';
import { formatBasisPoints } from '../../core/index.js';

export interface Party {
  name: string;
  /** Postal address lines, then contact lines. */
  lines: string[];
  taxId: string | null;
}

export interface DocumentParties {
  seller: Party;
  payer: Party;
}

/** A postal address as stored on the customer (BillingAddress). */
export interface PostalAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/**
 * The lines of a postal address in the order its country's post expects: in the US and Canada the
 * city, state or province and ZIP or postal code on one line ("Springfield, OR 97477"); in the
 * United Kingdom the post town and the postcode on lines of their own; elsewhere the postal code
 * before the city ("10115 Berlin"), a region on its own line. The country code closes the block.
 */
export function postalAddressLines(address: PostalAddress): string[] {
  const lines = [address.line1];
  if (address.line2) lines.push(address.line2);
  const country = address.country.toUpperCase();
  const join = (parts: (string | null)[], separator: string) => parts.filter((part): part is string => Boolean(part)).join(separator);
  if (country === 'US' || country === 'CA') {
    lines.push(join([address.city, join([address.state, address.postal_code], ' ')], ', '));
  } else if (country === 'GB') {
    lines.push(address.city);
    if (address.state) lines.push(address.state);
    if (address.postal_code) lines.push(address.postal_code);
  } else {
    lines.push(join([address.postal_code, address.city], ' '));
    if (address.state) lines.push(address.state);
  }
  lines.push(address.country);
  return lines.filter((line) => line.trim() !== '');
}

export interface DocumentRow {
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  /** A breakdown row (tier, adjustment) under the line it explains. */
  detail: boolean;
  /** A tax line. */
  tax: boolean;
}

export interface DocumentSection {
  /** The child account the lines were incurred by on a consolidated invoice; null for the payer's own. */
  title: string | null;
  rows: DocumentRow[];
  /** The section's subtotal, when the document has several sections. */
  subtotal: string | null;
}

export interface SummaryRow {
  label: string;
  amount: string;
  strong: boolean;
}

export interface DocumentModel {
  /** File and page title, e.g. "Invoice INV-000042". */
  title: string;
  heading: 'Invoice' | 'Credit note';
  /** Stamped across the page: DRAFT (no number yet), VOID, PAID. */
  mark: 'DRAFT' | 'VOID' | 'PAID' | null;
  number: string | null;
  facts: { label: string; value: string }[];
  parties: DocumentParties;
  sections: DocumentSection[];
  summary: SummaryRow[];
  notes: string[];
  /** The instant the document shows (PDF creation date): fixed per edition, so renders are byte-identical. */
  issuedAt: Date;
}

export interface DocumentFormat {
  locale: string;
}

interface RatedTierJson {
  /** 0-based, printed from 1. */
  tier?: number;
  from?: string;
  up_to?: string | null;
  quantity?: string;
  unit_amount_nanos?: string;
  flat_amount_nanos?: string;
  amount_nanos?: string;
}

interface AdjustmentJson {
  kind?: string;
  basis_points?: number;
  amount_nanos?: string;
  description?: string;
}

interface RatedLineJson {
  pricing_model?: string;
  list_amount_nanos?: string;
  tiers?: RatedTierJson[];
  adjustments?: AdjustmentJson[];
  percentage?: { basis_points?: number; per_event_fee_nanos?: string; per_event_minimum_nanos?: string | null; per_event_maximum_nanos?: string | null };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const INTEGER = /^-?[0-9]+$/;
const raw = (text: string | undefined | null): bigint | null => (typeof text === 'string' && INTEGER.test(text) ? BigInt(text) : null);

const TIERED = new Set(['Graduated', 'Volume']);

/** Rows for one line: the line, then its tier breakdown (tiered prices) and the adjustments applied. */
function lineRows(line: InvoiceLineView, currency: string, fmt: DocumentFormat, withAccount: boolean): DocumentRow[] {
  const money = (value: bigint) => formatAmount(value, currency, fmt.locale);
  const unit = raw(line.unit_amount_nanos);
  const description = withAccount && line.customer_name ? `${line.description} (${line.customer_name})` : line.description;
  const detail = isObject(line.detail) ? (line.detail as RatedLineJson) : null;
  const tiers = detail && Array.isArray(detail.tiers) ? detail.tiers : [];
  // A tiered line has no single unit price: its tiers below show each one.
  const tiered = detail !== null && (TIERED.has(detail.pricing_model ?? '') || tiers.length > 1);
  const rows: DocumentRow[] = [
    {
      description,
      quantity: line.is_tax ? '' : formatQuantity(line.quantity, fmt.locale),
      unitPrice: unit === null || tiered ? '' : formatUnitPrice(unit, currency, fmt.locale),
      amount: money(BigInt(line.amount_nanos)),
      detail: false,
      tax: line.is_tax,
    },
  ];
  if (!detail) return rows;
  if (tiered) {
    for (const tier of tiers) {
      const amount = raw(tier.amount_nanos);
      if (amount === null) continue;
      const from = formatQuantity(tier.from ?? '0', fmt.locale);
      const range = tier.up_to === null || tier.up_to === undefined ? `over ${from}` : `${from} to ${formatQuantity(tier.up_to, fmt.locale)}`;
      const flat = raw(tier.flat_amount_nanos);
      const unitAmount = raw(tier.unit_amount_nanos);
      rows.push({
        description: `Tier ${typeof tier.tier === 'number' ? tier.tier + 1 : ''}: ${range}${flat ? ` (flat ${money(flat)})` : ''}`,
        quantity: tier.quantity ? formatQuantity(tier.quantity, fmt.locale) : '',
        unitPrice: unitAmount === null ? '' : formatUnitPrice(unitAmount, currency, fmt.locale),
        amount: money(amount),
        detail: true,
        tax: false,
      });
    }
  }
  const percentage = isObject(detail.percentage) ? detail.percentage : null;
  if (percentage !== null && typeof percentage.basis_points === 'number') {
    // The terms each event's fee was computed with; the line's quantity is the sum of those fees.
    const fee = raw(percentage.per_event_fee_nanos);
    const min = raw(percentage.per_event_minimum_nanos);
    const max = raw(percentage.per_event_maximum_nanos);
    const bounds = [min === null ? null : `min ${money(min)}`, max === null ? null : `max ${money(max)}`].filter((b) => b !== null);
    rows.push({
      description: `${formatBasisPoints(percentage.basis_points)} of each amount${fee ? ` + ${money(fee)}` : ''} per event${bounds.length > 0 ? ` (${bounds.join(', ')})` : ''}`,
      quantity: '',
      unitPrice: '',
      amount: '',
      detail: true,
      tax: false,
    });
  }
  const adjustments = Array.isArray(detail.adjustments) ? detail.adjustments : [];
  if (adjustments.length > 0) {
    const list = raw(detail.list_amount_nanos);
    if (list !== null) rows.push({ description: 'List price', quantity: '', unitPrice: '', amount: money(list), detail: true, tax: false });
    for (const adjustment of adjustments) {
      const amount = raw(adjustment.amount_nanos);
      if (amount === null) continue;
      rows.push({ description: adjustment.description ?? adjustment.kind ?? 'Adjustment', quantity: '', unitPrice: '', amount: money(amount), detail: true, tax: false });
    }
  }
  return rows;
}

/** The whole number of days between two instants (payment terms), for "Net 30". */
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The invoice's status as the payer reads it. */
function paymentStatus(invoice: InvoiceView): string {
  switch (invoice.status) {
    case 'Draft':
      return 'Draft (not yet issued)';
    case 'Open':
      return invoice.due_at ? `Unpaid, due ${formatDate(invoice.due_at)}` : 'Unpaid';
    case 'Paid':
      return invoice.paid_at ? `Paid on ${formatDate(invoice.paid_at)}` : 'Paid';
    case 'Void':
      return invoice.voided_at ? `Void since ${formatDate(invoice.voided_at)}` : 'Void';
  }
}

/** Where a credit invoice's credit went: a credit note on another invoice. */
export interface CreditApplication {
  note: CreditNoteView;
  invoiceNumber: string | null;
}

export function invoiceDocumentModel(
  invoice: InvoiceView,
  creditNotes: CreditNoteView[],
  parties: DocumentParties,
  fmt: DocumentFormat,
  applications: CreditApplication[] = [],
): DocumentModel {
  const currency = invoice.currency;
  const money = (value: string | bigint) => formatAmount(BigInt(value), currency, fmt.locale);
  const draft = invoice.status === 'Draft';

  const facts: { label: string; value: string }[] = [];
  if (!draft && invoice.invoice_number) facts.push({ label: 'Invoice number', value: invoice.invoice_number });
  if (invoice.finalized_at) facts.push({ label: 'Issue date', value: formatDate(invoice.finalized_at) });
  if (invoice.due_at) {
    const terms = invoice.finalized_at ? ` (net ${daysBetween(invoice.finalized_at, invoice.due_at)} days)` : '';
    facts.push({ label: 'Due date', value: `${formatDate(invoice.due_at)}${terms}` });
  }
  if (invoice.period_start && invoice.period_end) {
    facts.push({ label: 'Service period', value: `${formatDate(invoice.period_start)} to ${lastDayOf(invoice.period_end)}` });
  }
  facts.push({ label: 'Currency', value: currency });
  facts.push({ label: 'Status', value: paymentStatus(invoice) });

  // Charges grouped by the account that incurred them (consolidated invoices); the payer's own first.
  const charges = invoice.line_items.filter((line) => !line.is_tax && line.kind !== 'credit');
  const groups = new Map<string | null, { title: string | null; lines: InvoiceLineView[] }>();
  for (const line of charges) {
    const own = line.customer_id === null || line.customer_id === invoice.customer_id;
    const key = own ? null : line.customer_id;
    const group = groups.get(key) ?? { title: own ? null : (line.customer_name ?? line.customer_id), lines: [] };
    group.lines.push(line);
    groups.set(key, group);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : 0)).map(([, group]) => group);
  const consolidated = ordered.length > 1 || ordered.some((group) => group.title !== null);
  const sections: DocumentSection[] = ordered.map((group) => ({
    title: consolidated ? (group.title ?? parties.payer.name) : null,
    rows: group.lines.flatMap((line) => lineRows(line, currency, fmt, false)),
    subtotal: consolidated ? money(group.lines.reduce((sum, line) => sum + BigInt(line.amount_nanos), 0n)) : null,
  }));
  const taxLines = invoice.line_items.filter((line) => line.is_tax);
  if (taxLines.length > 0) {
    sections.push({ title: 'Tax', rows: taxLines.flatMap((line) => lineRows(line, currency, fmt, true)), subtotal: null });
  }

  const summary: SummaryRow[] = [
    { label: 'Subtotal', amount: money(invoice.subtotal_nanos), strong: false },
    { label: `Tax${invoice.tax_adapter ? ` (${invoice.tax_adapter})` : ''}`, amount: money(invoice.tax_nanos), strong: false },
  ];
  for (const credit of invoice.line_items.filter((line) => line.kind === 'credit')) {
    summary.push({ label: `Credit applied: ${credit.description}`, amount: money(credit.amount_nanos), strong: false });
  }
  summary.push({ label: 'Total', amount: money(invoice.total_nanos), strong: true });
  // From the total to the amount due, every step shown, so the summary adds up: where a credit
  // invoice's credit went, what credit notes took off the amount due, the customer balance and wallet
  // credit applied, what was paid (or voided). Each credit note is named once: on its summary row
  // (the part that reduced the amount due, its label naming the parts that gave back settled money),
  // or, when it took nothing off the amount due, in one line under the summary.
  let left = BigInt(invoice.total_nanos);
  for (const { note, invoiceNumber } of applications) {
    summary.push({ label: `Applied to invoice ${invoiceNumber ?? note.invoice_id} as ${note.number}`, amount: money(note.amount_nanos), strong: false });
    left += BigInt(note.amount_nanos);
  }
  const step = (label: string, amount: bigint) => {
    if (amount === 0n) return;
    summary.push({ label, amount: money(-amount), strong: false });
    left -= amount;
  };
  const givenBack = (note: CreditNoteView): string[] =>
    (
      [
        [note.refund_amount_nanos, 'refunded'],
        [note.credit_amount_nanos, "put on the customer's credit balance"],
        [note.out_of_band_amount_nanos, 'settled out of band'],
      ] as const
    )
      .filter(([amount]) => BigInt(amount) !== 0n)
      .map(([amount, how]) => `${money(amount)} ${how}`);
  for (const note of creditNotes) {
    const parts = givenBack(note);
    const label = `Credit note ${note.number} (${formatDate(note.created_at)})`;
    step(parts.length === 0 ? label : `${label}: ${money(note.amount_nanos)}, of which ${parts.join(', ')}`, BigInt(note.due_reduction_nanos));
  }
  step('Customer credit balance applied', BigInt(invoice.customer_balance_applied_nanos));
  step('Paid from credit wallet', BigInt(invoice.wallet_applied_nanos));
  const settledOrVoided = left - BigInt(invoice.amount_due_nanos);
  if (invoice.status === 'Paid') step(invoice.paid_at ? `Paid on ${formatDate(invoice.paid_at)}` : 'Paid', settledOrVoided);
  else if (invoice.status === 'Void') step('Voided', settledOrVoided);
  summary.push({ label: 'Amount due', amount: money(invoice.amount_due_nanos), strong: true });

  const notes: string[] = [];
  for (const note of creditNotes) {
    if (BigInt(note.due_reduction_nanos) === 0n) {
      notes.push(`Credit note ${note.number} (${formatDate(note.created_at)}) gave back paid amounts: ${givenBack(note).join(', ')}.`);
    }
  }
  if (draft) notes.push('This is a draft: its lines may still change, and it has no invoice number yet.');
  if (invoice.status === 'Void') notes.push('This invoice was voided and is not payable.');

  return {
    title: draft ? 'Draft invoice' : `Invoice ${invoice.invoice_number ?? ''}`.trim(),
    heading: 'Invoice',
    mark: draft ? 'DRAFT' : invoice.status === 'Void' ? 'VOID' : invoice.status === 'Paid' ? 'PAID' : null,
    number: draft ? null : invoice.invoice_number,
    facts,
    parties,
    sections,
    summary,
    notes,
    issuedAt: new Date(invoice.finalized_at ?? invoice.created_at),
  };
}

const REASONS: Record<CreditNoteView['reason'], string> = {
  duplicate: 'Duplicate charge',
  fraudulent: 'Fraudulent charge',
  order_change: 'Order change',
  product_unsatisfactory: 'Product unsatisfactory',
  other: 'Other',
};

export function creditNoteDocumentModel(note: CreditNoteView, invoice: InvoiceView, parties: DocumentParties, fmt: DocumentFormat): DocumentModel {
  const money = (value: string | bigint) => formatAmount(BigInt(value), note.currency, fmt.locale);
  const reference = invoice.invoice_number ?? invoice.id;
  const facts = [
    { label: 'Credit note number', value: note.number },
    { label: 'Issue date', value: formatDate(note.created_at) },
    { label: 'Credits invoice', value: `${reference}${invoice.finalized_at ? ` of ${formatDate(invoice.finalized_at)}` : ''}` },
    { label: 'Reason', value: REASONS[note.reason] },
    { label: 'Currency', value: note.currency },
  ];
  return {
    title: `Credit note ${note.number}`,
    heading: 'Credit note',
    mark: null,
    number: note.number,
    facts,
    parties,
    sections: [
      {
        title: null,
        rows: [{ description: `Credit against invoice ${reference}`, quantity: '1', unitPrice: money(note.amount_nanos), amount: money(note.amount_nanos), detail: false, tax: false }],
        subtotal: null,
      },
    ],
    summary: [
      { label: `Invoice ${reference} total`, amount: money(invoice.total_nanos), strong: false },
      ...(
        [
          ['Reduces the amount due', note.due_reduction_nanos],
          ['Refunded to the original payment method', note.refund_amount_nanos],
          ['Credited to the customer balance', note.credit_amount_nanos],
          ['Settled out of band', note.out_of_band_amount_nanos],
        ] as const
      )
        .filter(([, amount]) => BigInt(amount) !== 0n)
        .map(([label, amount]) => ({ label, amount: money(amount), strong: false })),
      { label: 'Amount credited', amount: money(note.amount_nanos), strong: true },
    ],
    notes: note.memo ? [note.memo] : [],
    issuedAt: new Date(note.created_at),
  };
}
