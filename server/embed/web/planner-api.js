// The planner's one API client: the member's token, and a sign-out when the sign-in has ended.

import { createApiClient } from './api-client.js';
import { state } from './planner-state.js';
import { signOut } from './planner-screens.js';

export const api = createApiClient({
  origin: location.origin,
  token: () => state.token,
  onExpired: () => signOut('Your sign-in has expired: sign in again.'),
});

/** The open itinerary's path in the Studio API. */
export const base = () => `/v1/itineraries/${state.itinerary?.id}`;
