/**
 * The verdict's reader layers: what each consumer received (per reader, for the copies it can see),
 * where a read_committed reader is stalled behind the LSO and what pins it, what each application
 * processed and which events its group never processed, and what each system outside Kafka took in.
 */

import { recordAddress } from '../protocol/topicPartition';
import type { PartitionRow } from '../trace/logView';
import type { DueRecord, IndexQueries } from './indexQueries';
import { type StoreSpec, storeCheck } from './verdictStore';
import { coordinatorView, highWatermarkOf, unreplicatedTxnOf } from './verdictTopics';
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
  /** A Kafka Streams count: its store's changelog and the topic it counts (checks/verdictStore.ts). */
  readonly store?: StoreSpec;
}

export interface ReaderContext {
  readonly index: IndexQueries;
  readonly readers: readonly ReaderSpec[];
  readonly apps: readonly AppSpec[];
  readonly sinks: readonly string[];
  readonly stopped: Readonly<Record<string, 'down' | 'stopped'>>;
  readonly final: boolean;
  /** Every partition at the step described, the internal ones too (a Streams store's changelog; checks/verdictStore.ts). */
  readonly rows?: readonly PartitionRow[];
}

function stateAt(index: IndexQueries, topic: string, partition: number, offset: number): CopyState {
  return index.copyAt(topic, partition, offset)?.state ?? 'removed';
}

/** Which member of a group owns a partition: the one that last received from it, else the first subscribed. */
function owner(ctx: ReaderContext, members: readonly ReaderSpec[], topic: string, partition: number): string | null {
  return (
    ctx.index.lastReader(
      members.map((m) => m.id),
      topic,
      partition,
    ) ??
    members.find((m) => m.topics.includes(topic))?.id ??
    null
  );
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
    const rows = ctx.index.recordsIn(p.topic, p.partition, p.lastStableOffset, p.highWatermark);
    const blockedRows = rows.filter((x) => x.control === null);
    if (blockedRows.length === 0) continue;
    const pin = rows.find((x) => x.offset === p.lastStableOffset) ?? blockedRows[0];
    if (!pin) continue;
    const pinCopy = ctx.index.copyAt(p.topic, p.partition, pin.offset);
    const sinceStep = pinCopy?.step ?? null;
    const view = coordinatorView(ctx.index, pin.producerId, sinceStep);
    // a transaction that has ended, its marker not yet below the HW: the LSO moves when the
    // followers copy the marker (ProducerStateManager.unreplicatedTxns), so only a run's end says so
    const ended = pin.txnOutcome === 'open' ? undefined : unreplicatedTxnOf(p, pin.producerId, pin.offset);
    if (ended && !ctx.final) continue;
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
      transactionalId: ctx.index.transactionalId(pin.producerId),
      coordinatorState: view.state,
      hanging: !ended && !view.tracked,
      ...(ended
        ? { marker: { offset: ended.lastOffset, type: pin.txnOutcome === 'aborted' ? ('ABORT' as const) : ('COMMIT' as const) } }
        : {}),
    });
  }
  return out;
}

export function deliveryFinding(ctx: ReaderContext, r: ReaderSpec): Omit<DeliveryFinding, 'sentence'> {
  const { received, events } = ctx.index.deliveries(r.id);
  const repeated: ReaderEvent[] = [];
  const steps: number[] = [];
  for (const { key, topic, list } of ctx.index.repeatedDeliveries(r.id)) {
    const states = list.map((o) => stateAt(ctx.index, o.topic, o.partition, o.offset));
    repeated.push({ eventId: key, topic, offsets: list.map((o) => o.offset), states });
    steps.push(...list.map((o) => o.step));
  }
  const uncommittedCopies = ctx.index.uncommittedDelivered(r.id);
  const stalls = stallsOf(ctx, r, ctx.readers);
  const status = stalls.length ? 'stalled' : repeated.length ? 'more-than-once' : received ? 'once' : 'not-applicable';
  return {
    layer: 'delivery',
    subject: r.id,
    status,
    isolationLevel: r.isolationLevel,
    received,
    events,
    repeated,
    uncommittedCopies,
    stalls,
    eventIds: [...new Set([...repeated.map((e) => e.eventId), ...stalls.flatMap((s) => s.blockedEventIds)])],
    steps: [...new Set([...steps, ...stalls.map((s) => s.sinceStep).filter((s): s is number => s !== null)])].sort((a, b) => a - b),
  };
}

/**
 * What a group should process (of `unapplied`: what should take effect in that sink): every committed
 * or plain record of its topics it can reach — among the index's candidates, which hold all that
 * was not processed (not applied) and maybe more.
 */
