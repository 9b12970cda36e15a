// The planner's edits run one at a time. An edit asked for while another is under way (the group's Save right after
// a Redo, say) waits its turn instead of being dropped; while a question is open (`isBlocked`) no edit is taken.

/**
 * @template T
 * @typedef {(action: () => Promise<any>) => Promise<T | undefined>} EditRunner
 */

/**
 * @template T
 * @param {{ isBlocked: () => boolean, perform: (action: () => Promise<any>) => Promise<T | undefined> }} options
 *   `perform` runs one edit to its end (it reports its own failures and resolves undefined for them)
 * @returns {EditRunner<T>}
 */
export function createEditQueue(options) {
  /** The edit under way, or resolved: the next edit starts after it. */
  /** @type {Promise<unknown>} */
  let tail = Promise.resolve();
  return (action) => {
    if (options.isBlocked()) return Promise.resolve(undefined);
    const turn = tail.then(() => options.perform(action));
    tail = turn.catch(() => {});
    return turn;
  };
}
