// The live channel's core (DESIGN §9), free of the socket library: one topic per itinerary, fed by the core's
// change events (never by the handlers), and the presence of who has the itinerary open. Members' sockets hear
// everything about the itinerary (draft changes with their version, locks taken, released and expired,
// publication, presence); a share link's sockets hear only what it may see (publication and deletion).
//
// Across nodes (DESIGN §14) change events travel on the shared bus and every node publishes them to its own
// sockets. Presence is kept where a socket is connected and told to the other nodes on the same bus
// (`presence.node`: this node's members on one itinerary, again every PRESENCE_HEARTBEAT_MS while any is here);
// each node answers its sockets with its own presence merged with what the others last said, and forgets a node
// that fell silent for PRESENCE_STALE_MS (a node that died takes its members with it).

import type { ChangeEvent, ChangeEventBus, PresenceOfNode } from '../core/change-events.js';
import type { CountSubscribers, OpenSocket, PublishToTopic, SocketSession } from '../http/sockets.js';

/** Who a member's socket belongs to (null: a key or share link with no member named). */
export interface LiveVisitor {
  id: string;
  name: string;
}

export type PresenceMode = 'viewing' | 'editing';

/** One member with the itinerary open, however many tabs: editing when any of them is. */
export interface PresenceEntry {
  user: LiveVisitor;
  colour: string;
  mode: PresenceMode;
  connections: number;
}

/** Who is here: members (at most PRESENCE_LISTED, then a count) and sockets with no member named (keys). */
export interface Presence {
  presence: PresenceEntry[];
  /** Members present beyond the listed ones. */
  more: number;
  /** Sockets of keys with no member named (an embed's viewers). */
  anonymous: number;
}

/** What a socket is told as it opens: where the itinerary stands and (members) who holds what. */
export interface LiveSnapshot {
  version: number;
  published_version: number | null;
  /** Members only: the soft locks held now. */
  locks?: unknown[];
}

/** Distinct, readable on the map and on white. */
export const PRESENCE_COLOURS = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#f08c00',
  '#0c8599',
  '#c2255c',
  '#5c940d',
  '#6741d9',
  '#a61e4d',
];
/** Members listed by name in a presence message; the rest are counted (a message stays small with a crowd). */
export const PRESENCE_LISTED = 100;
/** Presence changes of one itinerary are announced at most this often (a crowd arriving is one message, not n). */
export const PRESENCE_FLUSH_MS = 100;
/** A node repeats its presence on an itinerary this often while anyone is there (other nodes may have missed it). */
export const PRESENCE_HEARTBEAT_MS = 10_000;
/** Another node's presence is forgotten when it has not been repeated for this long. */
export const PRESENCE_STALE_MS = 3 * PRESENCE_HEARTBEAT_MS;

/**
 * Two members who arrived at once on two nodes may have been given the same colour there: every node settles it the
 * same way (members in id order keep their colour unless an earlier one has it, then take the first colour free).
 */
function distinctColours(entries: PresenceEntry[]): void {
  const used = new Set<string>();
  for (const entry of [...entries].sort((a, b) => (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0))) {
    if (used.has(entry.colour)) entry.colour = PRESENCE_COLOURS.find((c) => !used.has(c)) ?? entry.colour;
    used.add(entry.colour);
  }
}

export const membersTopic = (itineraryId: string) => `itinerary/${itineraryId}`;
export const publicTopic = (itineraryId: string) => `itinerary/${itineraryId}/published`;

/** One socket of a member (or anonymous) on an itinerary. */
interface Connection {
  visitor: LiveVisitor | null;
  mode: PresenceMode;
}

/** What a socket was let in with: it is closed when that ends (a revoked key, an expired token). */
export interface LiveCredential {
  keyId?: string;
  /** A share link: the resource it was minted for, and which link it is. */
  share?: { linkId: string; resourceKind: 'collection' | 'itinerary'; resourceId: string };
  /** A signed-in member, in the itinerary's organization. */
  member?: { userId: string; organizationId: string };
  /** Epoch ms at which the credential stops being valid. */
  expiresAt?: number;
}

