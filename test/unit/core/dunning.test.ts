/** The dunning schedule (SPEC §3) and the one rounding of a charge to minor units. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterDunningAttempt,
  CoreValidationError,
  DEFAULT_DUNNING_SCHEDULE_DAYS,
  dunningAttemptDueMs,
  dunningAttemptShown,
  dunningNotice,
  minorUnitsToRaw,
  parseDunningSchedule,
  toDisplay,
  toMinorUnits,
} from '../../../src/core/index.js';

const DAY = 86_400_000;
const FAILED = Date.UTC(2026, 1, 1, 1);

describe('the dunning schedule', () => {
  it('retries at +3, +7, +14 and +21 days after the failure by default, with the SPEC notices', () => {
    expect(DEFAULT_DUNNING_SCHEDULE_DAYS).toEqual([3, 7, 14, 21]);
    expect([1, 2, 3, 4].map((n) => (dunningAttemptDueMs(FAILED, DEFAULT_DUNNING_SCHEDULE_DAYS, n) - FAILED) / DAY)).toEqual([3, 7, 14, 21]);
    expect([1, 2, 3, 4].map((n) => dunningNotice(n, 4))).toEqual(['notify', 'escalate', 'warn_suspension', 'suspend']);
  });

  it('counts each retry made, names the next one and exhausts after the last', () => {
    expect(afterDunningAttempt(FAILED, [3, 7, 14, 21], 1)).toEqual({ attemptCount: 1, nextAttemptAtMs: FAILED + 7 * DAY, exhausted: false });
    expect(afterDunningAttempt(FAILED, [3, 7, 14, 21], 3)).toEqual({ attemptCount: 3, nextAttemptAtMs: FAILED + 21 * DAY, exhausted: false });
    expect(afterDunningAttempt(FAILED, [3, 7, 14, 21], 4)).toEqual({ attemptCount: 4, nextAttemptAtMs: null, exhausted: true });
  });

  it('shows attempt_count as the attempt the schedule is at, 1 to 4 (SPEC §2), from the retries made', () => {
    expect([0, 1, 2, 3, 4].map((made) => dunningAttemptShown(made, 4))).toEqual([1, 2, 3, 4, 4]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 10 }), (length, made) => {
        const shown = dunningAttemptShown(made, length);
        expect(shown).toBeGreaterThanOrEqual(1);
        expect(shown).toBeLessThanOrEqual(length);
      }),
    );
  });

  it('parses DUNNING_SCHEDULE_DAYS strictly', () => {
    expect(parseDunningSchedule('3,7,14,21')).toEqual([3, 7, 14, 21]);
    expect(parseDunningSchedule(' 1, 2 ')).toEqual([1, 2]);
    for (const bad of ['', '3,3', '7,3', '0,3', '3,x', '1.5', '-1', '3,,7', '400']) {
      expect(() => parseDunningSchedule(bad), bad).toThrow(CoreValidationError);
    }
    expect(() => dunningAttemptDueMs(FAILED, [3], 2)).toThrow(CoreValidationError);
  });

  it('sends one notice per retry, suspending only at the last, for any schedule length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), (total) => {
        const notices = Array.from({ length: total }, (_, i) => dunningNotice(i + 1, total));
        expect(notices[total - 1]).toBe('suspend');
        expect(notices.filter((n) => n === 'suspend')).toHaveLength(1);
      }),
    );
  });
});

describe('charging in minor units', () => {
  it('rounds raw units once, HalfEven, to the currency exponent (JPY 0, USD 2, KWD 3)', () => {
    expect(toMinorUnits(49_000_000_000_000n, 'USD')).toBe(4900n);
    expect(toMinorUnits(52_335_000_000_000n, 'USD')).toBe(5234n);
    expect(toMinorUnits(52_325_000_000_000n, 'USD')).toBe(5232n);
    expect(toMinorUnits(1_500_000_000_000n, 'JPY')).toBe(2n);
    expect(toMinorUnits(2_500_000_000_000n, 'JPY')).toBe(2n);
    expect(toMinorUnits(1_234_500_000_000n, 'KWD')).toBe(1234n);
    expect(minorUnitsToRaw(4900n, 'USD')).toBe(49_000_000_000_000n);
    expect(minorUnitsToRaw(3n, 'JPY')).toBe(3_000_000_000_000n);
    expect(minorUnitsToRaw(1n, 'KWD')).toBe(1_000_000_000n);
  });

  it('charges exactly what the invoice displays', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.constantFrom('USD', 'JPY', 'KWD', 'EUR'), (raw, currency) => {
        const minor = toMinorUnits(raw, currency);
        expect(minor).toBe(toDisplay(raw, currency).minor);
        expect(toMinorUnits(minorUnitsToRaw(minor, currency), currency)).toBe(minor);
      }),
    );
  });
});
