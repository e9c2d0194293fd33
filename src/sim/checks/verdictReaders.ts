/**
 * The verdict's reader layers: what each consumer received (per reader, for the copies it can see),
 * where a read_committed reader is stalled behind the LSO and what pins it, what each application
 * processed and which events its group never processed, and what each system outside Kafka took in.
 */

import { keyOf, recordAddress, topicPartitionKey } from '../protocol/topicPartition';
import type { Occurrence, RunIndex } from './verdictIndex';
import { coordinatorView } from './verdictTopics';
import type { CopyState, DeliveryFinding, Loss, ProcessingFinding, ReaderEvent, SinkFinding, Stall } from './verdictTypes';

export interface ReaderSpec {
  readonly id: string;
  readonly groupId: string | null;
  readonly isolationLevel: string;
  readonly topics: readonly string[];
  readonly autoOffsetReset?: string;
}

export interface AppSpec extends ReaderSpec {
  readonly sink: string | null;
}

export interface ReaderContext {
  readonly index: RunIndex;
  readonly readers: readonly ReaderSpec[];
  readonly apps: readonly AppSpec[];
  readonly sinks: readonly string[];
  readonly stopped: Readonly<Record<string, 'down' | 'stopped'>>;
  readonly final: boolean;
  /** Partition owners per group (member ids joined), filled on first use. */
  readonly owners: Map<string, Map<string, string>>;
}

const EFFECTIVE = new Set<CopyState>(['committed', 'plain']);

function stateAt(index: RunIndex, topic: string, partition: number, offset: number): CopyState {
  return index.copyAt(topic, partition, offset)?.state ?? 'removed';
}

/** Which member of a group owns a partition: the one that last received from it, else the first subscribed. */
function owner(ctx: ReaderContext, members: readonly ReaderSpec[], topic: string, partition: number): string | null {
  const key = members.map((m) => m.id).join('|');
  let last = ctx.owners.get(key);
  if (!last) {
    const best = new Map<string, { id: string; step: number }>();
    for (const m of members)
      for (const o of [...(ctx.index.delivered.get(m.id) ?? []), ...(ctx.index.processed.get(m.id) ?? [])]) {
        const tp = keyOf(o);
        const b = best.get(tp);
        if (!b || o.step > b.step) best.set(tp, { id: m.id, step: o.step });
      }
    last = new Map([...best].map(([tp, b]) => [tp, b.id]));
    ctx.owners.set(key, last);
  }
  return last.get(topicPartitionKey(topic, partition)) ?? members.find((m) => m.topics.includes(topic))?.id ?? null;
}

function groupOf(r: ReaderSpec, pool: readonly ReaderSpec[]): ReaderSpec[] {
  return r.groupId === null ? [r] : pool.filter((x) => x.groupId === r.groupId);
}

/** Partitions where a read_committed reader cannot read past an open transaction, and what pins the LSO. */
export function stallsOf(ctx: ReaderContext, r: ReaderSpec, pool: readonly ReaderSpec[]): Stall[] {
  if (r.isolationLevel !== 'read_committed') return [];
  const out: Stall[] = [];
  for (const p of ctx.index.partitions) {
    if (!r.topics.includes(p.topic) || p.lastStableOffset >= p.highWatermark) continue;
    const members = groupOf(r, pool);
    if (members.length > 1 && owner(ctx, members, p.topic, p.partition) !== r.id) continue;
    const blockedRows = p.records.filter((x) => x.control === null && x.offset >= p.lastStableOffset && x.offset < p.highWatermark);
    if (blockedRows.length === 0) continue;
    const pin = p.records.find((x) => x.offset === p.lastStableOffset) ?? blockedRows[0];
    if (!pin) continue;
    const pinCopy = ctx.index.copyAt(p.topic, p.partition, pin.offset);
    const sinceStep = pinCopy?.step ?? null;
    const view = coordinatorView(ctx.index, pin.producerId, sinceStep);
    const others = blockedRows.some((x) => x.producerId !== pin.producerId || x.txnOutcome !== 'open');
    // an ordinary transaction in flight is not a stall; one that hides other records, or never ends, is
    if (!ctx.final && view.tracked && !others) continue;
    out.push({
      topic: p.topic,
      partition: p.partition,
      lastStableOffset: p.lastStableOffset,
      highWatermark: p.highWatermark,
      blocked: blockedRows.length,
      blockedEventIds: [...new Set(blockedRows.map((x) => x.headers.event_id ?? recordAddress(p.topic, p.partition, x.offset)))],
      sinceTime: sinceStep === null ? pin.timestamp : ctx.index.stepTime(sinceStep),
      sinceStep,
      producerId: pin.producerId,
      producerEpoch: pin.producerEpoch,
      firstOffset: pin.offset,
      transactionalId: ctx.index.transactionalIds.get(pin.producerId) ?? null,
      coordinatorState: view.state,
      hanging: !view.tracked,
    });
  }
  return out;
}

