/**
 * `metadata`: your own key/value pairs on customers, plans, subscriptions and invoices, never read
 * by billing. One rule set for all of them: string values, bounded (METADATA_LIMITS); on update
 * the keys sent are merged in and a key set to null is removed.
 */
import { validation } from '../errors.js';
import { METADATA_LIMITS } from '../schemas/common.js';

export type MetadataChanges = Record<string, string | null>;

/** `current` with `changes` merged in; a 400 naming `metadata` when the result has too many keys. */
export function mergeMetadata(current: Record<string, string>, changes: MetadataChanges): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > METADATA_LIMITS.keys) {
    throw validation('metadata', `at most ${METADATA_LIMITS.keys} keys (this update would leave ${Object.keys(merged).length})`);
  }
  return merged;
}

/** Stored metadata as the API answers it (a JSON object of strings). */
export function metadataOf(stored: unknown): Record<string, string> {
  return stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, string>) : {};
}
