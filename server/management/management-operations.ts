// The management operations (DESIGN §11), transport-free: organization, settings, keys, members, billing,
// usage. Callers: a signed-in owner or admin (naming the organization with `organization_id` when they
// belong to several), or a publishable key with the `management` scope plus a session token (the access
// layer enforces scope and session). Contributors and viewers are refused. Failure paths are relative to
// each operation's input.

import type { ApiKey } from '../../data/model/api-key.js';
import type { Role } from '../../data/model/membership.js';
import type { AiSettings, Organization } from '../../data/model/organization.js';
import type { Repositories } from '../../data/repositories.js';
import { minuteOf } from '../../data/model/usage.js';
import type { Access } from '../auth/access.js';
import { enforceLimit } from '../auth/limits.js';
import { defineOperation, type Reach } from '../core/operation.js';
import { type Manager, managerOf } from '../core/policy.js';
import type { UnitOfWork } from '../core/unit-of-work.js';
import { ApiError } from '../errors.js';
import { aiView, billingView, keyView, memberView, organizationView, settingsView } from './management-views.js';
import type { SecretBox } from './secret-box.js';

export interface ManagementDeps {
  stores: Repositories;
  /** Every write goes through the unit of work, like every other write on this connection. */
  writes: UnitOfWork;
  /** Seals the model API key of the AI settings (server/management/secret-box.ts). */
  secrets: SecretBox;
}

export interface AiInput extends OrganizationInput {
  endpoint?: string | null;
  model?: string | null;
  api_key?: string | null;
  enabled_tools?: string[];
}

type OrganizationInput = { organization_id?: string };

function setOrClear(settings: AiSettings, field: 'endpoint' | 'model' | 'apiKeySealed' | 'apiKeyHint', value: string | null): void {
  if (value === null) delete settings[field];
  else settings[field] = value;
}
type KeyInput = OrganizationInput & { key_id: string };
type MemberInput = OrganizationInput & { user_id: string };

export interface SettingsInput extends OrganizationInput {
  require_session_token?: boolean;
  quota_data?: number;
  quota_tiles?: number;
  embed_layers?: string[];
  embed_planner?: boolean;
  default_allowed_origins?: string[];
}

export interface KeyCreateInput extends OrganizationInput {
  type: 'pk' | 'sk';
  name: string;
  scopes?: ApiKey['scopes'];
  allowed_origins?: string[];
}

export interface KeyPatchInput extends KeyInput {
  name?: string;
  scopes?: ApiKey['scopes'];
  allowed_origins?: string[];
}

export interface UsageInput extends OrganizationInput {
  api?: string;
  granularity?: 'minute' | 'day';
  from?: string;
  to?: string;
}

/** Signed-in managers, and keys with a session token (the access layer requires one on this surface). */
const MANAGEMENT_REACH: readonly Reach[] = ['session', 'user'];
const reads = { scope: 'management' as const, writes: false, reach: MANAGEMENT_REACH };
const writes = { scope: 'management' as const, writes: true, reach: MANAGEMENT_REACH };

