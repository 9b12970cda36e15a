import { describe, expect, it } from 'vitest';
import { LoopPoller } from '../../../server/pool/loop-poller.js';
import { createPool } from '../../../server/pool/pool.js';

const immediates = () => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A clock the test moves by hand, in ms. */
function handClock() {
  const clock = { ms: 0, now: () => clock.ms };
  return clock;
}

describe('the event loop while a task is on a worker', () => {
  it('polls, one immediate at a time, while wanted within the window; then stops', async () => {
    const clock = handClock();
    let inFlight = 1;
    const poller = new LoopPoller(2, () => inFlight > 0, clock.now);
    poller.poke();
    poller.poke();
    expect(poller.polling).toBe(true);
    expect(immediates()).toBe(1);
    for (let i = 0; i < 5; i++) await turn();
    expect(poller.polling).toBe(true);
    inFlight = 0; // the answer came
    await turn();
    await turn();
    expect(poller.polling).toBe(false);
    expect(immediates()).toBe(0);
  });

  it('stops when the window has passed with the task still out, and a new task starts it again', async () => {
    const clock = handClock();
    const poller = new LoopPoller(0.2, () => true, clock.now);
    poller.poke();
    await turn();
    for (let turns = 0; turns < 4; turns++) {
      clock.ms += 0.04; // short turns: the loop only polls
      await turn();
      expect(poller.polling).toBe(true);
    }
    clock.ms += 0.04; // 0.2 ms after the task was handed over
    await turn();
    await turn();
    expect(poller.polling).toBe(false);
    poller.poke();
    expect(poller.polling).toBe(true);
    await turn();
    clock.ms += 0.21;
    await turn();
    await turn();
    expect(poller.polling).toBe(false);
  });

  it('stops at a turn that did other work than polling (a busy loop needs no polling)', async () => {
    const clock = handClock();
    const poller = new LoopPoller(1000, () => true, clock.now);
    poller.poke();
    clock.ms = 5; // the rest of the turn that handed the task over does not count
    await turn();
    clock.ms = 5.01;
    await turn();
    expect(poller.polling).toBe(true);
    clock.ms = 5.2; // 0.19 ms went by in one turn: something else ran
    await turn();
    await turn();
    expect(poller.polling).toBe(false);
  });

  it('does not start when not wanted', () => {
    const poller = new LoopPoller(2, () => false);
    poller.poke();
    expect(poller.polling).toBe(false);
    expect(immediates()).toBe(0);
  });

  it('is what a pool does while its task computes, with a core to spare and a window; never on one core or with none', async () => {
    const taskFile = () => new URL('./fixtures/slow-tasks.mjs', import.meta.url).href;
    for (const [pollUs, cores, polls] of [
      [50_000, 2, true],
      [50_000, 1, false],
      [0, 2, false],
    ] as const) {
      const pool = createPool({ taskFile, maxThreads: 1, minThreads: 1, pollUs, cores });
      try {
        await pool.runTask('ping', {}); // the worker has started
        await turn();
        expect(immediates()).toBe(0);
        // Handed to the worker before runTask returns; how long the loop then polls is the poller's (above), and
        // depends on how busy this process is.
        const answer = pool.runTask('directions', { ms: 30 } as never);
        expect(immediates()).toBe(polls ? 1 : 0);
        expect(await answer).toEqual({ ok: true, ms: 30 });
        await turn();
        await turn();
        expect(immediates()).toBe(0); // nothing polls once the answer is in
      } finally {
        await pool.close();
      }
    }
  });
});
