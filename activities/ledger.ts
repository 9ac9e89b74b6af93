/**
 * Ledger activities: the periodic revenue recognition run (src/services/ledger/recognition.ts) for
 * customers on no test clock, up to the real now. Idempotent: every step has its business key.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { recognizeRevenueDue } from '../src/services/ledger/recognition.js';
import type { RevenueRecognitionSummary } from '../workflows/revenue-recognition/messages.js';
import { classified } from './failures.js';

export function createLedgerActivities(deps: Pick<ServiceDeps, 'db' | 'logger'>) {
  return {
    recognizeRevenueDue: (): Promise<RevenueRecognitionSummary> => classified(() => recognizeRevenueDue(deps, null, new Date())),
  };
}
