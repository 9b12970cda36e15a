// A live-channel client for tests: opens `/studio/live` over a real WebSocket and waits for the messages it expects.

import WebSocket from 'ws';

export interface LiveMessage {
  type: string;
  [field: string]: any;
}

export class LiveClient {
  readonly messages: LiveMessage[] = [];
  private waiters: { match: (m: LiveMessage) => boolean; resolve: (m: LiveMessage) => void; reject: (e: Error) => void }[] = [];
  private seen = 0;

  /** Resolves with the close code once the socket closes. */
  readonly closed: Promise<number>;
  /** The close code, once the socket closed (1006: the connection dropped without a closing handshake). */
  closeCode: number | undefined;
  /** The close frame's reason (a refusal's sentence, when the server's checks refused the opened socket). */
  closeReason = '';

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString('utf8');
        // Nothing more will come: whoever waits is told now, with the code, rather than at its timeout.
        for (const w of this.waiters.splice(0)) w.reject(this.closedError());
        resolve(code);
      }),
    );
    socket.on('error', () => undefined); // reported through the close code
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as LiveMessage;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  /**
   * Connects and resolves once the server's hello arrived; rejects with the HTTP status of a refused upgrade, or with
   * the close code and reason of a socket the server's checks refused once it was open (`closeCode`, `closeReason`).
   */
  static async open(url: string, headers: Record<string, string> = {}): Promise<LiveClient> {
    const socket = new WebSocket(url, { headers });
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () =>
          reject(Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })),
        );
      });
      socket.once('error', reject);
    });
    await client.next((m) => m.type === 'hello');
    return client;
  }

  get hello(): LiveMessage {
    return this.messages.find((m) => m.type === 'hello') as LiveMessage;
  }

  /** The first message from now on (or already received and not yet taken) that matches. */
  next(match: (m: LiveMessage) => boolean, timeoutMs = 3000): Promise<LiveMessage> {
    for (let i = this.seen; i < this.messages.length; i++) {
      const message = this.messages[i] as LiveMessage;
      if (match(message)) {
        this.seen = i + 1;
        return Promise.resolve(message);
      }
    }
    if (this.closeCode !== undefined) return Promise.reject(this.closedError());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching live message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(this.seen))}`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          this.seen = this.messages.length;
          resolve(m);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  private closedError(): Error {
    return Object.assign(new Error(`the socket closed (${this.closeCode} ${this.closeReason}) before a matching live message`), {
      closeCode: this.closeCode,
      closeReason: this.closeReason,
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
