/**
 * Invoice and credit note documents (issue 19). A finalized invoice's PDF is rendered once per
 * edition (the state it shows: open, paid or void, and again after each credit note), stored with
 * its SHA-256 and served from storage from then on, byte for byte; the invoice workflow renders the
 * edition of an invoice finalized through it in an activity (an invoice the period close finalized
 * itself has none), any other is rendered by the first request
 * that needs it. A Draft is rendered on each request, marked DRAFT and without a number, and never
 * stored. The seller and payer blocks of the first stored edition are kept for the later ones, so an
 * address changed afterwards never rewrites an issued invoice.
 */
import { createHash } from 'node:crypto';
import type { Db, DbClient } from '../../db/client.js';
import { creditNotesFromSource, creditNotesOf, findCreditNote } from '../../db/credit-notes.js';
import { getCustomer } from '../../db/customers.js';
import { findDocument, firstPrintedParties, storeDocument, type DocumentOwner } from '../../db/documents.js';
import { newId } from '../../ids.js';
import { invalidTransition, notFound } from '../../errors.js';
import { engineActor, recordAudit, type RequestContext } from '../audit.js';
import type { InvoiceView } from '../../schemas/invoicing.js';
import { toCreditNoteView } from '../invoicing/credit-notes.js';
import { invoiceNow, loadInvoiceView } from '../invoicing/invoices.js';
import { formatAmount, formatDate } from './format.js';
import { hostedPayState, type HostedPayState } from './hosted-pay.js';
import { renderHtml, type HostedPanel } from './html.js';
import { renewedHostedLink, verifyHostedLinkToken, type HostedLinkSettings } from './hosted-links.js';
import { creditNoteDocumentModel, invoiceDocumentModel, postalAddressLines, type DocumentModel, type DocumentParties } from './model.js';
import { renderPdf } from './pdf.js';
import type { DocumentSettings } from './settings.js';

