// Request schemas of the management surface (DESIGN §11).

import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../data/model/api-key.js';
import { ROLES } from '../../data/model/membership.js';
import { EMBED_LAYERS } from '../../data/model/organization.js';
import { LineText, NameText, StringEnum } from '../http/schema-types.js';
import { MCP_TOOL_NAMES } from '../mcp/tool-names.js';

const OriginPattern = Type.String({
  pattern: '^https?://(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*(:(\\d{1,5}|\\*))?$',
  maxLength: 300,
});
const Scopes = Type.Array(StringEnum(SCOPES), { uniqueItems: true, maxItems: SCOPES.length });
const Origins = Type.Array(OriginPattern, { uniqueItems: true, maxItems: 50 });

export const OrganizationQuery = Type.Object(
  { organization_id: Type.Optional(Type.String({ format: 'uuid' })) },
  { additionalProperties: false },
);

export const SettingsPatch = Type.Object(
  {
    require_session_token: Type.Optional(Type.Boolean()),
    quota_data: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    quota_tiles: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    embed_layers: Type.Optional(Type.Array(StringEnum(EMBED_LAYERS), { uniqueItems: true })),
    embed_planner: Type.Optional(Type.Boolean({ description: 'Members may open the planner inside the embeds' })),
    default_allowed_origins: Type.Optional(Origins),
  },
  { additionalProperties: false },
);

export const KeyCreate = Type.Object(
  {
    type: StringEnum(['pk', 'sk']),
    name: NameText({ maxLength: 100 }),
    scopes: Type.Optional(Scopes),
    allowed_origins: Type.Optional(Origins),
  },
  { additionalProperties: false },
);

export const KeyPatch = Type.Object(
  {
    name: Type.Optional(NameText({ maxLength: 100 })),
    scopes: Type.Optional(Scopes),
    allowed_origins: Type.Optional(Origins),
  },
  { additionalProperties: false },
);

export const KeyParams = Type.Object({ key_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const MemberParams = Type.Object({ user_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const MemberAdd = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    role: StringEnum(ROLES),
  },
  { additionalProperties: false },
);

export const MemberPatch = Type.Object({ role: StringEnum(ROLES) }, { additionalProperties: false });

export const BillingPatch = Type.Object({ payment_method_on_file: Type.Boolean() }, { additionalProperties: false });

export const UsageQuery = Type.Object(
  {
    organization_id: Type.Optional(Type.String({ format: 'uuid' })),
    api: Type.Optional(StringEnum(['data', 'tiles'])),
    granularity: Type.Optional(StringEnum(['minute', 'day'], { default: 'minute' })),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

/** One line, not empty, no control characters. */
const OneLine = (maxLength: number) => LineText({ minLength: 1, maxLength });

export const AiPatch = Type.Object(
  {
    endpoint: Type.Optional(
      Type.Union([
        Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'OpenAI-compatible chat completions URL' }),
        Type.Null(),
      ]),
    ),
    model: Type.Optional(Type.Union([OneLine(200), Type.Null()])),
    api_key: Type.Optional(Type.Union([OneLine(500), Type.Null()])),
    enabled_tools: Type.Optional(Type.Array(StringEnum(MCP_TOOL_NAMES), { uniqueItems: true })),
  },
  { additionalProperties: false },
);