function byEvent(list: readonly Occurrence[]): Map<string, Occurrence[]> {
  const m = new Map<string, Occurrence[]>();
  for (const o of list) {
    const k = `${o.topic}|${o.key}`;
    const l = m.get(k);
    if (l) l.push(o);
    else m.set(k, [o]);
  }
  return m;
}

export function deliveryFinding(ctx: ReaderContext, r: ReaderSpec): Omit<DeliveryFinding, 'sentence'> {
  const occ = ctx.index.delivered.get(r.id) ?? [];
  const repeated: ReaderEvent[] = [];
  let uncommittedCopies = 0;
  const steps: number[] = [];
  const grouped = byEvent(occ);
  for (const list of grouped.values()) {
    const states = list.map((o) => stateAt(ctx.index, o.topic, o.partition, o.offset));
    uncommittedCopies += states.filter((s) => s === 'aborted' || s === 'open').length;
    if (list.length > 1) {
      const first = list[0] as Occurrence;
      repeated.push({ eventId: first.key, topic: first.topic, offsets: list.map((o) => o.offset), states });
      steps.push(...list.map((o) => o.step));
    }
  }
  const stalls = stallsOf(ctx, r, ctx.readers);
  const status = stalls.length ? 'stalled' : repeated.length ? 'more-than-once' : occ.length ? 'once' : 'not-applicable';
  return {
    layer: 'delivery',
    subject: r.id,
    status,
    isolationLevel: r.isolationLevel,
    received: occ.length,
    events: grouped.size,
    repeated,
    uncommittedCopies,
    stalls,
    eventIds: [...new Set([...repeated.map((e) => e.eventId), ...stalls.flatMap((s) => s.blockedEventIds)])],
    steps: [...new Set([...steps, ...stalls.map((s) => s.sinceStep).filter((s): s is number => s !== null)])].sort((a, b) => a - b),
  };
}

interface Due {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly eventId: string | null;
}

/** What a group should process: every committed or plain record of its topics it can reach. */
function dueFor(ctx: ReaderContext, members: readonly AppSpec[], stalls: readonly Stall[]): Due[] {
  const topics = new Set(members.flatMap((m) => m.topics));
  const latest = members.some((m) => m.autoOffsetReset === 'latest');
  const out: Due[] = [];
  const seen = latest ? members.flatMap((m) => [...(ctx.index.delivered.get(m.id) ?? []), ...(ctx.index.processed.get(m.id) ?? [])]) : [];
  for (const p of ctx.index.partitions) {
    if (!topics.has(p.topic)) continue;
    const stall = stalls.find((s) => s.topic === p.topic && s.partition === p.partition);
    // with auto.offset.reset=latest, only what came after the group's first record
    const start = latest
      ? seen.reduce((m, o) => (o.topic === p.topic && o.partition === p.partition ? Math.min(m, o.offset) : m), Number.POSITIVE_INFINITY)
      : Number.NEGATIVE_INFINITY;
    for (const x of p.records) {
      if (x.control !== null || x.offset < start) continue;
      if (!EFFECTIVE.has(x.txnOutcome === null ? 'plain' : x.txnOutcome)) continue;
      if (stall && x.offset >= stall.lastStableOffset) continue;
      out.push({
        topic: p.topic,
        partition: p.partition,
        offset: x.offset,
        key: x.headers.event_id ?? recordAddress(p.topic, p.partition, x.offset),
        eventId: x.headers.event_id ?? null,
      });
    }
  }
  return out;
}

function groupKey(a: AppSpec): string {
  return a.groupId ?? `app:${a.id}`;
}

/** Events each group never processed, attributed to the member that owns the partition. */
export function processingLosses(ctx: ReaderContext): Map<string, Loss[]> {
  const out = new Map<string, Loss[]>();
  const groups = new Map<string, AppSpec[]>();
  for (const a of ctx.apps) groups.set(groupKey(a), [...(groups.get(groupKey(a)) ?? []), a]);
  for (const [gid, members] of groups) {
    const stalls = members.flatMap((m) => stallsOf(ctx, m, ctx.apps));
    const done = new Set(members.flatMap((m) => (ctx.index.processed.get(m.id) ?? []).map((o) => `${o.topic}|${o.key}`)));
    const committed = members[0]?.groupId ? ctx.index.committed.get(members[0].groupId) : undefined;
    for (const d of dueFor(ctx, members, stalls)) {
      if (done.has(`${d.topic}|${d.key}`)) continue;
      const app = owner(ctx, members, d.topic, d.partition) ?? (members[0] as AppSpec).id;
      const c = committed?.get(keyOf(d));
      let cause: string | null = null;
      if (c && c.offset > d.offset) cause = 'committed-past';
      else if (ctx.final)
        cause = ctx.index.stopNotes.has(app) || ctx.index.fatalErrors.has(app) ? 'stopped' : ctx.stopped[app] ? 'down' : 'ended';
      if (!cause) continue;
      const loss: Loss = {
        eventId: d.key,
        layer: 'processing',
        subject: app,
        kind: 'not-processed',
        cause,
        actor: gid.startsWith('app:') ? app : gid,
        offset: cause === 'committed-past' ? (c?.offset ?? null) : d.offset,
        steps: cause === 'committed-past' && c ? [c.step] : [],
      };
      out.set(app, [...(out.get(app) ?? []), loss]);
    }
  }
  return out;
}

