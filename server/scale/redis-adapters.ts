// The scale-out adapters of two seams that must be shared between nodes (DESIGN §14), on Redis when REDIS_URL is
// set: the fixed-window counters behind quotas and session limits, and the change-event bus. Nothing else in the
// code knows which one runs; without REDIS_URL the in-memory ones do (one process).

import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { ChangeEvent, ChangeEventBus, ChangeListener } from '../core/change-events.js';
import type { WindowCounter } from '../auth/window-counter.js';

export type RedisConnection = ReturnType<typeof createClient>;

/** What every key and channel of one deployment starts with (REDIS_PREFIX): several deployments may share a Redis. */
export const DEFAULT_REDIS_PREFIX = 'cairn:';

/** Connects (and fails fast): a node that cannot reach its shared Redis should not start as if alone. */
export async function connectRedis(url: string, onError: (error: unknown) => void): Promise<RedisConnection> {
  let connected = false;
  const client = createClient({
    url,
    socket: {
      connectTimeout: 5000,
      // At start, three failed tries end the start; once connected, a lost connection is tried again without end.
      reconnectStrategy: (retries, cause) =>
        !connected && retries >= 3 ? new Error(`Redis at ${url} does not answer: ${cause.message}`) : Math.min(50 * 2 ** retries, 2000),
    },
  });
  client.on('error', onError);
  await client.connect();
  connected = true;
  return client;
}

/**
 * Fixed one-minute windows shared by every node: one key per counter and window, incremented atomically and expiring
 * with the window. A failing Redis rejects, and the callers decide (the session counters fail open).
 */
export class RedisWindowCounter implements WindowCounter {
  constructor(
    private readonly redis: RedisConnection,
    /** Keeps the counters of one use apart (`quota`, `session-ip`, …). */
    private readonly name: string,
    private readonly windowMs = 60_000,
    private readonly prefix = DEFAULT_REDIS_PREFIX,
  ) {}

  #key(key: string, nowMs: number): { redisKey: string; endsAt: number } {
    const window = Math.floor(nowMs / this.windowMs);
    return { redisKey: `${this.prefix}window:${this.name}:${window}:${key}`, endsAt: (window + 1) * this.windowMs };
  }

  async increment(key: string, nowMs = Date.now()): Promise<number> {
    const { redisKey, endsAt } = this.#key(key, nowMs);
    const [count] = (await this.redis
      .multi()
      .incr(redisKey)
      .pExpireAt(redisKey, endsAt + 1000)
      .exec()) as unknown as [number];
    return Number(count);
  }

  async peek(key: string, nowMs = Date.now()): Promise<number> {
    return Number((await this.redis.get(this.#key(key, nowMs).redisKey)) ?? 0);
  }
}

/**
 * Change events across nodes: a node's own listeners hear its events at once (in order, as in one process), and
 * every other node's listeners hear them from Redis pub/sub. A message carries its node id so no node hears itself
 * twice. Delivery to other nodes is at most once (Redis pub/sub): a node that was disconnected misses what was said
 * meanwhile, and the live channel's clients refetch on the next version they see.
 */
export class RedisChangeEventBus implements ChangeEventBus {
  readonly #listeners = new Set<ChangeListener>();
  readonly #node = randomUUID();

  private constructor(
    private readonly publisher: RedisConnection,
    private readonly onError: (error: unknown) => void,
    private readonly channel: string,
  ) {}

  static async create(
    publisher: RedisConnection,
    onError: (error: unknown) => void,
    prefix = DEFAULT_REDIS_PREFIX,
  ): Promise<RedisChangeEventBus> {
    const bus = new RedisChangeEventBus(publisher, onError, `${prefix}change-events`);
    const subscriber = publisher.duplicate();
    subscriber.on('error', onError);
    await subscriber.connect();
    await subscriber.subscribe(bus.channel, (message) => bus.#received(message));
    bus.#subscriber = subscriber;
    return bus;
  }

  #subscriber: RedisConnection | undefined;

  publish(events: readonly ChangeEvent[]): void {
    if (events.length === 0) return;
    this.#deliver(events);
    this.publisher.publish(this.channel, JSON.stringify({ node: this.#node, events })).catch(this.onError);
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.#subscriber?.quit().catch(() => undefined);
  }

  #received(message: string): void {
    let parsed: { node?: string; events?: ChangeEvent[] };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch (error) {
      this.onError(error);
      return;
    }
    if (parsed.node === this.#node || !Array.isArray(parsed.events)) return;
    this.#deliver(parsed.events);
  }

  #deliver(events: readonly ChangeEvent[]): void {
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          this.onError(error);
        }
      }
    }
  }
}
