/**
 * Invoice lists carry summaries (no line items) and come newest first. Tests that inspect lines read
 * each invoice of a list whole, through its single GET, in creation order.
 */
import { expectJson, expectPage, type Harness } from './harness.js';

/** Every invoice the list query matches (all pages), oldest first, each with its line items. */
export async function invoicesOf<T>(h: Harness, query: string): Promise<T[]> {
  const ids: string[] = [];
  for (let cursor: string | null = null, more = true; more; ) {
    const page: { data: { id: string }[]; has_more: boolean; next_cursor: string | null } = await expectPage<{ id: string }>(
      await h.request('GET', `/admin/v1/invoices?${query.replace(/(^|&)limit=\d+/, '')}&limit=200${cursor ? `&starting_after=${cursor}` : ''}`),
    );
    ids.push(...page.data.map((invoice) => invoice.id));
    cursor = page.next_cursor;
    more = page.has_more;
  }
  const invoices: T[] = [];
  for (const id of ids.reverse()) invoices.push(await expectJson<T>(await h.request('GET', `/admin/v1/invoices/${id}`)));
  return invoices;
}
