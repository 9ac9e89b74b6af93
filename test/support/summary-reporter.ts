/**
 * Ends the test output with one plain line, "N passed, M failed", that CI and people can read without
 * parsing vitest's own summary. Failed counts every failed test plus each file that failed to load and
 * each unhandled error, so a broken run can never print "0 failed". Tests that passed only when run
 * again (the integration project retries a failed test once) are listed above it by name, so a
 * flaky test stays visible instead of hiding in a green run.
 */
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    const flaky: string[] = [];
    for (const module of testModules) {
      let testsInModule = 0;
      for (const test of module.children.allTests()) {
        testsInModule += 1;
        const state = test.result().state;
        if (state === 'failed') failed += 1;
        if (state !== 'passed') continue;
        passed += 1;
        if (test.diagnostic()?.flaky) flaky.push(`${path.relative(process.cwd(), module.moduleId)} > ${test.fullName}`);
      }
      if (testsInModule === 0 && module.state() === 'failed') failed += 1;
      else if (module.errors().length > 0) failed += module.errors().length;
    }
    if (flaky.length > 0) process.stdout.write(`\nPassed only on retry (flaky, ${flaky.length}):\n${flaky.map((name) => `  ${name}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
