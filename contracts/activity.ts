// The activities routing knows and the hazards it can avoid: names both threads and the API share.

export enum Activity {
  HIKING_AND_TRAIL = 'HIKING_AND_TRAIL',
  WALKING = 'WALKING',
  TRAIL_RUNNING = 'TRAIL_RUNNING',
  MOUNTAIN_BIKING = 'MOUNTAIN_BIKING',
  ROAD_CYCLING = 'ROAD_CYCLING',
}

export const ACTIVITIES: readonly Activity[] = Object.values(Activity);

export type HazardName = 'TOLLWAY' | 'RESTRICTED_ACCESS';
