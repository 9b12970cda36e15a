// The agent panel: the member talks with the organization's model about the open itinerary. One answer at a time,
// read as server-sent events as it comes (the model's messages, the tools it calls and their results); leaving the
// itinerary stops it.

import { Refusal } from './api-client.js';
import { $, field, sayRefusal } from './dom.js';
import { parseEvent, splitEvents } from './event-stream.js';
import { api } from './planner-api.js';
import { shownItinerary, state } from './planner-state.js';

/** The server takes the last 50 messages of at most 8,000 characters each. */
const MESSAGE_LIMIT = 8000;
const HISTORY_LIMIT = 50;

/** Whether the organization has a model; if not, says how to configure one. */
export async function loadAgent() {
  $('chat-log').replaceChildren();
  state.chat = [];
  try {
    const status = (await api('GET', `/studio/agent?organization_id=${shownItinerary().organization_id}`)).data;
    state.agent = status;
    $('chat-form').hidden = !status.configured;
    if (!status.configured) chatLine('note', status.how_to_configure);
  } catch (error) {
    sayRefusal(error);
  }
}

/**
 * @param {string} kind
 * @param {string} text
 */
function chatLine(kind, text) {
  const p = document.createElement('p');
  p.className = kind;
  p.textContent = text;
  const log = $('chat-log');
  log.append(p);
  log.scrollTop = log.scrollHeight;
}

/** @param {string} block */
function onAgentEvent(block) {
  const { event, data } = parseEvent(block);
  if (event === 'message') {
    state.chat.push({ role: 'assistant', content: String(data.content).slice(0, MESSAGE_LIMIT) });
    chatLine('assistant', `Assistant: ${data.content}`);
  } else if (event === 'tool_call') {
    chatLine('tool', `… ${data.name}`);
  } else if (event === 'tool_result') {
    chatLine('tool', data.ok ? `✓ ${data.summary}` : `✗ ${data.error.message}`);
  } else if (event === 'error') {
    chatLine('error', data.message);
  }
}

/** @param {string} text */
async function ask(text) {
  state.chat.push({ role: 'user', content: text.slice(0, MESSAGE_LIMIT) });
  chatLine('you', `You: ${text}`);
  const run = new AbortController();
  state.agentRun = run;
  const send = /** @type {HTMLButtonElement} */ ($('chat-form').querySelector('button'));
  send.disabled = true;
  try {
    const itinerary = shownItinerary();
    const res = await fetch(`${location.origin}/studio/agent`, {
      method: 'POST',
      signal: run.signal,
      headers: { Authorization: `Bearer ${state.token}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({
        organization_id: itinerary.organization_id,
        itinerary_id: itinerary.id,
        messages: state.chat.slice(-HISTORY_LIMIT),
      }),
    });
    if (!res.ok || !res.body) throw new Refusal(res.status, await res.json());
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const { events, rest } = splitEvents(buffer + decoder.decode(value, { stream: true }));
      buffer = rest;
      for (const block of events) onAgentEvent(block);
    }
  } catch (error) {
    if (!run.signal.aborted) sayRefusal(error);
  } finally {
    state.agentRun = null;
    send.disabled = false;
  }
}

export function wireAgentPanel() {
  $('chat-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = field('chat-input').value.trim();
    if (!text || state.agentRun) return;
    field('chat-input').value = '';
    ask(text);
  });
}
