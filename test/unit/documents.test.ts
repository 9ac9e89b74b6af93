/**
 * Invoice documents without services: amounts formatted from raw units with the one display
 * rounding, hosted links that cannot be forged or altered, and PDFs that are a pure function of
 * the invoice (byte-identical renders) and show what the invoice says.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import fc from 'fast-check';
import { ISO_4217, ONE_UNIT as UNIT, toDisplay } from '../../src/core/index.js';
import { loadApiConfig, loadWorkerConfig } from '../../src/config.js';
import { formatAmount, formatQuantity, formatUnitPrice, lastDayOf } from '../../src/services/documents/format.js';
import { hostedFormToken, hostedInvoiceUrl, hostedLinkToken, renewedHostedLink, verifyHostedFormToken, verifyHostedLinkToken } from '../../src/services/documents/hosted-links.js';
import { renderHostedError, renderHtml } from '../../src/services/documents/html.js';
import { creditNoteDocumentModel, invoiceDocumentModel, postalAddressLines, type DocumentParties } from '../../src/services/documents/model.js';
import { renderPdf } from '../../src/services/documents/pdf.js';
import { documentSettingsOf } from '../../src/services/documents/settings.js';
import type { InvoiceLineView, InvoiceView } from '../../src/schemas/invoicing.js';
import { enUs, pdfText } from '../support/documents.js';

describe('amounts on documents', () => {
  it('rounds once, HalfEven, to the minor unit of USD, JPY and KWD, exactly like the JSON display strings', () => {
    const cases: [bigint, string, string][] = [
      [1_005n * 10n ** 9n, 'USD', '$1.00'], // 1.005 → 1.00 (tie to even)
      [1_015n * 10n ** 9n, 'USD', '$1.02'], // 1.015 → 1.02 (tie to even)
      [1_234_567n * UNIT + UNIT / 2n, 'JPY', '¥1,234,568'], // .5 → even
      [-(12n * UNIT + 3_455n * 10n ** 8n), 'KWD', '-KWD 12.346'],
      [99_999_999_999_999_999_999_999n * UNIT, 'USD', '$99,999,999,999,999,999,999,999.00'],
    ];
    for (const [raw, currency, printed] of cases) {
      expect(formatAmount(raw, currency, 'en-US').replace(/\u00a0/g, ' ')).toBe(printed);
      expect(formatAmount(raw, currency, 'en-US').replace(/\u00a0/g, ' ')).toBe(enUs(toDisplay(raw, currency).text, currency));
    }
  });

  it('prints the digits of the JSON display string for any amount in any currency (property)', () => {
    const currencies = [...ISO_4217];
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 37n), max: 10n ** 37n }), fc.constantFrom(...currencies), (raw, currency) => {
        // The sign, then the number (a currency sign may hold a dot itself, e.g. "Cg."), grouping removed.
        const printed = formatAmount(raw, currency, 'en-US');
        const number = /\d[\d,]*(\.\d+)?(?!.*\d)/.exec(printed)?.[0].replace(/,/g, '');
        expect(`${printed.includes('-') ? '-' : ''}${number}`).toBe(toDisplay(raw, currency).text);
      }),
      { numRuns: 2000 },
    );
  });

  it('follows the configured locale without touching the digits', () => {
    expect(formatAmount(1_234_567n * 10n ** 10n, 'EUR', 'de-DE').replace(/\u00a0/g, ' ')).toBe('12.345,67 €');
    // ja-JP writes the full-width ￥, which the PDF's standard fonts cannot draw: the code stands in.
    expect(formatAmount(1_234n * UNIT, 'JPY', 'ja-JP').replace(/\u00a0/g, ' ')).toBe('JPY 1,234');
  });

  it('prints unit prices exactly, below the minor unit too, and quantities digit for digit', () => {
    expect(formatUnitPrice(4n * 10n ** 8n, 'USD', 'en-US')).toBe('$0.0004');
    expect(formatUnitPrice(UNIT / 10n, 'USD', 'en-US')).toBe('$0.10');
    expect(formatUnitPrice(1n, 'JPY', 'en-US')).toBe('¥0.000000000001');
    expect(formatQuantity('1234567.125', 'en-US')).toBe('1,234,567.125');
    expect(formatQuantity('12345678901234567890', 'en-US')).toBe('12,345,678,901,234,567,890');
  });

  it('prints the ISO code for a currency sign the PDF fonts cannot draw', () => {
    expect(formatAmount(100n * UNIT, 'INR', 'en-IN').replace(/\u00a0/g, ' ')).toBe('INR 100.00');
  });

  it('shows a half-open period by its last day', () => {
    expect(lastDayOf('2026-02-01T00:00:00.000Z')).toBe('2026-01-31');
    expect(lastDayOf('2026-02-01T12:00:00.000Z')).toBe('2026-02-01');
  });
});

describe('hosted links', () => {
  const secret = 's'.repeat(40);
  const id = '0192f000-0000-7000-8000-000000000001';
  const expiresAt = new Date('2026-03-01T00:00:00Z');

  it('verify for the invoice and expiry they were signed for', () => {
    expect(verifyHostedLinkToken(secret, hostedLinkToken(secret, id, expiresAt))).toEqual({ invoiceId: id, expiresAt });
  });

  it('refuse any altered part, another secret, and malformed tokens', () => {
    const token = hostedLinkToken(secret, id, expiresAt);
    const [, expires = '', signature = ''] = token.split('.');
    const otherId = '0192f000-0000-7000-8000-000000000002';
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `${otherId}.${expires}.${signature}`,
      `${id}.${Number(expires) + 86_400}.${signature}`,
      `${id}.0${expires}.${signature}`,
      `${id}.${expires}.${flipped}`,
      `${id}.${expires}`,
      'garbage',
      `${token}x`,
    ]) {
      expect(verifyHostedLinkToken(secret, bad), bad).toBeNull();
    }
    expect(verifyHostedLinkToken('t'.repeat(40), token)).toBeNull();
  });

  it('are the same on every read of an invoice, expiring HOSTED_LINK_TTL_DAYS after its due date', () => {
    const settings = { secret, ttlDays: 30, baseUrl: 'https://billing.example.com/' };
    const invoice = { id, finalized_at: '2026-01-01T00:00:00.000Z', due_at: '2026-01-31T00:00:00.000Z' };
    const url = hostedInvoiceUrl(settings, invoice);
    expect(url).toBe(hostedInvoiceUrl(settings, invoice));
    expect(url).toMatch(new RegExp(`^https://billing\\.example\\.com/hosted/invoices/${id}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(verifyHostedLinkToken(secret, url!.split('/').pop()!)?.expiresAt.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(hostedInvoiceUrl(settings, { id, finalized_at: null, due_at: null })).toBeNull();
  });

  it('renew to HOSTED_LINK_TTL_DAYS after the given now, rounded up to the second', () => {
    const settings = { secret, ttlDays: 30, baseUrl: 'https://billing.example.com' };
    const renewed = renewedHostedLink(settings, id, new Date('2026-05-01T10:00:00.250Z'));
    expect(renewed.expiresAt.toISOString()).toBe('2026-05-31T10:00:01.000Z');
    expect(verifyHostedLinkToken(secret, renewed.url.split('/').pop()!)).toEqual({ invoiceId: id, expiresAt: renewed.expiresAt });
  });

  it("sign the Pay form for one link, for an hour: another link's, an altered or an older token is refused", () => {
    const link = hostedLinkToken(secret, id, expiresAt);
    const issued = new Date('2026-02-01T12:00:00.000Z');
    const form = hostedFormToken(secret, link, issued);
    const at = (ms: number) => new Date(issued.getTime() + ms);
    expect(verifyHostedFormToken(secret, link, form, at(0))).toBe('ok');
    expect(verifyHostedFormToken(secret, link, form, at(3_600_000))).toBe('ok');
    expect(verifyHostedFormToken(secret, link, form, at(3_600_001))).toBe('stale');
    expect(verifyHostedFormToken(secret, link, form, at(-120_000)), 'issued in the future').toBe('stale');
    const [time = '', signature = ''] = form.split('.');
    for (const bad of [
      hostedFormToken(secret, hostedLinkToken(secret, id, new Date('2026-04-01T00:00:00Z')), issued),
      hostedFormToken('t'.repeat(40), link, issued),
      `${Number(time) + 1}.${signature}`,
      `${time}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      time,
      '',
    ]) {
      expect(verifyHostedFormToken(secret, link, bad, at(0)), bad).toBe('invalid');
    }
  });
});

const parties: DocumentParties = {
  seller: { name: 'Seller Inc', lines: ['1 Main Street', 'Springfield 12345'], taxId: 'US-99-1234567' },
  payer: { name: 'Payer Legal LLC', lines: ['2 Side Street', 'billing@payer.example'], taxId: 'DE123456789' },
};

function line(overrides: Partial<InvoiceLineView>): InvoiceLineView {
  return {
    id: '0192f000-0000-7000-8000-0000000000aa',
    kind: 'fee',
    description: 'Platform fee',
    sku_id: null,
    plan_id: null,
    subscription_id: null,
    customer_id: null,
    customer_name: null,
    quantity: '1',
    unit_amount_nanos: null,
    amount_nanos: '0',
    amount: '0',
    is_tax: false,
    period_start: null,
    period_end: null,
    dimensions: null,
    detail: null,
    ...overrides,
  };
}

function invoice(overrides: Partial<InvoiceView> = {}): InvoiceView {
  return {
    id: '0192f000-0000-7000-8000-000000000001',
    status: 'Open',
    invoice_number: 'INV-000042',
    customer_id: '0192f000-0000-7000-8000-0000000000c1',
    subscription_id: null,
    currency: 'USD',
    billing_reason: 'subscription_cycle',
    period_start: '2026-01-01T00:00:00.000Z',
    period_end: '2026-02-01T00:00:00.000Z',
    subtotal_nanos: String(1_300n * UNIT + 6n * 10n ** 9n),
    tax_nanos: String(130n * UNIT),
    credits_applied_nanos: String(10n * UNIT),
    credit_lines_nanos: String(10n * UNIT),
    total_nanos: String(1_420n * UNIT + 6n * 10n ** 9n),
    credited_nanos: '0',
    credit_notes_nanos: '0',
    due_reduced_nanos: '0',
    wallet_applied_nanos: '0',
    customer_balance_applied_nanos: '0',
    spend_cap_withheld_nanos: '0',
    billing_error: null,
    amount_due_nanos: String(1_420n * UNIT + 6n * 10n ** 9n),
    subtotal: '1300.00',
    tax: '130.00',
    total: '1420.00',
    amount_due: '1420.00',
    credited: '0.00',
    credit_lines: '10.00',
    credit_notes: '0.00',
    wallet_applied: '0.00',
    spend_cap_withheld: '0.00',
    tax_adapter: 'flat:1000',
    due_at: '2026-03-03T01:00:00.000Z',
    finalized_at: '2026-02-01T01:00:00.000Z',
    paid_at: null,
    paid_by: null,
    voided_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    hosted_invoice_url: null,
    metadata: {},
    line_items: [
      line({
        kind: 'usage',
        description: 'API calls',
        quantity: '15000',
        unit_amount_nanos: String(4n * 10n ** 8n),
        amount_nanos: String(1_300n * UNIT + 6n * 10n ** 9n),
        detail: {
          pricing_model: 'Graduated',
          list_amount_nanos: String(1_400n * UNIT),
          tiers: [
            { tier: 0, from: '0', up_to: '10000', quantity: '10000', unit_amount_nanos: String(UNIT / 10n), flat_amount_nanos: '0', amount_nanos: String(1_000n * UNIT) },
            { tier: 1, from: '10000', up_to: null, quantity: '5000', unit_amount_nanos: String(UNIT / 12n), flat_amount_nanos: '0', amount_nanos: String(400n * UNIT) },
          ],
          adjustments: [{ kind: 'ContractDiscount', basis_points: 714, amount_nanos: String(-(99n * UNIT + 996n * 10n ** 9n)), description: 'Contract discount 7.14%' }],
        },
      }),
      line({ kind: 'tax', description: 'Sales tax 10%', is_tax: true, amount_nanos: String(130n * UNIT) }),
      line({ kind: 'credit', description: 'Goodwill credit', amount_nanos: String(-10n * UNIT) }),
    ],
    ...overrides,
  };
}

describe('invoice PDFs', () => {
  it('are byte-identical when rendered twice', async () => {
    const model = invoiceDocumentModel(invoice(), [], parties, { locale: 'en-US' });
    const [a, b] = await Promise.all([renderPdf(model), renderPdf(model)]);
    expect(a.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.compare(a, b)).toBe(0);
  });

  it('show the parties, number, dates, each line with its tiers and discount, the flagged tax and every total', async () => {
    const text = await pdfText(await renderPdf(invoiceDocumentModel(invoice(), [], parties, { locale: 'en-US' })));
    for (const expected of [
      'Seller Inc', '1 Main Street', 'Tax ID: US-99-1234567', 'Payer Legal LLC', '2 Side Street', 'Tax ID: DE123456789',
      'INV-000042', 'Issue date 2026-02-01', 'Due date 2026-03-03 (net 30 days)', 'Service period 2026-01-01 to 2026-01-31',
      'API calls 15,000 $1,300.01', 'Tier 1: 0 to 10,000 10,000 $0.10 $1,000.00', 'Tier 2: over 10,000 5,000', '$400.00',
      'List price $1,400.00', 'Contract discount 7.14% -$100.00', 'Sales tax 10% [TAX] $130.00',
      'Subtotal $1,300.01', 'Tax (flat:1000) $130.00', 'Credit applied: Goodwill credit -$10.00', 'Total $1,420.01', 'Amount due $1,420.01',
      'Unpaid, due 2026-03-03',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/DRAFT|VOID|PAID/);
  });

  it("show a Percentage line's terms and a minimum-spend true-up", () => {
    const cent = UNIT / 100n;
    const lines = [
      line({
        kind: 'usage',
        description: 'Card payments',
        quantity: '14.358005',
        unit_amount_nanos: String(UNIT),
        amount_nanos: '14358005000000',
        detail: {
          pricing_model: 'Percentage',
          list_amount_nanos: '14358005000000',
          tiers: [],
          adjustments: [],
          percentage: { basis_points: 290, amount_property: 'amount', per_event_fee_nanos: String(30n * cent), per_event_minimum_nanos: String(50n * cent), per_event_maximum_nanos: String(10n * UNIT) },
        },
      }),
      line({ kind: 'minimum', description: 'Calls · minimum spend', amount_nanos: String(70n * UNIT), unit_amount_nanos: String(70n * UNIT) }),
    ];
    const rows = invoiceDocumentModel(invoice({ line_items: lines }), [], parties, { locale: 'en-US' }).sections.flatMap((section) => section.rows);
    expect(rows.map((row) => [row.description, row.quantity, row.amount])).toEqual([
      ['Card payments', '14.358005', '$14.36'],
      ['2.9% of each amount + $0.30 per event (min $0.50, max $10.00)', '', ''],
      ['Calls · minimum spend', '1', '$70.00'],
    ]);
  });

  it('mark a Draft DRAFT without a number, and a Void invoice VOID', async () => {
    const draft = await pdfText(await renderPdf(invoiceDocumentModel(invoice({ status: 'Draft', invoice_number: null, finalized_at: null, due_at: null }), [], parties, { locale: 'en-US' })));
    expect(draft).toContain('DRAFT');
    expect(draft).not.toContain('INV-');
    const voided = await pdfText(await renderPdf(invoiceDocumentModel(invoice({ status: 'Void', voided_at: '2026-02-10T00:00:00.000Z', amount_due_nanos: '0' }), [], parties, { locale: 'en-US' })));
    expect(voided).toContain('VOID');
    expect(voided).toContain('Amount due $0.00');
  });

  it('show what the credit wallet paid before the amount due', async () => {
    const wallet = 20n * UNIT;
    const paidFromWallet = invoice({ wallet_applied_nanos: String(wallet), amount_due_nanos: String(1_400n * UNIT + 6n * 10n ** 9n), amount_due: '1400.01' });
    const text = await pdfText(await renderPdf(invoiceDocumentModel(paidFromWallet, [], parties, { locale: 'en-US' })));
    expect(text).toContain('Total $1,420.01 Paid from credit wallet -$20.00 Amount due $1,400.01');
  });

  it('group a consolidated invoice by the child account that incurred each line', async () => {
    const consolidated = invoice({
      line_items: [
        line({ description: 'Parent seats', amount_nanos: String(100n * UNIT) }),
        line({ description: 'Child A usage', customer_id: '0192f000-0000-7000-8000-0000000000c2', customer_name: 'Child A', amount_nanos: String(20n * UNIT) }),
        line({ description: 'Child B usage', customer_id: '0192f000-0000-7000-8000-0000000000c3', customer_name: 'Child B', amount_nanos: String(3n * UNIT) }),
        line({ description: 'Child A seats', customer_id: '0192f000-0000-7000-8000-0000000000c2', customer_name: 'Child A', amount_nanos: String(5n * UNIT) }),
      ],
    });
    const text = await pdfText(await renderPdf(invoiceDocumentModel(consolidated, [], parties, { locale: 'en-US' })));
    expect(text).toMatch(/Payer Legal LLC Parent seats 1 \$100\.00 Subtotal Payer Legal LLC \$100\.00 Child A Child A usage 1 \$20\.00 Child A seats 1 \$5\.00 Subtotal Child A \$25\.00 Child B Child B usage 1 \$3\.00 Subtotal Child B \$3\.00/);
  });

  it('list the credit notes of an invoice, and a credit note references its invoice', async () => {
    const note = {
      id: '0192f000-0000-7000-8000-0000000000d1', number: 'CN-000007', credit_note_number: 'CN-000007', invoice_id: invoice().id, customer_id: invoice().customer_id, currency: 'USD',
      amount_nanos: String(20n * UNIT), amount: '20.00', reason: 'product_unsatisfactory' as const, memo: 'Outage on Jan 12', source_invoice_id: null, created_at: '2026-02-05T00:00:00.000Z',
      due_reduction_nanos: String(20n * UNIT), refund_amount_nanos: '0', credit_amount_nanos: '0', out_of_band_amount_nanos: '0',
    };
    const credited = invoice({ credited_nanos: String(20n * UNIT), due_reduced_nanos: String(20n * UNIT), amount_due_nanos: String(1_400n * UNIT + 6n * 10n ** 9n) });
    const text = await pdfText(await renderPdf(invoiceDocumentModel(credited, [note], parties, { locale: 'en-US' })));
    expect(text).toContain('Credit note CN-000007 (2026-02-05) -$20.00');
    expect(text).toContain('Amount due $1,400.01');
    const noteText = await pdfText(await renderPdf(creditNoteDocumentModel(note, credited, parties, { locale: 'en-US' })));
    for (const expected of ['Credit note', 'CN-000007', 'Credits invoice INV-000042 of 2026-02-01', 'Product unsatisfactory', 'Amount credited $20.00', 'Outage on Jan 12', 'Payer Legal LLC']) {
      expect(noteText).toContain(expected);
    }
  });

  it('add up from the total to the amount due: credit notes off the amount due, customer balance, wallet; given-back parts listed apart', async () => {
    // The invoice: 119.50, 10.00 credited off the amount due, 50.00 from the wallet, then a
    // 100.00 note allocated 59.50 off the amount due and 40.50 to the customer's balance.
    const cents = (n: bigint) => (n * UNIT) / 100n;
    const noteOf = (number: string, due: bigint, credit: bigint) => ({
      id: '0192f000-0000-7000-8000-0000000000d3', number, credit_note_number: number, invoice_id: invoice().id, customer_id: invoice().customer_id, currency: 'USD',
      amount_nanos: String(due + credit), amount: '', reason: 'other' as const, memo: null, source_invoice_id: null, created_at: '2026-02-05T00:00:00.000Z',
      due_reduction_nanos: String(due), refund_amount_nanos: '0', credit_amount_nanos: String(credit), out_of_band_amount_nanos: '0',
    });
    const open = invoice({
      total_nanos: String(cents(11950n)), credited_nanos: String(cents(11000n)), due_reduced_nanos: String(cents(6950n)),
      wallet_applied_nanos: String(cents(5000n)), amount_due_nanos: '0',
    });
    const text = await pdfText(await renderPdf(invoiceDocumentModel(open, [noteOf('CN-000010', cents(1000n), 0n), noteOf('CN-000011', cents(5950n), cents(4050n))], parties, { locale: 'en-US' })));
    expect(text).toContain(
      "Total $119.50 Credit note CN-000010 (2026-02-05) -$10.00 Credit note CN-000011 (2026-02-05): $100.00, of which $40.50 put on the customer's credit balance -$59.50 Paid from credit wallet -$50.00 Amount due $0.00",
    );
    expect(text.match(/CN-000011/g)).toHaveLength(1);

    // A Paid invoice that consumed 20.00 of customer balance: the payment closes the sum.
    const paid = invoice({ status: 'Paid', paid_at: '2026-02-03T00:00:00.000Z', customer_balance_applied_nanos: String(20n * UNIT), amount_due_nanos: '0' });
    const paidText = await pdfText(await renderPdf(invoiceDocumentModel(paid, [], parties, { locale: 'en-US' })));
    expect(paidText).toContain('Total $1,420.01 Customer credit balance applied -$20.00 Paid on 2026-02-03 -$1,400.01 Amount due $0.00');
  });

  it('name each credit note once, and still add up from the total to the amount due', async () => {
    const note = (number: string, parts: { due?: bigint; refund?: bigint; credit?: bigint }) => ({
      id: '0192f000-0000-7000-8000-0000000000d4', number, credit_note_number: number, invoice_id: invoice().id, customer_id: invoice().customer_id, currency: 'USD',
      amount_nanos: String((parts.due ?? 0n) + (parts.refund ?? 0n) + (parts.credit ?? 0n)), amount: '', reason: 'other' as const, memo: null, source_invoice_id: null,
      created_at: '2026-02-05T00:00:00.000Z', due_reduction_nanos: String(parts.due ?? 0n), refund_amount_nanos: String(parts.refund ?? 0n),
      credit_amount_nanos: String(parts.credit ?? 0n), out_of_band_amount_nanos: '0',
    });
    // The case: 5.00 credited on an Open invoice, once as −5.00, never again as "Credited 5.00".
    const open = invoice({ credited_nanos: String(5n * UNIT), due_reduced_nanos: String(5n * UNIT), amount_due_nanos: String(1_415n * UNIT + 6n * 10n ** 9n) });
    const openText = await pdfText(await renderPdf(invoiceDocumentModel(open, [note('CN-000012', { due: 5n * UNIT })], parties, { locale: 'en-US' })));
    expect(openText).toContain('Total $1,420.01 Credit note CN-000012 (2026-02-05) -$5.00 Amount due $1,415.01');
    expect(openText.match(/CN-000012/g)).toHaveLength(1);
    expect(openText.match(/\$5\.00/g)).toHaveLength(1);
    expect(openText).not.toMatch(/Credited/);

    // A Paid invoice refunded 5.00: nothing comes off the amount due; the note is one line under the summary.
    const paid = invoice({ status: 'Paid', paid_at: '2026-02-03T00:00:00.000Z', credited_nanos: String(5n * UNIT), amount_due_nanos: '0' });
    const paidText = await pdfText(await renderPdf(invoiceDocumentModel(paid, [note('CN-000013', { refund: 5n * UNIT })], parties, { locale: 'en-US' })));
    expect(paidText).toContain('Total $1,420.01 Paid on 2026-02-03 -$1,420.01 Amount due $0.00');
    expect(paidText).toContain('Credit note CN-000013 (2026-02-05) gave back paid amounts: $5.00 refunded.');
    expect(paidText.match(/CN-000013/g)).toHaveLength(1);
  });

  it('show where a credit invoice\'s credit was applied', async () => {
    const credit = invoice({ total_nanos: String(-30n * UNIT), amount_due_nanos: '0', status: 'Paid', paid_at: '2026-02-01T01:00:00.000Z', line_items: [line({ kind: 'fee', description: 'Unused Pro days', amount_nanos: String(-30n * UNIT) })] });
    const applied = {
      note: { id: '0192f000-0000-7000-8000-0000000000d2', number: 'CN-000009', credit_note_number: 'CN-000009', invoice_id: '0192f000-0000-7000-8000-0000000000e1', customer_id: credit.customer_id, currency: 'USD', amount_nanos: String(30n * UNIT), amount: '30.00', reason: 'order_change' as const, memo: null, source_invoice_id: credit.id, created_at: '2026-02-01T01:00:00.000Z', due_reduction_nanos: String(30n * UNIT), refund_amount_nanos: '0', credit_amount_nanos: '0', out_of_band_amount_nanos: '0' },
      invoiceNumber: 'INV-000040',
    };
    const text = await pdfText(await renderPdf(invoiceDocumentModel(credit, [], parties, { locale: 'en-US' }, [applied])));
    expect(text).toContain('Total -$30.00 Applied to invoice INV-000040 as CN-000009 $30.00');
    expect(text).toContain('PAID');
  });

  it('print the payer address the way its country writes it (US and CA, GB, elsewhere)', async () => {
    const address = { line1: '1 Main Street', line2: 'Suite 4', city: 'Springfield', state: 'OR', postal_code: '97477', country: 'US' };
    expect(postalAddressLines(address)).toEqual(['1 Main Street', 'Suite 4', 'Springfield, OR 97477', 'US']);
    expect(postalAddressLines({ ...address, line2: null, city: 'Toronto', state: 'ON', postal_code: 'M5V 2T6', country: 'CA' })).toEqual(['1 Main Street', 'Toronto, ON M5V 2T6', 'CA']);
    expect(postalAddressLines({ ...address, line2: null, city: 'London', state: null, postal_code: 'EC1A 1BB', country: 'GB' })).toEqual(['1 Main Street', 'London', 'EC1A 1BB', 'GB']);
    expect(postalAddressLines({ ...address, line2: null, city: 'Berlin', state: null, postal_code: '10115', country: 'DE' })).toEqual(['1 Main Street', '10115 Berlin', 'DE']);
    expect(postalAddressLines({ ...address, line2: null, state: null, postal_code: null })).toEqual(['1 Main Street', 'Springfield', 'US']);

    const printed = (lines: string[]) => ({ ...parties, payer: { ...parties.payer, lines: [...lines, 'billing@payer.example'] } });
    const us = await pdfText(await renderPdf(invoiceDocumentModel(invoice(), [], printed(postalAddressLines(address)), { locale: 'en-US' })));
    expect(us).toContain('Payer Legal LLC 1 Main Street Suite 4 Springfield, OR 97477 US billing@payer.example');
    expect(us).not.toContain('97477 Springfield');
    const gb = renderHtml(invoiceDocumentModel(invoice(), [], printed(postalAddressLines({ ...address, line2: null, city: 'London', state: null, postal_code: 'EC1A 1BB', country: 'GB' })), { locale: 'en-US' }), 'token/pdf');
    expect(gb).toMatch(/London<br>\s*EC1A 1BB<br>\s*GB/);
  });

  it('print the configured logo', async () => {
    const logo = await readFile(path.join(PROJECT_ROOT, 'docs', 'example-invoice.png'));
    const model = invoiceDocumentModel(invoice(), [], parties, { locale: 'en-US' });
    const [plain, branded] = await Promise.all([renderPdf(model), renderPdf(model, { logo })]);
    expect(plain.includes('/Subtype /Image')).toBe(false);
    expect(branded.includes('/Subtype /Image')).toBe(true);
    expect(Buffer.compare(branded, await renderPdf(model, { logo }))).toBe(0);
  });

  it('the hosted page shows the same document, escaped', () => {
    const hostile = { ...parties, payer: { ...parties.payer, name: '<script>alert(1)</script>' } };
    const html = renderHtml(invoiceDocumentModel(invoice(), [], hostile, { locale: 'en-US' }), 'token/pdf');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('$1,420.01');
    expect(html).toContain('href="token/pdf"');
    expect(html).not.toContain('<form');
  });

  it('the hosted page offers the card on file and the checkout in one form, and says where paying stands', () => {
    const model = invoiceDocumentModel(invoice(), [], parties, { locale: 'en-US' });
    const pay = { action: 'token/pay', formToken: '1.sig"<', amount: '$1,420.01', card: 'Visa •••• 4242' };
    const html = renderHtml(model, 'token/pdf', { notice: { tone: 'error', text: 'The last payment attempt failed: <declined>. You can try again.' }, pay });
    expect(html).toContain('<form class="pay" method="post" action="token/pay"><input type="hidden" name="form_token" value="1.sig&quot;&lt;">');
    expect(html).toContain('<button type="submit" name="method" value="card_on_file">Pay $1,420.01 with Visa •••• 4242</button>');
    expect(html).toContain('<button type="submit" name="method" value="checkout" class="secondary">Pay with another card</button>');
    expect(html).toContain('<p class="notice error" role="status">The last payment attempt failed: &lt;declined&gt;. You can try again.</p>');
    const noCard = renderHtml(model, 'token/pdf', { notice: null, pay: { ...pay, card: null } });
    expect(noCard).toContain('<button type="submit" name="method" value="checkout">Pay $1,420.01</button>');
    expect(noCard).not.toContain('card_on_file');
    const error = renderHostedError({ status: 410, code: 'hosted_link_expired', title: 'Expired', message: 'Ask <Seller>', requestId: 'r1' });
    expect(error).toContain('<h1>Expired</h1><p>Ask &lt;Seller&gt;</p>');
    expect(error).not.toMatch(/<script|<form/);
  });
});

describe('document configuration', () => {
  const env = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing', TEMPORAL_ADDRESS: '127.0.0.1:7233' };

  it('reads the seller block and the locale, with defaults', () => {
    const config = loadWorkerConfig({ ...env, SELLER_NAME: 'Acme GmbH', SELLER_ADDRESS: 'Hauptstr. 1\\n10115 Berlin\nGermany', SELLER_TAX_ID: 'DE999', DOCUMENT_LOCALE: 'de-DE' });
    expect(config).toMatchObject({ SELLER_NAME: 'Acme GmbH', SELLER_ADDRESS: ['Hauptstr. 1', '10115 Berlin', 'Germany'], SELLER_TAX_ID: 'DE999', DOCUMENT_LOCALE: 'de-DE' });
    expect(loadWorkerConfig(env)).toMatchObject({ SELLER_NAME: 'Billing Engine', SELLER_ADDRESS: [], DOCUMENT_LOCALE: 'en-US' });
  });

  it('reads the logo, refusing a file that is neither PNG nor JPEG', async () => {
    const logo = path.join(PROJECT_ROOT, 'docs', 'example-invoice.png');
    expect((await documentSettingsOf(loadWorkerConfig({ ...env, SELLER_LOGO_PATH: logo }))).logo?.subarray(1, 4).toString()).toBe('PNG');
    await expect(documentSettingsOf(loadWorkerConfig({ ...env, SELLER_LOGO_PATH: path.join(PROJECT_ROOT, 'README.md') }))).rejects.toThrow(/SELLER_LOGO_PATH must be a PNG or JPEG/);
    await expect(documentSettingsOf(loadWorkerConfig({ ...env, SELLER_LOGO_PATH: path.join(PROJECT_ROOT, 'no-such-logo.png') }))).rejects.toThrow(/SELLER_LOGO_PATH cannot be read/);
  });

  it('refuses an unknown locale and a short link secret', () => {
    expect(() => loadWorkerConfig({ ...env, DOCUMENT_LOCALE: 'not a locale!' })).toThrow(/DOCUMENT_LOCALE must be a BCP 47 locale/);
    const api = { ...env, JWT_SECRET: 'x'.repeat(32), API_KEY_HASH: 'a'.repeat(64), PROCESSOR_WEBHOOK_SECRET: 'whsec_0123456789abcdef' };
    expect(() => loadApiConfig({ ...api, HOSTED_LINK_SECRET: 'short' })).toThrow(/HOSTED_LINK_SECRET must be at least 32 characters/);
    expect(loadApiConfig({ ...api, HOSTED_LINK_SECRET: 'h'.repeat(32) })).toMatchObject({ HOSTED_LINK_TTL_DAYS: 30 });
  });
});
