/**
 * Answers of a hot read kept per API process for a short maximum age, by customer (docs/configuration.md:
 * ENTITLEMENT_CHECK_CACHE_MS for entitlement checks, USAGE_SUMMARY_CACHE_MS for usage summaries), so a
 * product asking again and again between its usage events is answered without a statement.
 *
 * A customer's answers are forgotten at once when this process changes what they read (its usage
 * stored, a reservation held or committed, a grant): the callers say so, after the change committed.
 * Changes made elsewhere (another API process, the worker) show once an answer is older than its
 * maximum age. A computation that began before its customer's answers were forgotten is not kept (a
 * generation per customer), so no answer outlives the change that should have removed it.
 */

/** Answers kept at most, all customers together; past it everything is forgotten (the cache refills at once). */
const MAX_ENTRIES = 100_000;

interface Entry<T> {
  value: T;
  storedAtMs: number;
}

export class ReadCache<T> {
  /** Per customer (lower-cased id): its answers by key. */
  private readonly byCustomer = new Map<string, Map<string, Entry<T>>>();
  private size = 0;
  /** Bumped for a customer when its answers are forgotten; `all` when every answer is. */
  private readonly generations = new Map<string, number>();
  private all = 0;

  /** The kept answer when younger than `maxAgeMs` at `nowMs`. */
  get(customerId: string, key: string, nowMs: number, maxAgeMs: number): T | undefined {
    const answers = this.byCustomer.get(customerId.toLowerCase());
    const entry = answers?.get(key);
    if (entry === undefined) return undefined;
    if (nowMs - entry.storedAtMs < maxAgeMs && nowMs >= entry.storedAtMs) return entry.value;
    answers!.delete(key);
    this.size -= 1;
    return undefined;
  }

  /** The generation to hand back to `set`: read before the computation starts. */
  generation(customerId: string): string {
    return `${this.all}:${this.generations.get(customerId.toLowerCase()) ?? 0}`;
  }

  /** Keeps an answer computed since `generation` was read, unless the customer's answers were forgotten meanwhile. */
  set(customerId: string, key: string, generation: string, value: T, nowMs: number): void {
    if (generation !== this.generation(customerId)) return;
    if (this.size >= MAX_ENTRIES) this.forgetAll();
    const id = customerId.toLowerCase();
    let answers = this.byCustomer.get(id);
    if (answers === undefined) this.byCustomer.set(id, (answers = new Map()));
    if (!answers.has(key)) this.size += 1;
    answers.set(key, { value, storedAtMs: nowMs });
  }

  /** Forgets these customers' answers. */
  forgetCustomers(customerIds: Iterable<string>): void {
    for (const customerId of customerIds) {
      const id = customerId.toLowerCase();
      this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
      this.size -= this.byCustomer.get(id)?.size ?? 0;
      this.byCustomer.delete(id);
    }
  }

  /** Forgets every answer. */
  forgetAll(): void {
    this.all += 1;
    this.byCustomer.clear();
    this.size = 0;
  }
}
