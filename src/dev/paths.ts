import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Local state (embedded database, Temporal SQLite file, dev secrets); BILLING_DATA_DIR moves it. */
export const DATA_DIR = process.env.BILLING_DATA_DIR ? path.resolve(process.env.BILLING_DATA_DIR) : path.join(PROJECT_ROOT, '.data');
