// A WebSocket as the pipeline sees it, free of the socket library: a route accepts an upgrade by answering with a
// session (server/http/route.ts `Reply` { upgrade }), and the adapter (uws-adapter.ts) drives that session once the
// handshake is done. Topics are the library's pub/sub: a message published to a topic reaches every socket on it.

/** What a session may do with its open socket. */
export interface OpenSocket {
  /** Sends one text message; false when the socket has closed (nothing is sent then). */
  send(text: string): boolean;
  /** Closes with a WebSocket close code and a short reason. */
  end(code: number, reason: string): void;
  /** Subscribes to a topic after opening (a session known only once the request's checks ran: checked-socket.ts). */
  subscribe(topic: string): void;
}

/** One accepted WebSocket: what it listens to and what it does as the socket opens, receives and closes. */
export interface SocketSession {
  /** Topics the socket subscribes to when it opens. */
  readonly topics: readonly string[];
  opened(socket: OpenSocket): void;
  /** A text message from the client (binary messages close the socket before they get here). */
  received(text: string): void;
  closed(): void;
}

/** Publishes a text message to every socket subscribed to `topic`, on this node. */
export type PublishToTopic = (topic: string, text: string) => void;

/** How many sockets on this node are subscribed to `topic`. */
export type CountSubscribers = (topic: string) => number;
