import { describe, expect, it } from 'vitest';
import { LinkedList, type ListNode } from '../../lib/linked-list.js';

interface Entry extends ListNode {
  name: string;
}
const entry = (name: string): Entry => ({ name });
const names = (list: LinkedList<Entry>) => list.entries().map((e) => e.name);

describe('LinkedList', () => {
  it('keeps entries in the order they came, through removals from the front, the middle and the end', () => {
    const list = new LinkedList<Entry>();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(entry) as [Entry, Entry, Entry, Entry];
    for (const e of [a, b, c, d]) list.push(e);
    list.push(b); // already in: stays where it is
    expect(names(list)).toEqual(['a', 'b', 'c', 'd']);
    list.delete(c);
    list.delete(c); // not in: nothing happens
    expect(names(list)).toEqual(['a', 'b', 'd']);
    expect(list.shift()?.name).toBe('a');
    list.delete(d);
    expect(names(list)).toEqual(['b']);
    list.push(c);
    expect(names(list)).toEqual(['b', 'c']);
    expect(list.size).toBe(2);
    expect([list.shift()?.name, list.shift()?.name, list.shift()]).toEqual(['b', 'c', undefined]);
    expect(list.size).toBe(0);
  });

  it('lets go of a removed entry: its links are cleared', () => {
    const list = new LinkedList<Entry>();
    const [a, b, c] = ['a', 'b', 'c'].map(entry) as [Entry, Entry, Entry];
    for (const e of [a, b, c]) list.push(e);
    list.delete(b);
    expect([b.listPrevious, b.listNext, b.listed]).toEqual([undefined, undefined, false]);
    expect(a.listNext).toBe(c);
    expect(c.listPrevious).toBe(a);
  });
});