export function managementOperations(deps: ManagementDeps) {
  const { stores } = deps;

  /** The manager and their organization (a key's own; a member's as the policy names it). */
  const managing = async (caller: Access, input: OrganizationInput): Promise<Manager & { organization: Organization }> => {
    const manager = managerOf(caller, input.organization_id);
    const organization = caller.kind === 'key' ? caller.organization : await stores.organizations.get(manager.organizationId);
    if (!organization) throw new ApiError('NOT_FOUND');
    return { ...manager, organization };
  };

  /** A live key of the organization; 404 for another organization's, a revoked or an unknown key. */
  const liveKey = async (organizationId: string, keyId: string): Promise<ApiKey> => {
    const key = await stores.apiKeys.get(keyId);
    if (!key || key.organizationId !== organizationId || key.revokedAt) throw new ApiError('NOT_FOUND');
    return key;
  };

  /** Owners alone grant, change or remove the owner role; the last owner always stays. */
  const checkOwnerChange = async (manager: Manager, userId: string, current: Role, next?: Role): Promise<void> => {
    if ((current === 'owner' || next === 'owner') && manager.role !== 'owner')
      throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.owner_role');
    if (current === 'owner' && next !== 'owner') {
      const owners = (await stores.memberships.listByOrganization(manager.organizationId)).filter((m) => m.role === 'owner');
      if (owners.length === 1 && owners[0]?.userId === userId) throw ApiError.withMessage('CONFLICT', 'CONFLICT.last_owner');
    }
  };

  const settingsChanged = (organizationId: string) => ({ type: 'organization.settings_changed', organizationId }) as const;

  return {
    getManagementOrganization: defineOperation({
      id: 'getManagementOrganization',
      ...reads,
      async run(caller, input: OrganizationInput) {
        return organizationView((await managing(caller, input)).organization);
      },
    }),

    patchManagementSettings: defineOperation({
      id: 'patchManagementSettings',
      ...writes,
      async run(caller, input: SettingsInput) {
        const { organizationId } = await managing(caller, input);
        const updated = await deps.writes.write(async ({ emit }) => {
          const organization = (await stores.organizations.updateSettings(organizationId, {
            requireSessionToken: input.require_session_token,
            quotaData: input.quota_data,
            quotaTiles: input.quota_tiles,
            embedLayers: input.embed_layers,
            embedPlanner: input.embed_planner,
            defaultAllowedOrigins: input.default_allowed_origins,
          })) as Organization;
          emit(settingsChanged(organizationId));
          return organization;
        });
        return settingsView(updated);
      },
    }),

    getManagementKeys: defineOperation({
      id: 'getManagementKeys',
      ...reads,
      async run(caller, input: OrganizationInput) {
        return (await stores.apiKeys.list((await managing(caller, input)).organizationId)).map(keyView);
      },
    }),

    /** Creates a key; the plaintext of a secret key is answered here once and never again. */
    postManagementKey: defineOperation({
      id: 'postManagementKey',
      ...writes,
      async run(caller, input: KeyCreateInput) {
        const { organization } = await managing(caller, input);
        if (input.type === 'sk' && (input.allowed_origins?.length ?? 0) > 0) {
          throw ApiError.validation([{ path: ['allowed_origins'], messageKey: 'VALIDATION_FAILED' }]);
        }
        const created = await deps.writes.write(async () => {
          await enforceLimit(organization, 'keys', async () => (await stores.apiKeys.list(organization.id)).length);
          return await stores.apiKeys.create({
            organizationId: organization.id,
            type: input.type,
            name: input.name,
            scopes: input.type === 'pk' ? (input.scopes ?? []) : [],
            allowedOrigins: input.allowed_origins ?? [],
          });
        });
        return { ...keyView(created.apiKey), key: created.plaintext };
      },
    }),

    patchManagementKey: defineOperation({
      id: 'patchManagementKey',
      ...writes,
      async run(caller, input: KeyPatchInput) {
        const key = await liveKey((await managing(caller, input)).organizationId, input.key_id);
        if (key.type === 'sk' && (input.scopes !== undefined || input.allowed_origins !== undefined)) {
          const field = input.scopes !== undefined ? 'scopes' : 'allowed_origins';
          throw ApiError.validation([{ path: [field], messageKey: 'VALIDATION_FAILED' }]);
        }
        const updated = await deps.writes.write(
          async () =>
            (await stores.apiKeys.update(key.id, {
              name: input.name,
              scopes: input.scopes,
              allowedOrigins: input.allowed_origins,
            })) as ApiKey,
        );
        return keyView(updated);
      },
    }),

    /** Revokes the key: every request with it, and every session token it minted, is refused from now on. */
    deleteManagementKey: defineOperation({
      id: 'deleteManagementKey',
      ...writes,
      async run(caller, input: KeyInput): Promise<void> {
        const key = await liveKey((await managing(caller, input)).organizationId, input.key_id);
        await deps.writes.write(async ({ emit }) => {
          await stores.apiKeys.revoke(key.id);
          emit({ type: 'key.revoked', organizationId: key.organizationId, keyId: key.id });
        });
      },
    }),

    getManagementMembers: defineOperation({
      id: 'getManagementMembers',
      ...reads,
      async run(caller, input: OrganizationInput) {
        return (await stores.memberships.listByOrganization((await managing(caller, input)).organizationId)).map(memberView);
      },
    }),

    postManagementMember: defineOperation({
      id: 'postManagementMember',
      ...writes,
      async run(caller, input: OrganizationInput & { email: string; role: Role }) {
        const manager = await managing(caller, input);
        if (input.role === 'owner' && manager.role !== 'owner') throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.owner_role');
        const user = await stores.users.getByEmail(input.email);
        if (!user) throw ApiError.validation([{ path: ['email'], messageKey: 'VALIDATION_FAILED' }]);
        const membership = await deps.writes.write(async () => {
          if (await stores.memberships.get(manager.organizationId, user.id))
            throw ApiError.withMessage('CONFLICT', 'CONFLICT.already_member');
          await enforceLimit(
            manager.organization,
            'members',
            async () => (await stores.memberships.listByOrganization(manager.organizationId)).length,
          );
          return await stores.memberships.add(manager.organizationId, user.id, input.role);
        });
        return { user_id: user.id, email: user.email, name: user.name, role: membership.role };
      },
    }),

    patchManagementMember: defineOperation({
      id: 'patchManagementMember',
      ...writes,
      async run(caller, input: MemberInput & { role: Role }) {
        const manager = await managing(caller, input);
        const updated = await deps.writes.write(async () => {
          const current = await stores.memberships.get(manager.organizationId, input.user_id);
          if (!current) throw new ApiError('NOT_FOUND');
          await checkOwnerChange(manager, input.user_id, current.role, input.role);
          return await stores.memberships.setRole(manager.organizationId, input.user_id, input.role);
        });
        return { user_id: input.user_id, role: updated?.role };
      },
    }),

    deleteManagementMember: defineOperation({
      id: 'deleteManagementMember',
      ...writes,
      async run(caller, input: MemberInput): Promise<void> {
        const manager = await managing(caller, input);
        await deps.writes.write(async ({ emit }) => {
          const current = await stores.memberships.get(manager.organizationId, input.user_id);
          if (!current) throw new ApiError('NOT_FOUND');
          await checkOwnerChange(manager, input.user_id, current.role, undefined);
          await stores.memberships.remove(manager.organizationId, input.user_id);
          emit({ type: 'membership.removed', organizationId: manager.organizationId, userId: current.userId });
        });
      },
    }),

    getManagementBilling: defineOperation({
      id: 'getManagementBilling',
      ...reads,
      async run(caller, input: OrganizationInput) {
        return billingView((await managing(caller, input)).organization);
      },
    }),

    patchManagementBilling: defineOperation({
      id: 'patchManagementBilling',
      ...writes,
      async run(caller, input: OrganizationInput & { payment_method_on_file: boolean }) {
        const { organizationId } = await managing(caller, input);
        const updated = await deps.writes.write(async ({ emit }) => {
          const organization = (await stores.organizations.setCardOnFile(organizationId, input.payment_method_on_file)) as Organization;
          emit(settingsChanged(organizationId));
          return organization;
        });
        return billingView(updated);
      },
    }),

    /** Request counts per minute (or per day) and API over a range (default: the last 24 hours). */
    getManagementUsage: defineOperation({
      id: 'getManagementUsage',
      ...reads,
      async run(caller, input: UsageInput) {
        const { organizationId } = await managing(caller, input);
        const to = input.to ? Date.parse(input.to) : Date.now() + 60_000;
        const from = input.from ? Date.parse(input.from) : to - 24 * 3600_000;
        if (from > to) throw ApiError.validation([{ path: ['from'], messageKey: 'VALIDATION_FAILED' }]);
        const range = { organizationId, fromMinute: minuteOf(from), toMinute: minuteOf(to) + 1 };
        if (input.granularity === 'day') return (await stores.usage.queryDaily(range)).filter((d) => !input.api || d.api === input.api);
        return (await stores.usage.query({ ...range, api: input.api })).map((b) => ({
          api: b.api,
          minute: new Date(b.minute * 60_000).toISOString(),
          count: b.count,
        }));
      },
    }),

    /** The model the organization's agent calls (OpenAI-compatible chat completions) and the tools it may use. */
    getManagementAi: defineOperation({
      id: 'getManagementAi',
      ...reads,
      async run(caller, input: OrganizationInput) {
        return aiView((await managing(caller, input)).organization);
      },
    }),

    /** Partial update; `api_key` is sealed before it is stored and never answered; null clears a field. */
    patchManagementAi: defineOperation({
      id: 'patchManagementAi',
      ...writes,
      async run(caller, input: AiInput) {
        const { organizationId } = await managing(caller, input);
        const updated = await deps.writes.write(async ({ emit }) => {
          const current = (await stores.organizations.get(organizationId)) as Organization;
          const next: AiSettings = { ...current.aiSettings, updatedAt: new Date().toISOString() };
          // null clears a field: it is left out, as a field never set is.
          if (input.endpoint !== undefined) setOrClear(next, 'endpoint', input.endpoint);
          if (input.model !== undefined) setOrClear(next, 'model', input.model);
          if (input.enabled_tools !== undefined) next.enabledTools = [...input.enabled_tools];
          if (input.api_key !== undefined) {
            setOrClear(next, 'apiKeySealed', input.api_key === null ? null : deps.secrets.seal(input.api_key));
            setOrClear(next, 'apiKeyHint', input.api_key === null ? null : input.api_key.slice(-4));
          }
          const organization = (await stores.organizations.setAiSettings(organizationId, next)) as Organization;
          emit(settingsChanged(organizationId));
          return organization;
        });
        return aiView(updated);
      },
    }),
  };
}
