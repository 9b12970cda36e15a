// The MCP server as an assistant reaches it: the official SDK client over Streamable HTTP, with the headers given.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningServer } from './server.js';

/** A connected client of `server`'s `/mcp` sending `headers` on every request (the key pair, X-User-Id…). */
export async function connectMcp(server: RunningServer, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'cairn-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  return client;
}
