/**
 * True-up (SPEC: compute_true_up, compute_phase_true_ups). A commitment is a minimum: when actual
 * billed usage falls short of the committed amount, the shortfall is billed as a true-up; when it
 * exceeds it, the excess is reported as overage (already billed as usage, so never re-billed here).
 *   true_up = max(0, committed − max(0, actual)), overage = max(0, actual − committed)
 * Exactly one of them is non-zero unless actual equals committed.
 *
 * A negative actual (a net-credit phase: credits issued exceed the usage billed) counts as zero
 * usage: the true-up is the whole commitment, never more. The credits were already given to the
 * customer on their own documents; growing the shortfall by them would bill them back. actual_nanos
 * still reports the net figure as given. A negative commitment is an error.
 */
import type { CivilDate } from './calendar.js';
import { validateTerms, type ContractTerm } from './contracts.js';
import { CoreValidationError, type Problem } from './errors.js';

export interface TrueUp {
  readonly committed_nanos: bigint;
  readonly actual_nanos: bigint;
  readonly true_up_nanos: bigint;
  readonly overage_nanos: bigint;
}

function assertNonNegative(value: bigint, field: string): void {
  if (typeof value !== 'bigint' || value < 0n) {
    throw new CoreValidationError('invalid_money', field, 'expected a non-negative bigint amount');
  }
}

export function computeTrueUp(committed: bigint, actual: bigint): TrueUp {
  assertNonNegative(committed, 'committed_nanos');
  if (typeof actual !== 'bigint') throw new CoreValidationError('invalid_money', 'actual_nanos', 'expected a bigint amount');
  const used = actual > 0n ? actual : 0n;
  return {
    committed_nanos: committed,
    actual_nanos: actual,
    true_up_nanos: committed > used ? committed - used : 0n,
    overage_nanos: actual > committed ? actual - committed : 0n,
  };
}

export interface PhaseTrueUp extends TrueUp {
  readonly phase: number;
  readonly start_date: CivilDate;
  readonly end_date: CivilDate;
}

export interface PhaseTrueUps {
  readonly phases: readonly PhaseTrueUp[];
  readonly total_true_up_nanos: bigint;
  readonly total_overage_nanos: bigint;
}

/**
 * One true-up per ramp phase, each phase against its own committed amount (a shortfall in one
 * phase is not offset by overage in another). Phases without actuals count as 0 actual usage.
 * The terms are validated first (validateTerms: duplicate phase numbers would count one phase's
 * actuals twice, overlapping ranges would bill the same days twice), and an actual for a phase
 * that no term has is refused rather than silently dropped.
 */
export function computePhaseTrueUps(
  terms: readonly ContractTerm[],
  actualByPhase: ReadonlyMap<number, bigint> | Readonly<Record<number, bigint>>,
): PhaseTrueUps {
  const problems: Problem[] = validateTerms(terms);
  // Compared as text: Record keys are strings, and '1' must match phase 1 without a Number() cast.
  const known = new Set(terms.map((term) => String(term.phase)));
  const given = actualByPhase instanceof Map ? [...actualByPhase.keys()].map(String) : Object.keys(actualByPhase);
  for (const key of given) {
    if (!known.has(key)) {
      problems.push({ code: 'unknown_phase', field: `actual_by_phase.${key}`, message: `no contract term has phase ${key}` });
    }
  }
  if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
  const actualOf = (phase: number): bigint => {
    if (actualByPhase instanceof Map) return actualByPhase.get(phase) ?? 0n;
    const record = actualByPhase as Readonly<Record<number, bigint>>;
    return Object.hasOwn(record, phase) ? (record[phase] ?? 0n) : 0n;
  };
  const phases = [...terms]
    .sort((a, b) => a.phase - b.phase)
    .map((term) => ({
      phase: term.phase,
      start_date: term.start_date,
      end_date: term.end_date,
      ...computeTrueUp(term.committed_amount_nanos, actualOf(term.phase)),
    }));
  return {
    phases,
    total_true_up_nanos: phases.reduce((sum, p) => sum + p.true_up_nanos, 0n),
    total_overage_nanos: phases.reduce((sum, p) => sum + p.overage_nanos, 0n),
  };
}

export { computeTrueUp as compute_true_up, computePhaseTrueUps as compute_phase_true_ups };
