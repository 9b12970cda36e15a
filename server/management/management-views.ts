// How the management API shows an organization, its settings, keys, members and AI settings: the one shape that
// the API answers and the admin command prints (server/management/admin/admin.ts), field names in snake_case.

import type { ApiKey } from '../../data/model/api-key.js';
import type { MemberWithUser } from '../../data/model/membership.js';
import type { Organization } from '../../data/model/organization.js';
import { MCP_TOOL_NAMES } from '../mcp/tool-names.js';

export function keyView(key: ApiKey) {
  return {
    id: key.id,
    type: key.type,
    name: key.name,
    scopes: key.scopes,
    allowed_origins: key.allowedOrigins,
    hint: key.hint,
    ...(key.type === 'pk' ? { key: key.key } : {}),
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}

export function settingsView(o: Organization) {
  return {
    require_session_token: o.requireSessionToken,
    quota_data: o.quotaData,
    quota_tiles: o.quotaTiles,
    embed_layers: o.embedLayers,
    embed_planner: o.embedPlanner,
    default_allowed_origins: o.defaultAllowedOrigins,
  };
}

export function billingView(o: Organization) {
  return { products: o.products, payment_method_on_file: o.cardOnFile, limits: o.limits };
}

export function organizationView(o: Organization) {
  return { id: o.id, name: o.name, status: o.status, settings: settingsView(o), ...billingView(o), created_at: o.createdAt };
}

export function memberView(m: MemberWithUser) {
  return { user_id: m.userId, email: m.email, name: m.name, role: m.role, joined_at: m.createdAt };
}

/** The AI settings as the API shows them: the key never, only whether one is set and its last characters. */
export function aiView(organization: Organization) {
  const ai = organization.aiSettings;
  return {
    endpoint: ai.endpoint ?? null,
    model: ai.model ?? null,
    api_key_set: ai.apiKeySealed !== undefined,
    api_key_hint: ai.apiKeyHint ?? null,
    enabled_tools: ai.enabledTools ?? [...MCP_TOOL_NAMES],
    updated_at: ai.updatedAt ?? null,
  };
}