export interface PdfDocument {
  content: Uint8Array;
  sha256: string;
  filename: string;
  /** The stored edition served; null for a Draft (rendered for this request only). */
  edition: string | null;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The payer block from the customer the invoice is addressed to, and the configured seller. */
async function currentParties(db: DbClient, settings: DocumentSettings, customerId: string): Promise<DocumentParties> {
  const customer = await getCustomer(db, customerId);
  const address = customer.billing_address;
  const lines = address ? postalAddressLines(address) : [];
  lines.push(customer.email);
  return { seller: settings.seller, payer: { name: customer.legal_name ?? customer.display_name, lines, taxId: customer.tax_id } };
}

async function partiesFor(db: DbClient, settings: DocumentSettings, owner: DocumentOwner, customerId: string): Promise<DocumentParties> {
  const printed = await firstPrintedParties(db, owner);
  return (printed as DocumentParties | null) ?? currentParties(db, settings, customerId);
}

/** The edition a finalized invoice shows now: its status, and how many credit notes it carries. */
const editionOf = (invoice: InvoiceView, creditNotes: number): string =>
  `${invoice.status.toLowerCase()}${creditNotes > 0 ? `+cn${creditNotes}` : ''}`;

interface InvoiceDocument {
  invoice: InvoiceView;
  model: DocumentModel;
  parties: DocumentParties;
  /** null for a Draft. */
  edition: string | null;
}

/** The invoice, its credit notes and its parties read from one snapshot, so the edition and its content agree. */
function invoiceDocument(db: Db, settings: DocumentSettings, invoiceId: string, ownCustomerId?: string): Promise<InvoiceDocument> {
  return db.$transaction((tx) => readInvoiceDocument(tx, settings, invoiceId, ownCustomerId), { isolationLevel: 'RepeatableRead' });
}

async function readInvoiceDocument(db: DbClient, settings: DocumentSettings, invoiceId: string, ownCustomerId?: string): Promise<InvoiceDocument> {
  const invoice = await loadInvoiceView(db, invoiceId, ownCustomerId);
  const notes = (await creditNotesOf(db, invoiceId)).map(toCreditNoteView);
  const applications = (await creditNotesFromSource(db, invoiceId)).map((row) => ({ note: toCreditNoteView(row), invoiceNumber: row.invoice.invoiceNumber }));
  const draft = invoice.status === 'Draft';
  const parties = draft ? await currentParties(db, settings, invoice.customer_id) : await partiesFor(db, settings, { invoiceId }, invoice.customer_id);
  return {
    invoice,
    model: invoiceDocumentModel(invoice, notes, parties, { locale: settings.locale }, applications),
    parties,
    edition: draft ? null : editionOf(invoice, notes.length),
  };
}

/** Stores an edition with its audit entry, in one transaction; an edition stored meanwhile is kept and served. */
async function store(
  db: Db,
  input: { owner: DocumentOwner; customerId: string; edition: string; content: Uint8Array; parties: DocumentParties },
): Promise<{ content: Uint8Array; sha256: string; edition: string }> {
  const digest = sha256(input.content);
  return db.$transaction(async (tx) => {
    const { document, created } = await storeDocument(tx, { id: newId(), owner: input.owner, edition: input.edition, sha256: digest, content: input.content, parties: input.parties });
    if (created) {
      const [entityType, entityId] = 'invoiceId' in input.owner ? ['invoice', input.owner.invoiceId] : ['credit_note', input.owner.creditNoteId];
      await recordAudit(tx, {
        action: `${entityType}.document_stored`,
        actor: engineActor(),
        entityType,
        entityId,
        customerId: input.customerId,
        after: { document_id: document.id, edition: document.edition, sha256: document.sha256, bytes: document.content.length },
      });
    }
    return document;
  });
}

const filenameOf = (invoice: InvoiceView): string => `${invoice.invoice_number ?? `draft-${invoice.id}`}.pdf`;

async function storedPdf(db: Db, settings: DocumentSettings, document: InvoiceDocument): Promise<PdfDocument> {
  const filename = filenameOf(document.invoice);
  if (document.edition === null) {
    const content = await renderPdf(document.model, { logo: settings.logo });
    return { content, sha256: sha256(content), filename, edition: null };
  }
  const owner = { invoiceId: document.invoice.id };
  const existing = await findDocument(db, owner, document.edition);
  if (existing) return { content: existing.content, sha256: existing.sha256, filename, edition: existing.edition };
  const content = await renderPdf(document.model, { logo: settings.logo });
  const stored = await store(db, { owner, customerId: document.invoice.customer_id, edition: document.edition, content, parties: document.parties });
  return { content: stored.content, sha256: stored.sha256, filename, edition: stored.edition };
}

/** The invoice's PDF: the stored edition for its current state (rendered and stored when missing), or a Draft's. */
export async function invoicePdf(db: Db, settings: DocumentSettings, invoiceId: string, ownCustomerId?: string): Promise<PdfDocument> {
  return storedPdf(db, settings, await invoiceDocument(db, settings, invoiceId, ownCustomerId));
}

/** The invoice workflow's activity: stores the edition of a finalized invoice; nothing for a Draft. */
export async function storeInvoiceDocument(db: Db, settings: DocumentSettings, invoiceId: string): Promise<{ edition: string; sha256: string } | null> {
  const document = await invoiceDocument(db, settings, invoiceId);
  if (document.edition === null) return null;
  const pdf = await storedPdf(db, settings, document);
  return { edition: document.edition, sha256: pdf.sha256 };
}

/** A credit note's PDF: one edition, stored at the first request (credit notes never change). */
export async function creditNotePdf(db: Db, settings: DocumentSettings, creditNoteId: string, ownCustomerId?: string): Promise<PdfDocument> {
  const row = await findCreditNote(db, creditNoteId);
  if (!row || (ownCustomerId !== undefined && row.customerId !== ownCustomerId)) throw notFound('credit_note', creditNoteId);
  const note = toCreditNoteView(row);
  const owner = { creditNoteId };
  const filename = `${note.number}.pdf`;
  const existing = await findDocument(db, owner, 'issued');
  if (existing) return { content: existing.content, sha256: existing.sha256, filename, edition: existing.edition };
  const invoice = await loadInvoiceView(db, note.invoice_id);
  const parties = await partiesFor(db, settings, { invoiceId: invoice.id }, invoice.customer_id);
  const content = await renderPdf(creditNoteDocumentModel(note, invoice, parties, { locale: settings.locale }), { logo: settings.logo });
  const stored = await store(db, { owner, customerId: note.customer_id, edition: 'issued', content, parties });
  return { content: stored.content, sha256: stored.sha256, filename, edition: stored.edition };
}

export type HostedLinkResult = { status: 'ok'; invoiceId: string } | { status: 'not_found' } | { status: 'expired'; expiredAt: Date };

/**
 * What a hosted link gives access to: its invoice, unless the link is malformed or not signed by
 * us (not_found, whatever the reason, so nothing can be learned by probing) or has expired on the
 * invoice's clock.
 */
export async function resolveHostedLink(db: Db, links: HostedLinkSettings, token: string, realNow: Date): Promise<HostedLinkResult> {
  const link = verifyHostedLinkToken(links.secret, token);
  if (!link) return { status: 'not_found' };
  const now = await invoiceNow(db, link.invoiceId, realNow);
  if (now.getTime() >= link.expiresAt.getTime()) return { status: 'expired', expiredAt: link.expiresAt };
  return { status: 'ok', invoiceId: link.invoiceId };
}

/**
 * A new link to a finalized invoice's page, expiring HOSTED_LINK_TTL_DAYS after now on the invoice's
 * clock (a Draft has no page), audited as invoice.hosted_link_renewed.
 */
export async function renewHostedLink(db: Db, links: HostedLinkSettings, invoiceId: string, realNow: Date, ctx: RequestContext): Promise<{ url: string; expiresAt: Date }> {
  const invoice = await loadInvoiceView(db, invoiceId);
  if (invoice.status === 'Draft') throw invalidTransition('invoice', invoice.status, 'link');
  const link = renewedHostedLink(links, invoiceId, await invoiceNow(db, invoiceId, realNow));
  await recordAudit(db, {
    action: 'invoice.hosted_link_renewed',
    actor: ctx.actor,
    entityType: 'invoice',
    entityId: invoiceId,
    customerId: invoice.customer_id,
    after: { expires_at: link.expiresAt.toISOString() },
    requestId: ctx.requestId,
  });
  return link;
}

export interface HostedPageLinks {
  /** The PDF of the same link. */
  pdfHref: string;
  /** The readable explanation of the same link ("How was this calculated?"). */
  explainHref?: string;
  /** Where the Pay form posts, and its form token. */
  payAction: string;
  formToken: string;
  /** The payer came back from the processor's checkout page (it may not have told us yet). */
  backFromCheckout: boolean;
}

const cardLabel = (card: { brand: string | null; last4: string | null }): string =>
  `${card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card'}${card.last4 ? ` •••• ${card.last4}` : ''}`;

/** What the page says about paying: the invoice's state, its last attempt, and the Pay form while it can be paid. */
function hostedPanel(invoice: InvoiceView, state: HostedPayState, settings: DocumentSettings, links: HostedPageLinks): HostedPanel {
  if (invoice.status === 'Paid') return { notice: { tone: 'ok', text: `Paid on ${formatDate(invoice.paid_at ?? invoice.created_at)}. Thank you.` }, pay: null };
  if (invoice.status === 'Void') return { notice: { tone: 'info', text: 'This invoice was voided: there is nothing to pay.' }, pay: null };
  const last = state.lastAttempt;
  let notice: HostedPanel['notice'] = null;
  if (last?.status === 'Pending' || last?.status === 'RequiresCapture') {
    notice = { tone: 'info', text: 'A payment is being processed. This page shows the invoice Paid once the payment processor confirms it.' };
  } else if (links.backFromCheckout) {
    notice = { tone: 'info', text: 'Thank you. The payment processor is confirming your payment: reload this page in a moment to see the invoice Paid.' };
  } else if (last?.status === 'Failed') {
    notice = { tone: 'error', text: `The last payment attempt failed${last.failureMessage ? `: ${last.failureMessage}` : ''}. You can try again.` };
  }
  const pay = state.payable
    ? {
        action: links.payAction,
        formToken: links.formToken,
        amount: formatAmount(BigInt(invoice.amount_due_nanos), invoice.currency, settings.locale),
        card: state.card ? cardLabel(state.card) : null,
      }
    : null;
  return { notice, pay };
}

/** The hosted page of an invoice: the same document as its PDF, as HTML, with what the payer can do. */
export async function hostedInvoicePage(db: Db, settings: DocumentSettings, invoiceId: string, links: HostedPageLinks): Promise<string> {
  const document = await invoiceDocument(db, settings, invoiceId);
  const state = await hostedPayState(db, invoiceId);
  return renderHtml(document.model, links.pdfHref, hostedPanel(document.invoice, state, settings, links), links.explainHref);
}
