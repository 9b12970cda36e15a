// The live hub without sockets: which change events reach which topic, and how presence is kept and coloured.

import { describe, expect, it } from 'vitest';
import { MemoryChangeEventBus } from '../../../server/core/change-events.js';
import type { OpenSocket } from '../../../server/http/sockets.js';
import { LiveHub, membersTopic, PRESENCE_COLOURS, PRESENCE_FLUSH_MS, publicTopic } from '../../../server/live/live-hub.js';

function setup() {
  const events = new MemoryChangeEventBus();
  const hub = new LiveHub(events);
  const published: { topic: string; message: any }[] = [];
  hub.attach((topic, text) => published.push({ topic, message: JSON.parse(text) }));
  const socket = () => {
    const sent: any[] = [];
    const open: OpenSocket = { send: (text) => sent.push(JSON.parse(text)) > 0, end: () => undefined, subscribe: () => undefined };
    return { sent, open };
  };
  return { events, hub, published, socket };
}

const snapshot = { version: 3, published_version: null, locks: [] };

describe('LiveHub', () => {
  it('builds no message for an itinerary nobody here listens to, and still records for a socket being let in', () => {
    const events = new MemoryChangeEventBus();
    const hub = new LiveHub(events);
    const published: string[] = [];
    const listening = new Set<string>();
    hub.attach(
      (topic) => published.push(topic),
      (topic) => (listening.has(topic) ? 1 : 0),
    );
    const change = (itineraryId: string) =>
      events.publish([{ type: 'itinerary.draft_changed', organizationId: 'o', itineraryId, version: 2 }]);
    change('nobody');
    expect(published).toEqual([]);
    const joining = hub.watch(membersTopic('joining')); // a socket of `joining` is being let in
    change('joining');
    expect(joining.messages.map((m) => JSON.parse(m).type)).toEqual(['itinerary.changed']);
    joining.stop();
    listening.add(publicTopic('viewed'));
    events.publish([{ type: 'itinerary.published', organizationId: 'o', itineraryId: 'viewed', version: 2 }]);
    expect(published).toContain(publicTopic('viewed'));
    expect(published).not.toContain(membersTopic('nobody'));
  });

  it('sends drafts and locks to members only, publication and deletion to both', () => {
    const { events, published: raw } = setup();
    events.publish([
      { type: 'itinerary.draft_changed', organizationId: 'o', itineraryId: 'i', version: 4 },
      { type: 'lock.expired', itineraryId: 'i', holderId: 'u', parts: [{ type: 'segment', id: 's' }] },
      { type: 'itinerary.published', organizationId: 'o', itineraryId: 'i', version: 4 },
      { type: 'zone.changed', organizationId: 'o', zoneId: 'z', change: 'created' },
      { type: 'itinerary.deleted', organizationId: 'o', itineraryId: 'i' },
    ]);
    for (const p of raw) expect(Date.parse(p.message.at)).toBeGreaterThan(0);
    const published = raw.map(({ topic, message: { at: _at, ...message } }) => ({ topic, message }));
    expect(published).toEqual([
      { topic: membersTopic('i'), message: { type: 'itinerary.changed', itinerary_id: 'i', version: 4 } },
      {
        topic: membersTopic('i'),
        message: { type: 'lock.expired', itinerary_id: 'i', holder: { id: 'u' }, parts: [{ type: 'segment', id: 's' }] },
      },
      { topic: membersTopic('i'), message: { type: 'itinerary.published', itinerary_id: 'i', version: 4 } },
      { topic: publicTopic('i'), message: { type: 'itinerary.published', itinerary_id: 'i', version: 4 } },
      { topic: membersTopic('i'), message: { type: 'itinerary.deleted', itinerary_id: 'i' } },
      { topic: publicTopic('i'), message: { type: 'itinerary.deleted', itinerary_id: 'i' } },
    ]);
  });

  it('lists each member once with a colour of their own, counts keys’ sockets, and announces a burst of changes once', async () => {
    const { hub, published, socket } = setup();
    const ann = { id: 'a', name: 'Ann' };
    const first = hub.session({ itineraryId: 'i', members: true, visitor: ann, snapshot });
    const second = hub.session({ itineraryId: 'i', members: true, visitor: ann, snapshot });
    const bob = hub.session({ itineraryId: 'i', members: true, visitor: { id: 'b', name: 'Bob' }, snapshot });
    const embed = hub.session({ itineraryId: 'i', members: true, visitor: null, snapshot });
    const [s1, s2, s3, s4] = [socket(), socket(), socket(), socket()];
    first.opened(s1.open);
    expect(s1.sent[0]).toMatchObject({
      type: 'hello',
      version: 3,
      presence: [{ user: ann, colour: PRESENCE_COLOURS[0], connections: 1 }],
      anonymous: 0,
    });
    second.opened(s2.open);
    bob.opened(s3.open);
    embed.opened(s4.open);
    expect(hub.presence('i')).toEqual({
      presence: [
        { user: ann, colour: PRESENCE_COLOURS[0], mode: 'viewing', connections: 2 },
        { user: { id: 'b', name: 'Bob' }, colour: PRESENCE_COLOURS[1], mode: 'viewing', connections: 1 },
      ],
      more: 0,
      anonymous: 1,
    });
    bob.received('{"type":"presence","mode":"editing"}');
    expect(hub.presence('i').presence[1]?.mode).toBe('editing');
    bob.received('not json');
    expect(s3.sent.at(-1).type).toBe('error');
    first.closed();
    expect(hub.presence('i').presence[0]?.connections).toBe(1);
    // Four arrivals, a mode change and a departure: one announcement, after the burst.
    expect(published).toHaveLength(0);
    await new Promise((r) => setTimeout(r, PRESENCE_FLUSH_MS + 50));
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      topic: membersTopic('i'),
      message: { type: 'presence', presence: [{ user: ann }, { user: { id: 'b' }, mode: 'editing' }], anonymous: 1 },
    });
  });

  it('a share link’s socket is never present and hears the public topic', () => {
    const { hub, socket } = setup();
    const viewer = hub.session({ itineraryId: 'i', members: false, visitor: null, snapshot: { version: 3, published_version: 2 } });
    expect(viewer.topics).toEqual([publicTopic('i')]);
    const s = socket();
    viewer.opened(s.open);
    expect(s.sent[0]).not.toHaveProperty('presence');
    expect(hub.presence('i')).toEqual({ presence: [], more: 0, anonymous: 0 });
  });
});

