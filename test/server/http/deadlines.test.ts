// The shared deadline sweeper: expired deadlines fire once, removed ones never, and its timer runs only while
// something is pending.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineSweeper } from '../../../server/http/deadlines.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('DeadlineSweeper', () => {
  it('fires each expired deadline once, in any order of adding and removing, and leaves the others', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const sweeper = new DeadlineSweeper(10);
    const fired: string[] = [];
    const at = (name: string, ms: number) => ({ at: performance.now() + ms, expire: () => fired.push(name) });
    const a = at('a', 5);
    const b = at('b', 50);
    const c = at('c', 15);
    const d = at('d', 5);
    for (const deadline of [a, b, c, d]) sweeper.add(deadline);
    sweeper.add(a); // twice: still one entry
    sweeper.delete(d);
    sweeper.delete(d); // twice: no effect on the others
    expect(sweeper.size).toBe(3);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['a']);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['a', 'c']);
    sweeper.delete(b);
    expect(sweeper.size).toBe(0);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['a', 'c']);
    expect(vi.getTimerCount()).toBe(0); // the interval stopped with nothing pending
  });

  it('does not fire a deadline that an earlier expiry removed', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const sweeper = new DeadlineSweeper(10);
    const fired: string[] = [];
    const second = { at: performance.now() + 1, expire: () => fired.push('second') };
    const first = {
      at: performance.now() + 1,
      expire: () => {
        fired.push('first');
        sweeper.delete(second);
      },
    };
    sweeper.add(first); // added first: it expires before `second` is reached
    sweeper.add(second);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['first']);
  });
});
