// A WebSocket client over a bare TCP socket, for handshakes the `ws` package will not send (it always says
// `Connection: Upgrade`): the request's headers are exactly the ones given. Text frames only, as the live channel.

import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export class RawWebSocket {
  /** The handshake's HTTP status (101 when upgraded). */
  status: number | undefined;
  readonly messages: string[] = [];
  /** The close frame's code, or 1006 when the connection ended without one. */
  closeCode: number | undefined;
  closeReason = '';
  readonly closed: Promise<number>;
  private buffer = Buffer.alloc(0);
  private waiters: { match: (text: string) => boolean; resolve: (text: string) => void; reject: (error: Error) => void }[] = [];

  private constructor(private readonly socket: Socket) {
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.closeCode ??= 1006;
        for (const w of this.waiters.splice(0)) w.reject(new Error(`closed (${this.closeCode} ${this.closeReason}) before the message`));
        resolve(this.closeCode);
      });
    });
    socket.on('error', () => undefined); // reported through the close code
    socket.on('data', (chunk: Buffer) => this.read(chunk));
  }

  /** Sends the handshake to `/path?query` on 127.0.0.1:`port` with `headers` (Host, Upgrade, key and version added). */
  static open(port: number, target: string, headers: Record<string, string>): RawWebSocket {
    const socket = connect(port, '127.0.0.1');
    const client = new RawWebSocket(socket);
    const head = {
      Host: `127.0.0.1:${port}`,
      Upgrade: 'websocket',
      'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      'Sec-WebSocket-Version': '13',
      ...headers,
    };
    const lines = Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`GET ${target} HTTP/1.1\r\n${lines.join('')}\r\n`);
    return client;
  }

  /** The first text message, received or to come, that matches. */
  next(match: (text: string) => boolean): Promise<string> {
    const found = this.messages.find(match);
    if (found !== undefined) return Promise.resolve(found);
    if (this.closeCode !== undefined) return Promise.reject(new Error(`closed (${this.closeCode} ${this.closeReason}) before the message`));
    return new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject }));
  }

  /** Sends one text message. */
  send(text: string): void {
    this.write(0x1, Buffer.from(text));
  }

  /** Writes one masked, unfragmented frame (a client's frames are masked: RFC 6455 §5.3). */
  private write(opcode: number, payload: Buffer): void {
    if (payload.length > 125) throw new Error('short messages only');
    const mask = randomBytes(4);
    const frame = Buffer.alloc(6 + payload.length);
    frame[0] = 0x80 | opcode;
    frame[1] = 0x80 | payload.length;
    mask.copy(frame, 2);
    for (let i = 0; i < payload.length; i++) frame[6 + i] = (payload[i] as number) ^ (mask[i % 4] as number);
    this.socket.write(frame);
  }

  /** Ends the connection from this side. */
  destroy(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (this.status === undefined) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      this.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(this.buffer.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      this.buffer = this.buffer.subarray(end + 4);
      if (this.status !== 101) return;
    }
    for (;;) {
      const frame = this.frame();
      if (!frame) return;
      if (frame.opcode === 0x1) {
        const text = frame.payload.toString('utf8');
        this.messages.push(text);
        this.waiters = this.waiters.filter((w) => {
          if (!w.match(text)) return true;
          w.resolve(text);
          return false;
        });
      } else if (frame.opcode === 0x9) {
        this.write(0xa, frame.payload); // the server's ping: answered, as a browser does
      } else if (frame.opcode === 0x8) {
        this.closeCode = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
        this.closeReason = frame.payload.subarray(2).toString('utf8');
      }
    }
  }

  /** The next whole frame from the server (unmasked, unfragmented), taken off the buffer. */
  private frame(): { opcode: number; payload: Buffer } | undefined {
    const b = this.buffer;
    if (b.length < 2) return undefined;
    let length = (b[1] as number) & 0x7f;
    let at = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      at = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      length = Number(b.readBigUInt64BE(2));
      at = 10;
    }
    if (b.length < at + length) return undefined;
    this.buffer = b.subarray(at + length);
    return { opcode: (b[0] as number) & 0x0f, payload: b.subarray(at, at + length) };
  }
}
