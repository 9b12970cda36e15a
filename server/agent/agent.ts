// The studio's AI agent (DESIGN §9): a conversation with the organization's configured model that acts only
// through the tools an MCP client has (the same operations, the same rules), as the signed-in member with their
// role, so locks hold against it and every edit it makes reaches the live channel like the member's own. The
// conversation is the client's to keep: each request carries it, and the answer streams back as server-sent
// events, one per step (the model's text, each tool call and its result, then `done`).

import type { OrganizationRepository } from '../../data/repositories.js';
import type { Organization } from '../../data/model/organization.js';
import type { Access } from '../auth/access.js';
import { defineOperation, type OperationContext, type Reach } from '../core/operation.js';
import { organizationOf } from '../core/policy.js';
import { ApiError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../management/secret-box.js';
import type { McpTool } from '../mcp/mcp-tools.js';
import { refusalSentences } from '../mcp/tool-refusal.js';
import { type ChatMessage, type ChatTool, chatTurn, type ModelSettings } from './model-client.js';
import { abortSignalOf } from '../../lib/cancel-signal.js';
import { publicSchema } from '../http/schema-keywords.js';

/** Only a signed-in member talks to the agent: it acts as them. */
const AGENT_REACH: readonly Reach[] = ['user'];
/** Tool rounds in one answer before the agent stops and says so. */
export const MAX_AGENT_STEPS = 8;
/** Tool calls one model turn may ask for; the rest are refused to the model. */
export const MAX_TOOL_CALLS_PER_TURN = 8;
/** The whole answer's budget (model turns and tools); past it the agent stops and says so. */
export const AGENT_TURN_BUDGET_MS = 180_000;
/** Answers one member may have running at once. */
export const MAX_RUNNING_PER_MEMBER = 2;

export interface AgentRequest {
  organization_id?: string;
  /** The itinerary the member has open in the planner, if any. */
  itinerary_id?: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
}

export interface AgentStatus {
  organization_id: string;
  configured: boolean;
  model: string | null;
  tools: string[];
  /** What to do when it is not configured. */
  how_to_configure?: string;
}

export interface AgentDeps {
  organizations: OrganizationRepository;
  secrets: SecretBox;
  tools: McpTool[];
  checkArguments: (tool: McpTool, args: unknown) => void;
  logger: Logger;
}

const HOW_TO_CONFIGURE =
  'An owner or admin sets the model with PATCH /v1/management/ai: endpoint (an OpenAI-compatible chat completions URL), model, and api_key if the endpoint needs one.';

/** One server-sent event. */
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function agentOperations(deps: AgentDeps) {
  /** The member's organization the agent works in: the one named, or their only one (the policy's rule). */
  async function memberOrganization(caller: Access, named: string | undefined): Promise<{ organization: Organization; role: string }> {
    if (caller.kind !== 'user') throw new ApiError('FORBIDDEN');
    const id = organizationOf(caller, named);
    const role = caller.memberships.get(id) as string;
    const organization = await deps.organizations.get(id);
    if (!organization) throw new ApiError('NOT_FOUND');
    if (organization.status !== 'active') throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.inactive_organization');
    return { organization, role };
  }

  /**
   * The organization's enabled tools a member may run: the intelligence tier answers keys with a session (the MCP
   * server, the Data API), not a member's agent.
   */
  function enabledTools(organization: Organization): McpTool[] {
    const enabled = organization.aiSettings.enabledTools;
    return deps.tools.filter((t) => !t.intelligence && (enabled === undefined || enabled.includes(t.name)));
  }

  /** Answers running per member (a crowd of tabs cannot run the organization's model without end). */
  const running = new Map<string, number>();

  function modelSettings(organization: Organization): ModelSettings | undefined {
    const { endpoint, model, apiKeySealed } = organization.aiSettings;
    if (!endpoint || !model) return undefined;
    return { endpoint, model, apiKey: apiKeySealed ? deps.secrets.open(apiKeySealed) : null };
  }

  const status = defineOperation({
    id: 'getStudioAgent',
    scope: 'embedding',
    writes: false,
    reach: AGENT_REACH,
    async run(caller, input: { organization_id?: string }): Promise<AgentStatus> {
      const { organization } = await memberOrganization(caller, input.organization_id);
      const settings = modelSettings(organization);
      return {
        organization_id: organization.id,
        configured: settings !== undefined,
        model: organization.aiSettings.model ?? null,
        tools: enabledTools(organization).map((t) => t.name),
        ...(settings ? {} : { how_to_configure: HOW_TO_CONFIGURE }),
      };
    },
  });

  const converse = defineOperation({
    id: 'postStudioAgent',
    scope: 'embedding',
    // The agent's writes are the tools' own (each one a unit of work with its checks); the request itself is not one.
    writes: false,
    reach: AGENT_REACH,
    async run(caller, input: AgentRequest, context): Promise<AsyncIterable<string>> {
      const { organization, role } = await memberOrganization(caller, input.organization_id);
      const settings = modelSettings(organization);
      if (!settings) throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.agent_not_configured');
      if (caller.kind !== 'user') throw new ApiError('FORBIDDEN');
      const userId = caller.user.id;
      if ((running.get(userId) ?? 0) >= MAX_RUNNING_PER_MEMBER) throw ApiError.withMessage('TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS.agent');
      // The tools act as the member, inside this organization only.
      const member: Access = {
        kind: 'user',
        user: caller.user,
        memberships: new Map([[organization.id, caller.memberships.get(organization.id)!]]),
      };
      const tools = enabledTools(organization);
      const system =
        `You are the planning assistant of Cairn, an outdoor map platform, working for ${caller.user.name || caller.user.email} ` +
        `(role ${role}) in the organization "${organization.name}". Use the tools to read and change the organization's collections ` +
        'and itineraries and to plan routes on its trail network; you act as this member, with their rights. Positions are ' +
        '[longitude, latitude]. Say briefly what you did.' +
        (input.itinerary_id ? ` The member has itinerary ${input.itinerary_id} open: "this itinerary" means that one.` : '');
      running.set(userId, (running.get(userId) ?? 0) + 1);
      const release = () => {
        const left = (running.get(userId) ?? 1) - 1;
        if (left > 0) running.set(userId, left);
        else running.delete(userId);
      };
      return converseStream(settings, tools, member, [{ role: 'system', content: system }, ...input.messages], context, release);
    },
  });

  async function* converseStream(
    settings: ModelSettings,
    tools: McpTool[],
    member: Access,
    history: ChatMessage[],
    callerContext: OperationContext,
    release: () => void,
  ): AsyncGenerator<string> {
    // The client going away, or the answer's whole budget spent, stops the model and the tools alike.
    const budget = AbortSignal.timeout(AGENT_TURN_BUDGET_MS);
    const signal = callerContext.signal ? AbortSignal.any([abortSignalOf(callerContext.signal), budget]) : budget;
    const context: OperationContext = { origin: callerContext.origin, lang: callerContext.lang, signal };
    const chatTools: ChatTool[] = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: publicSchema(t.input) as unknown },
    }));
    const messages = [...history];
    try {
      for (let step = 1; step <= MAX_AGENT_STEPS; step++) {
        const turn = await chatTurn(settings, messages, chatTools, signal);
        messages.push({ role: 'assistant', content: turn.content, ...(turn.toolCalls.length > 0 ? { tool_calls: turn.toolCalls } : {}) });
        if (turn.content) yield sse('message', { role: 'assistant', content: turn.content });
        if (turn.toolCalls.length === 0) {
          yield sse('done', { steps: step });
          return;
        }
        for (const [index, call] of turn.toolCalls.entries()) {
          yield sse('tool_call', { id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) });
          const outcome =
            index < MAX_TOOL_CALLS_PER_TURN
              ? await runTool(tools, member, call.function.name, call.function.arguments, context)
              : ({
                  ok: false,
                  error: {
                    code: 'TOO_MANY_REQUESTS',
                    message: `At most ${MAX_TOOL_CALLS_PER_TURN} tool calls a turn: ask for the rest next turn.`,
                  },
                } as const);
          yield sse('tool_result', { id: call.id, name: call.function.name, ...outcome });
          messages.push({
            role: 'tool',
            tool_call_id: call.id,
            content: JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error }),
          });
        }
      }
      yield sse('error', { code: 'CONFLICT', message: `The agent stopped after ${MAX_AGENT_STEPS} tool rounds; ask again to continue.` });
    } catch (error) {
      if (budget.aborted) {
        yield sse('error', {
          code: 'GATEWAY_TIMEOUT',
          message: `The agent stopped after ${AGENT_TURN_BUDGET_MS / 1000} seconds; ask again to continue.`,
        });
        return;
      }
      if (signal.aborted) return;
      const failure = error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR');
      if (!(error instanceof ApiError))
        deps.logger.error('agent failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      yield sse('error', described(failure, context));
    } finally {
      release();
    }
  }

  function parseArguments(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /** Runs one tool call as the member: its result, or the refusal the model reads to correct itself. */
  async function runTool(
    tools: McpTool[],
    member: Access,
    name: string,
    argumentsText: string,
    context: OperationContext,
  ): Promise<{ ok: true; summary: string; result: unknown } | { ok: false; error: { code: string; message: string } }> {
    const tool = tools.find((t) => t.name === name);
    if (!tool) {
      const unknown = ApiError.withMessage('NOT_FOUND', 'NOT_FOUND.tool', { name, tools: tools.map((t) => t.name).join(', ') });
      return { ok: false, error: described(unknown, context) };
    }
    try {
      const args = JSON.parse(argumentsText || '{}') as unknown;
      deps.checkArguments(tool, args);
      const result = await tool.run(member, args as never, context);
      return { ok: true, summary: result.summary, result: result.structured };
    } catch (error) {
      if (error instanceof SyntaxError) return { ok: false, error: { code: 'BAD_REQUEST', message: 'The arguments are not JSON.' } };
      if (error instanceof ApiError) return { ok: false, error: described(error, context) };
      deps.logger.error('agent tool failed', {
        tool: name,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return { ok: false, error: { code: 'INTERNAL_ERROR', message: 'The tool failed on the server.' } };
    }
  }

  /**
   * The refusal's code and sentences (paths included, for the model to correct itself). Unlike a 5xx response body,
   * a failing model is named here: it is the organization's own service, and the member can act on it.
   */
  function described(error: ApiError, context: OperationContext): { code: string; message: string } {
    const code = error.entries[0]?.code === 'VALIDATION_FAILED' ? 'BAD_REQUEST' : error.code;
    return { code, message: refusalSentences(error, context.lang) };
  }

  return { status, converse };
}
