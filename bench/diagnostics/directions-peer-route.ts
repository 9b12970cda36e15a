// A peer for the Data API benchmark: `POST /_diagnostics/directions` runs the same `directions` resolver the
// GraphQL endpoint runs (same access rules, same operation, same worker pool) and answers its result with
// `JSON.stringify`, in the shape GraphQL answers it. What GraphQL itself costs over HTTP is the difference.
// Only the diagnostic server (./main.ts) registers it; never the production server, never the OpenAPI document.

import { Type } from '@sinclair/typebox';
import type { Access } from '../../server/auth/access.js';
import { operationContext } from '../../server/http/operation-context.js';
import type { RouteDef } from '../../server/http/route.js';
import type { DirectionsRequest } from '../../server/data-api/directions-operation.js';
import type { DataContext } from '../../server/data-api/resolvers.js';
import type { QueryResolvers } from '../../server/data-api/schema.js';

// The GraphQL schema checks the input's types; here the route's body schema does, loosely (the operation checks the rest).
const Body = Type.Object({
  input: Type.Object({ activity: Type.String(), waypoints: Type.Array(Type.Array(Type.Number())) }),
});

type DirectionsResolver = (root: unknown, args: { input: DirectionsRequest }, context: DataContext) => Promise<unknown>;

export function directionsPeerRoute(resolvers: QueryResolvers): RouteDef[] {
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
