/**
 * CSV answers (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or line break
 * quoted). Text that a spreadsheet would run as a formula (=, +, -, @ first, other than a number) is
 * prefixed with an apostrophe.
 */
import type { Context } from 'hono';
import type { CsvTable } from '../services/reports/reports.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const INTEGER = /^-?[0-9]+$/;

function cell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !INTEGER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(table: CsvTable): string {
  return [table.header, ...table.rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Whether the caller asked for CSV: `format=csv`, or an Accept header naming text/csv (and no format=json). */
export function wantsCsv(c: Context, format: 'json' | 'csv' | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(c.req.header('Accept') ?? '');
}

export function sendCsv(c: Context, table: CsvTable, filename: string) {
  return c.body(toCsv(table), 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` });
}
