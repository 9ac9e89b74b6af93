/**
 * Renders the README's example invoice with the engine's own code, no services needed: a seeded
 * consolidated invoice whose lines are rated by the pricing core (a flat plan fee, graduated API
 * usage under a 10% contract discount, a subsidiary's usage), taxed by the flat-rate adapter,
 * turned into the API's invoice view and drawn by the document renderer.
 *
 *   npx tsx scripts/render-example-invoice.ts [out.pdf]
 *
 * Writes docs/example-invoice.pdf (or the given path), and docs/example-invoice.png next to it when
 * `pdftoppm` (Debian's poppler-utils) is on PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { rateSku, serializeRatedLine, type RatedLine } from '../src/core/index.js';
import { toDecimal } from '../src/db/money.js';
import type { InvoiceLineRow, InvoiceRow } from '../src/db/invoices.js';
import type { Prisma } from '../src/generated/prisma/client.js';
import { PROJECT_ROOT } from '../src/dev/paths.js';
import { flatRateTax } from '../src/services/billing/tax.js';
import { invoiceDocumentModel, postalAddressLines, type DocumentParties } from '../src/services/documents/model.js';
import { renderPdf } from '../src/services/documents/pdf.js';
import { toInvoiceView } from '../src/services/invoicing/invoices.js';

const UNIT = 10n ** 12n;
const PERIOD = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-11-01T00:00:00Z') };
const FINALIZED_AT = new Date('2026-11-01T01:00:00Z');
const IDS = { invoice: '019a4000-0000-7000-8000-000000000001', payer: '019a4000-0000-7000-8000-0000000000c1', child: '019a4000-0000-7000-8000-0000000000c2' };

const parties: DocumentParties = {
  seller: { name: 'Northwind Metering Ltd', lines: ['40 Ledger Lane', 'London', 'EC1A 1BB', 'United Kingdom', 'billing@northwind.example'], taxId: 'GB 123 4567 89' },
  payer: { name: 'Acme Corporation', lines: [...postalAddressLines({ line1: '500 Market Street', line2: 'Suite 900', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' }), 'ap@acme.example'], taxId: null },
};

const apiUsage = rateSku(
  {
    sku_id: '019a4000-0000-7000-8000-0000000000a2',
    name: 'API requests',
    pricing_model: 'Graduated',
    unit_amount_nanos: 0n,
    currency: 'USD',
    tiers: [
      { up_to: 100_000n, unit_amount_nanos: 0n },
      { up_to: 1_000_000n, unit_amount_nanos: 4n * 10n ** 8n },
      { up_to: null, unit_amount_nanos: 25n * 10n ** 7n },
    ],
  },
  '1284350',
  { discount_bps: 1000 },
);
const platformFee = rateSku({ sku_id: '019a4000-0000-7000-8000-0000000000a1', name: 'Growth plan (monthly)', pricing_model: 'Flat', unit_amount_nanos: 499n * UNIT, currency: 'USD' }, '1');
const childStorage = rateSku(
  { sku_id: '019a4000-0000-7000-8000-0000000000a3', name: 'Storage (GB-month)', pricing_model: 'PerUnit', unit_amount_nanos: 23n * 10n ** 9n, currency: 'USD' },
  '3120.5',
);

let sequence = 0;
function line(rated: RatedLine, kind: string, by?: { id: string; name: string }): InvoiceLineRow {
  sequence += 1;
  return {
    id: `019a4000-0000-7000-8000-0000000001${String(sequence).padStart(2, '0')}`,
    invoiceId: IDS.invoice,
    kind,
    description: rated.description,
    skuId: rated.sku_id,
    planId: null,
    subscriptionId: null,
    customerId: by?.id ?? null,
    customerName: by?.name ?? null,
    quantity: rated.quantity,
    unitAmountNanos: toDecimal(rated.unit_amount_nanos),
    amountNanos: toDecimal(rated.amount_nanos),
    isTax: false,
    periodStart: PERIOD.start,
    periodEnd: PERIOD.end,
    detail: serializeRatedLine(rated) as unknown as Prisma.JsonValue,
    pricingTrace: null,
    dimensions: null,
    createdAt: FINALIZED_AT,
  };
}

const charges = [line(platformFee, 'fee'), line(apiUsage, 'usage'), line(childStorage, 'usage', { id: IDS.child, name: 'Acme Europe GmbH' })];
const taxes = flatRateTax(2000)
  .calculate({
    currency: 'USD',
    customer: { id: IDS.payer, taxId: null },
    lines: charges.map((charge) => ({ id: charge.id, description: charge.description, amountNanos: BigInt(charge.amountNanos.toFixed(0)) })),
  })
  .map((tax, i): InvoiceLineRow => ({
    ...charges[0]!,
    id: `019a4000-0000-7000-8000-0000000002${String(i).padStart(2, '0')}`,
    kind: 'tax',
    description: tax.description,
    skuId: null,
    customerId: null,
    customerName: null,
    quantity: '1',
    unitAmountNanos: null,
    amountNanos: toDecimal(tax.amountNanos),
    isTax: true,
    detail: (tax.detail ?? null) as Prisma.JsonValue,
  }));
const credit: InvoiceLineRow = { ...charges[0]!, id: '019a4000-0000-7000-8000-000000000301', kind: 'credit', description: 'Onboarding credit', skuId: null, quantity: '1', unitAmountNanos: null, amountNanos: toDecimal(-50n * UNIT), detail: null };
const lines = [...charges, ...taxes, credit];

const sum = (rows: InvoiceLineRow[]) => rows.reduce((total, row) => total + BigInt(row.amountNanos.toFixed(0)), 0n);
const subtotal = sum(charges);
const tax = sum(taxes);
const total = subtotal + tax - 50n * UNIT;
const invoice: InvoiceRow = {
  id: IDS.invoice,
  customerId: IDS.payer,
  subscriptionId: null,
  metadata: {},
  currency: 'USD',
  status: 'Open',
  invoiceNumber: 'INV-000128',
  billingReason: 'subscription_cycle',
  periodStart: PERIOD.start,
  periodEnd: PERIOD.end,
  subtotalNanos: toDecimal(subtotal),
  taxNanos: toDecimal(tax),
  creditsAppliedNanos: toDecimal(50n * UNIT),
  totalNanos: toDecimal(total),
  creditedNanos: toDecimal(0n),
  walletAppliedNanos: toDecimal(0n),
  dueReducedNanos: toDecimal(0n),
  customerBalanceAppliedNanos: toDecimal(0n),
  billingError: null,
  taxAdapter: 'flat:2000',
  testClockId: null,
  dueAt: new Date(FINALIZED_AT.getTime() + 30 * 86_400_000),
  finalizedAt: FINALIZED_AT,
  paidAt: null,
  paidByActorId: null,
  paidByActorName: null,
  paidReference: null,
  voidedAt: null,
  createdAt: PERIOD.start,
  updatedAt: FINALIZED_AT,
};

const out = path.resolve(process.argv[2] ?? path.join(PROJECT_ROOT, 'docs', 'example-invoice.pdf'));
const pdf = await renderPdf(invoiceDocumentModel(toInvoiceView(invoice, lines), [], parties, { locale: 'en-US' }));
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, pdf);
process.stdout.write(`wrote ${path.relative(process.cwd(), out)} (${pdf.length} bytes)\n`);
try {
  execFileSync('pdftoppm', ['-png', '-r', '110', '-singlefile', out, out.replace(/\.pdf$/, '')], { stdio: 'inherit' });
  process.stdout.write(`wrote ${path.relative(process.cwd(), out.replace(/\.pdf$/, '.png'))}\n`);
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  process.stdout.write('pdftoppm not found (Debian: apt-get install poppler-utils): no PNG written\n');
}
