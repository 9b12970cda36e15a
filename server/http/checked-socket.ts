// A WebSocket let in before its request's asynchronous checks finished. uWebSockets.js closes a socket upgraded after
// an await right after it opens (uNetworking/uWebSockets#1928), so uws-adapter.ts completes every handshake inside its
// upgrade callback; what needs the stores (the credential's key, share link or member, the route's own reads) is
// decided once the socket is open. Until then the socket hears nothing; then it becomes the route's session, or it
// closes with the refusal's status as its close code (4000 + status: 4401, 4403, 4404…) and the refusal's sentence.

import { ApiError } from '../errors.js';
import type { OutgoingResponse } from './pipeline.js';
import type { RequestAbort } from './request-abort.js';
import type { OpenSocket, SocketSession } from './sockets.js';

/** Messages a client may send before the outcome (the route's session reads them once it has one). */
const EARLY_MESSAGES_MAX = 16;
/** RFC 6455 §5.5: a close frame's payload is at most 125 bytes, two of them the code. */
const REASON_MAX_BYTES = 123;
/** RFC 6455 §7.4.1: the server met a condition that kept it from answering. */
const SERVER_ERROR = 1011;
/** RFC 6455 §7.4.1: a message that breaks the server's rules (here: too many before the hello). */
const POLICY_VIOLATION = 1008;

/** The close code of a refusal: 4000 + its HTTP status for the client's errors, 1011 for the server's. */
export function refusalCloseCode(status: number): number {
  return status >= 400 && status < 500 ? 4000 + status : SERVER_ERROR;
}

/** The refusal's first sentence (the envelope's first message), cut to fit a close frame on a character boundary. */
export function refusalReason(response: OutgoingResponse): string {
  let reason = '';
  try {
    const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
    reason = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? '';
  } catch {
    // Not the envelope (a route's own error form): the code says it.
  }
  while (Buffer.byteLength(reason) > REASON_MAX_BYTES) reason = reason.slice(0, -1);
  return reason;
}

/**
 * The session of a socket whose request is still being checked: `outcome` is the pipeline's answer once the checks
 * ran (an accepted upgrade, or a refusal). The socket closing first cancels the checks (`abort`).
 */
export function checkedSession(outcome: Promise<OutgoingResponse>, abort: RequestAbort): SocketSession {
  let socket: OpenSocket | undefined;
  let answer: OutgoingResponse | undefined;
  let accepted: SocketSession | undefined;
  let closed = false;
  const early: string[] = [];

  const settle = () => {
    const session = (answer as OutgoingResponse).upgrade;
    if (closed) {
      session?.closed(); // accepted for a socket already gone: let the session release what it holds
      return;
    }
    if (!socket) return;
    if (!session) {
      socket.end(refusalCloseCode((answer as OutgoingResponse).status), refusalReason(answer as OutgoingResponse));
      return;
    }
    accepted = session;
    for (const topic of session.topics) socket.subscribe(topic);
    session.opened(socket);
    for (const text of early.splice(0)) session.received(text);
  };

  outcome.then((response) => {
    answer = response;
    settle();
  });

  return {
    topics: [],
    opened(open) {
      socket = open;
      if (answer) settle();
    },
    received(text) {
      if (accepted) accepted.received(text);
      else if (early.length < EARLY_MESSAGES_MAX) early.push(text);
      else socket?.end(POLICY_VIOLATION, 'wait for the hello before sending more');
    },
    closed() {
      closed = true;
      if (accepted) accepted.closed();
      else if (!answer) abort.abort(new ApiError('BAD_REQUEST'));
    },
  };
}
