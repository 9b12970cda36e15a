// Raw HTTP over a socket, for what fetch cannot do: streaming a body slowly, hanging up mid-request.

import { connect, type Socket } from 'node:net';

/** Sends raw bytes to 127.0.0.1:`port` and resolves with everything the server wrote back before closing or `ms`. */
export function rawExchange(port: number, send: (socket: Socket) => void, ms = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, ms);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', (e) => {
      // The server may reset the connection after answering 413; what it wrote before counts.
      if (received) resolve(received);
      else reject(e);
    });
    socket.on('connect', () => send(socket));
  });
}