/**
 * Messages published for an itinerary while a socket is being let in (its snapshot read, its handshake done):
 * replayed once it opens, so that nothing committed in between is missed (a repeat is harmless: versions compare,
 * locks are set or cleared).
 */
export interface LiveRecorder {
  readonly messages: string[];
  stop(): void;
}

/** Change events whose only effect here is a message on the itinerary's topics. */
const MESSAGE_ONLY = new Set<ChangeEvent['type']>([
  'itinerary.draft_changed',
  'itinerary.published',
  'itinerary.deleted',
  'lock.taken',
  'lock.released',
  'lock.expired',
]);

/** Closes a socket whose credential ended (an application close code: the client signs in or mints again). */
const CREDENTIAL_ENDED = 4401;
const RECORDER_MAX_MESSAGES = 200;
const RECORDER_MAX_MS = 15_000;

interface Room {
  connections: Map<string, Connection>;
  /** Colour of each member here, kept while any of their sockets is. */
  colours: Map<string, string>;
  flush: NodeJS.Timeout | undefined;
  /** This node's members are to be told to the other nodes at the next flush. */
  announce: boolean;
}

/** What another node last said of one itinerary. */
interface RemotePresence {
  members: PresenceOfNode[];
  anonymous: number;
  heardAt: number;
}

export class LiveHub {
  #publish: PublishToTopic = () => undefined;
  /** Unknown until attached with a count: every topic is then taken to have listeners. */
  #subscribers: CountSubscribers | undefined;
  /** Members' sockets per itinerary. */
  readonly #rooms = new Map<string, Room>();
  /** Every open socket (members' and outsiders') with what let it in. */
  readonly #open = new Set<{ socket: OpenSocket; credential: LiveCredential }>();
  readonly #recorders = new Map<string, Set<string[]>>();
  /** Other nodes' presence: itinerary → node → what it said. */
  readonly #remote = new Map<string, Map<string, RemotePresence>>();
  #next = 1;
  readonly #node = `${Math.random().toString(36).slice(2, 8)}${Date.now().toString(36).slice(-4)}`;
  readonly #events: ChangeEventBus;

