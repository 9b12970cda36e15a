// A list linked through its entries, for long-lived queues and pending sets of short-lived entries on hot paths.
//
// Why not an array, a Set or a Map: those live in V8's old generation once they are long-lived, and when they
// outgrow (or, emptied, shrink) their backing store, the store they leave behind still points at the entries it
// held. The young-generation collector keeps whatever a dead old object points at, so each entry (a request, a
// task) would survive, be promoted with everything it references and wait for a major collection (measured on
// the Studio write path: ~1 MB promoted and a 5 ms pause per scavenge). Here an entry that leaves the list lets go
// of its neighbours at once, so nothing old keeps a finished entry alive. An entry is in at most one list.

/** The links an entry carries (managed by the list). */
export interface ListNode {
  listPrevious?: ListNode | undefined;
  listNext?: ListNode | undefined;
  listed?: boolean;
}

export class LinkedList<N extends ListNode> {
  #first: N | undefined;
  #last: N | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Appends `node` (already in the list: left where it is). */
  push(node: N): void {
    if (node.listed) return;
    node.listed = true;
    node.listPrevious = this.#last;
    node.listNext = undefined;
    if (this.#last) this.#last.listNext = node;
    else this.#first = node;
    this.#last = node;
    this.#size++;
  }

  /** Removes `node` (not in the list: nothing happens). */
  delete(node: N): void {
    if (!node.listed) return;
    node.listed = false;
    const previous = node.listPrevious as N | undefined;
    const next = node.listNext as N | undefined;
    if (previous) previous.listNext = next;
    else this.#first = next;
    if (next) next.listPrevious = previous;
    else this.#last = previous;
    node.listPrevious = undefined;
    node.listNext = undefined;
    this.#size--;
  }

  /** The oldest entry, removed; undefined when empty. */
  shift(): N | undefined {
    const first = this.#first;
    if (first) this.delete(first);
    return first;
  }

  /** The entries now, oldest first (a copy: the caller may remove entries while it goes through them). */
  entries(): N[] {
    const out: N[] = [];
    for (let node = this.#first; node; node = node.listNext as N | undefined) out.push(node);
    return out;
  }
}
