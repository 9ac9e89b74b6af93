/** Reading payments: an invoice's attempts with their refunds, and every payment across invoices. */
import type { PageQuery } from '../../db/pages.js';
import type { Db } from '../../db/client.js';
import { findPaymentWithRefunds, invoiceState, listAllPayments, listInvoicePayments, toPaymentRecord, type PaymentRecord } from '../../db/payments.js';
import { notFound } from '../../errors.js';
import { toPage } from '../pagination.js';

export async function listPayments(db: Db, invoiceId: string, page: PageQuery) {
  if (!(await invoiceState(db, invoiceId))) throw notFound('invoice', invoiceId);
  return toPage(await listInvoicePayments(db, invoiceId, page), page.limit, toPaymentRecord);
}

export interface PaymentListQuery extends PageQuery {
  customer_id?: string | undefined;
  invoice_id?: string | undefined;
  status?: PaymentRecord['status'] | undefined;
}

/** Payments of every invoice, newest first, with their refunds; filters narrow by customer, invoice and status. */
export async function listEveryPayment(db: Db, query: PaymentListQuery) {
  const { customer_id, invoice_id, status, ...page } = query;
  return toPage(await listAllPayments(db, { customerId: customer_id, invoiceId: invoice_id, status }, page), page.limit, toPaymentRecord);
}

export async function getPaymentView(db: Db, id: string): Promise<PaymentRecord> {
  const row = await findPaymentWithRefunds(db, id);
  if (!row) throw notFound('payment', id);
  return toPaymentRecord(row);
}