  constructor(events: ChangeEventBus) {
    this.#events = events;
    events.subscribe((event) => this.#onEvent(event));
    setInterval(() => this.#heartbeat(), PRESENCE_HEARTBEAT_MS).unref();
  }

  /** Where messages go: the socket library's pub/sub, once the server listens. */
  attach(publish: PublishToTopic, subscribers?: CountSubscribers): void {
    this.#publish = publish;
    this.#subscribers = subscribers;
  }

  /** Starts recording what is published on a topic (until `stop`, or 15 s, or 200 messages). */
  watch(topic: string): LiveRecorder {
    const messages: string[] = [];
    let set = this.#recorders.get(topic);
    if (!set) this.#recorders.set(topic, (set = new Set()));
    set.add(messages);
    const stop = () => {
      const current = this.#recorders.get(topic);
      current?.delete(messages);
      if (current?.size === 0) this.#recorders.delete(topic);
    };
    setTimeout(stop, RECORDER_MAX_MS).unref();
    return { messages, stop };
  }

  /**
   * Whether anyone here hears `topic`: a subscribed socket, or one being let in (its recorder). Most itineraries
   * that change are open nowhere, and their messages are then not even built (a timestamp and a JSON text per edit).
   */
  #heard(topic: string): boolean {
    return this.#recorders.has(topic) || (this.#subscribers?.(topic) ?? 1) > 0;
  }

  #send(topic: string, text: string): void {
    for (const messages of this.#recorders.get(topic) ?? []) if (messages.length < RECORDER_MAX_MESSAGES) messages.push(text);
    this.#publish(topic, text);
  }

  /** Who has an itinerary open (members' sockets, on this node and the others), one entry per member. */
  presence(itineraryId: string): Presence {
    const here = this.#localPresence(itineraryId);
    const byUser = new Map<string, PresenceEntry>(here.members.map((entry) => [entry.user.id, { ...entry }]));
    let anonymous = here.anonymous;
    for (const remote of this.#remote.get(itineraryId)?.values() ?? []) {
      anonymous += remote.anonymous;
      for (const member of remote.members) {
        const entry = byUser.get(member.user.id);
        if (!entry) {
          byUser.set(member.user.id, { ...member });
          continue;
        }
        entry.connections += member.connections;
        if (member.mode === 'editing') entry.mode = 'editing';
      }
    }
    const all = [...byUser.values()];
    if (this.#remote.has(itineraryId)) distinctColours(all);
    return { presence: all.slice(0, PRESENCE_LISTED), more: Math.max(0, all.length - PRESENCE_LISTED), anonymous };
  }

  /** This node's sockets on an itinerary, one entry per member. */
  #localPresence(itineraryId: string): { members: PresenceEntry[]; anonymous: number } {
    const room = this.#rooms.get(itineraryId);
    const byUser = new Map<string, PresenceEntry>();
    let anonymous = 0;
    for (const connection of room?.connections.values() ?? []) {
      if (!connection.visitor) {
        anonymous++;
        continue;
      }
      const entry = byUser.get(connection.visitor.id);
      if (entry) {
        entry.connections++;
        if (connection.mode === 'editing') entry.mode = 'editing';
      } else {
        const colour = room?.colours.get(connection.visitor.id) ?? (PRESENCE_COLOURS[0] as string);
        byUser.set(connection.visitor.id, { user: connection.visitor, colour, mode: connection.mode, connections: 1 });
      }
    }
    return { members: [...byUser.values()], anonymous };
  }

  /** A session for a socket that passed the upgrade's access check. */
  session(input: {
    itineraryId: string;
    members: boolean;
    visitor: LiveVisitor | null;
    snapshot: LiveSnapshot;
    credential?: LiveCredential;
    /** Started (with `watch`) before the snapshot was read. */
    recorder?: LiveRecorder;
  }): SocketSession {
    const { itineraryId, members } = input;
    const id = `${this.#node}-${this.#next++}`;
    const hub = this;
    let connection: Connection | undefined;
    let entry: { socket: OpenSocket; credential: LiveCredential } | undefined;
    let expiry: NodeJS.Timeout | undefined;
    // Every socket is answered (a share link's ping too), members' or not.
    const reply = (message: unknown) => entry?.socket.send(JSON.stringify(message));
    return {
      topics: members ? [membersTopic(itineraryId)] : [publicTopic(itineraryId)],
      opened(socket) {
        if (members) {
          connection = { visitor: input.visitor, mode: 'viewing' };
          hub.#enter(itineraryId, id, connection);
        }
        socket.send(
          JSON.stringify({
            type: 'hello',
            connection_id: id,
            itinerary_id: itineraryId,
            ...input.snapshot,
            ...(members ? hub.presence(itineraryId) : {}),
          }),
        );
        // What happened since the snapshot was read (the socket hears the topic itself from now on).
        if (input.recorder) {
          input.recorder.stop();
          for (const text of input.recorder.messages) socket.send(text);
        }
        entry = { socket, credential: input.credential ?? {} };
        hub.#open.add(entry);
        const ends = entry.credential.expiresAt;
        if (ends !== undefined) {
          expiry = setTimeout(() => socket.end(CREDENTIAL_ENDED, 'credential expired'), Math.max(0, ends - Date.now()));
          expiry.unref();
        }
        if (members) hub.#presenceChanged(itineraryId);
      },
      received(text) {
        let message: { type?: unknown; mode?: unknown };
        try {
          message = JSON.parse(text) as typeof message;
        } catch {
          reply({ type: 'error', message: 'Send JSON messages: {"type":"ping"} or {"type":"presence","mode":"viewing"|"editing"}.' });
          return;
        }
        if (message?.type === 'ping') {
          reply({ type: 'pong' });
        } else if (message?.type === 'presence' && (message.mode === 'viewing' || message.mode === 'editing')) {
          if (connection && connection.mode !== message.mode) {
            connection.mode = message.mode;
            hub.#presenceChanged(itineraryId);
          }
        } else {
          reply({ type: 'error', message: 'Unknown message: send {"type":"ping"} or {"type":"presence","mode":"viewing"|"editing"}.' });
        }
      },
      closed() {
        clearTimeout(expiry);
        input.recorder?.stop();
        if (entry) hub.#open.delete(entry);
        entry = undefined;
        if (!connection) return;
        hub.#leave(itineraryId, id, connection);
        hub.#presenceChanged(itineraryId);
      },
    };
  }

  #room(itineraryId: string): Room {
    let room = this.#rooms.get(itineraryId);
    if (!room) this.#rooms.set(itineraryId, (room = { connections: new Map(), colours: new Map(), flush: undefined, announce: false }));
    return room;
  }

