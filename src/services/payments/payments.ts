/** Reading payments: an invoice's attempts with their refunds. */
import type { PageQuery } from '../../db/pages.js';
import type { Db } from '../../db/client.js';
import { findPaymentWithRefunds, invoiceState, listInvoicePayments, toPaymentRecord, type PaymentRecord } from '../../db/payments.js';
import { notFound } from '../../errors.js';
import { toPage } from '../pagination.js';

export async function listPayments(db: Db, invoiceId: string, page: PageQuery) {
  if (!(await invoiceState(db, invoiceId))) throw notFound('invoice', invoiceId);
  return toPage(await listInvoicePayments(db, invoiceId, page), page.limit, toPaymentRecord);
}

export async function getPaymentView(db: Db, id: string): Promise<PaymentRecord> {
  const row = await findPaymentWithRefunds(db, id);
  if (!row) throw notFound('payment', id);
  return toPaymentRecord(row);
}
