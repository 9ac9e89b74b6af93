/** A lock for the async sections of one workflow run (message handlers and the main loop). */
import { condition } from '@temporalio/workflow';

export class Mutex {
  private locked = false;

  async run<T>(section: () => Promise<T>): Promise<T> {
    // condition() releases every waiter whose predicate holds in the same pass, so each one
    // re-checks before taking the lock: exactly one enters, the others wait again.
    while (this.locked) await condition(() => !this.locked);
    this.locked = true;
    try {
      return await section();
    } finally {
      this.locked = false;
    }
  }

  get idle(): boolean {
    return !this.locked;
  }
}
