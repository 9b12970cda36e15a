// The management surface (DESIGN §11) under /v1/management/: organization, settings, keys, members,
// billing, usage. Callers: a signed-in owner or admin, or a publishable key with the `management`
// scope plus a session token (the access layer enforces scope and session). Contributors and viewers
// are refused.

import type { ApiKey } from '../../data/stores/api-key-store.js';
import type { Role } from '../../data/stores/membership-store.js';
import type { Organization } from '../../data/stores/organization-store.js';
import type { Stores } from '../../data/stores/stores.js';
import { minuteOf } from '../../data/stores/usage-store.js';
import type { Access } from '../auth/access.js';
import { enforceLimit } from '../auth/limits.js';
import { ApiError } from '../errors.js';
import type { RequestContext, RouteDef } from '../http/route.js';
import type { Logger } from '../logger.js';
import type { UnitOfWork } from '../core/unit-of-work.js';
import {
  BillingPatch,
  KeyCreate,
  KeyParams,
  KeyPatch,
  MemberAdd,
  MemberParams,
  MemberPatch,
  OrganizationQuery,
  SettingsPatch,
  UsageQuery,
} from './management-schemas.js';

/** Who acts: a member with a role, or an organization-level key (treated as an admin). */
interface Actor {
  organization: Organization;
  role: Role;
  userId: string | undefined;
}

const MANAGING_ROLES: ReadonlySet<Role> = new Set(['owner', 'admin']);

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

function settingsView(o: Organization) {
  return {
    require_session_token: o.requireSessionToken,
    quota_data: o.quotaData,
    quota_tiles: o.quotaTiles,
    embed_layers: o.embedLayers,
    default_allowed_origins: o.defaultAllowedOrigins,
  };
}

function billingView(o: Organization) {
  return { products: o.products, payment_method_on_file: o.cardOnFile, limits: o.limits };
}

