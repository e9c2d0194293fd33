/**
 * Replication's invariants (issue [replication]), checked over snapshots of the brokers and the
 * controller: after every step that a broker or the controller took (invariants' `everyStep`), or at
 * every checkpoint. Kafka's guarantees, from its source:
 *
 * - hw-within-isr: Partition.maybeIncrementLeaderHW moves a leader's high watermark only to the
 *   smallest log end offset among the leader and its maximal ISR (what the leader knows of the ISR:
 *   the committed one plus a member an AlterPartition in flight adds). A follower's log only grows
 *   while it follows that leader (it truncates only what the leader does not have), so no member
 *   of the ISR *as the leader knows it* ever has fewer records than the leader's HW.
 * - committed-not-lost: a record below the leader's HW is on every ISR member, and a clean election
 *   (PartitionChangeBuilder.electAnyLeader over the ISR) picks one of them, so it stays at its offset
 *   in the leader's log — unless an unclean election picked a replica outside the ISR.
 * - acks-all-survives: an acks=all Produce is answered NONE only once the HW passed its batch with
 *   the ISR at min.insync.replicas or more (DelayedProduce / checkEnoughReplicasReachOffset); with
 *   min.insync.replicas ≥ 2 the record is on two brokers, so one broker failing cannot take it.
 *
 * Pure: no I/O, no clock.
 */
import type { BrokerContext } from '../broker/broker.machine';
import type { ControllerContext } from '../controller/controller.machine';
import type { ActorId } from '../kernel/envelope';
import { batchIndexAtOrAfter, type PartitionLog } from '../log/partitionLog';
import type { LogRecord, RecordBatch } from '../log/recordBatch';
import { keyOf } from '../protocol/topicPartition';
import { maximalIsr } from '../replication/leaderPartition';
import type { Trace } from '../run';
import type { Fact } from '../trace/facts';

export type ReplicationInvariantId = 'hw-within-isr' | 'committed-not-lost' | 'acks-all-survives';

/** Each invariant in plain words (docs/proof.md and the fuzzer print these). */
export const REPLICATION_INVARIANTS: Readonly<Record<ReplicationInvariantId, string>> = {
  'hw-within-isr':
    "A leader's high watermark never exceeds the log end offset of any member of its ISR as the leader knows it (the committed ISR plus a member an AlterPartition in flight adds).",
  'committed-not-lost':
    "A record that was below the leader's high watermark stays at its offset in the partition leader's log, unless an unclean leader election happened on the partition since.",
  'acks-all-survives':
    "With acks=all and min(min.insync.replicas, replication factor) ≥ 2, an acknowledged record stays at its offset in the partition leader's log when at most one broker fails in the run (no unclean election since).",
};

type Snapshots = ReadonlyMap<ActorId, { value: unknown; context: unknown }>;
export type ReportViolation = (invariant: ReplicationInvariantId, step: number, message: string, key?: string) => void;

/** What identifies a record at its offset: the leader epoch that wrote it, its producer and its event. */
export function recordIdentity(b: RecordBatch, r: LogRecord): string {
  const seq = b.baseSequence < 0 ? -1 : b.baseSequence + (r.offset - b.baseOffset);
  return `${b.partitionLeaderEpoch ?? -1}/${b.producerId}/${b.producerEpoch}/${seq}/${b.controlType ?? ''}/${r.headers.event_id ?? ''}`;
}

/** The record at `offset` in a log, with its batch; null when the log does not hold it. */
export function recordAt(log: PartitionLog, offset: number): { batch: RecordBatch; record: LogRecord } | null {
  const batch = log.batches.at(batchIndexAtOrAfter(log, offset));
  if (!batch || batch.baseOffset > offset) return null;
  const record = batch.records.find((r) => r.offset === offset);
  return record ? { batch, record } : null;
}

const brokerOf = (actors: Snapshots, id: ActorId): { ctx: BrokerContext; up: boolean } | null => {
  const s = actors.get(id);
  const ctx = s?.context as BrokerContext | undefined;
  return ctx?.partitions ? { ctx, up: s?.value !== 'down' } : null;
};

/**
 * The leader's log of each replicated partition: the broker the controller's record names, once it
 * has become leader of that epoch (Partition.makeLeader) and while it is up.
 */
export function leaderLogs(actors: Snapshots): Map<string, { broker: ActorId; leaderEpoch: number; log: PartitionLog }> {
  const out = new Map<string, { broker: ActorId; leaderEpoch: number; log: PartitionLog }>();
  const controller = actors.get('controller')?.context as ControllerContext | undefined;
  if (!controller?.partitions) return out;
  for (const [key, reg] of Object.entries(controller.partitions)) {
    if (reg.leader === null) continue;
    const b = brokerOf(actors, reg.leader);
    const log = b?.ctx.partitions[key];
    if (!b?.up || !log || b.ctx.replication?.leading[key]?.leaderEpoch !== reg.leaderEpoch) continue;
    out.set(key, { broker: reg.leader, leaderEpoch: reg.leaderEpoch, log });
  }
  return out;
}

