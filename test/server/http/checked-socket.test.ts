// A socket opened before its request's checks finished: it becomes the route's session (with what the client sent
// meanwhile), or closes with 4000 + the refusal's status; closing first cancels the checks.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/errors.js';
import { checkedSession } from '../../../server/http/checked-socket.js';
import type { OutgoingResponse } from '../../../server/http/pipeline.js';
import { RequestAbort } from '../../../server/http/request-abort.js';
import { errorResponse } from '../../../server/http/responses.js';
import type { OpenSocket, SocketSession } from '../../../server/http/sockets.js';

function fakeSocket() {
  const seen = { subscribed: [] as string[], ended: undefined as [number, string] | undefined };
  const socket: OpenSocket = {
    send: () => true,
    end: (code, reason) => {
      seen.ended = [code, reason];
    },
    subscribe: (topic) => seen.subscribed.push(topic),
  };
  return { socket, seen };
}

function routeSession() {
  const log: string[] = [];
  const session: SocketSession = {
    topics: ['itinerary/1'],
    opened: () => log.push('opened'),
    received: (text) => log.push(`received ${text}`),
    closed: () => log.push('closed'),
  };
  return { session, log };
}

function deferred() {
  let resolve!: (response: OutgoingResponse) => void;
  const promise = new Promise<OutgoingResponse>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const accepted = (session: SocketSession): OutgoingResponse => ({ status: 101, headers: [], body: '', upgrade: session });
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('a socket opened before its checks finished', () => {
  it('becomes the route’s session once accepted: subscribed, opened, then told what the client sent meanwhile', async () => {
    const outcome = deferred();
    const { session, log } = routeSession();
    const { socket, seen } = fakeSocket();
    const checked = checkedSession(outcome.promise, new RequestAbort());
    checked.opened(socket);
    checked.received('{"type":"presence","mode":"editing"}');
    expect(log).toEqual([]);
    outcome.resolve(accepted(session));
    await turn();
    expect(seen.subscribed).toEqual(['itinerary/1']);
    expect(log).toEqual(['opened', 'received {"type":"presence","mode":"editing"}']);
    checked.received('{"type":"ping"}');
    checked.closed();
    expect(log.slice(2)).toEqual(['received {"type":"ping"}', 'closed']);
  });

  it('closes with 4000 + the status and the envelope’s sentence when refused', async () => {
    const { socket, seen } = fakeSocket();
    const checked = checkedSession(Promise.resolve(errorResponse(new ApiError('NOT_FOUND'), 'en')), new RequestAbort());
    checked.opened(socket);
    await turn();
    expect(seen.ended?.[0]).toBe(4404);
    expect(seen.ended?.[1]).not.toBe('');
    expect(seen.subscribed).toEqual([]);
  });

  it('closes with 1011 on a server error', async () => {
    const { socket, seen } = fakeSocket();
    const checked = checkedSession(Promise.resolve(errorResponse(new ApiError('INTERNAL_ERROR'), 'en')), new RequestAbort());
    checked.opened(socket);
    await turn();
    expect(seen.ended?.[0]).toBe(1011);
  });

  it('cancels the checks when the client leaves first, and releases a session accepted after', async () => {
    const outcome = deferred();
    const abort = new RequestAbort();
    const { session, log } = routeSession();
    const { socket } = fakeSocket();
    const checked = checkedSession(outcome.promise, abort);
    checked.opened(socket);
    checked.closed();
    expect(abort.aborted).toBe(true);
    outcome.resolve(accepted(session));
    await turn();
    expect(log).toEqual(['closed']);
  });

  it('closes with 1008 when a client sends more than 16 messages before its outcome', () => {
    const { socket, seen } = fakeSocket();
    const checked = checkedSession(deferred().promise, new RequestAbort());
    checked.opened(socket);
    for (let i = 0; i < 16; i++) checked.received('{"type":"ping"}');
    expect(seen.ended).toBeUndefined();
    checked.received('{"type":"ping"}');
    expect(seen.ended?.[0]).toBe(1008);
  });
});
