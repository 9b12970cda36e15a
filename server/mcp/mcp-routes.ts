// `POST /mcp`: the MCP server over the Streamable HTTP transport of the official SDK, stateless (no session kept
// in this process, so any node can answer any request) and answering JSON. Access control has run before (scope
// `mcp`; the header pair X-API-Key + X-Secret-Key, for which the access layer brokers a session). Each request gets
// its own SDK server and transport, bridged from this server's request to the transport's web-standard one.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Access } from '../auth/access.js';
import type { OperationContext } from '../core/operation.js';
import { ApiError } from '../errors.js';
import { renderError } from '../http/envelope.js';
import { operationContext } from '../http/operation-context.js';
import type { RequestContext, RouteDef } from '../http/route.js';
import type { Language } from '../i18n/messages.js';
import type { Logger } from '../logger.js';
import { argumentChecker, type McpTool } from './mcp-tools.js';

const SERVER_INFO = { name: 'cairn', version: '1.0.0' };

/** A refusal as an MCP tool error: the spec's code and sentence, the path rooted at the tool's arguments. */
function toolError(error: ApiError, lang: Language): CallToolResult {
  const rendered = JSON.parse(renderError(error, lang).body) as {
    errors: { message: string; path?: unknown[]; extensions: { code: string } }[];
  };
  const first = rendered.errors[0];
  const code = first?.extensions.code ?? error.code;
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${rendered.errors.map((e) => e.message).join(' ')}` }],
    structuredContent: { error: { code, errors: rendered.errors } },
  };
}

function mcpServer(tools: McpTool[], check: ReturnType<typeof argumentChecker>, caller: Access, context: OperationContext, logger: Logger) {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: JSON.parse(JSON.stringify(t.input)) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) return toolError(ApiError.withMessage('NOT_FOUND', 'NOT_FOUND'), context.lang);
    try {
      const args = request.params.arguments ?? {};
      check(tool, args);
      const result = await tool.run(caller, args as never, context);
      return { content: [{ type: 'text', text: result.summary }], structuredContent: result.structured };
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
