import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_KINDS,
  allocateCreditNote,
  assertBalanced,
  creditNoteJournal,
  creditNoteTaxShare,
  customerCreditAppliedJournal,
  invoiceFinalizedJournal,
  journalOf,
  normalBalance,
  paymentCollectedJournal,
  planDrawdown,
  promotionalExpiryJournal,
  promotionalGrantJournal,
  rechargeOnCrossing,
  recognitionJournal,
  recognitionSteps,
  refundJournal,
  reversalOf,
  sides,
  splitInvoiceLines,
  UnbalancedJournalError,
  walletDrawdownJournal,
  walletTopUpJournal,
  type AccountKind,
  type Entry,
  type Grant,
  type JournalDraft,
  ONE_UNIT as U,
} from '../../../src/core/index.js';

const money = fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n });
const positive = fc.bigInt({ min: 1n, max: 10n ** 18n });
const nonNegative = fc.bigInt({ min: 0n, max: 10n ** 18n });
const dueOnly = (amount: bigint) => ({ dueReduction: amount, refund: 0n, credit: 0n, outOfBand: 0n });

describe('journals', () => {
  it('an invoice finalization debits AR with the total and credits revenue, deferred revenue and tax', () => {
    const journal = invoiceFinalizedJournal({ recognized: 100n * U, deferred: 20n * U, tax: 12n * U });
    expect(journal.entries).toEqual([
      { account: 'accounts_receivable', side: 'debit', amount: 132n * U },
      { account: 'revenue', side: 'credit', amount: 100n * U },
      { account: 'deferred_revenue', side: 'credit', amount: 20n * U },
      { account: 'tax_payable', side: 'credit', amount: 12n * U },
    ]);
  });

  it('refuses a journal whose debits differ from its credits, or a non-positive entry', () => {
    expect(() => assertBalanced([{ account: 'cash', side: 'debit', amount: 5n }, { account: 'revenue', side: 'credit', amount: 4n }])).toThrow(UnbalancedJournalError);
    expect(() => assertBalanced([{ account: 'cash', side: 'debit', amount: 0n }])).toThrow(UnbalancedJournalError);
    expect(() => assertBalanced([{ account: 'cash', side: 'debit', amount: -3n }, { account: 'revenue', side: 'credit', amount: -3n }])).toThrow(UnbalancedJournalError);
    expect(() => journalOf('refund', [{ account: 'cash', debit: 5n }])).toThrow(UnbalancedJournalError);
  });

  it('a negative credit line nets against revenue; an event that moves nothing is empty', () => {
    expect(invoiceFinalizedJournal({ recognized: 0n, deferred: 0n, tax: 0n }).entries).toEqual([]);
    expect(invoiceFinalizedJournal({ recognized: -10n, deferred: 0n, tax: 0n }).entries).toEqual([
      { account: 'accounts_receivable', side: 'credit', amount: 10n },
      { account: 'revenue', side: 'debit', amount: 10n },
    ]);
  });

  it('every journal any builder produces balances (property)', () => {
    const drafts: fc.Arbitrary<JournalDraft> = fc.oneof(
      fc.tuple(money, money, money).map(([recognized, deferred, tax]) => invoiceFinalizedJournal({ recognized, deferred, tax })),
      positive.map(paymentCollectedJournal),
      positive.map(refundJournal),
      fc
        .tuple(fc.tuple(nonNegative, nonNegative, nonNegative, nonNegative).filter((parts) => parts.some((p) => p > 0n)), nonNegative)
        .map(([[dueReduction, refund, credit, outOfBand], tax]) => creditNoteJournal({ dueReduction, refund, credit, outOfBand }, tax)),
      positive.map(customerCreditAppliedJournal),
      positive.map(walletTopUpJournal),
      positive.map(promotionalGrantJournal),
      positive.map(promotionalExpiryJournal),
      money.map(recognitionJournal),
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 0n, max: 10n ** 18n })).map(([paid, promotional]) => walletDrawdownJournal({ paid, promotional })),
    );
    fc.assert(
      fc.property(drafts, (draft) => {
        const { debits, credits } = sides(draft.entries);
        expect(debits).toBe(credits);
        expect(draft.entries.every((e) => e.amount > 0n)).toBe(true);
        const reversed = reversalOf(draft.entries, 'invoice_voided');
        expect(sides(reversed.entries)).toEqual({ debits: credits, credits: debits });
      }),
    );
  });

  it('a credit note reverses its pro-rata share of the invoice tax: 110.00 with 10.00 tax, 55.00 credited takes 5.00 of tax payable', () => {
    const invoice = { total: 110n * U, tax: 10n * U };
    expect(creditNoteTaxShare(invoice, 0n, 55n * U)).toBe(5n * U);
    expect(creditNoteJournal(dueOnly(55n * U), 5n * U).entries).toEqual([
      { account: 'accounts_receivable', side: 'credit', amount: 55n * U },
      { account: 'revenue', side: 'debit', amount: 50n * U },
      { account: 'tax_payable', side: 'debit', amount: 5n * U },
    ]);
    // An untaxed invoice: the whole note is revenue.
    expect(creditNoteTaxShare({ total: 10n * U, tax: 0n }, 0n, 3n * U)).toBe(0n);
  });

  it('credit notes of an invoice reverse exactly its tax once they credit its whole total, each at most its amount (property)', () => {
    fc.assert(
      fc.property(positive, fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 10 }), (net, tax, weights) => {
        const total = net + tax;
        const sum = weights.reduce((a, w) => a + w, 0);
        // Split the total into notes by the weights, the last one taking what is left.
        let credited = 0n;
        let reversed = 0n;
        weights.forEach((w, i) => {
          const amount = i === weights.length - 1 ? total - credited : (total * BigInt(w)) / BigInt(sum);
          const share = creditNoteTaxShare({ total, tax }, credited, amount);
          expect(share >= 0n && share <= amount).toBe(true);
          expect(share <= tax - reversed).toBe(true);
          credited += amount;
          reversed += share;
        });
        expect(reversed).toBe(tax);
      }),
      { numRuns: 300 },
    );
  });

  it('splits lines: tax to tax payable, periods ending after finalization deferred, the rest revenue', () => {
    const at = new Date('2026-02-01T01:00:00Z');
    expect(
      splitInvoiceLines(
        [
          { amount: 49n * U, isTax: false, periodEnd: new Date('2026-02-01T00:00:00Z') },
          { amount: 30n * U, isTax: false, periodEnd: new Date('2026-03-01T00:00:00Z') },
          { amount: -5n * U, isTax: false, periodEnd: null },
          { amount: 7n * U, isTax: true, periodEnd: new Date('2026-03-01T00:00:00Z') },
        ],
        at,
      ),
    ).toEqual({ recognized: 44n * U, deferred: 30n * U, tax: 7n * U });
  });
});

