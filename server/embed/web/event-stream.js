// Server-sent events as the agent answers them: blocks ended by a blank line, each with an `event:` and a `data:`
// line (JSON).

/**
 * Splits the complete events (blocks ended by a blank line) off a stream's text; `rest` waits for more.
 * @param {string} buffer
 * @returns {{ events: string[], rest: string }}
 */
export function splitEvents(buffer) {
  const events = [];
  let rest = buffer;
  let cut = rest.indexOf('\n\n');
  while (cut >= 0) {
    events.push(rest.slice(0, cut));
    rest = rest.slice(cut + 2);
    cut = rest.indexOf('\n\n');
  }
  return { events, rest };
}

/**
 * An event block's name and JSON data.
 * @param {string} block
 * @returns {{ event: string | undefined, data: any }}
 */
export function parseEvent(block) {
  return { event: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] || 'null') };
}
