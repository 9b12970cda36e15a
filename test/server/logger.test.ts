// The logger's buffering: every line arrives whole, once, in order, as UTF-8, whatever its length.

import { describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.js';

function capture() {
  const chunks: Uint8Array[] = [];
  const text = () => chunks.map((c) => Buffer.from(c).toString('utf8')).join('');
  const lines = () =>
    text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { chunks, text, lines, out: (chunk: Uint8Array) => chunks.push(chunk) };
}

describe('logger', () => {
  it('writes nothing until flushed, then every line in order', () => {
    const sink = capture();
    const logger = createLogger('info', sink.out);
    logger.request('GET', '/v1/itineraries/{id}', 200, 1.234, 'abc-1');
    logger.info('started', { port: 8080 });
    logger.error('failed', { error: 'Crème brûlée, 山' });
    expect(sink.chunks).toHaveLength(0);
    logger.flush();
    expect(sink.lines()).toMatchObject([
      { msg: 'request', method: 'GET', route: '/v1/itineraries/{id}', status: 200, ms: 1.23, requestId: 'abc-1' },
      { msg: 'started', port: 8080 },
      { msg: 'failed', error: 'Crème brûlée, 山' },
    ]);
  });

  it('keeps the order across early writes and lines longer than the buffer', () => {
    const sink = capture();
    const logger = createLogger('info', sink.out);
    const long = 'é'.repeat(40_000); // 80,000 bytes: more than one buffer
    for (let i = 0; i < 2000; i++) logger.request('PATCH', '/v1/itineraries/{id}', 200, i, `id-${i}`);
    logger.info('long', { text: long });
    logger.request('GET', '/healthz', 200, 0, 'last');
    logger.flush();
    const lines = sink.lines();
    expect(sink.chunks.length).toBeGreaterThan(2);
    expect(lines).toHaveLength(2002);
    expect(lines.slice(0, 2000).map((l) => l.requestId)).toEqual(Array.from({ length: 2000 }, (_, i) => `id-${i}`));
    expect(lines[2000]).toMatchObject({ msg: 'long', text: long });
    expect(lines[2001]).toMatchObject({ requestId: 'last' });
  });

  it('hands out chunks it never writes into again', () => {
    const sink = capture();
    const logger = createLogger('info', sink.out);
    logger.info('first');
    logger.flush();
    const first = Buffer.from(sink.chunks[0] as Uint8Array).toString('utf8');
    logger.info('second, longer than the first line was');
    logger.flush();
    expect(Buffer.from(sink.chunks[0] as Uint8Array).toString('utf8')).toBe(first);
  });

  it('masks credentials in info and error fields, and logs nothing when silent', () => {
    const sink = capture();
    const logger = createLogger('info', sink.out);
    logger.error('bad key', { key: 'sk_live_abcdefghijkl' });
    logger.flush();
    expect(sink.text()).not.toContain('abcdefghijkl');
    expect(sink.text()).toContain('sk_[redacted]');
    const quiet = capture();
    const silent = createLogger('silent', quiet.out);
    silent.error('x', {});
    silent.request('GET', '/', 200, 1, 'a');
    silent.flush();
    expect(quiet.chunks).toHaveLength(0);
  });
});
