// A peer for the Data API benchmark: `POST /_diagnostics/directions` runs the same `directions` resolver the
// GraphQL endpoint runs (same access rules, same operation, same worker pool) and answers its result with
// `JSON.stringify`, in the shape GraphQL answers it. What GraphQL itself costs over HTTP is the difference.
// Registered only when CAIRN_DIAGNOSTIC_ROUTES=1; never in the OpenAPI document.

import { Type } from '@sinclair/typebox';
import type { Access } from '../auth/access.js';
import { operationContext } from '../http/operation-context.js';
import type { RouteDef } from '../http/route.js';
import type { DirectionsRequest } from './directions-operation.js';
import type { DataContext } from './resolvers.js';
import type { QueryResolvers } from './schema.js';

// The GraphQL schema checks the input's types; here the route's body schema does, loosely (the operation checks the rest).
const Body = Type.Object({
  input: Type.Object({ activity: Type.String(), waypoints: Type.Array(Type.Array(Type.Number())) }),
});

type DirectionsResolver = (root: unknown, args: { input: DirectionsRequest }, context: DataContext) => Promise<unknown>;

export function dataDiagnosticRoutes(resolvers: QueryResolvers): RouteDef[] {
  const directions = resolvers['directions'] as DirectionsResolver;
  return [
    {
      op: 'diagDirections',
      method: 'POST',
      path: '/_diagnostics/directions',
      scope: 'data',
      writes: false,
      body: Body,
      handler: async (ctx) => {
        const context: DataContext = { caller: ctx.access as Access, operation: operationContext(ctx) };
        const input = (ctx.body as { input: DirectionsRequest }).input;
        return { status: 200, json: { data: { directions: await directions(undefined, { input }, context) } } };
      },
    },
  ];
}
