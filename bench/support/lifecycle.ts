/**
 * What a benchmark starts (a database, the Temporal dev server, the API and worker processes) and
 * how it is undone: the steps run in reverse when the run ends, and also when it is interrupted
 * (SIGINT/SIGTERM reach runBenchmark, which runs every live teardown before exiting), so a stopped
 * benchmark leaves no process, port or database behind.
 */
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../../src/dev/embedded-postgres.js';

export class Teardown {
  private static readonly live = new Set<Teardown>();
  private readonly steps: (() => Promise<void>)[] = [];

  constructor(private readonly log: (line: string) => void) {
    Teardown.live.add(this);
  }

  push(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  /** Runs the steps, last first; a failing step is logged and the others still run. */
  async run(): Promise<void> {
    Teardown.live.delete(this);
    for (const step of this.steps.splice(0).reverse()) await step().catch((err: unknown) => this.log(`teardown: ${(err as Error).message}`));
  }

  /** Runs every teardown not run yet (an interrupted benchmark). */
  static async runAll(): Promise<void> {
    for (const teardown of [...Teardown.live].reverse()) await teardown.run();
  }
}

/**
 * A fresh database `billing_bench_<name>_<time>` on the server, migrated; dropped by the teardown
 * unless `keep`.
 */
export async function benchDatabase(serverUrl: string, name: string, teardown: Teardown, options: { keep?: boolean } = {}): Promise<string> {
  const databaseUrl = withDatabase(serverUrl, `billing_bench_${name}_${Date.now().toString(36)}`);
  await ensureDatabase(databaseUrl);
  if (!options.keep) teardown.push(() => dropDatabase(databaseUrl));
  migrateDatabase(databaseUrl);
  return databaseUrl;
}
