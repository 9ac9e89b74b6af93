/**
 * Ends the test output with one plain line, "N passed, M failed", that CI and people can read without
 * parsing vitest's own summary. Failed counts every failed test plus each file that failed to load and
 * each unhandled error, so a broken run can never print "0 failed".
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const module of testModules) {
      let testsInModule = 0;
      for (const test of module.children.allTests()) {
        testsInModule += 1;
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
      }
      if (testsInModule === 0 && module.state() === 'failed') failed += 1;
      else if (module.errors().length > 0) failed += module.errors().length;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