describe('wallet math', () => {
  const grant = (id: string, kind: Grant['kind'], remaining: bigint, expiresAt: number | null, grantedAt = 0): Grant => ({ id, kind, remaining, expiresAt, grantedAt });

  it('draws promotional credit first (soonest expiry first), then paid credit oldest first, skipping expired grants', () => {
    const grants = [
      grant('paid-new', 'paid', 10n, null, 2),
      grant('paid-old', 'paid', 10n, null, 1),
      grant('promo-forever', 'promotional', 5n, null),
      grant('promo-soon', 'promotional', 5n, 100),
      grant('promo-expired', 'promotional', 50n, 10),
    ];
    expect(planDrawdown(grants, 22n, 50)).toEqual([
      { grantId: 'promo-soon', kind: 'promotional', amount: 5n },
      { grantId: 'promo-forever', kind: 'promotional', amount: 5n },
      { grantId: 'paid-old', kind: 'paid', amount: 10n },
      { grantId: 'paid-new', kind: 'paid', amount: 2n },
    ]);
  });

  it('never takes more than wanted nor more than a grant holds (property)', () => {
    const grants = fc.array(
      fc.record({
        id: fc.uuid(),
        kind: fc.constantFrom<Grant['kind']>('paid', 'promotional'),
        remaining: fc.bigInt({ min: 0n, max: 10n ** 15n }),
        expiresAt: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
        grantedAt: fc.integer({ min: 0, max: 1000 }),
      }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(grants, fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.integer({ min: 0, max: 1000 }), (gs, wanted, now) => {
        const takes = planDrawdown(gs, wanted, now);
        const total = takes.reduce((s, t) => s + t.amount, 0n);
        const available = gs.filter((g) => g.expiresAt === null || g.expiresAt > now).reduce((s, g) => s + g.remaining, 0n);
        expect(total).toBe(wanted < available ? wanted : available);
        for (const take of takes) expect(take.amount).toBeLessThanOrEqual(gs.find((g) => g.id === take.grantId)!.remaining);
      }),
    );
  });

  it('recharges once per crossing, up to the target', () => {
    expect(rechargeOnCrossing({ before: 100n, after: 40n, threshold: 50n, target: 200n })).toBe(160n);
    expect(rechargeOnCrossing({ before: 50n, after: 49n, threshold: 50n, target: 200n })).toBe(151n);
    expect(rechargeOnCrossing({ before: 40n, after: 30n, threshold: 50n, target: 200n })).toBeNull();
    expect(rechargeOnCrossing({ before: 100n, after: 60n, threshold: 50n, target: 200n })).toBeNull();
  });
});

/**
 * A model of the billing flows: invoices finalized, paid, refunded, credited and voided, a wallet
 * topped up (paid and promotional) and drawn down at finalization, deferred revenue recognized.
 * Each step posts the journals the services post; the ledger must stay balanced and AR must equal
 * what customers owe on their invoices.
 */
describe('ledger over random business sequences (property)', () => {
  interface Invoice {
    total: bigint;
    tax: bigint;
    deferred: bigint;
    recognizedLater: boolean;
    status: 'Open' | 'Paid' | 'Void';
    credited: bigint;
    dueReduced: bigint;
    creditedToBalance: bigint;
    balanceApplied: bigint;
    wallet: { paid: bigint; promotional: bigint };
    collected: bigint;
    refunded: bigint;
    journals: Entry[][];
  }

  type Step =
    | { op: 'finalize'; recognized: bigint; deferred: bigint; tax: bigint }
    | { op: 'pay'; pick: number }
    | { op: 'refund'; pick: number; part: bigint }
    | { op: 'credit'; pick: number; part: bigint; split: 'default' | 'credit' | 'out_of_band' }
    | { op: 'void'; pick: number }
    | { op: 'top_up'; amount: bigint; promotional: boolean }
    | { op: 'expire' }
    | { op: 'recognize'; pick: number };

  const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
  const part = fc.bigInt({ min: 1n, max: 1000n });
  const pick = fc.nat();
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ op: fc.constant('finalize' as const), recognized: amount, deferred: amount, tax: amount }),
    fc.record({ op: fc.constant('pay' as const), pick }),
    fc.record({ op: fc.constant('refund' as const), pick, part }),
    fc.record({ op: fc.constant('credit' as const), pick, part, split: fc.constantFrom('default' as const, 'credit' as const, 'out_of_band' as const) }),
    fc.record({ op: fc.constant('void' as const), pick }),
    fc.record({ op: fc.constant('top_up' as const), amount, promotional: fc.boolean() }),
    fc.record({ op: fc.constant('expire' as const) }),
    fc.record({ op: fc.constant('recognize' as const), pick }),
  );

  it('leaves the trial balance at zero and AR equal to the sum of open invoice amounts', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const balances = new Map<AccountKind, { debits: bigint; credits: bigint }>();
        const post = (draft: JournalDraft): Entry[] => {
          assertBalanced(draft.entries);
          for (const e of draft.entries) {
            const t = balances.get(e.account) ?? { debits: 0n, credits: 0n };
            balances.set(e.account, e.side === 'debit' ? { ...t, debits: t.debits + e.amount } : { ...t, credits: t.credits + e.amount });
          }
          return [...draft.entries];
        };
        const invoices: Invoice[] = [];
        let walletPaid = 0n;
        let walletPromotional = 0n;
        let customerBalance = 0n;
        const choose = (n: number, ok: (i: Invoice) => boolean) => {
          const candidates = invoices.filter(ok);
          return candidates.length === 0 ? undefined : candidates[n % candidates.length];
        };
        const due = (i: Invoice) => i.total - i.dueReduced - i.balanceApplied - i.wallet.paid - i.wallet.promotional;

        for (const s of steps) {
          switch (s.op) {
            case 'finalize': {
              const invoice: Invoice = {
                total: s.recognized + s.deferred + s.tax,
                tax: s.tax,
                deferred: s.deferred,
                recognizedLater: false,
                status: 'Open',
                credited: 0n,
                dueReduced: 0n,
                creditedToBalance: 0n,
                balanceApplied: 0n,
                wallet: { paid: 0n, promotional: 0n },
                collected: 0n,
                refunded: 0n,
                journals: [],
              };
              invoice.journals.push(post(invoiceFinalizedJournal(s)));
              // The customer's credit balance first, then the wallet drawdown, before any charge.
              const fromBalance = customerBalance < invoice.total ? customerBalance : invoice.total;
              if (fromBalance > 0n) {
                invoice.journals.push(post(customerCreditAppliedJournal(fromBalance)));
                customerBalance -= fromBalance;
                invoice.balanceApplied = fromBalance;
              }
              const promotional = walletPromotional < due(invoice) ? walletPromotional : due(invoice);
              const rest = due(invoice) - promotional;
              const paid = walletPaid < rest ? walletPaid : rest;
              if (promotional + paid > 0n) {
                invoice.journals.push(post(walletDrawdownJournal({ paid, promotional })));
                walletPromotional -= promotional;
                walletPaid -= paid;
                invoice.wallet = { paid, promotional };
              }
              if (due(invoice) === 0n) invoice.status = 'Paid';
              invoices.push(invoice);
              break;
            }
            case 'pay': {
              const invoice = choose(s.pick, (i) => i.status === 'Open');
              if (!invoice) break;
              if (due(invoice) > 0n) post(paymentCollectedJournal(due(invoice)));
              invoice.collected = due(invoice);
              invoice.status = 'Paid';
              break;
            }
            case 'credit': {
              // A credit note allocated by the core: the default (amount due first, then the
              // customer's balance), or a named part of what was settled.
              const invoice = choose(s.pick, (i) => i.status !== 'Void' && i.total - i.credited > 0n);
              if (!invoice) break;
              const capacity = { remaining: invoice.total - invoice.credited, amountDue: invoice.status === 'Open' ? due(invoice) : 0n, refundable: 0n };
              const amount = (capacity.remaining * s.part) / 1000n || 1n;
              const settled = capacity.remaining - capacity.amountDue;
              const named = amount < settled ? amount : settled;
              const result = allocateCreditNote(
                s.split === 'default' ? { amount } : s.split === 'credit' ? { amount, credit: named } : { amount, outOfBand: named },
                capacity,
              );
              if (!result.ok) break;
              const allocation = result.allocation;
              invoice.journals.push(post(creditNoteJournal(allocation, creditNoteTaxShare(invoice, invoice.credited, amount))));
              invoice.credited += amount;
              invoice.dueReduced += allocation.dueReduction;
              invoice.creditedToBalance += allocation.credit;
              customerBalance += allocation.credit;
              break;
            }
            case 'refund': {
              // A refund goes back on the payment with its credit note: AR is untouched, cash leaves.
              const invoice = choose(s.pick, (i) => i.status === 'Paid' && i.collected - i.refunded > 0n && i.total - i.credited > 0n);
              if (!invoice) break;
              const capacity = { remaining: invoice.total - invoice.credited, amountDue: 0n, refundable: invoice.collected - invoice.refunded };
              const wanted = (capacity.refundable * s.part) / 1000n || 1n;
              const result = allocateCreditNote({ amount: wanted, refund: wanted }, capacity);
              if (!result.ok) break;
              post(creditNoteJournal(result.allocation, creditNoteTaxShare(invoice, invoice.credited, wanted)));
              post(refundJournal(wanted));
              invoice.refunded += wanted;
              invoice.credited += wanted;
              break;
            }
            case 'void': {
              const invoice = choose(s.pick, (i) => i.status === 'Open');
              if (!invoice) break;
              // Refused when the customer spent the credit its notes put on the balance.
              if (customerBalance + invoice.balanceApplied < invoice.creditedToBalance) break;
              // Every journal of the invoice reversed, newest first; the wallet gets its credit back,
              // the customer balance what the invoice applied less what its notes put on it.
              for (const entries of [...invoice.journals].reverse()) post(reversalOf(entries, 'invoice_voided'));
              walletPaid += invoice.wallet.paid;
              walletPromotional += invoice.wallet.promotional;
              customerBalance += invoice.balanceApplied - invoice.creditedToBalance;
              invoice.status = 'Void';
              break;
            }
            case 'top_up':
              if (s.amount === 0n) break;
              if (s.promotional) {
                post(promotionalGrantJournal(s.amount));
                walletPromotional += s.amount;
              } else {
                post(walletTopUpJournal(s.amount));
                walletPaid += s.amount;
              }
              break;
            case 'expire':
              if (walletPromotional > 0n) post(promotionalExpiryJournal(walletPromotional));
              walletPromotional = 0n;
              break;
            case 'recognize': {
              const invoice = choose(s.pick, (i) => i.status !== 'Void' && !i.recognizedLater && i.deferred > 0n);
              if (!invoice) break;
              invoice.journals.push(post(recognitionJournal(invoice.deferred)));
              invoice.recognizedLater = true;
              break;
            }
          }
        }

        const totals = ACCOUNT_KINDS.map((k) => balances.get(k) ?? { debits: 0n, credits: 0n });
        const trial = totals.reduce((sum, t) => sum + t.debits - t.credits, 0n);
        expect(trial).toBe(0n);
        const balance = (k: AccountKind) => normalBalance(k, balances.get(k) ?? { debits: 0n, credits: 0n });
        const openAmounts = invoices.filter((i) => i.status === 'Open').reduce((sum, i) => sum + due(i), 0n);
        expect(balance('accounts_receivable')).toBe(openAmounts);
        expect(invoices.every((i) => i.status === 'Void' || due(i) >= 0n)).toBe(true);
        expect(balance('customer_credit')).toBe(customerBalance);
        expect(customerBalance >= 0n).toBe(true);
        expect(balance('wallet')).toBe(walletPaid);
        expect(balance('promotional_credit')).toBe(walletPromotional);
        const deferredLeft = invoices.filter((i) => i.status !== 'Void' && !i.recognizedLater).reduce((sum, i) => sum + i.deferred, 0n);
        expect(balance('deferred_revenue')).toBe(deferredLeft);
        // Tax payable: the tax of every invoice not voided, less the tax of what its credit notes
        // credited (pro rata of the credited part of its total).
        const taxOwed = invoices
          .filter((i) => i.status !== 'Void')
          .reduce((sum, i) => sum + i.tax - (i.total === 0n ? 0n : (i.credited * i.tax) / i.total), 0n);
        expect(balance('tax_payable')).toBe(taxOwed);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ratable recognition of deferred revenue', () => {
  const day = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`);

  it('earns an annual line month by month, prorated by the days of each month, exactly the amount at the end', () => {
    const amount = 365n * U;
    const steps = recognitionSteps(amount, day('2026-01-01'), day('2027-01-01'), day('2026-04-15'));
    expect(steps.map((s) => [new Date(s.atMs).toISOString().slice(0, 10), s.amount])).toEqual([
      ['2026-02-01', 31n * U],
      ['2026-03-01', 28n * U],
      ['2026-04-01', 31n * U],
    ]);
    const all = recognitionSteps(amount, day('2026-01-01'), day('2027-01-01'), day('2030-01-01'));
    expect(all).toHaveLength(12);
    expect(new Date(all.at(-1)!.atMs).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(all.reduce((sum, s) => sum + s.amount, 0n)).toBe(amount);
  });

  it('over any period and any date, never earns more than the line, each step on its sign, and all of it at the end (property)', () => {
    const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });
    fc.assert(
      fc.property(money, instant, fc.integer({ min: 1, max: 3 * 366 * 86_400_000 }), instant, (amount, startMs, lengthMs, upToMs) => {
        const start = startMs;
        const end = startMs + lengthMs;
        const steps = recognitionSteps(amount, start, end, upToMs);
        const total = steps.reduce((sum, s) => sum + s.amount, 0n);
        for (const s of steps) expect(amount >= 0n ? s.amount >= 0n : s.amount <= 0n).toBe(true);
        expect(amount >= 0n ? total <= amount : total >= amount).toBe(true);
        if (upToMs >= end) expect(total).toBe(amount);
        expect(recognitionSteps(amount, start, end, end).reduce((sum, s) => sum + s.amount, 0n)).toBe(amount);
      }),
      { numRuns: 300 },
    );
  });
});
