// How the bare uWebSockets.js peers read a request: its JSON body once complete, and whether the client has gone
// away by the time they answer (uWS must not be written to after that).

/** Calls `handle(body, request)` with the parsed body; `request.aborted` turns true if the client goes away. */
export function onJsonBody(res, handle) {
  const request = { aborted: false };
  res.onAborted(() => {
    request.aborted = true;
  });
  const chunks = [];
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(new Uint8Array(chunk))); // uWS reuses the chunk's memory
    if (isLast) handle(JSON.parse(Buffer.concat(chunks).toString('utf8')), request);
  });
}