function dueFor(ctx: ReaderContext, members: readonly AppSpec[], stalls: readonly Stall[], unapplied?: string): DueRecord[] {
  const topics = new Set(members.flatMap((m) => m.topics));
  const latest = members.some((m) => m.autoOffsetReset === 'latest');
  const ids = members.map((m) => m.id);
  const out: DueRecord[] = [];
  // with auto.offset.reset=latest, only what came after the group's first record
  const starts = new Map<string, number>();
  const startOf = (d: DueRecord) => {
    if (!latest) return Number.NEGATIVE_INFINITY;
    const k = `${d.topic}|${d.partition}`;
    let s = starts.get(k);
    if (s === undefined) {
      s = ctx.index.firstReadOffset(ids, d.topic, d.partition);
      starts.set(k, s);
    }
    return s;
  };
  // each partition's high watermark, looked up once (a run may have many partitions and records)
  const highWatermarks = new Map<string, number>();
  const highWatermark = (d: DueRecord) => {
    const k = `${d.topic}|${d.partition}`;
    let hw = highWatermarks.get(k);
    if (hw === undefined) {
      hw = highWatermarkOf(ctx.index, d.topic, d.partition);
      highWatermarks.set(k, hw);
    }
    return hw;
  };
  for (const d of ctx.index.dueCandidates(ids, topics, unapplied)) {
    if (d.offset < startOf(d)) continue;
    // no consumer reads at or above the high watermark: a record there is not committed yet
    if (d.offset >= highWatermark(d)) continue;
    const stall = stalls.find((s) => s.topic === d.topic && s.partition === d.partition);
    if (stall && d.offset >= stall.lastStableOffset) continue;
    out.push(d);
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
    const ids = members.map((m) => m.id);
    const groupId = members[0]?.groupId;
    for (const d of dueFor(ctx, members, stalls)) {
      if (ctx.index.processedBy(ids, d.topic, d.key)) continue;
      const app = owner(ctx, members, d.topic, d.partition) ?? (members[0] as AppSpec).id;
      const c = groupId ? ctx.index.committed(groupId, d.topic, d.partition) : undefined;
      let cause: string | null = null;
      if (c && c.offset > d.offset) cause = 'committed-past';
      else if (ctx.final) cause = ctx.index.stopNote(app) || ctx.index.fatalError(app) ? 'stopped' : ctx.stopped[app] ? 'down' : 'ended';
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
  const { processed, events } = ctx.index.processings(a.id);
  const repeated: ProcessingFinding['repeated'][number][] = [];
  const steps: number[] = [];
  // repeats per application: an event this instance processed again, after itself or another
  // instance of its group (a standalone consumer is a group of one)
  const members = ctx.apps.filter((x) => groupKey(x) === groupKey(a)).map((x) => x.id);
  if (!members.includes(a.id)) members.push(a.id);
  for (const { key, topic, list, by } of ctx.index.repeatedProcessings(a.id, members)) {
    const others = [...new Set((by ?? []).filter((m) => m !== a.id))];
    repeated.push({ eventId: key, topic, times: list.length, ...(others.length ? { others } : {}) });
    steps.push(...list.map((o) => o.step));
  }
  const stalls = stallsOf(ctx, a, ctx.apps);
  // the store of a Streams application, once: on its first instance
  const firstOfApplication = ctx.apps.find((x) => x.store !== undefined && x.groupId === a.groupId) === a;
  const store =
    a.store && firstOfApplication
      ? storeCheck(
          ctx.rows ?? [],
          a.store,
          a.isolationLevel === 'read_committed',
          ctx.final,
          (ctx.index.tally(a.store.countedTopic).copyCounts.removed ?? 0) > 0,
        )
      : null;
  const status = stalls.length
    ? 'stalled'
    : losses.length
      ? 'lost'
      : repeated.length || (store?.inflated.length ?? 0) > 0
        ? 'more-than-once'
        : processed
          ? 'once'
          : 'not-applicable';
  return {
    layer: 'processing',
    subject: a.id,
    status,
    groupId: a.groupId,
    ...(store ? { store } : {}),
    events,
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
  const tally = ctx.index.sinkTally(sink);
  const { events, skipped } = tally;
  const repeated = tally.repeated.map((e) => ({ eventId: e.eventId, times: e.applied.length }));
  const steps = tally.repeated.flatMap((e) => e.applied);
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
    const ids = members.map((m) => m.id);
    const lostUpstream = new Map(members.flatMap((m) => (processingLoss.get(m.id) ?? []).map((l) => [l.eventId, l] as const)));
    for (const d of dueFor(ctx, members, stalls, sink)) {
      if (d.eventId === null || ctx.index.hasEffect(sink, d.eventId)) continue;
      const upstream = lostUpstream.get(d.eventId);
      if (!upstream && !ctx.final) continue;
      const app = owner(ctx, members, d.topic, d.partition) ?? (members[0] as AppSpec).id;
      if (losses.some((l) => l.eventId === d.eventId)) continue;
      losses.push({
        eventId: d.eventId,
        layer: 'sink',
        subject: sink,
        kind: 'not-applied',
        cause: ctx.index.processedBy(ids, null, d.key) ? 'no-call' : 'not-processed',
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
