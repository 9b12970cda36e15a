// `GET /studio/agent` (is the organization's model configured, with which tools) and `POST /studio/agent` (one turn
// of the conversation, answered as server-sent events while the agent works).

import { Type } from '@sinclair/typebox';
import { rest } from '../http/rest.js';
import type { RouteDef } from '../http/route.js';
import { MultiLineText } from '../http/schema-types.js';
import type { agentOperations } from './agent.js';

const Uuid = Type.String({ format: 'uuid' });

export const AgentRequestBody = Type.Object(
  {
    organization_id: Type.Optional(Uuid),
    itinerary_id: Type.Optional(Uuid),
    messages: Type.Array(
      Type.Object(
        { role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]), content: MultiLineText({ maxLength: 8000 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);

export function agentRoutes(agent: ReturnType<typeof agentOperations>): RouteDef[] {
  return [
    rest(agent.status, {
      method: 'GET',
      path: '/studio/agent',
      public: false,
      summary: "Whether the organization's AI model is configured, and the tools the agent may use",
      query: Type.Object({ organization_id: Type.Optional(Uuid) }, { additionalProperties: false }),
    }),
    rest(agent.converse, {
      method: 'POST',
      path: '/studio/agent',
      public: false,
      summary: 'One turn of the conversation with the agent, streamed as server-sent events',
      body: AgentRequestBody,
      reply: (stream) => ({
        contentType: 'text/event-stream; charset=utf-8',
        headers: [
          ['Cache-Control', 'no-cache'],
          ['X-Accel-Buffering', 'no'],
        ],
        stream,
      }),
    }),
  ];
}
