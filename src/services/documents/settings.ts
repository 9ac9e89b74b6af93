/**
 * Configuration of invoice documents (SELLER_*, DOCUMENT_LOCALE), read once by each composition root:
 * the API renders on demand, the worker's activity after finalization, so both need it.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError, type WorkerConfig } from '../../config.js';
import type { Party } from './model.js';

export interface DocumentSettings {
  seller: Party;
  /** PNG or JPEG bytes printed at the top of documents. */
  logo: Buffer | null;
  locale: string;
}

export const DEFAULT_DOCUMENT_SETTINGS: DocumentSettings = {
  seller: { name: 'Billing Engine', lines: [], taxId: null },
  logo: null,
  locale: 'en-US',
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export async function documentSettingsOf(config: WorkerConfig): Promise<DocumentSettings> {
  let logo: Buffer | null = null;
  if (config.SELLER_LOGO_PATH !== undefined) {
    logo = await readFile(config.SELLER_LOGO_PATH).catch((err: Error) => {
      throw new ConfigError(`invalid configuration: SELLER_LOGO_PATH cannot be read: ${err.message}`);
    });
    if (!logo.subarray(0, 4).equals(PNG) && !logo.subarray(0, 3).equals(JPEG)) {
      throw new ConfigError('invalid configuration: SELLER_LOGO_PATH must be a PNG or JPEG file');
    }
  }
  return {
    seller: { name: config.SELLER_NAME, lines: config.SELLER_ADDRESS, taxId: config.SELLER_TAX_ID ?? null },
    logo,
    locale: config.DOCUMENT_LOCALE,
  };
}
