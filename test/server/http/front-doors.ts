// The two front doors a server can be started with: the HTTP tests run the same cases through each.

export interface FrontDoor {
  name: string;
  /** Environment given to startServer. */
  env: Record<string, string>;
}

export const UWS: FrontDoor = { name: 'uWebSockets.js (default)', env: {} };
export const COMPAT: FrontDoor = { name: 'node:http (HTTP_COMPAT=on)', env: { HTTP_COMPAT: 'on' } };
export const FRONT_DOORS: FrontDoor[] = [UWS, COMPAT];
