import { describe, expect, it } from 'vitest';
import { createEditQueue } from '../../../../server/embed/web/edit-queue.js';

/** A promise and the means to settle it from outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the edit queue', () => {
  it('runs an edit asked for during another after it, not beside it, and drops neither', async () => {
    const log: string[] = [];
    const edit = createEditQueue({ isBlocked: () => false, perform: (action) => action() });
    const first = deferred<string>();
    const a = edit(async () => {
      log.push('a starts');
      const value = await first.promise;
      log.push('a ends');
      return value;
    });
    const b = edit(async () => {
      log.push('b starts');
      return 'b';
    });
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.resolve('a');
    expect(await a).toBe('a');
    expect(await b).toBe('b');
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('starts the next edit after one that failed', async () => {
    const edit = createEditQueue({ isBlocked: () => false, perform: (action) => action() });
    const failed = edit(() => Promise.reject(new Error('refused')));
    const next = edit(async () => 'next');
    await expect(failed).rejects.toThrow('refused');
    expect(await next).toBe('next');
  });

  it('takes no edit while a question is open, and resolves it as not done', async () => {
    let asking = true;
    let ran = 0;
    const edit = createEditQueue({
      isBlocked: () => asking,
      perform: async (action) => {
        ran++;
        return action();
      },
    });
    expect(await edit(async () => 'ignored')).toBeUndefined();
    expect(ran).toBe(0);
    asking = false;
    expect(await edit(async () => 'done')).toBe('done');
    expect(ran).toBe(1);
  });
});
