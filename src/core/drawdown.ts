/**
 * Commit draw-down (SPEC §2 contract calculations): usage charges consume prepaid/committed
 * balances in priority order.
 *
 * Rules:
 * - Commits are consumed in ascending `priority`, ties broken by `id` (code-unit order), so the
 *   result never depends on input order of commits.
 * - Charges are processed in the given order; each takes what it can from every eligible commit in
 *   that priority order before the next charge is considered.
 * - A commit with a `product_tag` only absorbs charges whose tags include it; a commit without one
 *   absorbs any charge.
 * - Never over-draws: per charge applied + uncovered = amount; per commit applied + remaining =
 *   initial remaining.
 */
import { CoreValidationError } from './errors.js';

export interface Commit {
  readonly id: string;
  readonly remaining_nanos: bigint;
  readonly priority: number;
  readonly product_tag?: string;
}

export interface Charge {
  readonly line_id: string;
  readonly amount_nanos: bigint;
  readonly tags: readonly string[];
}

export interface DrawDownApplication {
  readonly line_id: string;
  readonly commit_id: string;
  readonly amount_nanos: bigint;
}

export interface ChargeCoverage {
  readonly line_id: string;
  readonly amount_nanos: bigint;
  readonly applied_nanos: bigint;
  readonly uncovered_nanos: bigint;
}

export interface CommitBalance {
  readonly id: string;
  readonly applied_nanos: bigint;
  readonly remaining_nanos: bigint;
}

export interface DrawDownResult {
  /** Every (charge, commit) draw, in the order they were made. */
  readonly applications: readonly DrawDownApplication[];
  readonly charges: readonly ChargeCoverage[];
  /** Commits in consumption order (priority, then id). */
  readonly commits: readonly CommitBalance[];
  /** Charges with something left to bill. */
  readonly uncovered: readonly ChargeCoverage[];
  readonly total_applied_nanos: bigint;
  readonly total_uncovered_nanos: bigint;
}

export function drawDown(commits: readonly Commit[], charges: readonly Charge[]): DrawDownResult {
  const ids = new Set<string>();
  commits.forEach((commit, index) => {
    if (typeof commit.remaining_nanos !== 'bigint' || commit.remaining_nanos < 0n) {
      throw new CoreValidationError('invalid_money', `commits[${index}].remaining_nanos`, 'remaining must be a non-negative amount');
    }
    if (!Number.isSafeInteger(commit.priority)) {
      throw new CoreValidationError('invalid_priority', `commits[${index}].priority`, 'priority must be an integer');
    }
    if (ids.has(commit.id)) throw new CoreValidationError('duplicate_commit', `commits[${index}].id`, `commit ${commit.id} appears twice`);
    ids.add(commit.id);
  });
  charges.forEach((charge, index) => {
    if (typeof charge.amount_nanos !== 'bigint' || charge.amount_nanos < 0n) {
      throw new CoreValidationError('invalid_money', `charges[${index}].amount_nanos`, 'charges must be non-negative amounts');
    }
  });

  const ordered = [...commits].sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const remaining = ordered.map((commit) => commit.remaining_nanos);
  const applications: DrawDownApplication[] = [];
  const coverage: ChargeCoverage[] = [];
  let totalApplied = 0n;
  let totalUncovered = 0n;

  for (const charge of charges) {
    let open = charge.amount_nanos;
    ordered.forEach((commit, index) => {
      const available = remaining[index] ?? 0n;
      if (open === 0n || available === 0n) return;
      if (commit.product_tag !== undefined && !charge.tags.includes(commit.product_tag)) return;
      const take = available < open ? available : open;
      remaining[index] = available - take;
      open -= take;
      applications.push({ line_id: charge.line_id, commit_id: commit.id, amount_nanos: take });
    });
    const applied = charge.amount_nanos - open;
    totalApplied += applied;
    totalUncovered += open;
    coverage.push({ line_id: charge.line_id, amount_nanos: charge.amount_nanos, applied_nanos: applied, uncovered_nanos: open });
  }

  return {
    applications,
    charges: coverage,
    commits: ordered.map((commit, index) => {
      const left = remaining[index] ?? 0n;
      return { id: commit.id, applied_nanos: commit.remaining_nanos - left, remaining_nanos: left };
    }),
    uncovered: coverage.filter((c) => c.uncovered_nanos > 0n),
    total_applied_nanos: totalApplied,
    total_uncovered_nanos: totalUncovered,
  };
}
