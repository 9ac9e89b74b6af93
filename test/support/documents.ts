/**
 * Reading invoice documents in tests: the PDF's text through unpdf (pure JS, pdf.js inside), and the
 * amounts as a payer reads them, formatted independently of the code under test.
 */
import { extractText } from 'unpdf';

/** The PDF's text, one string, with runs of whitespace (non-breaking spaces included) made one space. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text.replace(/[\s\u00a0\u202f]+/g, ' ');
}

const SIGNS: Record<string, string> = { USD: '$', JPY: '¥', EUR: '€', GBP: '£' };

/**
 * The en-US text of a display string of the API ("1234.50", "-3"): digits grouped by three, the
 * currency's sign (or its ISO code, e.g. "KWD 1,234.567"), minus first. Deliberately plain string
 * work, so a test compares the document with the JSON, not the formatter with itself.
 */
export function enUs(display: string, currency: string): string {
  const negative = display.startsWith('-');
  const [whole = '', fraction] = (negative ? display.slice(1) : display).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const number = fraction === undefined ? grouped : `${grouped}.${fraction}`;
  const sign = SIGNS[currency];
  return `${negative ? '-' : ''}${sign ?? `${currency} `}${number}`;
}
