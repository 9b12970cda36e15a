// A first-in first-out queue of linked nodes, for long-lived queues of short-lived entries on hot paths.
//
// Why not an array: a long-lived array lives in V8's old generation, and when it outgrows (or, shifted,
// shrinks) its backing store the store it leaves behind still points at the entries it held. The young-generation
// collector keeps whatever a dead old object points at, so each queued request survives and is promoted with
// everything it references (measured on the Studio write path: ~1 MB promoted per scavenge, 5 ms pauses). Here
// a removed node lets go of its value and its neighbour at once, so nothing old keeps a dead entry alive.

interface Node<T> {
  value: T | undefined;
  next: Node<T> | undefined;
}

export class LinkedQueue<T> {
  #head: Node<T> | undefined;
  #tail: Node<T> | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(value: T): void {
    const node: Node<T> = { value, next: undefined };
    if (this.#tail) this.#tail.next = node;
    else this.#head = node;
    this.#tail = node;
    this.#size++;
  }

  /** The oldest value, removed; undefined when empty. */
  shift(): T | undefined {
    const node = this.#head;
    if (!node) return undefined;
    this.#head = node.next;
    if (!this.#head) this.#tail = undefined;
    this.#size--;
    const { value } = node;
    node.value = undefined;
    node.next = undefined;
    return value;
  }
}
