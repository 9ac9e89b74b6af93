/**
 * The Temporal SDK's own log lines (worker and activity lifecycle, workflow task and activity
 * failures with their workflow and run ids, the webpack bundler) written through pino as JSON
 * lines of the process's stream, tagged `component: temporal-sdk`, instead of the SDK's
 * plain-text console lines.
 */
import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logger.js';

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** A Temporal logger writing each entry as one pino line; `error` in the entry's meta becomes pino's `err`. */
export function sdkLogger(logger: Logger, level: LogLevel = 'INFO'): DefaultLogger {
  const sdk = logger.child({ component: 'temporal-sdk' });
  return new DefaultLogger(level, (entry: LogEntry) => {
    const { error, ...meta } = entry.meta ?? {};
    sdk[PINO_LEVEL[entry.level]]({ ...meta, ...(error === undefined ? {} : { err: error }) }, entry.message);
  });
}
