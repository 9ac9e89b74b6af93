/**
 * The per-process coalescing of what ingestion announces (src/services/coalescer.ts): the ids noted
 * within one window are handed over once, per owner, lower-cased and without repeats.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from '../../src/services/coalescer.js';

describe('Coalescer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands the ids of one window over once, with the context of the call that opened it', () => {
    const flushed: [string, string[]][] = [];
    const coalescer = new Coalescer<string>(500, (context, ids) => flushed.push([context, ids]));
    const owner = {};
    coalescer.note(owner, 'first', ['A', 'b']);
    vi.advanceTimersByTime(499);
    coalescer.note(owner, 'second', new Set(['a', 'c']));
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([['first', ['a', 'b', 'c']]]);

    // The next note opens the next window.
    coalescer.note(owner, 'third', ['d']);
    vi.advanceTimersByTime(500);
    expect(flushed).toEqual([
      ['first', ['a', 'b', 'c']],
      ['third', ['d']],
    ]);
  });

  it('keeps owners apart and opens no window for nothing', () => {
    const flushed: string[][] = [];
    const coalescer = new Coalescer<null>(100, (_context, ids) => flushed.push(ids));
    coalescer.note({}, null, []);
    vi.advanceTimersByTime(100);
    expect(flushed).toEqual([]);
    const [one, two] = [{}, {}];
    coalescer.note(one, null, ['x']);
    coalescer.note(two, null, ['y']);
    vi.advanceTimersByTime(100);
    expect(flushed).toEqual([['x'], ['y']]);
  });
});
