// Route definitions of the itinerary chain operations (DESIGN §6: 18, 20–24, 30–44). Handlers unpack the
// request, check coordinate ranges, and call the services; every write goes through the group commit.

import { type TSchema, Type } from '@sinclair/typebox';
import type { Access } from '../../auth/access.js';
import { ApiError, type ErrorEntry } from '../../errors.js';
import type { ConflictSchema, HttpMethod, RequestContext, RouteDef } from '../../http/route.js';
import { declaredWrites } from '../operations.js';
import type { StudioDeps } from '../studio-deps.js';
import { editChain } from './chain-edit.js';
import { groupView } from './itinerary-view.js';
import { type GroupCreateBody, planGroupCreate, planGroupDelete, planGroupUpdate } from './group-ops.js';
import { actorOf } from './itinerary-access.js';
import * as S from './itinerary-schemas.js';
import { createItinerary, deleteItinerary, patchItinerary, readVisibleItinerary } from './itinerary-service.js';
import { listLocks, releaseLocks, takeLocks } from './lock-service.js';
import { duplicateItinerary, publishItinerary } from './publish-service.js';
import { type AppendBody, planAppend, planDelete, planInsert, planMerge, planMode, planSplit, planUpdate } from './segment-ops.js';
import { planWaypointDelete, planWaypointUpdate } from './waypoint-ops.js';

type Ctx = RequestContext<Record<string, string>, Record<string, string>, any, Access>;

const ok = (data: unknown, status?: number) => ({ ...(status ? { status } : {}), json: { data, extensions: { metadata: {} } } });
const noContent = () => ({ status: 204, json: null });

/** One entry per coordinate out of range: longitude −180..180, latitude −90..90. */
function coordinateErrors(value: unknown, path: (string | number)[]): Omit<ErrorEntry, 'code'>[] {
  if (!Array.isArray(value)) return [];
  const out: Omit<ErrorEntry, 'code'>[] = [];
  if (typeof value[0] === 'number' && Math.abs(value[0]) > 180) out.push({ path: [...path, 0] });
  if (typeof value[1] === 'number' && Math.abs(value[1]) > 90) out.push({ path: [...path, 1] });
  return out;
}

function checkCoordinates(body: Record<string, unknown> | undefined, single: string[], lines: string[] = []): void {
  if (!body) return;
  const errors = [
    ...single.flatMap((f) => coordinateErrors(body[f], ['request', 'body', f])),
    ...lines.flatMap((f) => (Array.isArray(body[f]) ? (body[f] as unknown[]).flatMap((c, i) => coordinateErrors(c, ['request', 'body', f, i])) : [])),
  ];
  if (errors.length > 0) throw ApiError.validation(errors);
}

function actor(access: Access): string {
  const id = actorOf(access);
  if (!id) throw new ApiError('FORBIDDEN');
  return id;
}

interface Def {
  op: string;
  method: HttpMethod;
  path: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  response?: TSchema;
  status?: number;
  conflict?: ConflictSchema;
  share?: boolean;
  summary: string;
  handler: (ctx: Ctx) => Promise<{ status?: number; json: unknown }>;
}

// Until these become operations, their one declaration of "writes" is the operation table (../operations.ts).
const route = (d: Def): RouteDef => ({
  scope: 'resources',
  public: true,
  writes: declaredWrites(d.op),
  ...d,
  handler: (ctx) => d.handler(ctx as Ctx),
});

const BASE = '/v1/itineraries/{itinerary_id}';

