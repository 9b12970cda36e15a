import { describe, expect, it } from 'vitest';
import { UndoHistory } from '../../../../server/embed/web/undo-history.js';

/** An edit runner that records what ran and answers as `answer` says (undefined: refused). */
function runner(answer: (name: string) => unknown = () => ({ data: {} })) {
  const ran: string[] = [];
  const run = async (action: () => Promise<unknown>) => answer(String(await action()));
  const action = (name: string) => async () => {
    ran.push(name);
    return name;
  };
  return { ran, run, action };
}

describe('undo and redo', () => {
  it('undoes the latest edit first and redoes what was undone', async () => {
    const history = new UndoHistory();
    const { ran, run, action } = runner();
    history.remember('add segment', action('undo add'), action('redo add'));
    history.remember('move waypoint', action('undo move'), action('redo move'));

    expect((await history.step('undo', run))?.label).toBe('move waypoint');
    expect((await history.step('undo', run))?.label).toBe('add segment');
    expect(await history.step('undo', run)).toBeNull();
    expect(history.canUndo).toBe(false);
    expect((await history.step('redo', run))?.label).toBe('add segment');
    expect(ran).toEqual(['undo move', 'undo add', 'redo add']);
    expect(history.canUndo).toBe(true);
    expect(history.canRedo).toBe(true);
  });

  it('forgets what could be redone once a new edit is made', async () => {
    const history = new UndoHistory();
    const { run, action } = runner();
    history.remember('rename', action('undo rename'), action('redo rename'));
    await history.step('undo', run);
    expect(history.canRedo).toBe(true);
    history.remember('publish', action('undo publish'), action('redo publish'));
    expect(history.canRedo).toBe(false);
    expect(await history.step('redo', run)).toBeNull();
  });

  it('keeps an entry whose edit was refused where it was, to be tried again', async () => {
    const history = new UndoHistory();
    let refuse = true;
    const { ran, run, action } = runner(() => (refuse ? undefined : { data: {} }));
    history.remember('split', action('merge back'), action('split again'));
    expect(await history.step('undo', run)).toBeNull();
    expect(history.canUndo).toBe(true);
    expect(history.canRedo).toBe(false);
    refuse = false;
    expect((await history.step('undo', run))?.label).toBe('split');
    expect(ran).toEqual(['merge back', 'merge back']);
  });

  it('clears both stacks when another itinerary opens', () => {
    const history = new UndoHistory();
    const { action } = runner();
    history.remember('group', action('ungroup'), action('group'));
    history.clear();
    expect(history.canUndo).toBe(false);
    expect(history.canRedo).toBe(false);
  });
});
