/**
 * HardLimit spend cap (SPEC §1 Spend alerts: "HardLimit also blocks charges"). Usage is always
 * recorded and rated; what is capped is what the period's invoices charge. At finalization each
 * customer whose charges the invoice carries and who has HardLimit alerts (not Disabled) in the
 * invoice's currency gets a `spend_cap` line of minus the charges above the threshold for the
 * period, counting the earlier finalized invoices of the period (progressive billing) and what
 * they already withheld. The line is added before tax, so tax follows the capped amount, and the
 * invoice total, its amount due, the card charge and every later step see only the capped amount.
 * Withheld charges count as billed (the period's later invoices do not bill them again): they are
 * never charged.
 */
import { combinedWithheld, spendCapWithheld, toDisplay } from '../../core/index.js';
import type { DbClient } from '../../db/client.js';
import { findCustomer } from '../../db/customers.js';
import { insertLine, type InvoiceRow } from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { capFigures, customersOnInvoice, enabledSpendAlerts } from '../../db/spend-alerts.js';

export interface SpendCapWithholding {
  customerId: string;
  withheldNanos: bigint;
}

/**
 * Adds the spend cap lines of a Draft being finalized (inside the finalizing transaction, before
 * tax and totals) and returns what each customer had withheld.
 */
export async function applyHardLimitSpendCap(tx: DbClient, invoice: InvoiceRow): Promise<SpendCapWithholding[]> {
  if (invoice.periodStart === null) return [];
  const withholdings: SpendCapWithholding[] = [];
  for (const customerId of await customersOnInvoice(tx, invoice.id)) {
    const hardLimits = (await enabledSpendAlerts(tx, customerId)).filter((alert) => alert.alertType === 'HardLimit' && alert.currency === invoice.currency);
    if (hardLimits.length === 0) continue;
    const perAlert: { alertId: string; thresholdNanos: bigint; withheldNanos: bigint; chargesNanos: bigint }[] = [];
    for (const alert of hardLimits) {
      const figures = await capFigures(tx, { invoiceId: invoice.id, customerId, currency: invoice.currency, periodStart: invoice.periodStart, meterEventType: alert.meterEventType });
      const thresholdNanos = fromDecimal(alert.thresholdNanos);
      perAlert.push({ alertId: alert.id, thresholdNanos, chargesNanos: figures.currentNanos, withheldNanos: spendCapWithheld({ thresholdNanos, ...figures }) });
    }
    const withheld = combinedWithheld(perAlert.map((entry) => entry.withheldNanos));
    if (withheld === 0n) continue;
    const binding = perAlert.find((entry) => entry.withheldNanos === withheld)!;
    const customer = await findCustomer(tx, customerId);
    await insertLine(tx, invoice.id, {
      kind: 'spend_cap',
      description: `Spend limit reached: charges above the HardLimit of ${toDisplay(binding.thresholdNanos, invoice.currency).text} ${invoice.currency} for the period withheld`,
      amountNanos: -withheld,
      customerId,
      customerName: customerId === invoice.customerId ? null : (customer?.display_name ?? null),
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      detail: {
        alert_id: binding.alertId,
        threshold_nanos: binding.thresholdNanos.toString(),
        withheld_nanos: withheld.toString(),
        alerts: perAlert.map((entry) => ({ alert_id: entry.alertId, threshold_nanos: entry.thresholdNanos.toString(), charges_nanos: entry.chargesNanos.toString(), withheld_nanos: entry.withheldNanos.toString() })),
      },
    });
    withholdings.push({ customerId, withheldNanos: withheld });
  }
  return withholdings;
}
