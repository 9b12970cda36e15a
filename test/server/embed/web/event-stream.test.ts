import { describe, expect, it } from 'vitest';
import { parseEvent, splitEvents } from '../../../../server/embed/web/event-stream.js';

describe("the agent's event stream", () => {
  it('splits complete events off the text and keeps the rest for the next chunk', () => {
    const first = splitEvents('event: tool_call\ndata: {"name":"add"}\n\nevent: mess');
    expect(first.events).toEqual(['event: tool_call\ndata: {"name":"add"}']);
    const second = splitEvents(`${first.rest}age\ndata: {"content":"Done."}\n\n`);
    expect(second).toEqual({ events: ['event: message\ndata: {"content":"Done."}'], rest: '' });
  });

  it("reads an event's name and JSON data", () => {
    expect(parseEvent('event: tool_result\ndata: {"ok":true,"summary":"1 segment"}')).toEqual({
      event: 'tool_result',
      data: { ok: true, summary: '1 segment' },
    });
    expect(parseEvent(': keep-alive')).toEqual({ event: undefined, data: null });
  });
});