/**
 * hw-within-isr over one set of snapshots: every up broker's led partitions, against the logs of
 * the members of its maximal ISR. A leader older than an unclean election (`uncleanEpoch` of the
 * partition) is exempt: the elected replica may lack what that leader had committed.
 */
export function checkHighWatermarks(actors: Snapshots, step: number, uncleanEpoch: (tp: string) => number, report: ReportViolation): void {
  for (const id of actors.keys()) {
    const b = brokerOf(actors, id);
    if (!b?.up || !b.ctx.replication) continue;
    for (const [key, p] of Object.entries(b.ctx.replication.leading)) {
      const log = b.ctx.partitions[key];
      if (!log || p.leaderEpoch < uncleanEpoch(key)) continue;
      for (const m of maximalIsr(p)) {
        if (m === id) continue;
        const other = brokerOf(actors, m)?.ctx.partitions[key];
        if (other && log.highWatermark > other.logEndOffset)
          report(
            'hw-within-isr',
            step,
            `${key}: leader ${id} (epoch ${p.leaderEpoch}) has high watermark ${log.highWatermark}, but ISR member ${m} has log end offset ${other.logEndOffset} (ISR as ${id} knows it: [${maximalIsr(p).join(', ')}])`,
            `${key}|${id}|${m}|${log.highWatermark}|${other.logEndOffset}`,
          );
      }
    }
  }
}

/** An acks=all acknowledgement the third invariant follows. */
export interface AcksAllAck {
  readonly step: number;
  readonly tp: string;
  readonly offset: number;
  readonly eventId: string | null;
  readonly client: string;
}

type Event =
  | { readonly step: number; readonly kind: 'unclean'; readonly tp: string; readonly leaderEpoch: number }
  | { readonly step: number; readonly kind: 'cleaned'; readonly tp: string }
  | { readonly step: number; readonly kind: 'ack'; readonly ack: AcksAllAck };

/** Brokers that crash, restart, pause or shut down in the scenario (the "failures" of acks-all-survives). */
function failingBrokers(trace: Trace): Set<string> {
  const out = new Set<string>();
  for (const f of trace.scenario.faults ?? [])
    if (
      (f.type === 'crash' || f.type === 'restart' || f.type === 'pause' || f.type === 'controlledShutdown') &&
      f.target.startsWith('broker-')
    )
      out.add(f.target);
  return out;
}

function replicationFactor(trace: Trace, topic: string): number {
  const t = trace.scenario.topics.find((x) => x.name === topic);
  if (!t) return 1;
  return Math.max(t.replicationFactor ?? 1, ...(t.replicas ?? []).map((r) => r.length));
}

/**
 * The acknowledgements acks-all-survives is about: NONE answers to a producer with acks=all on a
 * topic whose min(min.insync.replicas, replication factor) is 2 or more, in a run where at most one
 * broker fails.
 */
export function acksAllAcks(trace: Trace, facts: readonly { step: number; fact: Fact }[]): AcksAllAck[] {
  if (failingBrokers(trace).size > 1) return [];
  const out: AcksAllAck[] = [];
  for (const { step, fact } of facts) {
    if (fact.kind !== 'sendResult' || fact.error !== null || fact.offset === null) continue;
    const producer = trace.resolved.producers[fact.client] ?? trace.resolved.producers[`${fact.client}.producer`];
    if (producer?.acks !== -1) continue;
    const minIsr = trace.resolved.topics[fact.topic]?.['min.insync.replicas'] ?? 1;
    if (Math.min(minIsr, replicationFactor(trace, fact.topic)) < 2) continue;
    out.push({ step, tp: keyOf(fact), offset: fact.offset, eventId: fact.eventId, client: fact.client });
  }
  return out;
}

interface Committed {
  readonly identity: string;
  readonly eventId: string | null;
  /** Step after which it was seen below the HW, and whose HW it was. */
  readonly step: number;
  readonly broker: ActorId;
}

/**
 * Follows a run (snapshot after snapshot, in step order) and reports committed-not-lost,
 * acks-all-survives and hw-within-isr. `observe(actors, stepsTaken)` takes the snapshots after
 * `stepsTaken` steps; facts of steps before that count.
 */
export class ReplicationWatch {
  private readonly events: Event[];
  private next = 0;
  private readonly committed = new Map<string, Map<number, Committed>>();
  /** Per partition: every offset below this was registered as committed. */
  private readonly committedUpTo = new Map<string, number>();
  private readonly unclean = new Map<string, number>();
  private readonly cleaned = new Set<string>();
  private acks: AcksAllAck[] = [];
  /** The leader log each partition's committed records were last checked against. */
  private readonly checked = new Map<string, PartitionLog>();

