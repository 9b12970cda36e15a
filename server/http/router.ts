// Matches a method and path against the route table: a static-path map first, then a segment trie.

import type { HttpMethod, RouteDef } from './route.js';

export type RouteMatch =
  | { kind: 'found'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-found' };

interface TrieNode {
  literal: Map<string, TrieNode>;
  /** A parameter segment; with a suffix (`{y}.mvt`) the segment must end with it and the value is what precedes it. */
  param?: { name: string; suffix: string; node: TrieNode };
  routes?: Map<HttpMethod, RouteDef>;
}

const PARAM = /^\{([a-z_][a-z0-9_]*)\}(\.[a-z0-9]+)?$/;
/** Static paths have no parameters: one shared, frozen empty object. */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function newNode(): TrieNode {
  return { literal: new Map() };
}

/** `Allow` header value for a method map: HEAD rides on GET, OPTIONS is always answered (CORS). */
function allowHeader(methods: Map<HttpMethod, RouteDef>): string {
  const set = new Set<string>(methods.keys());
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  return [...set].join(', ');
}

/** Dynamic paths remembered after a trie walk (tile paths, asset names and ids repeat a lot). */
const PATH_CACHE_SIZE = 4096;

interface Walked {
  methods: Map<HttpMethod, RouteDef>;
  params: Record<string, string>;
}

export class Router {
  private readonly staticRoutes = new Map<string, Map<HttpMethod, RouteDef>>();
  private pathCache = new Map<string, Walked | null>();
  private readonly root = newNode();
  private readonly allowCache = new WeakMap<Map<HttpMethod, RouteDef>, string>();

  constructor(readonly routes: readonly RouteDef[]) {
    for (const route of routes) this.add(route);
  }

  private add(route: RouteDef): void {
    if (!route.path.startsWith('/')) throw new TypeError(`route ${route.op}: path must start with "/"`);
    const segments = route.path.split('/').slice(1);
    let methods: Map<HttpMethod, RouteDef>;
    if (!segments.some((s) => PARAM.test(s))) {
      methods = this.staticRoutes.get(route.path) ?? new Map();
      this.staticRoutes.set(route.path, methods);
    } else {
      let node = this.root;
      for (const segment of segments) {
        const param = PARAM.exec(segment);
        if (param) {
          const name = param[1] as string;
          const suffix = param[2] ?? '';
          if (node.param && (node.param.name !== name || node.param.suffix !== suffix)) {
            throw new TypeError(`route ${route.op}: parameter {${name}}${suffix} clashes with {${node.param.name}}${node.param.suffix}`);
          }
          node.param ??= { name, suffix, node: newNode() };
          node = node.param.node;
        } else {
          if (segment.includes('{')) throw new TypeError(`route ${route.op}: bad segment "${segment}"`);
          let next = node.literal.get(segment);
          if (!next) node.literal.set(segment, (next = newNode()));
          node = next;
        }
      }
      node.routes ??= new Map();
      methods = node.routes;
    }
    if (methods.has(route.method)) throw new TypeError(`route ${route.op}: duplicate ${route.method} ${route.path}`);
    methods.set(route.method, route);
  }

  match(method: HttpMethod | string, path: string): RouteMatch {
    let params: Record<string, string> = NO_PARAMS;
    let methods = this.staticRoutes.get(path);
    if (!methods) {
      let found = this.pathCache.get(path);
      if (found === undefined) {
        found = this.walk(path) ?? null;
        if (this.pathCache.size >= PATH_CACHE_SIZE) this.pathCache = new Map();
        this.pathCache.set(path, found);
      }
      if (!found) return { kind: 'not-found' };
      methods = found.methods;
      // A copy: validation may coerce parameter values in place.
      params = { ...found.params };
    }
    const route = methods.get(method as HttpMethod) ?? (method === 'HEAD' ? methods.get('GET') : undefined);
    if (route) return { kind: 'found', route, params };
    let allow = this.allowCache.get(methods);
    if (!allow) this.allowCache.set(methods, (allow = allowHeader(methods)));
    return { kind: 'method-not-allowed', allow };
  }

  /** The Allow header for a path, or undefined when no route has that path. */
  allowedMethods(path: string): string | undefined {
    const match = this.match('\u0000', path);
    return match.kind === 'method-not-allowed' ? match.allow : undefined;
  }

  private walk(path: string): Walked | undefined {
    const segments = path.split('/');
    const params: Record<string, string> = {};
    let node: TrieNode | undefined = this.root;
    // segments[0] is the empty string before the leading slash.
    for (let i = 1; i < segments.length && node; i++) {
      const segment = segments[i] as string;
      const literal: TrieNode | undefined = node.literal.get(segment);
      if (literal) {
        node = literal;
      } else if (node.param && segment.length > node.param.suffix.length && segment.endsWith(node.param.suffix)) {
        params[node.param.name] = safeDecode(segment.slice(0, segment.length - node.param.suffix.length));
        node = node.param.node;
      } else {
        return undefined;
      }
    }
    return node?.routes ? { methods: node.routes, params } : undefined;
  }
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
