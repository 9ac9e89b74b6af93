/**
 * Per-process coalescing of what the ingestion hot path announces (usage of these customers was
 * stored): ids noted within `delayMs` of the first one are gathered per owner (the database the
 * service runs on) and handed to `flush` once, so the reaction costs a Set insertion per request
 * and one lookup per window, never per event.
 */
export class Coalescer<Context> {
  private readonly pending = new WeakMap<object, { ids: Set<string>; timer: NodeJS.Timeout | null }>();

  constructor(
    private readonly delayMs: number,
    private readonly flush: (context: Context, ids: string[]) => void,
  ) {}

  /** Notes ids (lower-cased) for `owner`; the window's flush gets the `context` of the call that opened it. */
  note(owner: object, context: Context, ids: Iterable<string>): void {
    let pending = this.pending.get(owner);
    if (!pending) this.pending.set(owner, (pending = { ids: new Set(), timer: null }));
    for (const id of ids) pending.ids.add(id.toLowerCase());
    if (pending.timer !== null || pending.ids.size === 0) return;
    const state = pending;
    state.timer = setTimeout(() => {
      const gathered = [...state.ids];
      state.ids.clear();
      state.timer = null;
      this.flush(context, gathered);
    }, this.delayMs);
    state.timer.unref();
  }
}
