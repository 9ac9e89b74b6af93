/**
 * The hosted invoice page: the same document model as the PDF, as one self-contained HTML page
 * (inline styles, no scripts, nothing loaded from elsewhere) with a link to download the PDF and,
 * while the invoice can be paid, a Pay form; and the HTML pages the hosted routes answer errors with.
 */
import { createHash } from 'node:crypto';
import { PROCESSOR_CHECKOUT_ORIGIN } from '../../processor/index.js';
import type { DocumentModel, Party } from './model.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

const STYLE = `
body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f8fa;margin:0}
main{max-width:820px;margin:32px auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:40px;position:relative;overflow:hidden}
header{display:flex;justify-content:space-between;align-items:flex-start}
h1{margin:0;font-size:28px}.number{color:#59636e}
.mark{position:absolute;top:38%;left:0;right:0;text-align:center;font-size:120px;font-weight:700;transform:rotate(-30deg);opacity:.12;pointer-events:none}
.mark.DRAFT,.mark.VOID{color:#cf222e}.mark.PAID{color:#1a7f37}
.parties{display:flex;gap:40px;margin:28px 0}.parties div{flex:1}.label{font-size:11px;font-weight:700;color:#59636e;text-transform:uppercase}
dl{display:grid;grid-template-columns:150px 1fr;gap:2px 12px;margin:0 0 24px}dt{color:#59636e;font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse}th{text-align:left;color:#59636e;font-size:12px;border-bottom:1px solid #d0d7de;padding:6px 4px}
td{padding:5px 4px;vertical-align:top}.num{text-align:right;white-space:nowrap}.detail td{color:#59636e;font-size:12px}.detail td:first-child{padding-left:20px}
.section td{font-weight:700;padding-top:14px}.subtotal td{font-weight:700}.tax{font-size:11px;font-weight:700;color:#9a6700;border:1px solid #d4a72c;border-radius:4px;padding:0 4px;margin-left:6px}
.summary{margin-left:auto;margin-top:16px;width:60%}.summary td{text-align:right}.summary .strong td{font-weight:700;font-size:16px;border-top:1px solid #d0d7de}
.notes{color:#59636e;font-style:italic}.download{display:inline-block;margin-top:24px;padding:8px 16px;background:#1f883d;color:#fff;border-radius:6px;text-decoration:none;font-weight:600}
.notice{margin:0 0 24px;padding:12px 16px;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa}.notice.ok{border-color:#1a7f37;background:#dafbe1}.notice.error{border-color:#cf222e;background:#ffebe9}
.pay{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:0 0 24px}.pay button{font:inherit;font-weight:600;padding:10px 18px;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
.pay button.secondary{background:#fff;color:#1f883d}.error-page h1{font-size:24px}
`;

/**
 * The page's Content-Security-Policy: nothing may load or run but its one inline stylesheet (by its
 * hash); no scripts, frames, base or plugins; its form may post only to this service (which may send
 * the payer on to the processor's checkout page), and no page may frame it.
 */
const styleHash = (style: string): string => `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`;