describe('LiveHub across nodes', () => {
  /** Two hubs on one bus: two nodes of a scaled-out deployment (the bus is Redis there). */
  function twoNodes() {
    const events = new MemoryChangeEventBus();
    const node = () => {
      const hub = new LiveHub(events);
      const published: { topic: string; message: any }[] = [];
      hub.attach((topic, text) => published.push({ topic, message: JSON.parse(text) }));
      return { hub, published };
    };
    return [node(), node()] as const;
  }
  const open = (hub: LiveHub, visitor: { id: string; name: string } | null) => {
    const session = hub.session({ itineraryId: 'i', members: true, visitor, snapshot });
    const sent: any[] = [];
    session.opened({ send: (text) => sent.push(JSON.parse(text)) > 0, end: () => undefined, subscribe: () => undefined });
    return { session, sent };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, PRESENCE_FLUSH_MS * 3));
  const lastPresence = (published: { topic: string; message: any }[]) =>
    published.filter((p) => p.message.type === 'presence').at(-1)?.message;

  it('shows members connected to another node, with one colour each, and lets them go when they leave', async () => {
    const [one, two] = twoNodes();
    const ann = open(one.hub, { id: 'a', name: 'Ann' });
    await settle();
    const bob = open(two.hub, { id: 'b', name: 'Bob' });
    // Bob's hello already lists Ann (node one told node two), and Bob's colour is not hers.
    expect(bob.sent[0].presence.map((p: any) => p.user.id).sort()).toEqual(['a', 'b']);
    await settle();
    const seenByAnn = lastPresence(one.published);
    expect(seenByAnn.presence.map((p: any) => p.user.id).sort()).toEqual(['a', 'b']);
    expect(new Set(seenByAnn.presence.map((p: any) => p.colour)).size).toBe(2);
    // Ann opens a second tab on node two: one entry, two connections, her colour kept.
    const annAgain = open(two.hub, { id: 'a', name: 'Ann' });
    await settle();
    const merged = lastPresence(one.published).presence.find((p: any) => p.user.id === 'a');
    expect(merged).toMatchObject({ connections: 2, colour: seenByAnn.presence.find((p: any) => p.user.id === 'a').colour });
    annAgain.session.closed();
    bob.session.closed();
    await settle();
    expect(lastPresence(one.published).presence.map((p: any) => p.user.id)).toEqual(['a']);
    ann.session.closed();
  });
});

