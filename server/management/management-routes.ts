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
  /** One line for the management OpenAPI document (server/openapi/management-document.ts). */
  summary: string;
  params?: TObject;
  query?: TObject;
  body?: TObject;
  status?: number;
}

export function managementRoutes(ops: ReturnType<typeof managementOperations>): RouteDef[] {
  const bind = <I, O>(op: Operation<I, O>, method: HttpMethod, path: string, binding: Binding): RouteDef =>
    rest(op, {
      method,
      path: `/v1/management/${path}`,
      public: false,
      query: OrganizationQuery,
      ...binding,
      reply: binding.status === 204 ? 'empty' : (data) => ({ json: { data } }),
    });

  return [
    bind(ops.getManagementOrganization, 'GET', 'organization', {
      summary: 'The organization: name, status, settings, products and limits',
    }),
    bind(ops.patchManagementSettings, 'PATCH', 'settings', { summary: 'Change the organization settings', body: SettingsPatch }),
    bind(ops.getManagementKeys, 'GET', 'keys', { summary: 'List the live API keys' }),
    bind(ops.postManagementKey, 'POST', 'keys', {
      summary: 'Create an API key (a secret key is shown once)',
      body: KeyCreate,
      status: 201,
    }),
    bind(ops.patchManagementKey, 'PATCH', 'keys/{key_id}', {
      summary: 'Rename a key or change its scopes and origins',
      params: KeyParams,
      body: KeyPatch,
    }),
    bind(ops.deleteManagementKey, 'DELETE', 'keys/{key_id}', { summary: 'Revoke a key', params: KeyParams, status: 204 }),
    bind(ops.getManagementMembers, 'GET', 'members', { summary: 'List the members and their roles' }),
    bind(ops.postManagementMember, 'POST', 'members', { summary: 'Add a user as a member', body: MemberAdd, status: 201 }),
    bind(ops.patchManagementMember, 'PATCH', 'members/{user_id}', {
      summary: "Change a member's role",
      params: MemberParams,
      body: MemberPatch,
    }),
    bind(ops.deleteManagementMember, 'DELETE', 'members/{user_id}', { summary: 'Remove a member', params: MemberParams, status: 204 }),
    bind(ops.getManagementBilling, 'GET', 'billing', { summary: 'Products, payment method and limits' }),
    bind(ops.patchManagementBilling, 'PATCH', 'billing', { summary: 'Record whether a payment method is on file', body: BillingPatch }),
    bind(ops.getManagementUsage, 'GET', 'usage', { summary: 'Request counts per minute or per day', query: UsageQuery }),
    bind(ops.getManagementAi, 'GET', 'ai', { summary: "The agent's model and tools" }),
    bind(ops.patchManagementAi, 'PATCH', 'ai', { summary: "Change the agent's model, key or tools", body: AiPatch }),
  ];
}
