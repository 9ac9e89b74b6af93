/**
 * The custom search attributes of the project's workflows (keys in workflows/shared/messages.ts): the
 * pairs a workflow starts with, and their registration on a Temporal server. The dev server (run
 * command, tests, benchmarks) registers them at start; a cluster registers them once with
 * `temporal operator search-attribute create` (docs/workflows-and-operations.md, "Finding workflows").
 */
import type { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/shared/messages.js';

/** The typed search attributes a workflow starts with (built beside the keys, so workflows starting children use them too). */
export { workflowSearchAttributes, type WorkflowSearchValues } from '../../workflows/shared/messages.js';

const INDEXED_VALUE_TYPE_KEYWORD = 2;

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