describe('LiveHub when an announcement is lost', () => {
  it('a node that missed another node’s presence learns it as soon as it announces itself, not at the heartbeat', async () => {
    // A bus that loses the first presence announcement (Redis pub/sub is at most once; a node may also start later).
    const events = new MemoryChangeEventBus();
    let lose = 1;
    const lossy = {
      publish: (list: Parameters<MemoryChangeEventBus['publish']>[0]) => {
        if (lose > 0 && list.some((e) => e.type === 'presence.node')) {
          lose--;
          return;
        }
        events.publish(list);
      },
      subscribe: events.subscribe.bind(events),
    };
    const nodes = [new LiveHub(lossy), new LiveHub(lossy)];
    const seen: any[][] = [[], []];
    for (const [i, hub] of nodes.entries()) hub.attach((_topic, text) => void seen[i]?.push(JSON.parse(text)));
    const open = (hub: LiveHub, id: string) =>
      hub
        .session({ itineraryId: 'i', members: true, visitor: { id, name: id }, snapshot })
        .opened({ send: () => true, end: () => undefined, subscribe: () => undefined });
    open(nodes[0] as LiveHub, 'a');
    await new Promise((resolve) => setTimeout(resolve, PRESENCE_FLUSH_MS * 2)); // node one's announcement is lost
    open(nodes[1] as LiveHub, 'b');
    await new Promise((resolve) => setTimeout(resolve, PRESENCE_FLUSH_MS * 4));
    for (const messages of seen) {
      const last = messages.filter((m) => m.type === 'presence').at(-1);
      expect(last.presence.map((p: any) => p.user.id).sort()).toEqual(['a', 'b']);
    }
  });
});

describe('LiveHub colours across nodes', () => {
  it('two members arriving at once on two nodes are shown in two colours, the same on both nodes', async () => {
    const events = new MemoryChangeEventBus();
    const nodes = [new LiveHub(events), new LiveHub(events)];
    const seen: any[][] = [[], []];
    for (const [i, hub] of nodes.entries()) hub.attach((_topic, text) => void seen[i]?.push(JSON.parse(text)));
    // Both open before either node has told the other: each takes the first colour.
    for (const [i, id] of ['b', 'a'].entries()) {
      nodes[i]
        ?.session({ itineraryId: 'i', members: true, visitor: { id, name: id }, snapshot })
        .opened({ send: () => true, end: () => undefined, subscribe: () => undefined });
    }
    await new Promise((resolve) => setTimeout(resolve, PRESENCE_FLUSH_MS * 3));
    const last = seen.map((messages) => messages.filter((m) => m.type === 'presence').at(-1).presence);
    for (const presence of last) expect(new Set(presence.map((p: any) => p.colour)).size).toBe(2);
    const colours = (presence: any[]) => Object.fromEntries(presence.map((p: any) => [p.user.id, p.colour]));
    expect(colours(last[0] as any[])).toEqual(colours(last[1] as any[]));
  });
});
