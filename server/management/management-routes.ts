// REST bindings of the management operations (DESIGN §11) under /v1/management/. The rules live in
// ./management-operations.ts. Management answers carry `data` alone (no `extensions`).

import type { TObject } from '@sinclair/typebox';
import type { Operation } from '../core/operation.js';
import type { HttpMethod, RouteDef } from '../http/route.js';
import { rest } from '../http/rest.js';
import type { managementOperations } from './management-operations.js';
import {
  AiPatch,
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

interface Binding {
  params?: TObject;
  query?: TObject;
  body?: TObject;
  status?: number;
}

export function managementRoutes(ops: ReturnType<typeof managementOperations>): RouteDef[] {
  const bind = <I, O>(op: Operation<I, O>, method: HttpMethod, path: string, binding: Binding = {}): RouteDef =>
    rest(op, {
      method,
      path: `/v1/management/${path}`,
      public: false,
      query: OrganizationQuery,
      ...binding,
      reply: binding.status === 204 ? 'empty' : (data) => ({ json: { data } }),
    });

  return [
    bind(ops.getManagementOrganization, 'GET', 'organization'),
    bind(ops.patchManagementSettings, 'PATCH', 'settings', { body: SettingsPatch }),
    bind(ops.getManagementKeys, 'GET', 'keys'),
    bind(ops.postManagementKey, 'POST', 'keys', { body: KeyCreate, status: 201 }),
    bind(ops.patchManagementKey, 'PATCH', 'keys/{key_id}', { params: KeyParams, body: KeyPatch }),
    bind(ops.deleteManagementKey, 'DELETE', 'keys/{key_id}', { params: KeyParams, status: 204 }),
    bind(ops.getManagementMembers, 'GET', 'members'),
    bind(ops.postManagementMember, 'POST', 'members', { body: MemberAdd, status: 201 }),
    bind(ops.patchManagementMember, 'PATCH', 'members/{user_id}', { params: MemberParams, body: MemberPatch }),
    bind(ops.deleteManagementMember, 'DELETE', 'members/{user_id}', { params: MemberParams, status: 204 }),
    bind(ops.getManagementBilling, 'GET', 'billing'),
    bind(ops.patchManagementBilling, 'PATCH', 'billing', { body: BillingPatch }),
    bind(ops.getManagementUsage, 'GET', 'usage', { query: UsageQuery }),
    bind(ops.getManagementAi, 'GET', 'ai'),
    bind(ops.patchManagementAi, 'PATCH', 'ai', { body: AiPatch }),
  ];
}