/** The Content-Security-Policy of a page of this frame that adds its own stylesheet (renderHostedPage's `extraStyle`). */
export function hostedPageCsp(extraStyle?: string): string {
  return [
    "default-src 'none'",
    `style-src ${[STYLE, ...(extraStyle ? [extraStyle] : [])].map(styleHash).join(' ')}`,
    "base-uri 'none'",
    `form-action 'self' ${PROCESSOR_CHECKOUT_ORIGIN}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

export const HOSTED_PAGE_CSP = hostedPageCsp();

/** What the page says about paying, above the invoice. */
export interface HostedPanel {
  /** Paid, being confirmed, or the last attempt failed. */
  notice: { tone: 'ok' | 'info' | 'error'; text: string } | null;
  /** The Pay form, while the invoice is Open with something to pay. */
  pay: {
    action: string;
    formToken: string;
    /** The amount due as the document prints it. */
    amount: string;
    /** The payment method on file ("Visa •••• 4242"), when the payer has one. */
    card: string | null;
  } | null;
}

function panelHtml(panel: HostedPanel): string {
  const notice = panel.notice ? `<p class="notice ${panel.notice.tone}" role="status">${esc(panel.notice.text)}</p>` : '';
  const pay = panel.pay;
  if (!pay) return notice;
  const onFile = pay.card
    ? `<button type="submit" name="method" value="card_on_file">Pay ${esc(pay.amount)} with ${esc(pay.card)}</button>`
    : '';
  const checkout = `<button type="submit" name="method" value="checkout"${pay.card ? ' class="secondary"' : ''}>${pay.card ? 'Pay with another card' : `Pay ${esc(pay.amount)}`}</button>`;
  return `${notice}<form class="pay" method="post" action="${esc(pay.action)}"><input type="hidden" name="form_token" value="${esc(pay.formToken)}">${onFile}${checkout}</form>`;
}

/** A page of the hosted frame; `extraStyle` is a second stylesheet of its own (allowed by hostedPageCsp(extraStyle)). */
export const renderHostedPage = (title: string, body: string, extraStyle?: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>${STYLE}</style>${extraStyle ? `\n<style>${extraStyle}</style>` : ''}
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

/** The page a hosted route answers an error with: what happened and what the payer can do. */
export function renderHostedError(error: { status: number; code: string; title: string; message: string; requestId: string }): string {
  return renderHostedPage(
    error.title,
    `<div class="error-page"><h1>${esc(error.title)}</h1><p>${esc(error.message)}</p><p class="notes">Error ${error.status} · ${esc(error.code)} · request ${esc(error.requestId)}</p></div>`,
  );
}

function party(label: string, p: Party): string {
  const lines = p.lines.map((line) => `${esc(line)}<br>`).join('');
  const tax = p.taxId ? `Tax ID: ${esc(p.taxId)}` : '';
  return `<div><div class="label">${esc(label)}</div><strong>${esc(p.name)}</strong><br>${lines}${tax}</div>`;
}

/** The hosted invoice page; `explainHref`, when given, links its explanation ("How was this calculated?"). */
export function renderHtml(model: DocumentModel, pdfHref: string, panel: HostedPanel = { notice: null, pay: null }, explainHref?: string): string {
  const facts = model.facts.map((fact) => `<dt>${esc(fact.label)}</dt><dd>${esc(fact.value)}</dd>`).join('');
  const rows = model.sections
    .map((section) => {
      const title = section.title ? `<tr class="section"><td colspan="4">${esc(section.title)}</td></tr>` : '';
      const body = section.rows
        .map(
          (row) =>
            `<tr${row.detail ? ' class="detail"' : ''}><td>${esc(row.description)}${row.tax ? '<span class="tax">TAX</span>' : ''}</td>` +
            `<td class="num">${esc(row.quantity)}</td><td class="num">${esc(row.unitPrice)}</td><td class="num">${esc(row.amount)}</td></tr>`,
        )
        .join('');
      const subtotal = section.subtotal
        ? `<tr class="subtotal"><td colspan="3">Subtotal ${esc(section.title ?? '')}</td><td class="num">${esc(section.subtotal)}</td></tr>`
        : '';
      return title + body + subtotal;
    })
    .join('');
  const summary = model.summary
    .map((row) => `<tr${row.strong ? ' class="strong"' : ''}><td>${esc(row.label)}</td><td class="num">${esc(row.amount)}</td></tr>`)
    .join('');
  const notes = model.notes.map((note) => `<p class="notes">${esc(note)}</p>`).join('');
  const mark = model.mark ? `<div class="mark ${model.mark}">${model.mark}</div>` : '';
  return renderHostedPage(
    model.title,
    `${mark}
<header><div><h1>${esc(model.heading)}</h1>${model.number ? `<div class="number">${esc(model.number)}</div>` : ''}</div></header>
${panelHtml(panel)}
<section class="parties">${party('From', model.parties.seller)}${party('Bill to', model.parties.payer)}</section>
<dl>${facts}</dl>
<table><thead><tr><th>Description</th><th class="num">Quantity</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<table class="summary"><tbody>${summary}</tbody></table>
${notes}
<a class="download" href="${esc(pdfHref)}" download>Download PDF</a>
${explainHref ? `<p><a href="${esc(explainHref)}">How was this calculated?</a></p>` : ''}`,
  );
}

/** What the readable explanation page shows of an explanation (GET /v1/invoices/:id/explain), amounts already formatted. */
export interface ExplanationPage {
  title: string;
  heading: string;
  /** Label and value pairs under the heading (period, currency, totals). */
  facts: { label: string; value: string }[];
  lines: { description: string; amount: string; rows: { label: string; value: string }[] }[];
  notes: string[];
}

/** The hosted explanation page, in the hosted invoice page's style (the same stylesheet, so the same CSP). */
export function renderExplanationHtml(explanation: ExplanationPage, invoiceHref: string): string {
  const facts = explanation.facts.map((fact) => `<dt>${esc(fact.label)}</dt><dd>${esc(fact.value)}</dd>`).join('');
  const rows = explanation.lines
    .map(
      (line) =>
        `<tr class="section"><td>${esc(line.description)}</td><td class="num">${esc(line.amount)}</td></tr>` +
        line.rows.map((row) => `<tr class="detail"><td>${esc(row.label)}</td><td class="num">${esc(row.value)}</td></tr>`).join(''),
    )
    .join('');
  const notes = explanation.notes.map((note) => `<p class="notes">${esc(note)}</p>`).join('');
  return renderHostedPage(
    explanation.title,
    `<header><div><h1>${esc(explanation.heading)}</h1></div></header>
<dl>${facts}</dl>
<table><thead><tr><th>How each amount was calculated</th><th class="num">Amount</th></tr></thead><tbody>${rows}</tbody></table>
${notes}
<p><a href="${esc(invoiceHref)}">Back to the invoice</a></p>`,
  );
}
