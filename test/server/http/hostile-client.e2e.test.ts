// Hostile and unusual clients against the real server, through both front doors, while a well-behaved
// client keeps being answered: every HTTP edge case of docs/operating.md (each answered as documented),
// slow oversized bodies, hundreds of idle connections, bodies cut off mid-way and a slowloris trickle.

import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, rawSession } from '../../helpers/raw-http.js';
import { bootstrap, type Bootstrapped, logLines, REPO_ROOT, type RunningServer, startServer } from '../../helpers/server.js';
import { COMPAT, type FrontDoor, UWS } from './front-doors.js';

/** What a client gets: a status in the envelope, the connection closed without a byte, or silence. */
type Outcome = number | 'closed' | 'no answer';

interface EdgeCase {
  title: string;
  /** The row of the table in docs/operating.md that documents this case. */
  row: string;
  /** Pieces written one after another (a pause between them makes separate reads). */
  send: string[];
  uws: Outcome;
  compat: Outcome;
}

const fields = (n: number) => Array.from({ length: n }, (_, i) => `X-Field-${i}: v\r\n`).join('');
const big = 'a'.repeat(1024 * 1024);
const post = (headers: string, body = '') =>
  `POST /v1/collections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;

const CASES: EdgeCase[] = [
  { title: 'HTTP/1.0 without Host', row: 'HTTP/1.0', send: ['GET /healthz HTTP/1.0\r\n\r\n'], uws: 'no answer', compat: 200 },
  {
    title: 'HTTP/1.0 keep-alive with Host',
    row: 'HTTP/1.0',
    send: ['GET /healthz HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'],
    uws: 'no answer',
    compat: 200,
  },
  { title: 'bare LF line endings', row: 'bare LF', send: ['GET /healthz HTTP/1.1\nHost: x\n\n'], uws: 'no answer', compat: 400 },
  { title: 'HTTP/1.1 without Host', row: 'no Host', send: ['GET /healthz HTTP/1.1\r\n\r\n'], uws: 'no answer', compat: 400 },
  { title: 'PROPFIND', row: 'unknown method', send: ['PROPFIND /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], uws: 'closed', compat: 405 },
  {
    title: 'an unregistered method token',
    row: 'unknown method',
    send: ['FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    uws: 'closed',
    compat: 405,
  },
  { title: 'a lower-case method', row: 'unknown method', send: ['get /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], uws: 'closed', compat: 405 },
  {
    title: '60 header fields',
    row: '60 header fields',
    send: [`GET /healthz HTTP/1.1\r\nHost: x\r\n${fields(59)}\r\n`],
    uws: 'no answer',
    compat: 200,
  },
  {
    title: '120 header fields',
    row: '120 header fields',
    send: [`GET /healthz HTTP/1.1\r\nHost: x\r\n${fields(119)}\r\n`],
    uws: 'no answer',
    compat: 431,
  },
  { title: 'a 1 MiB URL', row: '1 MiB URL', send: [`GET /healthz?q=${big} HTTP/1.1\r\nHost: x\r\n\r\n`], uws: 'closed', compat: 414 },
  {
    title: 'a 1 MiB header',
    row: '1 MiB header',
    send: [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`],
    uws: 'closed',
    compat: 431,
  },
  {
    title: 'a 5 KiB head in two reads',
    row: 'head over 4 KiB in two reads',
    send: ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: ', `${'b'.repeat(5000)}\r\n\r\n`],
    uws: 'closed',
    compat: 200,
  },
  {
    title: 'Content-Length with Transfer-Encoding',
    row: 'Content-Length with Transfer-Encoding',
    send: [post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n')],
    uws: 'closed',
    compat: 400,
  },
  {
    title: 'a negative Content-Length',
    row: 'negative Content-Length',
    send: [post('Content-Length: -1\r\n')],
    uws: 'closed',
    compat: 400,
  },
  {
    title: 'two different Content-Length headers',
    row: 'two different Content-Length',
    send: [post('Content-Length: 2\r\nContent-Length: 5\r\n', '{}xyz')],
    uws: 400,
    compat: 400,
  },
  {
    title: 'two equal Content-Length headers',
    row: 'two equal Content-Length',
    send: [post('Content-Length: 2\r\nContent-Length: 2\r\n', '{}')],
    uws: 400,
    compat: 400,
  },
  {
    title: 'Transfer-Encoding: gzip',
    row: 'Transfer-Encoding not chunked',
    send: [post('Transfer-Encoding: gzip\r\n')],
    uws: 400,
    compat: 400,
  },
  {
    title: 'an HTTP/2.0 request line',
    row: 'HTTP/2.0 request line',
    send: ['GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n'],
    uws: 'no answer',
    compat: 505,
  },
  { title: 'an HTTP/0.9 request line', row: 'HTTP/0.9 request line', send: ['GET /healthz\r\n\r\n'], uws: 'no answer', compat: 505 },
  {
    title: 'an absolute-form target',
    row: 'absolute-form target',
    send: ['GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    uws: 'no answer',
    compat: 200,
  },
  {
    title: 'a request pipelined behind one still being answered',
    row: 'pipelined request',
    send: ['GET /_diagnostics/slow?ms=50 HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    uws: 'closed',
    compat: 200,
  },
  {
    title: 'a space in a header name',
    row: 'invalid header name',
    send: ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    uws: 'no answer',
    compat: 400,
  },
];

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  405: 'METHOD_NOT_ALLOWED',
  414: 'BAD_REQUEST',
  431: 'BAD_REQUEST',
  505: 'BAD_REQUEST',
};
/** How long a case is watched: long enough for any answer, far shorter than the 10 s idle close. */
const WINDOW_MS = 1500;

/** The outcomes the table in docs/operating.md states for a row: [default, compat]. */
function documented(row: string): [Outcome, Outcome] {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'operating.md'), 'utf8');
  const line = doc.split('\n').find((l) => l.startsWith(`| ${row} |`));
  if (!line) throw new Error(`docs/operating.md has no row "${row}"`);
  const cells = line.split(' | ');
  const outcome = (cell: string): Outcome => {
    const m = /^\*\*(no answer|closed|\d{3})\*\*/.exec(cell.trim()) as RegExpExecArray;
    return /^\d+$/.test(m[1] as string) ? Number(m[1]) : (m[1] as Outcome);
  };
  return [outcome(cells[2] as string), outcome(cells[3] as string)];
}

