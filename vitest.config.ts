import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        test: {
          // Workflow logic on a local Temporal dev server with mocked activities (no database):
          // seconds, so it runs first (sequence.groupOrder), before the unit and integration projects.
          name: 'workflow-logic',
          include: ['test/workflow-logic/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/workflow-logic/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
          // Two processes reused across files: the SDK and the Temporal runtime load once in each; every
          // file runs its own worker on its own task queue, and its tests run concurrently (each on its
          // own workflow), so the waits on the server overlap.
          isolate: false,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/replay/**/*.test.ts'],
          testTimeout: 30_000,
          environment: 'node',
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/{http,workflows,e2e,browser}/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // These run against real PostgreSQL, Temporal and stripe-mock on whatever machine runs
          // them: a test that fails once is run once more, and the summary names every test that
          // needed it (a real regression fails both times).
          retry: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
