import { uuidv7 } from 'uuidv7';

/** Every resource id is a UUIDv7: time-ordered, so primary-key inserts stay append-friendly. */
export const newId = (): string => uuidv7();

/**
 * The smallest UUIDv7 of the millisecond `at` (a Date's epoch milliseconds): every id created at or
 * after `at` sorts at or after it. Compares creation instants by id where created_at is a
 * resource's own time (a test clock's), not the wall clock.
 */
export function firstIdAt(epochMs: number): string {
  const hex = Math.max(0, Math.floor(epochMs)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