export function itineraryRoutes(deps: StudioDeps): RouteDef[] {
  const itineraryEnvelope = S.Envelope(S.Itinerary);
  const edit = (ctx: Ctx, plan: Parameters<typeof editChain>[3]) =>
    editChain(deps, ctx.access, ctx.params.itinerary_id as string, plan, { signal: ctx.signal });
  const chainRoute = (d: Omit<Def, 'handler' | 'response' | 'conflict'> & { guarded?: boolean; plan: (ctx: Ctx) => Parameters<typeof editChain>[3]; check?: (ctx: Ctx) => void }) =>
    route({
      ...d,
      response: itineraryEnvelope,
      ...(d.guarded === false ? {} : { conflict: 'ResponseMetadataLockConflict' as const }),
      handler: async (ctx) => {
        d.check?.(ctx);
        return ok((await edit(ctx, d.plan(ctx))).view, d.status);
      },
    });

  return [
    route({
      op: 'postItinerary', method: 'POST', path: '/v1/itineraries', body: S.ItineraryCreateParams, status: 201,
      response: itineraryEnvelope, conflict: 'ResponseMetadataPostItinerary', summary: 'Create an itinerary (an empty draft)',
      handler: async (ctx) => ok(await createItinerary(deps, ctx.access, ctx.body, actor(ctx.access)), 201),
    }),
    route({
      op: 'getItinerary', method: 'GET', path: BASE, params: S.ItineraryParams, query: S.ItineraryReadQuery, share: true,
      response: itineraryEnvelope, summary: 'Read an itinerary: the draft (default) or the published snapshot; share tokens read the published one',
      handler: async (ctx) => ok(await readVisibleItinerary(deps, ctx.access, ctx.params.itinerary_id!, ctx.query.version as 'draft' | 'published' | undefined)),
    }),
    route({
      op: 'patchItinerary', method: 'PATCH', path: BASE, params: S.ItineraryParams, body: S.ItineraryPatchParams,
      response: itineraryEnvelope, conflict: 'ResponseMetadataPatchItinerary', summary: 'Update an itinerary (all fields optional)',
      handler: async (ctx) => ok(await patchItinerary(deps, ctx.access, ctx.params.itinerary_id!, ctx.body ?? {}, ctx.signal)),
    }),
    route({
      op: 'deleteItinerary', method: 'DELETE', path: BASE, params: S.ItineraryParams, status: 204, summary: 'Delete an itinerary',
      handler: async (ctx) => {
        await deleteItinerary(deps, ctx.access, ctx.params.itinerary_id!);
        return noContent();
      },
    }),
    route({
      op: 'postItineraryDuplicate', method: 'POST', path: `${BASE}/duplicate`, params: S.ItineraryParams, body: S.ItineraryDuplicateParams,
      status: 201, response: itineraryEnvelope, conflict: 'ResponseMetadataPostItinerary',
      summary: 'Duplicate an itinerary, optionally into another organization and keeping a continuous run of segments',
      handler: async (ctx) => ok(await duplicateItinerary(deps, ctx.access, ctx.params.itinerary_id!, ctx.body ?? {}, actor(ctx.access)), 201),
    }),
    route({
      op: 'postItineraryPublish', method: 'POST', path: `${BASE}/publish`, params: S.ItineraryParams, response: itineraryEnvelope,
      conflict: 'ResponseMetadataLockConflict', summary: 'Publish the draft as the immutable published snapshot',
      handler: async (ctx) => ok(await publishItinerary(deps, ctx.access, ctx.params.itinerary_id!)),
    }),
    route({
      op: 'getItineraryLocks', method: 'GET', path: `${BASE}/locks`, params: S.ItineraryParams,
      response: S.Envelope(Type.Array(S.ItineraryLock)), summary: 'List the live soft locks and their holders',
      handler: async (ctx) => ok(await listLocks(deps, ctx.access, ctx.params.itinerary_id!)),
    }),
    route({
      op: 'postItineraryLock', method: 'POST', path: `${BASE}/locks`, params: S.ItineraryParams, body: S.ItineraryLockParams,
      response: S.Envelope(Type.Array(S.ItineraryLock)), conflict: 'ResponseMetadataLockConflict',
      summary: 'Take soft locks on parts (or "all"), all or nothing',
      handler: async (ctx) => ok(await takeLocks(deps, ctx.access, ctx.params.itinerary_id!, ctx.body.parts)),
    }),
    route({
      op: 'deleteItineraryLock', method: 'DELETE', path: `${BASE}/locks`, params: S.ItineraryParams, status: 204,
      summary: "Release the caller's soft locks",
      handler: async (ctx) => {
        await releaseLocks(deps, ctx.access, ctx.params.itinerary_id!);
        return noContent();
      },
    }),
    chainRoute({
      op: 'postItinerarySegment', method: 'POST', path: `${BASE}/segments`, params: S.ItineraryParams, body: S.SegmentCreateParams,
      status: 201, guarded: false, summary: 'Append a segment (creates its end waypoint)',
      check: (ctx) => {
        const b = ctx.body as Record<string, unknown>;
        const missing = b.engine === 'smart' ? (b.to === undefined ? 'to' : undefined) : b.coordinates === undefined ? 'coordinates' : undefined;
        const extra = b.engine === 'smart' ? (b.coordinates !== undefined ? 'coordinates' : undefined) : ['to', 'from'].find((f) => b[f] !== undefined);
        const errors = [missing, extra].filter((f): f is string => f !== undefined).map((f) => ({ path: ['request', 'body', f] }));
        if (errors.length > 0) throw ApiError.validation(errors);
        checkCoordinates(b, ['to', 'from'], ['coordinates']);
      },
      plan: (ctx) => planAppend(ctx.body as AppendBody),
    }),
    chainRoute({
      op: 'postItinerarySegmentInsert', method: 'POST', path: `${BASE}/segments/insert`, params: S.ItineraryParams, body: S.SegmentInsertParams,
      status: 201, summary: 'Insert a segment before a segment (between two neighbours, or before the first)',
      check: (ctx) => checkCoordinates(ctx.body, ['point']),
      plan: (ctx) => planInsert(ctx.body),
    }),
    chainRoute({
      op: 'putItinerarySegment', method: 'PUT', path: `${BASE}/segments/{segment_id}`, params: S.SegmentParams, body: S.SegmentUpdateParams,
      summary: 'Update a segment (name, description, group; coordinates of a freehand segment)',
      check: (ctx) => checkCoordinates(ctx.body, [], ['coordinates']),
      plan: (ctx) => planUpdate(ctx.params.segment_id!, ctx.body ?? {}),
    }),
    chainRoute({
      op: 'deleteItinerarySegment', method: 'DELETE', path: `${BASE}/segments/{segment_id}`, params: S.SegmentParams,
      summary: 'Delete a segment (the chain closes up)',
      plan: (ctx) => planDelete(ctx.params.segment_id!),
    }),
    chainRoute({
      op: 'postItinerarySegmentMerge', method: 'POST', path: `${BASE}/segments/{segment_id}/merge`, params: S.SegmentParams,
      body: S.SegmentMergeParams, summary: 'Merge with a neighbour sharing the same routing engine',
      plan: (ctx) => planMerge(ctx.params.segment_id!, ctx.body.with_segment_id),
    }),
    chainRoute({
      op: 'postItinerarySegmentSplit', method: 'POST', path: `${BASE}/segments/{segment_id}/split`, params: S.SegmentParams,
      body: S.SegmentSplitParams, summary: 'Split in two at a point projected onto the segment',
      check: (ctx) => checkCoordinates(ctx.body, ['point']),
      plan: (ctx) => planSplit(ctx.params.segment_id!, ctx.body.point),
    }),
    chainRoute({
      op: 'patchItinerarySegmentMode', method: 'PATCH', path: `${BASE}/segments/{segment_id}/mode`, params: S.SegmentParams,
      body: S.SegmentModeParams, summary: 'Switch the routing engine (freehand to smart snaps, keeping the exact ends)',
      plan: (ctx) => planMode(ctx.params.segment_id!, ctx.body.engine),
    }),
    route({
      op: 'postItinerarySegmentGroup', method: 'POST', path: `${BASE}/segment-groups`, params: S.ItineraryParams,
      body: S.SegmentGroupCreateParams, status: 201, response: S.Envelope(S.ItinerarySegmentGroup),
      summary: 'Group a run of neighbouring segments',
      handler: async (ctx) => {
        const created: { id?: string } = {};
        const { chain } = await edit(ctx, planGroupCreate(ctx.body as GroupCreateBody, created));
        return ok(groupView(chain.groups.find((g) => g.id === created.id)!), 201);
      },
    }),
    route({
      op: 'putItinerarySegmentGroup', method: 'PUT', path: `${BASE}/segment-groups/{group_id}`, params: S.GroupParams,
      body: S.SegmentGroupUpdateParams, response: S.Envelope(S.ItinerarySegmentGroup), conflict: 'ResponseMetadataLockConflict',
      summary: 'Update a segment group',
      handler: async (ctx) => {
        const { chain } = await edit(ctx, planGroupUpdate(ctx.params.group_id!, ctx.body ?? {}));
        return ok(groupView(chain.groups.find((g) => g.id === ctx.params.group_id)!));
      },
    }),
    route({
      op: 'deleteItinerarySegmentGroup', method: 'DELETE', path: `${BASE}/segment-groups/{group_id}`, params: S.GroupParams, status: 204,
      conflict: 'ResponseMetadataLockConflict', summary: 'Delete a segment group (its segments stay, ungrouped)',
      handler: async (ctx) => {
        await edit(ctx, planGroupDelete(ctx.params.group_id!));
        return noContent();
      },
    }),
    chainRoute({
      op: 'putItineraryWaypoint', method: 'PUT', path: `${BASE}/waypoints/{waypoint_id}`, params: S.WaypointParams,
      body: S.WaypointUpdateParams, summary: 'Update a waypoint (moving it re-routes smart neighbours)',
      check: (ctx) => checkCoordinates(ctx.body, ['coordinates']),
      plan: (ctx) => planWaypointUpdate(ctx.params.waypoint_id!, ctx.body ?? {}),
    }),
    chainRoute({
      op: 'deleteItineraryWaypoint', method: 'DELETE', path: `${BASE}/waypoints/{waypoint_id}`, params: S.WaypointParams,
      summary: 'Delete a waypoint (its neighbours join)',
      plan: (ctx) => planWaypointDelete(ctx.params.waypoint_id!),
    }),
  ];
}
