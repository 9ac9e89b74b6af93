import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** How long a log line may wait in the buffer before it is written. */
const FLUSH_EVERY_MS = 200;

let stdout: (DestinationStream & { flush(): void; flushSync(): void }) | undefined;

/**
 * Standard output, written in buffered chunks (a request path logs a line per request: one write
 * syscall per line took a tenth of a busy API process's time) and flushed at least every
 * FLUSH_EVERY_MS and synchronously when the process exits (an uncaught error's line included; only a
 * kill -9 can lose the last chunk). One for the process, whatever the number of loggers.
 */
function bufferedStdout(): DestinationStream {
  if (stdout === undefined) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

export function createLogger(level: string, name: string): Logger {
  const options = { level, name, base: { service: 'billing', component: name } };
  return level === 'silent' ? pino(options) : pino(options, bufferedStdout());
}
