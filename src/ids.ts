import { uuidv7 } from 'uuidv7';

/** Every resource id is a UUIDv7: time-ordered, so primary-key inserts stay append-friendly. */
export const newId = (): string => uuidv7();

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
