// The least a worker-routed `directions` over HTTP can cost on this machine: the peer that tells what the
// Data API's one-client latency bar asks of Cairn. Bare uWebSockets.js and one worker_threads worker per core
// running the same route engine and positions writer as Cairn's workers, and nothing else (no credentials,
// quota, GraphQL, validation, request log or envelope):
//   POST /directions {"variables":{"input":{…}}} → the input posted to the least busy worker (MessagePort),
//   which routes it and writes the positions' JSON text; the answer is that output as JSON.
// Usage: node bench/lib/directions-floor-peer.mjs <region folder>   (run after `npm run build`)
// Prints {"msg":"listening","port":N} on stdout once it accepts connections.

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { onJsonBody } from './uws-json-body.mjs';

const dist = new URL('../../dist/', import.meta.url);

if (isMainThread) {
  const require = createRequire(import.meta.url);
  const uws = require(`uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  const [regionPath] = process.argv.slice(2);
  const workers = await Promise.all(
    Array.from({ length: availableParallelism() }, () => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { regionPath } });
      const entry = { worker, waiting: new Map(), next: 0 };
      worker.on('message', ({ id, output }) => {
        const answer = entry.waiting.get(id);
        entry.waiting.delete(id);
        answer(output);
      });
      return new Promise((resolve) => worker.once('online', () => resolve(entry)));
    }),
  );
  const leastBusy = () => workers.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));

  const app = uws.App();
  app.post('/directions', (res) => {
    onJsonBody(res, ({ variables: { input } }, request) => {
      const entry = leastBusy();
      const id = entry.next++;
      entry.waiting.set(id, (output) => {
        if (request.aborted) return;
        const body = JSON.stringify(output);
        res.cork(() => {
          res.writeHeader('Content-Type', 'application/json');
          res.end(body);
        });
      });
      entry.worker.postMessage({ id, input });
    });
  });
  app.listen('127.0.0.1', Number(process.env.PORT ?? 0), (socket) => {
    if (!socket) throw new Error('the directions floor peer could not listen');
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port: uws.us_socket_local_port(socket) })}\n`);
  });
} else {
  const { loadRegion } = await import(new URL('data/region/region-folder.js', dist).href);
  const { RouteEngine } = await import(new URL('workers/route-engine.js', dist).href);
  const { encodeDirections } = await import(new URL('workers/positions-json.js', dist).href);
  const region = loadRegion(workerData.regionPath);
  const engine = new RouteEngine(region.graph, region.dem, { kernel: { build: 'release' } });
  parentPort.on('message', ({ id, input }) => {
    parentPort.postMessage({ id, output: encodeDirections(engine.directions({ ...input, alternatives: 0 })) });
  });
}
