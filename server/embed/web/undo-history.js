// Undo and redo of the member's own edits. Each entry knows how to undo its edit and how to do it again; an entry
// moves from one stack to the other only once its edit went through, so a refused undo can be tried again.

/**
 * @typedef {object} HistoryEntry
 * @property {string} label what the edit was ("move waypoint"), for the status line
 * @property {() => Promise<any>} undo
 * @property {() => Promise<any>} redo
 */

export class UndoHistory {
  constructor() {
    /** @type {HistoryEntry[]} */
    this.undoStack = [];
    /** @type {HistoryEntry[]} */
    this.redoStack = [];
  }

  get canUndo() {
    return this.undoStack.length > 0;
  }

  get canRedo() {
    return this.redoStack.length > 0;
  }

  /**
   * Records an edit of the member's own (a new edit ends what could be redone).
   * @param {string} label
   * @param {() => Promise<any>} undo
   * @param {() => Promise<any>} redo
   */
  remember(label, undo, redo) {
    this.undoStack.push({ label, undo, redo });
    this.redoStack = [];
  }

  clear() {
    this.undoStack = [];
    this.redoStack = [];
  }

  /**
   * Undoes or redoes the latest entry through `run` (the edit queue); resolves the entry when its edit went
   * through (`run` answered), else null (nothing to do, or refused: the entry stays where it was).
   * @param {'undo' | 'redo'} direction
   * @param {(action: () => Promise<any>) => Promise<unknown>} run
   * @returns {Promise<HistoryEntry | null>}
   */
  async step(direction, run) {
    const [from, to] = direction === 'undo' ? [this.undoStack, this.redoStack] : [this.redoStack, this.undoStack];
    const entry = from.pop();
    if (!entry) return null;
    const answer = await run(direction === 'undo' ? entry.undo : entry.redo);
    if (answer) {
      to.push(entry);
      return entry;
    }
    from.push(entry);
    return null;
  }
}
