/**
 * What a plain entitlement check (no reservation) last computed for a customer's feature, kept for
 * ENTITLEMENT_CHECK_CACHE_MS (docs/entitlements.md "Fast checks"), so a product asking again and
 * again between its usage events is answered without a statement.
 *
 * Kept per API process. Forgotten at once when this process stores usage of the customer, holds or
 * commits a reservation of it, or changes entitlement terms (features, plan attachments, overrides,
 * grants: everything is forgotten then); changes made elsewhere (another API process's usage, the
 * worker's period roll or a triggered HardLimit alert) are seen once the entry is older than its
 * maximum age. A computation that began before something was forgotten is not kept (a generation per
 * customer), so a check never keeps an answer older than the change that should have removed it.
 * Reservations never read it: `reserve: true` decides on fresh reads under the balance's lock.
 */

/** Entries kept at most; past it the oldest go first. */
const MAX_ENTRIES = 100_000;

interface Entry<T> {
  value: T;
  storedAtMs: number;
}

export class CheckCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Bumped for a customer when its entries are forgotten; `all` when every entry is. */
  private readonly generations = new Map<string, number>();
  private all = 0;

  /** The kept value of the customer's feature when younger than `maxAgeMs` at `nowMs`. */
  get(customerId: string, feature: string, nowMs: number, maxAgeMs: number): T | undefined {
    const key = keyOf(customerId, feature);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (nowMs - entry.storedAtMs < maxAgeMs && nowMs >= entry.storedAtMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** The generation to hand back to `set`: read before the computation starts. */
  generation(customerId: string): string {
    return `${this.all}:${this.generations.get(customerId.toLowerCase()) ?? 0}`;
  }

  /** Keeps a value computed since `generation` was read, unless the customer's entries were forgotten meanwhile. */
  set(customerId: string, feature: string, generation: string, value: T, nowMs: number): void {
    if (generation !== this.generation(customerId)) return;
    const key = keyOf(customerId, feature);
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, storedAtMs: nowMs });
  }

  /** Forgets these customers' entries (their usage, reservations). */
  forgetCustomers(customerIds: Iterable<string>): void {
    const ids = new Set([...customerIds].map((id) => id.toLowerCase()));
    if (ids.size === 0) return;
    for (const id of ids) this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    for (const key of this.entries.keys()) if (ids.has(key.slice(0, key.indexOf('\u0000')))) this.entries.delete(key);
  }

  /** Forgets every entry (entitlement terms changed). */
  forgetAll(): void {
    this.all += 1;
    this.entries.clear();
  }
}

const keyOf = (customerId: string, feature: string) => `${customerId.toLowerCase()}\u0000${feature}`;
