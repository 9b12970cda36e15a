// `POST /mcp`: the MCP server over the Streamable HTTP transport of the official SDK, stateless (no session kept
// in this process, so any node can answer any request) and answering JSON. Access control has run before (scope
// `mcp`; the header pair X-API-Key + X-Secret-Key, for which the access layer brokers a session). Each request gets
// its own SDK server and transport, bridged from this server's request to the transport's web-standard one.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { Access } from '../auth/access.js';
import type { OperationContext } from '../core/operation.js';
import { ApiError } from '../errors.js';
import { operationContext } from '../http/operation-context.js';
import type { Reply, RequestContext, RouteDef } from '../http/route.js';
import { type Language, message } from '../i18n/messages.js';
import type { Logger } from '../logger.js';
import { argumentChecker, type McpTool } from './mcp-tools.js';
import { outputSchema } from './tool-outputs.js';
import { toolError } from './tool-refusal.js';
import { publicSchema } from '../http/schema-keywords.js';

const SERVER_INFO = { name: 'cairn', version: '1.0.0' };

/**
 * What a tool does to the world: a read changes nothing and may be repeated; the two writes only add (an itinerary,
 * a segment), and add again when repeated; every tool stays inside this deployment's own data and region.
 */
const annotationsOf = (t: McpTool): ToolAnnotations => ({
  readOnlyHint: !t.writes,
  destructiveHint: false,
  idempotentHint: !t.writes,
  openWorldHint: false,
});

/**
 * A result as a model can use it: the one-line summary, then the structured result as JSON text (what the MCP
 * spec advises beside structuredContent), so ids reach a client that shows its model the text content only.
 */
const toolResult = (result: { summary: string; structured: Record<string, unknown> }): CallToolResult => ({
  content: [
    { type: 'text', text: result.summary },
    { type: 'text', text: JSON.stringify(result.structured) },
  ],
  structuredContent: result.structured,
});

/** A body that is not JSON is JSON-RPC's parse error for an MCP client; other refusals keep the envelope and its challenge. */
function jsonRpcParseError(error: ApiError, lang: Language): Reply | undefined {
  const key = error.entries[0]?.messageKey;
  if (key !== 'BAD_REQUEST.invalid_json' && key !== 'BAD_REQUEST.invalid_utf8') return undefined;
  return { status: 400, json: { jsonrpc: '2.0', error: { code: -32700, message: message(lang, key) }, id: null } };
}

function mcpServer(tools: McpTool[], check: ReturnType<typeof argumentChecker>, caller: Access, context: OperationContext, logger: Logger) {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: publicSchema(t.input),
      outputSchema: outputSchema(t.name),
      annotations: annotationsOf(t),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = tools.find((t) => t.name === name);
    if (!tool) {
      return toolError(
        ApiError.withMessage('NOT_FOUND', 'NOT_FOUND.tool', { name, tools: tools.map((t) => t.name).join(', ') }),
        context.lang,
      );
    }
    try {
      // Without a member who may write, the connection reads; a write says why it cannot (X-User-Id, the role).
      if (tool.writes && caller.kind === 'key' && !caller.actingMember && caller.writeRefusal) throw caller.writeRefusal;
      const args = request.params.arguments ?? {};
      check(tool, args);
      return toolResult(await tool.run(caller, args as never, context));
    } catch (error) {
      if (error instanceof ApiError) return toolError(error, context.lang);
      logger.error('mcp tool failed', { tool: tool.name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      return toolError(new ApiError('INTERNAL_ERROR'), context.lang);
    }
  });
  return server;
}

export function mcpRoutes(deps: { tools: McpTool[]; logger: Logger }): RouteDef[] {
  const check = argumentChecker(deps.tools);
  return [
    {
      op: 'postMcp',
      method: 'POST',
      path: '/mcp',
      scope: 'mcp',
      writes: false,
      errorReply: jsonRpcParseError,
      handler: async (ctx: RequestContext) => {
        const context = operationContext(ctx);
        const server = mcpServer(deps.tools, check, ctx.access as Access, context, deps.logger);
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        try {
          const headers = new Headers();
          for (const [name, value] of Object.entries(ctx.headers)) headers.set(name, value);
          const request = new Request(`${context.origin}/mcp`, { method: 'POST', headers, body: JSON.stringify(ctx.body ?? null) });
          const response = await transport.handleRequest(request, { parsedBody: ctx.body });
          const body = new Uint8Array(await response.arrayBuffer());
          const contentType = response.headers.get('content-type') ?? 'application/json';
          const extra = [...response.headers].filter(([name]) => name !== 'content-type' && name !== 'content-length');
          return { status: response.status, headers: extra, body, contentType };
        } finally {
          await server.close();
        }
      },
    },
  ];
}