  #enter(itineraryId: string, id: string, connection: Connection): void {
    const room = this.#room(itineraryId);
    room.connections.set(id, connection);
    const visitor = connection.visitor;
    if (visitor && !room.colours.has(visitor.id)) {
      const elsewhere = [...(this.#remote.get(itineraryId)?.values() ?? [])].flatMap((remote) => remote.members);
      // The colour the member already has on another node, else the first colour no member anywhere uses (then round again).
      const used = new Set([...room.colours.values(), ...elsewhere.map((member) => member.colour)]);
      room.colours.set(
        visitor.id,
        elsewhere.find((member) => member.user.id === visitor.id)?.colour ??
          PRESENCE_COLOURS.find((c) => !used.has(c)) ??
          (PRESENCE_COLOURS[room.colours.size % PRESENCE_COLOURS.length] as string),
      );
    }
  }

  #leave(itineraryId: string, id: string, connection: Connection): void {
    const room = this.#rooms.get(itineraryId);
    if (!room) return;
    room.connections.delete(id);
    const visitor = connection.visitor;
    if (visitor && ![...room.connections.values()].some((c) => c.visitor?.id === visitor.id)) room.colours.delete(visitor.id);
  }

  /**
   * Announces the itinerary's presence once the burst of changes settles (at most every PRESENCE_FLUSH_MS): to this
   * node's sockets and, when this node's own members changed (`announce`), to the other nodes.
   */
  #presenceChanged(itineraryId: string, announce = true): void {
    const room = this.#room(itineraryId);
    if (announce) room.announce = true;
    if (room.flush) return;
    room.flush = setTimeout(() => {
      room.flush = undefined;
      if (room.announce) {
        room.announce = false;
        this.#tellOtherNodes(itineraryId);
      }
      if (room.connections.size > 0) {
        this.#publish(
          membersTopic(itineraryId),
          JSON.stringify({ type: 'presence', itinerary_id: itineraryId, ...this.presence(itineraryId) }),
        );
      }
      if (room.connections.size === 0 && !room.flush) this.#rooms.delete(itineraryId);
    }, PRESENCE_FLUSH_MS);
    room.flush.unref();
  }

  /** Tells the other nodes who is on the itinerary here (nobody, once the last socket left). */
  #tellOtherNodes(itineraryId: string): void {
    const { members, anonymous } = this.#localPresence(itineraryId);
    this.#events.publish([
      { type: 'presence.node', node: this.#node, itineraryId, members: members.map((m) => ({ ...m, user: { ...m.user } })), anonymous },
    ]);
  }

  /** What another node said of an itinerary: kept (or forgotten, when empty), then this node's sockets are told. */
  #heardPresence(event: Extract<ChangeEvent, { type: 'presence.node' }>): void {
    if (event.node === this.#node) return;
    let nodes = this.#remote.get(event.itineraryId);
    let firstHeard = false;
    if (event.members.length === 0 && event.anonymous === 0) {
      nodes?.delete(event.node);
      if (nodes?.size === 0) this.#remote.delete(event.itineraryId);
    } else {
      if (!nodes) this.#remote.set(event.itineraryId, (nodes = new Map()));
      const before = nodes.get(event.node);
      firstHeard = before === undefined;
      nodes.set(event.node, { members: event.members, anonymous: event.anonymous, heardAt: Date.now() });
      // A repeat that changes nothing (the heartbeat) is not news for the sockets here.
      if (before && JSON.stringify(before.members) === JSON.stringify(event.members) && before.anonymous === event.anonymous) return;
    }
    // A node heard for the first time on this itinerary may have missed what this node said (it started later, or
    // the message was lost: pub/sub is at most once): this node says it again now, not at the next heartbeat. The
    // other node knows this one by then, so it does not answer back.
    if (this.#rooms.get(event.itineraryId)?.connections.size) this.#presenceChanged(event.itineraryId, firstHeard);
  }

  /** Repeats this node's presence on every itinerary it has sockets on, and forgets nodes that fell silent. */
  #heartbeat(): void {
    for (const [itineraryId, room] of this.#rooms) if (room.connections.size > 0) this.#tellOtherNodes(itineraryId);
    const stale = Date.now() - PRESENCE_STALE_MS;
    for (const [itineraryId, nodes] of this.#remote) {
      let changed = false;
      for (const [node, remote] of nodes) {
        if (remote.heardAt < stale) {
          nodes.delete(node);
          changed = true;
        }
      }
      if (nodes.size === 0) this.#remote.delete(itineraryId);
      if (changed && this.#rooms.get(itineraryId)?.connections.size) this.#presenceChanged(itineraryId, false);
    }
  }

  #endWhere(match: (credential: LiveCredential) => boolean, reason: string): void {
    for (const open of [...this.#open]) if (match(open.credential)) open.socket.end(CREDENTIAL_ENDED, reason);
  }

  /** Every event message says when its change was announced (`at`, just after its commit, ISO 8601 with ms). */
  #onEvent(event: ChangeEvent): void {
    // Events that only become a message to an itinerary's listeners: none here, nothing to build.
    if (MESSAGE_ONLY.has(event.type) && 'itineraryId' in event) {
      if (!this.#heard(membersTopic(event.itineraryId)) && !this.#heard(publicTopic(event.itineraryId))) return;
    }
    const at = new Date().toISOString();
    switch (event.type) {
      case 'itinerary.draft_changed':
        this.#send(
          membersTopic(event.itineraryId),
          JSON.stringify({ type: 'itinerary.changed', itinerary_id: event.itineraryId, version: event.version, at }),
        );
        return;
      case 'itinerary.published':
      case 'itinerary.deleted': {
        const type = event.type === 'itinerary.published' ? 'itinerary.published' : 'itinerary.deleted';
        const text = JSON.stringify({
          type,
          itinerary_id: event.itineraryId,
          ...('version' in event ? { version: event.version } : {}),
          at,
        });
        this.#send(membersTopic(event.itineraryId), text);
        this.#send(publicTopic(event.itineraryId), text);
        return;
      }
      case 'lock.taken':
      case 'lock.released':
      case 'lock.expired':
        this.#send(
          membersTopic(event.itineraryId),
          JSON.stringify({ type: event.type, itinerary_id: event.itineraryId, holder: { id: event.holderId }, parts: event.parts, at }),
        );
        return;
      case 'key.revoked':
        // A revoked key ends its sockets at once, as it ends its requests.
        this.#endWhere((c) => c.keyId === event.keyId, 'key revoked');
        return;
      case 'share.revoked':
        this.#endWhere(
          (c) =>
            c.share?.resourceKind === event.resourceKind && c.share.resourceId === event.resourceId && c.share.linkId !== event.keptLinkId,
          'share link revoked',
        );
        return;
      case 'presence.node':
        this.#heardPresence(event);
        return;
      case 'membership.removed':
        this.#endWhere((c) => c.member?.userId === event.userId && c.member.organizationId === event.organizationId, 'membership ended');
        return;
      default:
        return;
    }
  }
}