export function managementRoutes(deps: { stores: Stores; writes: UnitOfWork; logger: Logger }): RouteDef[] {
  // Writes go through the group commit like every other write on this connection: a direct statement
  // made while a batch is open would join it and be answered before its commit.
  const { stores, writes } = deps;

  const actorOf = (ctx: RequestContext): Actor => {
    const access = ctx.access as Access;
    if (access.kind === 'key') return { organization: access.organization, role: 'admin', userId: undefined };
    if (access.kind !== 'user') throw new ApiError('UNAUTHORIZED');
    const requested = (ctx.query as { organization_id?: string }).organization_id;
    let organizationId = requested;
    if (!organizationId) {
      const memberships = stores.memberships.listByUser(access.user.id);
      if (memberships.length !== 1) {
        throw ApiError.validation([{ path: ['request', 'query', 'organization_id'], messageKey: 'VALIDATION_FAILED' }]);
      }
      organizationId = memberships[0]?.organizationId;
    }
    const membership = organizationId ? stores.memberships.get(organizationId, access.user.id) : undefined;
    const organization = membership ? stores.organizations.get(membership.organizationId) : undefined;
    if (!membership || !organization) throw new ApiError('NOT_FOUND');
    if (!MANAGING_ROLES.has(membership.role)) throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.manager_role');
    return { organization, role: membership.role, userId: access.user.id };
  };

  const route = (def: Omit<RouteDef, 'scope' | 'query'> & { query?: RouteDef['query'] }): RouteDef => ({
    scope: 'management',
    query: OrganizationQuery,
    ...def,
  });

  /** Owners alone grant, change or remove the owner role; the last owner always stays. */
  const checkOwnerChange = (actor: Actor, organizationId: string, userId: string, current: Role, next?: Role) => {
    if ((current === 'owner' || next === 'owner') && actor.role !== 'owner') throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.owner_role');
    if (current === 'owner' && next !== 'owner') {
      const owners = stores.memberships.listByOrganization(organizationId).filter((m) => m.role === 'owner');
      if (owners.length === 1 && owners[0]?.userId === userId) throw ApiError.withMessage('CONFLICT', 'CONFLICT.last_owner');
    }
  };

  return [
    route({
      op: 'getManagementOrganization',
      method: 'GET',
      writes: false,
      path: '/v1/management/organization',
      handler: (ctx) => {
        const { organization: o } = actorOf(ctx);
        return {
          json: {
            data: {
              id: o.id,
              name: o.name,
              status: o.status,
              settings: settingsView(o),
              ...billingView(o),
              created_at: o.createdAt,
            },
          },
        };
      },
    }),
    route({
      op: 'patchManagementSettings',
      method: 'PATCH',
      writes: true,
      path: '/v1/management/settings',
      body: SettingsPatch,
      handler: async (ctx) => {
        const { organization } = actorOf(ctx);
        const b = (ctx.body ?? {}) as {
          require_session_token?: boolean;
          quota_data?: number;
          quota_tiles?: number;
          embed_layers?: string[];
          default_allowed_origins?: string[];
        };
        const updated = (await writes.write(() =>
          stores.organizations.updateSettings(organization.id, {
            requireSessionToken: b.require_session_token,
            quotaData: b.quota_data,
            quotaTiles: b.quota_tiles,
            embedLayers: b.embed_layers,
            defaultAllowedOrigins: b.default_allowed_origins,
          }),
        )) as Organization;
        return { json: { data: settingsView(updated) } };
      },
    }),
    route({
      op: 'getManagementKeys',
      method: 'GET',
      writes: false,
      path: '/v1/management/keys',
      handler: (ctx) => {
        const { organization } = actorOf(ctx);
        return { json: { data: stores.apiKeys.list(organization.id).map(keyView) } };
      },
    }),
    route({
      op: 'postManagementKey',
      method: 'POST',
      writes: true,
      path: '/v1/management/keys',
      body: KeyCreate,
      status: 201,
      handler: async (ctx) => {
        const { organization } = actorOf(ctx);
        const b = ctx.body as { type: 'pk' | 'sk'; name: string; scopes?: ApiKey['scopes']; allowed_origins?: string[] };
        if (b.type === 'sk' && (b.allowed_origins?.length ?? 0) > 0) {
          throw ApiError.validation([{ path: ['request', 'body', 'allowed_origins'], messageKey: 'VALIDATION_FAILED' }]);
        }
        const created = await writes.write(() => {
          enforceLimit(organization, 'keys', stores.apiKeys.list(organization.id).length);
          return stores.apiKeys.create({
            organizationId: organization.id,
            type: b.type,
            name: b.name,
            scopes: b.type === 'pk' ? (b.scopes ?? []) : [],
            allowedOrigins: b.allowed_origins ?? [],
          });
        });
        // The plaintext of a secret key is shown here once and never again.
        return { status: 201, json: { data: { ...keyView(created.apiKey), key: created.plaintext } } };
      },
    }),
    route({
      op: 'patchManagementKey',
      method: 'PATCH',
      writes: true,
      path: '/v1/management/keys/{key_id}',
      params: KeyParams,
      body: KeyPatch,
      handler: async (ctx) => {
        const { organization } = actorOf(ctx);
        const key = stores.apiKeys.get((ctx.params as { key_id: string }).key_id);
        if (!key || key.organizationId !== organization.id || key.revokedAt) throw new ApiError('NOT_FOUND');
        const b = (ctx.body ?? {}) as { name?: string; scopes?: ApiKey['scopes']; allowed_origins?: string[] };
        if (key.type === 'sk' && (b.scopes !== undefined || b.allowed_origins !== undefined)) {
          const field = b.scopes !== undefined ? 'scopes' : 'allowed_origins';
          throw ApiError.validation([{ path: ['request', 'body', field], messageKey: 'VALIDATION_FAILED' }]);
        }
        const updated = (await writes.write(() =>
          stores.apiKeys.update(key.id, { name: b.name, scopes: b.scopes, allowedOrigins: b.allowed_origins }),
        )) as ApiKey;
        return { json: { data: keyView(updated) } };
      },
    }),
    route({
      op: 'deleteManagementKey',
      method: 'DELETE',
      writes: true,
      path: '/v1/management/keys/{key_id}',
      params: KeyParams,
      status: 204,
      handler: async (ctx) => {
        const { organization } = actorOf(ctx);
        const key = stores.apiKeys.get((ctx.params as { key_id: string }).key_id);
        if (!key || key.organizationId !== organization.id || key.revokedAt) throw new ApiError('NOT_FOUND');
        await writes.write(() => stores.apiKeys.revoke(key.id));
        return { status: 204, json: null };
      },
    }),
    route({
      op: 'getManagementMembers',
      method: 'GET',
      writes: false,
      path: '/v1/management/members',
      handler: (ctx) => {
        const { organization } = actorOf(ctx);
        const members = stores.memberships.listByOrganization(organization.id).map((m) => ({
          user_id: m.userId,
          email: m.email,
          name: m.name,
          role: m.role,
          joined_at: m.createdAt,
        }));
        return { json: { data: members } };
      },
    }),
    route({
      op: 'postManagementMember',
      method: 'POST',
      writes: true,
      path: '/v1/management/members',
      body: MemberAdd,
      status: 201,
      handler: async (ctx) => {
        const actor = actorOf(ctx);
        const b = ctx.body as { email: string; role: Role };
        if (b.role === 'owner' && actor.role !== 'owner') throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.owner_role');
        const user = stores.users.getByEmail(b.email);
        if (!user) throw ApiError.validation([{ path: ['request', 'body', 'email'], messageKey: 'VALIDATION_FAILED' }]);
        const membership = await writes.write(() => {
          if (stores.memberships.get(actor.organization.id, user.id)) throw ApiError.withMessage('CONFLICT', 'CONFLICT.already_member');
          enforceLimit(actor.organization, 'members', stores.memberships.listByOrganization(actor.organization.id).length);
          return stores.memberships.add(actor.organization.id, user.id, b.role);
        });
        return {
          status: 201,
          json: { data: { user_id: user.id, email: user.email, name: user.name, role: membership.role } },
        };
      },
    }),
    route({
      op: 'patchManagementMember',
      method: 'PATCH',
      writes: true,
      path: '/v1/management/members/{user_id}',
      params: MemberParams,
      body: MemberPatch,
      handler: async (ctx) => {
        const actor = actorOf(ctx);
        const userId = (ctx.params as { user_id: string }).user_id;
        const role = (ctx.body as { role: Role }).role;
        const updated = await writes.write(() => {
          const current = stores.memberships.get(actor.organization.id, userId);
          if (!current) throw new ApiError('NOT_FOUND');
          checkOwnerChange(actor, actor.organization.id, userId, current.role, role);
          return stores.memberships.setRole(actor.organization.id, userId, role);
        });
        return { json: { data: { user_id: userId, role: updated?.role } } };
      },
    }),
    route({
      op: 'deleteManagementMember',
      method: 'DELETE',
      writes: true,
      path: '/v1/management/members/{user_id}',
      params: MemberParams,
      status: 204,
      handler: async (ctx) => {
        const actor = actorOf(ctx);
        const userId = (ctx.params as { user_id: string }).user_id;
        await writes.write(() => {
          const current = stores.memberships.get(actor.organization.id, userId);
          if (!current) throw new ApiError('NOT_FOUND');
          checkOwnerChange(actor, actor.organization.id, userId, current.role, undefined);
          stores.memberships.remove(actor.organization.id, userId);
        });
        return { status: 204, json: null };
      },
    }),
    route({
      op: 'getManagementBilling',
      method: 'GET',
      writes: false,
      path: '/v1/management/billing',
      handler: (ctx) => ({ json: { data: billingView(actorOf(ctx).organization) } }),
    }),
    route({
      op: 'patchManagementBilling',
      method: 'PATCH',
      writes: true,
      path: '/v1/management/billing',
      body: BillingPatch,
      handler: async (ctx) => {
        const { organization } = actorOf(ctx);
        const b = ctx.body as { payment_method_on_file: boolean };
        const updated = (await writes.write(() =>
          stores.organizations.setCardOnFile(organization.id, b.payment_method_on_file),
        )) as Organization;
        return { json: { data: billingView(updated) } };
      },
    }),
    route({
      op: 'getManagementUsage',
      method: 'GET',
      writes: false,
      path: '/v1/management/usage',
      query: UsageQuery,
      handler: (ctx) => {
        const { organization } = actorOf(ctx);
        const q = ctx.query as { api?: string; granularity?: 'minute' | 'day'; from?: string; to?: string };
        const to = q.to ? Date.parse(q.to) : Date.now() + 60_000;
        const from = q.from ? Date.parse(q.from) : to - 24 * 3600_000;
        if (from > to) {
          throw ApiError.validation([{ path: ['request', 'query', 'from'], messageKey: 'VALIDATION_FAILED' }]);
        }
        const range = { organizationId: organization.id, fromMinute: minuteOf(from), toMinute: minuteOf(to) + 1 };
        if (q.granularity === 'day') {
          const days = stores.usage.queryDaily(range).filter((d) => !q.api || d.api === q.api);
          return { json: { data: days } };
        }
        const buckets = stores.usage.query({ ...range, api: q.api }).map((b) => ({
          api: b.api,
          minute: new Date(b.minute * 60_000).toISOString(),
          count: b.count,
        }));
        return { json: { data: buckets } };
      },
    }),
    // The organization's AI settings (model endpoint, model, tools) are declared here so that the access rules
    // already apply; past them they answer 501 until the MCP and agent work builds them.
    ...(['GET', 'PATCH'] as const).map((method) =>
      route({
        op: method === 'GET' ? 'getManagementAi' : 'patchManagementAi',
        method,
        writes: method === 'PATCH',
        path: '/v1/management/ai',
        handler: (ctx) => {
          actorOf(ctx);
          throw new ApiError('NOT_IMPLEMENTED');
        },
      }),
    ),
  ];
}