  constructor(
    facts: readonly { step: number; fact: Fact }[],
    acks: readonly AcksAllAck[],
    private readonly report: ReportViolation,
  ) {
    const events: Event[] = [];
    for (const { step, fact } of facts) {
      if (fact.kind === 'leaderChange' && fact.election === 'unclean')
        events.push({ step, kind: 'unclean', tp: keyOf(fact), leaderEpoch: fact.leaderEpoch });
      else if (fact.kind === 'cleaned' && fact.removed + (fact.markers ?? 0) > 0) events.push({ step, kind: 'cleaned', tp: keyOf(fact) });
    }
    for (const ack of acks) events.push({ step: ack.step, kind: 'ack', ack });
    this.events = events.sort((a, b) => a.step - b.step);
  }

  /** True when the scenario has something to watch (a replicated topic). */
  static relevant(trace: Trace): boolean {
    return trace.scenario.topics.some((t) => replicationFactor(trace, t.name) > 1);
  }

  private advance(stepsTaken: number): void {
    for (; this.next < this.events.length; this.next++) {
      const e = this.events[this.next] as Event;
      if (e.step >= stepsTaken) break;
      if (e.kind === 'ack') this.acks.push(e.ack);
      else if (e.kind === 'cleaned') this.cleaned.add(e.tp);
      else {
        // what was committed or acknowledged before an unclean election is no longer promised
        this.unclean.set(e.tp, Math.max(this.unclean.get(e.tp) ?? -1, e.leaderEpoch));
        this.committed.delete(e.tp);
        this.committedUpTo.delete(e.tp);
        this.checked.delete(e.tp);
        this.acks = this.acks.filter((a) => a.tp !== e.tp);
      }
    }
  }

  observe(actors: Snapshots, stepsTaken: number): void {
    this.advance(stepsTaken);
    const step = Math.max(0, stepsTaken - 1);
    checkHighWatermarks(actors, step, (tp) => this.unclean.get(tp) ?? -1, this.report);
    const leaders = leaderLogs(actors);
    for (const [tp, leader] of leaders) {
      const fresh = this.register(tp, leader.broker, leader.log, step);
      if (fresh || this.checked.get(tp) !== leader.log) this.checkCommitted(tp, leader.broker, leader.log, step);
      this.checked.set(tp, leader.log);
    }
    for (const a of this.acks) {
      const leader = leaders.get(a.tp);
      if (leader) this.checkAck(a, leader.broker, leader.log, step);
    }
  }

  /** Registers the leader's records below its HW not yet registered; true if there were any. */
  private register(tp: string, broker: ActorId, log: PartitionLog, step: number): boolean {
    const from = Math.max(this.committedUpTo.get(tp) ?? 0, log.logStartOffset);
    if (log.highWatermark <= from) return false;
    let map = this.committed.get(tp);
    if (!map) {
      map = new Map();
      this.committed.set(tp, map);
    }
    for (let i = batchIndexAtOrAfter(log, from); i < log.batches.length; i++) {
      const b = log.batches.at(i) as RecordBatch;
      if (b.baseOffset >= log.highWatermark) break;
      for (const r of b.records)
        if (r.offset >= from && r.offset < log.highWatermark && !map.has(r.offset))
          map.set(r.offset, { identity: recordIdentity(b, r), eventId: r.headers.event_id ?? null, step, broker });
    }
    this.committedUpTo.set(tp, log.highWatermark);
    return true;
  }

  private checkCommitted(tp: string, broker: ActorId, log: PartitionLog, step: number): void {
    for (const [offset, c] of this.committed.get(tp) ?? []) {
      if (offset < log.logStartOffset) continue;
      const at = recordAt(log, offset);
      if (!at && this.cleaned.has(tp)) continue;
      const identity = at ? recordIdentity(at.batch, at.record) : null;
      if (identity === c.identity) continue;
      const what = at ? `holds another record there (${identity})` : `no longer holds it (log end offset ${log.logEndOffset})`;
      this.report(
        'committed-not-lost',
        step,
        `${tp}@${offset} (event ${c.eventId ?? '–'}) was below ${c.broker}'s high watermark at step ${c.step}, but the leader ${broker}'s log ${what}, without an unclean election`,
        `${tp}|${offset}|${c.identity}`,
      );
    }
  }

  private checkAck(a: AcksAllAck, broker: ActorId, log: PartitionLog, step: number): void {
    if (a.offset < log.logStartOffset) return;
    const at = recordAt(log, a.offset);
    if (!at && this.cleaned.has(a.tp)) return;
    if (at && (a.eventId === null || at.record.headers.event_id === a.eventId)) return;
    const what = at ? `holds event ${at.record.headers.event_id ?? '–'} there` : `no longer holds it (log end offset ${log.logEndOffset})`;
    this.report(
      'acks-all-survives',
      step,
      `${a.client}'s acks=all record ${a.tp}@${a.offset} (event ${a.eventId ?? '–'}) was acknowledged at step ${a.step}, but the leader ${broker}'s log ${what}`,
      `${a.tp}|${a.offset}|${a.eventId}`,
    );
  }
}
