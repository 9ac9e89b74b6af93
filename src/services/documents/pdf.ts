/**
 * Draws a document model as an A4 PDF with pdfkit. The output is a pure function of the model (and
 * the logo): the creation date is the document's own date and pdfkit derives the file id from it,
 * so rendering the same edition twice gives the same bytes.
 */
import PDFDocument from 'pdfkit';
import type { DocumentModel, Party } from './model.js';

export interface PdfOptions {
  /** PNG or JPEG bytes printed at the top left. */
  logo?: Buffer | null;
}

const MARGIN = 50;
const PAGE_BOTTOM = 842 - 60;
const TEXT = '#1f2328';
const MUTED = '#59636e';
const RULE = '#d0d7de';
/** Columns of the line table: x and width. */
const COL = {
  description: { x: MARGIN, width: 255 },
  quantity: { x: 310, width: 60 },
  unit: { x: 375, width: 85 },
  amount: { x: 465, width: 80 },
};

export function renderPdf(model: DocumentModel, options: PdfOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: model.title, Author: model.parties.seller.name, Subject: model.heading, CreationDate: model.issuedAt, ModDate: model.issuedAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  let y = MARGIN;
  if (options.logo) {
    doc.image(options.logo, MARGIN, y, { fit: [140, 50] });
  }
  doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(22).text(model.heading, 300, y, { width: 245, align: 'right' });
  if (model.number) doc.font('Helvetica').fontSize(11).fillColor(MUTED).text(model.number, 300, y + 28, { width: 245, align: 'right' });
  y += 70;

  // Parties.
  const partyHeight = Math.max(drawParty(doc, 'From', model.parties.seller, MARGIN, y), drawParty(doc, 'Bill to', model.parties.payer, 310, y));
  y += partyHeight + 18;

  // Facts (number, dates, status).
  doc.fontSize(9);
  for (const fact of model.facts) {
    doc.font('Helvetica-Bold').fillColor(MUTED).text(fact.label, MARGIN, y, { width: 110 });
    doc.font('Helvetica').fillColor(TEXT).text(fact.value, MARGIN + 115, y, { width: 380 });
    y += 14;
  }
  y += 12;

  const header = (top: number): number => {
    doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED);
    doc.text('Description', COL.description.x, top, { width: COL.description.width });
    doc.text('Quantity', COL.quantity.x, top, { width: COL.quantity.width, align: 'right' });
    doc.text('Unit price', COL.unit.x, top, { width: COL.unit.width, align: 'right' });
    doc.text('Amount', COL.amount.x, top, { width: COL.amount.width, align: 'right' });
    doc.moveTo(MARGIN, top + 13).lineTo(545, top + 13).strokeColor(RULE).lineWidth(0.7).stroke();
    return top + 19;
  };
  const room = (needed: number) => {
    if (y + needed <= PAGE_BOTTOM) return;
    doc.addPage();
    y = header(MARGIN);
  };

  y = header(y);
  for (const section of model.sections) {
    if (section.title) {
      room(30);
      y += 4;
      doc.font('Helvetica-Bold').fontSize(10).fillColor(TEXT).text(section.title, MARGIN, y, { width: 495 });
      y += 15;
    }
    for (const row of section.rows) {
      const indent = row.detail ? 12 : 0;
      const description = row.tax ? `${row.description} [TAX]` : row.description;
      doc.font('Helvetica').fontSize(row.detail ? 8 : 9);
      const height = Math.max(doc.heightOfString(description, { width: COL.description.width - indent }), 11);
      room(height + 4);
      doc.fillColor(row.detail ? MUTED : TEXT);
      doc.text(description, COL.description.x + indent, y, { width: COL.description.width - indent });
      doc.text(row.quantity, COL.quantity.x, y, { width: COL.quantity.width, align: 'right' });
      doc.text(row.unitPrice, COL.unit.x, y, { width: COL.unit.width, align: 'right' });
      doc.text(row.amount, COL.amount.x, y, { width: COL.amount.width, align: 'right' });
      y += height + 4;
    }
    if (section.subtotal) {
      room(16);
      doc.font('Helvetica-Bold').fontSize(9).fillColor(TEXT);
      doc.text(`Subtotal ${section.title ?? ''}`.trim(), COL.description.x, y, { width: 410 });
      doc.text(section.subtotal, COL.amount.x, y, { width: COL.amount.width, align: 'right' });
      y += 16;
    }
  }
  doc.moveTo(MARGIN, y).lineTo(545, y).strokeColor(RULE).lineWidth(0.7).stroke();
  y += 10;

  // Totals, right-aligned.
  for (const row of model.summary) {
    room(16);
    doc.font(row.strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(row.strong ? 11 : 9).fillColor(TEXT);
    const labelHeight = doc.heightOfString(row.label, { width: 230 });
    doc.text(row.label, 230, y, { width: 230, align: 'right' });
    doc.text(row.amount, COL.amount.x, y, { width: COL.amount.width, align: 'right' });
    y += Math.max(labelHeight, row.strong ? 14 : 12) + 4;
  }
  y += 12;
  for (const note of model.notes) {
    room(30);
    doc.font('Helvetica-Oblique').fontSize(9).fillColor(MUTED).text(note, MARGIN, y, { width: 495 });
    y += doc.heightOfString(note, { width: 495 }) + 6;
  }

  // The mark and the page numbers, on every page.
  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page += 1) {
    doc.switchToPage(page);
    // The footer sits in the bottom margin: without this pdfkit would start a new page for it.
    doc.page.margins.bottom = 0;
    if (model.mark) {
      doc.save();
      doc.rotate(-35, { origin: [297, 421] });
      doc.font('Helvetica-Bold').fontSize(110).fillColor(model.mark === 'PAID' ? '#1a7f37' : '#cf222e').fillOpacity(0.12);
      doc.text(model.mark, 47, 366, { width: 500, align: 'center', lineBreak: false });
      doc.restore();
    }
    doc.font('Helvetica').fontSize(8).fillColor(MUTED).fillOpacity(1);
    doc.text(`${model.title} · page ${page + 1} of ${range.count}`, MARGIN, 842 - 40, { width: 495, align: 'center', lineBreak: false });
  }
  doc.end();
  return done;
}

function drawParty(doc: PDFKit.PDFDocument, label: string, party: Party, x: number, top: number): number {
  let y = top;
  doc.font('Helvetica-Bold').fontSize(8).fillColor(MUTED).text(label.toUpperCase(), x, y, { width: 235 });
  y += 12;
  doc.font('Helvetica-Bold').fontSize(10).fillColor(TEXT).text(party.name, x, y, { width: 235 });
  y += doc.heightOfString(party.name, { width: 235 }) + 2;
  doc.font('Helvetica').fontSize(9);
  for (const line of party.lines) {
    doc.text(line, x, y, { width: 235 });
    y += doc.heightOfString(line, { width: 235 });
  }
  if (party.taxId) {
    doc.text(`Tax ID: ${party.taxId}`, x, y, { width: 235 });
    y += 12;
  }
  return y - top;
}
