/** The lockstep rules both test-clock drives share (src/core/lockstep.ts). */
import { describe, expect, it } from 'vitest';
import { lockstepIdle, lockstepNextMs, lockstepSubscriptionsDone } from '../../src/core/lockstep.js';

describe('lockstep rules', () => {
  it('steps to the earliest wake after the step reached and before the target, else to the target', () => {
    expect(lockstepNextMs([30, null, 20, 5], 10, 100)).toBe(20);
    expect(lockstepNextMs([10, 100, 150, null], 10, 100)).toBe(100);
    expect(lockstepNextMs([], Number.NEGATIVE_INFINITY, 100)).toBe(100);
  });

  it('counts subscriptions caught up: ended, or nothing due up to the target; other workflows do not count', () => {
    expect(lockstepSubscriptionsDone(3, [50, null, 150, 40], [true, true, true, false], 100)).toBe(2);
    expect(lockstepSubscriptionsDone(2, [100, 100], [true, true], 100)).toBe(0);
  });

  it('leaves a subscription idle only at the last step, on the first pass, alone, with a later wake answered', () => {
    const last = { alone: true, pass: 1, stepMs: 100, targetMs: 100 };
    expect(lockstepIdle(last, true, 150)).toBe(true);
    expect(lockstepIdle(last, true, 100)).toBe(false);
    expect(lockstepIdle(last, true, null)).toBe(false);
    expect(lockstepIdle(last, true, undefined)).toBe(false);
    expect(lockstepIdle(last, false, 150)).toBe(false);
    expect(lockstepIdle({ ...last, alone: false }, true, 150)).toBe(false);
    expect(lockstepIdle({ ...last, pass: 2 }, true, 150)).toBe(false);
    expect(lockstepIdle({ ...last, stepMs: 90 }, true, 150)).toBe(false);
  });
});