/** One background client sending GET /healthz in a loop; every answer must arrive and be 200. */
function steadyClient(server: RunningServer) {
  const failures: string[] = [];
  let answered = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) answered++;
        else failures.push(`status ${res.status}`);
      } catch (error) {
        failures.push(String(error));
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const stop = () => {
    running = false;
    return loop;
  };
  return { failures, answered: () => answered, stop };
}

/** Opens `n` connections that never send a byte, and counts those the server has closed. */
function idleConnections(port: number, n: number) {
  const sockets: Socket[] = [];
  let closedByServer = 0;
  for (let i = 0; i < n; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('end', () => closedByServer++);
    sockets.push(socket);
  }
  return {
    closedByServer: () => closedByServer,
    destroy: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

/** A head sent one byte every 200 ms, never finished; resolves with what came back once the server closes it. */
function slowloris(port: number): Promise<{ received: string; closed: boolean }> {
  return rawSession(
    port,
    (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('s')), 200);
    },
    20_000,
  ).then((o) => ({ received: o.text, closed: o.closed }));
}

interface Running {
  server: RunningServer;
  org: Bootstrapped;
  steady: ReturnType<typeof steadyClient>;
  idle: ReturnType<typeof idleConnections>;
  loris: Promise<{ received: string; closed: boolean }>;
}

const running = new Map<FrontDoor, Running>();

beforeAll(async () => {
  // Both servers at once, so their 10 s slowloris cut-offs run side by side.
  await Promise.all(
    [UWS, COMPAT].map(async (door) => {
      const server = await startServer({ ...door.env, BODY_LIMIT: '16384', SEED_DEMO: '0' }, { diagnostics: true });
      running.set(door, {
        server,
        org: bootstrap(server),
        steady: steadyClient(server),
        idle: idleConnections(server.port, 300),
        loris: slowloris(server.port),
      });
    }),
  );
}, 30_000);

afterAll(async () => {
  for (const r of running.values()) {
    await r.steady.stop();
    r.idle.destroy();
    await r.server.stop();
  }
});

it('every row of the edge-case table in docs/operating.md is exercised here', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'operating.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### HTTP edge cases'), doc.indexOf('### Throughput cost'));
  const rows = [...section.matchAll(/^\| ([^|]+?) \| .* \| \*\*/gm)].map((m) => m[1]);
  expect(rows.length).toBeGreaterThan(10);
  expect(new Set(rows)).toEqual(new Set(CASES.map((c) => c.row)));
});

