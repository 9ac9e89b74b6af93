/**
 * The invoices handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import type { Context } from 'hono';
import { getCreditNote, listAllCreditNotes, listCreditNotes, toCreditNoteView } from '../../../services/invoicing/credit-notes.js';
import { issueAllocatedCreditNote } from '../../../services/payments/refunds.js';
import { addManualLine, applyCredit, calculateInvoiceTax } from '../../../services/invoicing/invoice-edits.js';
import { listInvoices, loadInvoiceView, updateInvoiceMetadata } from '../../../services/invoicing/invoices.js';
import { explainInvoice } from '../../../services/invoicing/explain.js';
import { toPage, type Page } from '../../../services/pagination.js';
import { type InvoiceSummaryView } from '../../../schemas/invoicing.js';
import { ownCustomerId } from '../../actor.js';
import type { App, AppEnv } from '../../context.js';
import { withHostedLink } from '../../hosted-links.js';
import { requestContext, sendPage } from '../../helpers.js';
import { listRoute, listOwnRoute, updateRoute, listAllCreditNotesRoute, getRoute, getOwnRoute, explainRoute, addLineRoute, applyCreditRoute, calculateTaxRoute, issueCreditNoteRoute, listCreditNotesRoute, getCreditNoteRoute } from './routes.js';

export function registerInvoices(app: App): void {
  const sendInvoices = (c: Context<AppEnv>, page: Page<InvoiceSummaryView>) => sendPage(c, { ...page, data: page.data.map((invoice) => withHostedLink(c, invoice)) });
  app.openapi(listRoute, async (c) => sendInvoices(c, await listInvoices(c.get('deps').db, c.req.valid('query'))));
  app.openapi(listOwnRoute, async (c) => sendInvoices(c, await listInvoices(c.get('deps').db, c.req.valid('query'), ownCustomerId(c))));
  app.openapi(updateRoute, async (c) =>
    c.json(withHostedLink(c, await updateInvoiceMetadata(c.get('deps').db, c.req.valid('param').id, c.req.valid('json').metadata, requestContext(c))), 200),
  );
  app.openapi(listAllCreditNotesRoute, async (c) => sendPage(c, await listAllCreditNotes(c.get('deps').db, c.req.valid('query'))));

  app.openapi(getRoute, async (c) => c.json(withHostedLink(c, await loadInvoiceView(c.get('deps').db, c.req.valid('param').id)), 200));

  app.openapi(getOwnRoute, async (c) => c.json(withHostedLink(c, await loadInvoiceView(c.get('deps').db, c.req.valid('param').id, ownCustomerId(c))), 200));

  app.openapi(explainRoute, async (c) => c.json(await explainInvoice(c.get('deps').db, c.req.valid('param').id, ownCustomerId(c)), 200));
  app.openapi(addLineRoute, async (c) => {
    const body = c.req.valid('json');
    const invoice = await addManualLine(
      c.get('deps').db,
      c.req.valid('param').id,
      {
        description: body.description,
        amountNanos: BigInt(body.amount_nanos),
        ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
        ...(body.unit_amount_nanos !== undefined ? { unitAmountNanos: BigInt(body.unit_amount_nanos) } : {}),
      },
      requestContext(c),
    );
    return c.json(withHostedLink(c, invoice), 201);
  });

  app.openapi(applyCreditRoute, async (c) => {
    const body = c.req.valid('json');
    const invoice = await applyCredit(c.get('deps').db, c.req.valid('param').id, { description: body.description, amountNanos: BigInt(body.amount_nanos) }, requestContext(c));
    return c.json(withHostedLink(c, invoice), 201);
  });

  app.openapi(calculateTaxRoute, async (c) => {
    const { db, tax } = c.get('deps');
    return c.json(withHostedLink(c, await calculateInvoiceTax(db, c.req.valid('param').id, tax, requestContext(c))), 200);
  });

  app.openapi(issueCreditNoteRoute, async (c) => {
    const body = c.req.valid('json');
    const part = (value: string | undefined) => (value === undefined ? undefined : BigInt(value));
    const note = await issueAllocatedCreditNote(
      c.get('deps'),
      c.req.valid('param').id,
      {
        amountNanos: BigInt(body.amount_nanos),
        refundAmountNanos: part(body.refund_amount_nanos),
        creditAmountNanos: part(body.credit_amount_nanos),
        outOfBandAmountNanos: part(body.out_of_band_amount_nanos),
        reason: body.reason,
        memo: body.memo ?? null,
      },
      { ...requestContext(c), at: c.get('deps').clock() },
    );
    return c.json(note, 201);
  });

  app.openapi(listCreditNotesRoute, async (c) => {
    const query = c.req.valid('query');
    const rows = await listCreditNotes(c.get('deps').db, c.req.valid('param').id, query);
    return sendPage(c, toPage(rows, query.limit, toCreditNoteView));
  });

  app.openapi(getCreditNoteRoute, async (c) => c.json(await getCreditNote(c.get('deps').db, c.req.valid('param').id), 200));
}
