import { describe, expect, it } from 'vitest';
import { LinkedQueue } from '../../../server/core/linked-queue.js';

describe('LinkedQueue', () => {
  it('hands values back first in, first out, through emptying and refilling', () => {
    const queue = new LinkedQueue<number>();
    expect(queue.shift()).toBeUndefined();
    for (let i = 0; i < 5; i++) queue.push(i);
    expect([queue.shift(), queue.shift()]).toEqual([0, 1]);
    queue.push(5);
    expect(queue.size).toBe(4);
    const rest: number[] = [];
    for (let v = queue.shift(); v !== undefined; v = queue.shift()) rest.push(v);
    expect(rest).toEqual([2, 3, 4, 5]);
    expect(queue.size).toBe(0);
    queue.push(6);
    expect(queue.shift()).toBe(6);
    expect(queue.shift()).toBeUndefined();
  });
});
