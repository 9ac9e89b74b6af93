/**
 * CSV answers (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or line break
 * quoted). Text that a spreadsheet would run as a formula (=, +, -, @ first, other than a number) is
 * prefixed with an apostrophe.
 */
import type { Context } from 'hono';
import type { CsvStream, CsvTable } from '../services/reports/reports.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const INTEGER = /^-?[0-9]+$/;

function cell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !INTEGER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (row: (string | number)[]): string => `${row.map(cell).join(',')}\r\n`;

export function toCsv(table: CsvTable): string {
  return [table.header, ...table.rows].map(csvLine).join('');
}

/** Whether the caller asked for CSV: `format=csv`, or an Accept header naming text/csv (and no format=json). */
export function wantsCsv(c: Context, format: 'json' | 'csv' | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(c.req.header('Accept') ?? '');
}

const csvHeaders = (filename: string) => ({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` });

export function sendCsv(c: Context, table: CsvTable, filename: string) {
  return c.body(toCsv(table), 200, csvHeaders(filename));
}

/**
 * A CSV answer streamed: the header line, then each chunk of rows as its source yields it (the next
 * chunk is read only when the client has taken the last), so the table is never whole in memory.
 * A read that fails midway ends the body early (the status was sent already).
 */
export function streamCsv(c: Context, table: CsvStream, filename: string) {
  const encoder = new TextEncoder();
  const chunks = table.chunks[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(table.header)));
    },
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(csvLine).join('')));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return c.body(body, 200, csvHeaders(filename));
}