export function processingFinding(ctx: ReaderContext, a: AppSpec, losses: readonly Loss[]): Omit<ProcessingFinding, 'sentence'> {
  const occ = ctx.index.processed.get(a.id) ?? [];
  const grouped = byEvent(occ);
  const repeated: { eventId: string; topic: string; times: number }[] = [];
  const steps: number[] = [];
  for (const list of grouped.values())
    if (list.length > 1) {
      const first = list[0] as Occurrence;
      repeated.push({ eventId: first.key, topic: first.topic, times: list.length });
      steps.push(...list.map((o) => o.step));
    }
  const stalls = stallsOf(ctx, a, ctx.apps);
  const status = stalls.length
    ? 'stalled'
    : losses.length
      ? 'lost'
      : repeated.length
        ? 'more-than-once'
        : occ.length
          ? 'once'
          : 'not-applicable';
  return {
    layer: 'processing',
    subject: a.id,
    status,
    groupId: a.groupId,
    events: grouped.size,
    repeated,
    losses,
    stalls,
    eventIds: [
      ...new Set([...losses.map((l) => l.eventId), ...repeated.map((e) => e.eventId), ...stalls.flatMap((s) => s.blockedEventIds)]),
    ],
    steps: [...new Set([...steps, ...losses.flatMap((l) => l.steps)])].sort((x, y) => x - y),
  };
}

export function sinkFinding(ctx: ReaderContext, sink: string, processingLoss: ReadonlyMap<string, Loss[]>): Omit<SinkFinding, 'sentence'> {
  const effects = ctx.index.sideEffects.get(sink) ?? new Map();
  const repeated: { eventId: string; times: number }[] = [];
  const steps: number[] = [];
  let events = 0;
  let skipped = 0;
  for (const [eventId, e] of effects) {
    if (e.applied.length > 0) events++;
    skipped += e.skipped.length;
    if (e.applied.length > 1) {
      repeated.push({ eventId, times: e.applied.length });
      steps.push(...e.applied);
    }
  }
  const losses: Loss[] = [];
  const writers = ctx.apps.filter((a) => a.sink === sink);
  const groups = new Map<string, AppSpec[]>();
  for (const a of writers)
    groups.set(
      groupKey(a),
      ctx.apps.filter((x) => groupKey(x) === groupKey(a)),
    );
  for (const members of groups.values()) {
    const stalls = members.flatMap((m) => stallsOf(ctx, m, ctx.apps));
    const processed = new Set(members.flatMap((m) => (ctx.index.processed.get(m.id) ?? []).map((o) => o.key)));
    const lostUpstream = new Map(members.flatMap((m) => (processingLoss.get(m.id) ?? []).map((l) => [l.eventId, l] as const)));
    for (const d of dueFor(ctx, members, stalls)) {
      if (d.eventId === null || effects.has(d.eventId)) continue;
      const upstream = lostUpstream.get(d.eventId);
      if (!upstream && !ctx.final) continue;
      const app = owner(ctx, members, d.topic, d.partition) ?? (members[0] as AppSpec).id;
      if (losses.some((l) => l.eventId === d.eventId)) continue;
      losses.push({
        eventId: d.eventId,
        layer: 'sink',
        subject: sink,
        kind: 'not-applied',
        cause: processed.has(d.key) ? 'no-call' : 'not-processed',
        actor: app,
        offset: upstream?.offset ?? null,
        steps: upstream?.steps ?? [],
      });
    }
  }
  const status = losses.length ? 'lost' : repeated.length ? 'more-than-once' : events || skipped ? 'once' : 'not-applicable';
  return {
    layer: 'sink',
    subject: sink,
    status,
    events,
    repeated,
    skipped,
    losses,
    eventIds: [...new Set([...losses.map((l) => l.eventId), ...repeated.map((e) => e.eventId)])],
    steps: [...new Set([...steps, ...losses.flatMap((l) => l.steps)])].sort((a, b) => a - b),
  };
}
