/**
 * The custom search attributes of the project's workflows (keys in workflows/shared/messages.ts): the
 * pairs a workflow starts with, and their registration on a Temporal server. The dev server (run
 * command, tests, benchmarks) registers them at start; a cluster registers them once with
 * `temporal operator search-attribute create` (docs/workflows-and-operations.md, "Finding workflows").
 */
import type { Connection } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { BILLING_STATUS_ATTRIBUTE, CUSTOMER_ID_ATTRIBUTE, INVOICE_NUMBER_ATTRIBUTE, SEARCH_ATTRIBUTE_KEYS, SUBSCRIPTION_ID_ATTRIBUTE, TEST_CLOCK_ID_ATTRIBUTE } from '../../workflows/shared/messages.js';

/** What a workflow is about; absent or null values are left unset. */
export interface WorkflowSearchValues {
  customerId?: string | null;
  subscriptionId?: string | null;
  invoiceNumber?: string | null;
  status?: string | null;
  testClockId?: string | null;
}

const INDEXED_VALUE_TYPE_KEYWORD = 2;

/** The typed search attributes a workflow starts with. */
export function workflowSearchAttributes(values: WorkflowSearchValues): SearchAttributePair[] {
  const pairs: [typeof CUSTOMER_ID_ATTRIBUTE, string | null | undefined][] = [
    [CUSTOMER_ID_ATTRIBUTE, values.customerId],
    [SUBSCRIPTION_ID_ATTRIBUTE, values.subscriptionId],
    [INVOICE_NUMBER_ATTRIBUTE, values.invoiceNumber],
    [BILLING_STATUS_ATTRIBUTE, values.status],
    [TEST_CLOCK_ID_ATTRIBUTE, values.testClockId],
  ];
  return pairs.filter((pair): pair is [typeof CUSTOMER_ID_ATTRIBUTE, string] => typeof pair[1] === 'string').map(([key, value]) => ({ key, value }));
}

/** `temporal server start-dev` flags that register every key (`--search-attribute Name=Keyword`). */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]);
}

/**
 * Registers the keys the namespace lacks (a self-hosted cluster or a dev server started without the
 * flags); returns the names it added. Temporal Cloud refuses this call: there they are created once
 * with `tcld` or the Cloud UI, and the refusal is the caller's to report.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !(key.name in (customAttributes ?? {})));
  if (missing.length === 0) return [];
  // temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD: every key is a Keyword.
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPE_KEYWORD])),
  });
  return missing.map((key) => key.name);
}