describe.each([
  { door: UWS, pick: (c: EdgeCase) => c.uws, column: 0 },
  { door: COMPAT, pick: (c: EdgeCase) => c.compat, column: 1 },
])('through $door.name', ({ door, pick, column }) => {
  const at = () => running.get(door) as Running;

  it.concurrent.each(CASES)('$title gets what docs/operating.md says', async (edge) => {
    const expected = pick(edge);
    expect(documented(edge.row)[column]).toBe(expected);
    const outcome = await rawSession(
      at().server.port,
      (socket) => {
        for (const [i, piece] of edge.send.entries()) setTimeout(() => socket.destroyed || socket.write(piece), i * 150);
      },
      WINDOW_MS,
    );
    if (expected === 'no answer') {
      expect(outcome.bytes.length).toBe(0);
      expect(outcome.closed).toBe(false);
    } else if (expected === 'closed') {
      expect(outcome.bytes.length).toBe(0);
      expect(outcome.closed).toBe(true);
    } else {
      const res = parseResponse(outcome.bytes);
      expect(res?.status).toBe(expected);
      expect(res?.headers['x-request-id']).toBeTruthy();
      if (expected !== 200) {
        const body = JSON.parse(res?.body ?? '') as { errors: { message: string; extensions: { code: string } }[] };
        expect(body.errors[0]?.extensions.code).toBe(CODES[expected]);
        expect(body.errors[0]?.message).not.toContain('aaaa');
        if (expected === 405) {
          expect(res?.headers.allow).toBe('GET, HEAD, OPTIONS');
        } else {
          // A refused request's connection is closed after the answer: what follows cannot be trusted.
          expect(res?.headers.connection).toBe('close');
          expect(outcome.closed).toBe(true);
        }
      }
    }
  });

  it('a Content-Length over the limit sent slowly answers 413 and closes before the body is sent', async () => {
    const { org, server } = at();
    let sent = 0;
    const outcome = await rawSession(
      server.port,
      (socket) => {
        socket.write(post(`X-API-Key: ${org.publishableKey.key}\r\nX-User-Id: ${org.owner.id}\r\nContent-Length: 1000000\r\n`));
        const timer = setInterval(() => {
          if (socket.destroyed || sent >= 1_000_000) return clearInterval(timer);
          socket.write('x'.repeat(1000));
          sent += 1000;
        }, 10);
      },
      5000,
    );
    expect(parseResponse(outcome.bytes)?.status).toBe(413);
    expect(outcome.text).toContain('"PAYLOAD_TOO_LARGE"');
    expect(outcome.closed).toBe(true);
    expect(sent).toBeLessThan(1_000_000);
  });

  it('a chunked body trickled past the limit answers 413 as soon as it passes it, and closes', async () => {
    const { org, server } = at();
    let sent = 0;
    const outcome = await rawSession(
      server.port,
      (socket) => {
        socket.write(post(`X-API-Key: ${org.publishableKey.key}\r\nX-User-Id: ${org.owner.id}\r\nTransfer-Encoding: chunked\r\n`));
        const timer = setInterval(() => {
          if (socket.destroyed || sent > 64 * 1024) return clearInterval(timer);
          socket.write(`400\r\n${'y'.repeat(1024)}\r\n`);
          sent += 1024;
        }, 5);
      },
      5000,
    );
    expect(parseResponse(outcome.bytes)?.status).toBe(413);
    expect(outcome.closed).toBe(true);
    expect(sent).toBeLessThanOrEqual(64 * 1024);
  });

  it('bodies cut off half-way leave the server healthy, logging no error', async () => {
    const { org, server } = at();
    // From the start of the line being written now: lines logged before this test are not its own.
    const logged = server.stdout().lastIndexOf('\n') + 1;
    const complained = server.stderr().length;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rawSession(server.port, (socket) => {
          // Half the declared body, then the connection goes (once the bytes are on their way: TCP delivers them
          // before the close).
          const head = `X-API-Key: ${org.publishableKey.key}\r\nX-User-Id: ${org.owner.id}\r\nX-Request-Id: cut-off-${i}\r\nContent-Length: 400\r\n`;
          socket.write(post(head, `{"name":"${'h'.repeat(190)}`), () => socket.destroy());
        }),
      ),
    );
    const res = await fetch(`${server.url}/healthz`, { headers: { 'X-Request-Id': 'after-cut-offs' } });
    expect(res.status).toBe(200);
    // Lines are written in order: once the health check's line is out, so is anything the cut-off bodies logged.
    await server.waitForOutput('"requestId":"after-cut-offs"');
    const lines = logLines(server.stdout().slice(logged));
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(server.stderr().slice(complained)).toBe('');
  });

  it('a slowloris head trickle is never answered and is closed by the server; others are unaffected', async () => {
    const { server, loris, steady, idle } = at();
    const outcome = await loris;
    expect(outcome.closed).toBe(true);
    expect(outcome.received).toBe('');
    // The 300 idle connections are closed by the same timer, without an answer, while the server keeps serving.
    for (let waited = 0; idle.closedByServer() < 300 && waited < 8000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(idle.closedByServer()).toBe(300);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await steady.stop();
    expect(steady.failures).toEqual([]);
    expect(steady.answered()).toBeGreaterThan(20);
    expect(server.proc.exitCode).toBeNull();
    expect(server.stderr()).toBe('');
    expect(logLines(server.stdout()).filter((l) => l.level === 'error')).toEqual([]);
  }, 25_000);
});
