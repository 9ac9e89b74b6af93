/**
 * Invoices leave the API with their hosted_invoice_url: the services build the view, the API signs
 * the link with HOSTED_LINK_SECRET, which only the API holds.
 */
import type { Context } from 'hono';
import { hostedInvoiceUrl } from '../services/documents/hosted-links.js';
import type { InvoiceView } from '../schemas/invoicing.js';
import type { AppEnv } from './context.js';

/** A whole invoice or a list's summary gets the same link. */
type LinkedInvoice = Pick<InvoiceView, 'id' | 'finalized_at' | 'due_at' | 'hosted_invoice_url'>;

export function withHostedLink<T extends LinkedInvoice | null>(c: Context<AppEnv>, invoice: T): T {
  const links = c.get('deps').settings.hostedLinks;
  if (!invoice || !links) return invoice;
  return { ...invoice, hosted_invoice_url: hostedInvoiceUrl(links, invoice) };
}
