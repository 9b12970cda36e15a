// Route definitions of the collection operations (DESIGN §6). Operations not listed here are still
// declared in ../operations.ts and answer 501 until they are built.

import { ApiError } from '../../errors.js';
import type { RouteDef } from '../../http/route.js';
import type { StudioDeps } from '../studio-deps.js';
import { CollectionCreateParams } from './collection-schemas.js';

export function collectionRoutes(_deps: StudioDeps): RouteDef[] {
  return [
    {
      op: 'postCollection',
      method: 'POST',
      path: '/v1/collections',
      scope: 'resources',
      public: true,
      body: CollectionCreateParams,
      status: 201,
      conflict: 'ResponseMetadataPostCollection',
      handler: () => {
        throw new ApiError('NOT_IMPLEMENTED');
      },
    },
  ];
}
