/**
 * Kafka's invariants, checked over a whole run. Whatever faults a scenario injects, the model may
 * never break these; property tests and `npm run fuzz` run them over random scenarios, and
 * `runChecked` is the debug mode (run, then check).
 *
 * Sources, all from the trace: the facts recorded on each step (appends, deliveries, coordinator
 * transitions, committed offsets, cleaning), the partition logs in every checkpoint (or, with
 * `everyStep`, after every step that touched a log, by replaying the run), and the end state.
 * Pure: no I/O, no clock.
 */

import { CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import type { ConsumerGroup } from '../coordinator/groupCoordinator.machine';
import { canTransition, TXN_STATES, type TxnState } from '../coordinator/transactionState';
import type { Checkpoint } from '../kernel/checkpoint';
import { Simulation } from '../kernel/simulation';
import { lastStableOffset, type PartitionLog } from '../log/partitionLog';
import type { ControlType } from '../log/recordBatch';
import { coordinatorPartitionFor } from '../producer/partitioner';
import { keyOf, parseTopicPartition } from '../protocol/topicPartition';
import { type RunOptions, runScenario, type Trace } from '../run';
import type { ConsumerClientSpec } from '../scenario/schema';
import { coordinatorGroups, groupOffsetsHeld } from '../trace/coordinatorGroups';
import { envelopeRows } from '../trace/envelopeRows';
import type { Fact } from '../trace/facts';
import { checkNetwork, NETWORK_INVARIANTS, type NetworkInvariantId } from './network';
import { checkPolls, POLL_INVARIANTS, type PollInvariantId } from './polls';
import { acksAllAcks, REPLICATION_INVARIANTS, type ReplicationInvariantId, ReplicationWatch } from './replicationInvariants';
import { checkSends, SEND_INVARIANTS, type SendInvariantId } from './sends';
import { settledAs } from './settlement';

export type InvariantId =
  | 'offsets-unique'
  | 'offsets-dense'
  | 'lso-hw-leo'
  | 'delivered-from-log'
  | 'read-committed-isolation'
  | 'read-uncommitted-no-control'
  | 'skips-only-aborted-or-markers'
  | 'idempotent-no-duplicate'
  | 'coordinator-transitions'
  | 'fenced-epoch-not-committed'
  | 'exactly-once-output'
  | 'committed-offsets-monotonic'
  | 'leader-epochs-monotonic'
  | 'marker-coordinator-epochs-monotonic'
  | PollInvariantId
  | SendInvariantId
  | ReplicationInvariantId
  | NetworkInvariantId;

/** Each invariant in plain words (docs/proof.md and the fuzzer print these). */
export const INVARIANTS: Readonly<Record<InvariantId, string>> = {
  'offsets-unique':
    'Offsets in a partition are unique and increase from batch to batch; compaction never changes them. A leader appends at its own log end offset; after a leader change a new leader (or a deposed one) appends at its own, so offsets a replica truncated or never had may be written again.',
  'offsets-dense':
    'Until the log cleaner removes something, a partition has no gaps: every offset from the log start to the log end holds a record, on every replica (truncation cuts a suffix, never a gap); no append lies past everything appended before.',
  'lso-hw-leo': 'log start offset ≤ last stable offset ≤ high watermark ≤ log end offset, on every partition.',
  'delivered-from-log': 'A consumer only receives records that were appended to the log before, with the same event_id.',
  'read-committed-isolation':
    'A read_committed consumer never receives a transaction marker, an aborted record or a record whose transaction is still open.',
  'read-uncommitted-no-control': 'A read_uncommitted consumer never receives a transaction marker.',
  'skips-only-aborted-or-markers':
    'A consumer passes over (without returning) only transaction markers and, with read_committed, records of aborted transactions.',
  'idempotent-no-duplicate':
    'With idempotence, and without application resends or producer restarts, no two data batches of a partition share (producerId, epoch, sequence) — unless the partition forgot the producer in between (producer.id.expiration.ms).',
  'coordinator-transitions': 'The transaction coordinator only makes the state transitions Kafka allows.',
  'fenced-epoch-not-committed': 'No record written with an epoch that had already been fenced or bumped is ever committed.',
  'exactly-once-output':
    "With exactly-once consume-transform-produce and read_committed input, every input below the committed offset appears exactly once in committed output — unless an operator reset the group's offsets (kafka-consumer-groups --reset-offsets: the pipeline then processes again what it had committed). After an unclean election of an input partition (which may cut input already processed, and move the log end below the committed offset): every event in committed output was appended to an input.",
  'committed-offsets-monotonic':
    "A group's committed offset for a partition never goes backwards within a generation — except by an OffsetCommit that arrives after its client closed the connection it was sent on (its retry already landed; Kafka applies the late one too), by a deposed coordinator's own memory (a paused broker that resumes after its __consumer_offsets partition moved keeps a timed-out write until it unloads the partition; no client reads it there), by an operator's reset (kafka-consumer-groups --reset-offsets, the count starts again from the offset it set), and from an unclean leader election of the partition on (its log may end below the committed offset).",
  'leader-epochs-monotonic':
    "On every replica's log the batches' leader epochs never go down from offset to offset: a leader stamps its own epoch, which only grows, and a follower truncates where its log diverges from the leader's before it appends the leader's batches — a deposed leader's old-epoch append never lands after a newer epoch's records.",
  'marker-coordinator-epochs-monotonic':
    "On every replica's log a producer's transaction markers never go back to an older coordinator epoch: a leader refuses a marker from a coordinator older than the last one that wrote a marker for that producer there (TRANSACTION_COORDINATOR_FENCED), and knows that epoch from the markers it holds, its followers' copies included.",
  ...REPLICATION_INVARIANTS,
  ...POLL_INVARIANTS,
  ...SEND_INVARIANTS,
  ...NETWORK_INVARIANTS,
};

export interface Violation {
  readonly invariant: InvariantId;
  /** Index of the trace step after which the invariant was broken. */
  readonly step: number;
  readonly message: string;
}

export interface InvariantOptions {
  /**
   * Replay the run and check every partition log after every step that touched one (slower).
   * Without it the logs are checked at every checkpoint and at the end.
   */
  readonly everyStep?: boolean;
  /** Stop after this many violations (default 50). */
  readonly limit?: number;
}

// ---------------------------------------------------------------- the ledger of appends

export type Outcome = 'committed' | 'aborted';

export interface LoggedRecord {
  readonly offset: number;
  readonly control: ControlType | null;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactional: boolean;
  readonly eventId: string | null;
  /** Step of the append. */
  readonly step: number;
  /** The leader epoch it was written in (replicated partitions), null if the fact does not say. */
  readonly leaderEpoch: number | null;
  /** For transactional data: the step at which its marker landed, and what it said. */
  settledAt: number | null;
  outcome: Outcome | null;
  /** The marker that settled it last (its own leader's, or a later leader's, see `resettled`). */
  settledBy: LoggedRecord | null;
  /**
   * After an unclean election the marker that settled it may be gone from the new leader's log while
   * the record stays: the producer's next marker there ends it again (Kafka's producer state, rebuilt
   * from that log, still has the transaction open), possibly with the other outcome — a committed
   * transaction's records aborted in that log. Each such later settlement, oldest first.
   */
  resettled: { step: number; outcome: Outcome }[];
  /**
   * Replication: the step at which this record stopped being the partition's record at its offset
   * (an append after a leader change wrote the offset again, or a replica truncated it). null: never.
   */
  supersededAt: number | null;
}

interface DataBatch {
  readonly tp: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly lastSequence: number;
  readonly transactional: boolean;
  readonly step: number;
  readonly records: readonly LoggedRecord[];
  /** Appended by a deposed leader (not the partition's last elected leader): its old epoch's log, cut when it follows. */
  readonly deposed: boolean;
}

export interface Ledger {
  /**
   * The partition's record at each offset of a user topic ("topic-partition"): the latest append there,
   * except that a deposed leader's append in an older epoch never replaces a newer epoch's record.
   */
  readonly partitions: Map<string, Map<number, LoggedRecord>>;
  /** Every record ever appended at each offset, oldest first (more than one after a leader change). */
  readonly versions: Map<string, Map<number, LoggedRecord[]>>;
  readonly dataBatches: DataBatch[];
  /** First step at which the cleaner removed records from a partition. */
  readonly cleanedAt: Map<string, number>;
  /** Partitions that had an unclean leader election. */
  readonly unclean: Set<string>;
}

/** The record a reader saw at `offset` before `step`: the version with its event_id if one was appended by then, else the latest. */
function versionBefore(ledger: Ledger, tp: string, offset: number, step: number, eventId?: string | null): LoggedRecord | undefined {
  const all = ledger.versions.get(tp)?.get(offset) ?? [];
  const before = all.filter((r) => r.step < step);
  if (before.length === 0) return all[0];
  return (eventId !== undefined ? before.find((r) => r.eventId === eventId) : undefined) ?? before[before.length - 1];
}

/** What a record's transaction outcome was after `step` steps: null for non-transactional data. */
function outcomeAt(r: LoggedRecord, step: number): Outcome | 'open' | null {
  if (!r.transactional || r.control) return null;
  return r.settledAt !== null && r.settledAt <= step ? (r.outcome as Outcome) : 'open';
}

class Collector {
  readonly list: Violation[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly limit: number) {}
  get full(): boolean {
    return this.list.length >= this.limit;
  }
  /** Records a violation once per `key` (the same broken state seen at many checkpoints is one finding). */
  add(invariant: InvariantId, step: number, message: string, key: string = message): void {
    const k = `${invariant}|${key}`;
    if (this.full || this.seen.has(k)) return;
    this.seen.add(k);
    this.list.push({ invariant, step, message });
  }
}

function factsOf(trace: Trace): { step: number; fact: Fact }[] {
  const out: { step: number; fact: Fact }[] = [];
  for (const s of trace.steps) for (const f of s.facts) out.push({ step: s.i, fact: f as Fact });
  return out;
}

/** Replays the append facts of user topics: offsets must follow on from each other, markers settle transactions. */
function buildLedger(trace: Trace, facts: readonly { step: number; fact: Fact }[], v: Collector): Ledger {
  // every topic but Kafka's internal ones (__consumer_offsets' data appends are not facts); Streams'
  // changelog and repartition topics are not in the scenario and start at 0
  const startOffsets = new Map(trace.scenario.topics.map((t) => [t.name, t.startOffset ?? 0]));
  const partitions = new Map<string, Map<number, LoggedRecord>>();
  const next = new Map<string, number>();
  const open = new Map<string, LoggedRecord[]>();
  const dataBatches: DataBatch[] = [];
  const cleanedAt = new Map<string, number>();
  const versions = new Map<string, Map<number, LoggedRecord[]>>();
  const unclean = new Set<string>();
  // replication: the last leader change per partition, and each appending broker's own log end
  const leaderChangedAt = new Map<string, number>();
  const electedLeader = new Map<string, string | null>();
  const appender = new Map<string, { end: number; step: number }>();
  // An append after a leader change takes the offsets from `from` on from what another leader wrote
  // there in an older epoch — never from a newer epoch's records: a deposed leader that has not heard
  // of the election still appends in its old epoch, in its own log, and truncates that when it
  // follows (AbstractFetcherThread: DivergingEpoch); the new leader's records stay the partition's.
  const newer = (r: LoggedRecord, epoch: number | null) => r.leaderEpoch !== null && epoch !== null && r.leaderEpoch > epoch;
  const supersede = (tp: string, from: number, step: number, epoch: number | null) => {
    for (const [o, r] of partitions.get(tp) ?? []) if (o >= from && r.supersededAt === null && !newer(r, epoch)) r.supersededAt = step;
  };
  for (const { step, fact } of facts) {
    if (fact.kind === 'leaderChange') {
      leaderChangedAt.set(keyOf(fact), step);
      electedLeader.set(keyOf(fact), fact.leader);
      if (fact.election === 'unclean') unclean.add(keyOf(fact));
      continue;
    }
    if (fact.kind === 'truncated') {
      // the replica no longer holds these (its leader never had them): the same records, if current, are
      // gone. The same append: an offset and its leader epoch name one record on every replica (Kafka's
      // log matching, LeaderEpochFileCache); a producer's retry the new leader wrote at that offset has
      // the same event_id, but a later epoch, and stays
      const records = partitions.get(keyOf(fact));
      const cutEpochs = new Map<number, number | undefined>();
      for (const b of fact.batches) for (let o = b.baseOffset; o <= b.lastOffset; o++) cutEpochs.set(o, b.partitionLeaderEpoch);
      for (let o = fact.fromOffset; o < fact.toOffset; o++) {
        const r = records?.get(o);
        if (!r || r.supersededAt !== null || r.eventId !== (fact.eventIds[o - fact.fromOffset] ?? null)) continue;
        const cut = cutEpochs.get(o);
        if (cut === undefined || r.leaderEpoch === null || cut === r.leaderEpoch) r.supersededAt = step;
      }
      continue;
    }
    if (fact.kind === 'cleaned' && fact.removed + (fact.markers ?? 0) > 0) {
      const k = keyOf(fact);
      if (!cleanedAt.has(k)) cleanedAt.set(k, step);
      continue;
    }
    if (fact.kind !== 'append' || fact.topic.startsWith('__')) continue;
    const tp = keyOf(fact);
    let records = partitions.get(tp);
    if (!records) {
      records = new Map();
      partitions.set(tp, records);
    }
    const expected = next.get(tp) ?? startOffsets.get(fact.topic) ?? 0;
    const count = fact.lastOffset - fact.baseOffset + 1;
    const broker = trace.steps.at(step)?.actor ?? '';
    const changed = leaderChangedAt.get(tp);
    const own = appender.get(`${tp}|${broker}`);
    if (changed === undefined) {
      // one leader all along: every append at the partition's log end offset
      if (fact.baseOffset < expected)
        v.add('offsets-unique', step, `${tp}: a batch was appended at offset ${fact.baseOffset}, below the log end offset ${expected}`);
      else if (fact.baseOffset > expected)
        v.add(
          'offsets-dense',
          step,
          `${tp}: a batch was appended at offset ${fact.baseOffset}, leaving a gap after the log end offset ${expected}`,
        );
    } else if (own && own.step > changed) {
      // no leader change since this broker's last append: it appends at its own log end offset
      if (fact.baseOffset < own.end)
        v.add('offsets-unique', step, `${tp}: ${broker} appended at offset ${fact.baseOffset}, below its log end offset ${own.end}`);
      else if (fact.baseOffset > own.end)
        v.add(
          'offsets-dense',
          step,
          `${tp}: ${broker} appended at offset ${fact.baseOffset}, leaving a gap after its log end offset ${own.end}`,
        );
    } else if (fact.baseOffset > expected)
      // after a leader change the appender's log end offset is its own, but never past everything appended
      v.add(
        'offsets-dense',
        step,
        `${tp}: ${broker} appended at offset ${fact.baseOffset}, past every offset appended before (${expected})`,
      );
    appender.set(`${tp}|${broker}`, { end: fact.lastOffset + 1, step });
    // what another leader wrote at these offsets and after is not in this broker's log
    if (changed !== undefined && fact.baseOffset < expected) supersede(tp, fact.baseOffset, step, fact.leaderEpoch ?? null);
    if (count < 1 || (fact.control === null && count !== fact.eventIds.length) || (fact.control !== null && count !== 1))
      v.add(
        'offsets-unique',
        step,
        `${tp}: a batch at ${fact.baseOffset}..${fact.lastOffset} does not span one offset per record (${fact.control ? 'a marker' : `${fact.eventIds.length} records`})`,
      );
    next.set(tp, Math.max(expected, fact.lastOffset + 1));
    const batch: LoggedRecord[] = [];
    for (let o = fact.baseOffset; o <= fact.lastOffset; o++) {
      const r: LoggedRecord = {
        offset: o,
        control: fact.control,
        producerId: fact.producerId,
        producerEpoch: fact.producerEpoch,
        transactional: fact.transactional,
        eventId: fact.control ? null : (fact.eventIds[o - fact.baseOffset] ?? null),
        step,
        leaderEpoch: fact.leaderEpoch ?? null,
        settledAt: null,
        outcome: null,
        settledBy: null,
        resettled: [],
        supersededAt: null,
      };
      const current = records.get(o);
      if (current && changed === undefined) v.add('offsets-unique', step, `${tp}: offset ${o} was appended twice`);
      // a deposed leader's append below a newer epoch's record: a version only, gone from the start
      if (current && current.supersededAt === null && newer(current, r.leaderEpoch)) r.supersededAt = step;
      else records.set(o, r);
      let at = versions.get(tp);
      if (!at) {
        at = new Map();
        versions.set(tp, at);
      }
      at.set(o, [...(at.get(o) ?? []), r]);
      batch.push(r);
    }
    const pk = `${tp}|${fact.producerId}`;
    if (fact.control) {
      // a marker ends whatever this producer had open on this partition
      const outcome: Outcome = fact.control === 'COMMIT' ? 'committed' : 'aborted';
      const marker = batch[0] as LoggedRecord;
      for (const r of open.get(pk) ?? []) {
        r.settledAt = step;
        r.outcome = outcome;
        r.settledBy = marker;
      }
      open.delete(pk);
      // and, in this leader's log, this producer's data whose marker a leader change took away
      for (const [o, r] of records)
        if (o < fact.baseOffset && r.producerId === fact.producerId && r.settledBy?.supersededAt != null && r.supersededAt === null) {
          r.resettled.push({ step, outcome });
          r.settledBy = marker;
        }
      continue;
    }
    if (fact.transactional) open.set(pk, [...(open.get(pk) ?? []), ...batch]);
    dataBatches.push({
      tp,
      producerId: fact.producerId,
      producerEpoch: fact.producerEpoch,
      baseSequence: fact.baseSequence,
      lastSequence: fact.lastSequence,
      transactional: fact.transactional,
      step,
      records: batch,
      deposed: changed !== undefined && electedLeader.get(tp) !== broker,
    });
  }
  return { partitions, versions, dataBatches, cleanedAt, unclean };
}

// ---------------------------------------------------------------- the logs themselves

const LOG_HOLDERS = /^(broker-\d+|txn-coordinator|group-coordinator)$/;

function checkLog(log: PartitionLog, step: number, dense: boolean, v: Collector): void {
  const tp = keyOf(log);
  const lso = lastStableOffset(log);
  if (!(log.logStartOffset <= lso && lso <= log.highWatermark && log.highWatermark <= log.logEndOffset))
    v.add(
      'lso-hw-leo',
      step,
      `${tp}: log start ${log.logStartOffset}, LSO ${lso}, high watermark ${log.highWatermark}, log end ${log.logEndOffset} are out of order`,
      `${tp}|${log.logStartOffset}|${lso}|${log.highWatermark}|${log.logEndOffset}`,
    );
  let prev = log.logStartOffset - 1;
  let epoch: number | undefined;
  /** producerId → the coordinator epoch of its last marker so far */
  const markerEpochs = new Map<number, number>();
  for (const b of log.batches) {
    if (b.isControl && b.coordinatorEpoch !== undefined) {
      const last = markerEpochs.get(b.producerId);
      if (last !== undefined && b.coordinatorEpoch < last)
        v.add(
          'marker-coordinator-epochs-monotonic',
          step,
          `${tp}: the ${b.controlType} marker at ${b.baseOffset} of producer ${b.producerId} was written by coordinator epoch ${b.coordinatorEpoch}, after a marker of epoch ${last}`,
          `${tp}|${b.baseOffset}|${b.coordinatorEpoch}`,
        );
      markerEpochs.set(b.producerId, Math.max(last ?? -1, b.coordinatorEpoch));
    }
    if (b.partitionLeaderEpoch !== undefined) {
      if (epoch !== undefined && b.partitionLeaderEpoch < epoch) {
        v.add(
          'leader-epochs-monotonic',
          step,
          `${tp}: the batch at ${b.baseOffset} has leader epoch ${b.partitionLeaderEpoch}, after a batch of epoch ${epoch}`,
          `${tp}|${b.baseOffset}|${b.partitionLeaderEpoch}`,
        );
        return;
      }
      epoch = b.partitionLeaderEpoch;
    }
    // an empty batch is the cleaner's: a header it kept (RETAIN_EMPTY), so never in a log nothing was cleaned from
    if (b.baseOffset > b.lastOffset || (b.records.length === 0 && dense)) {
      v.add('offsets-unique', step, `${tp}: a batch spans ${b.baseOffset}..${b.lastOffset} with ${b.records.length} record(s)`);
      return;
    }
    if (b.baseOffset <= prev) {
      v.add('offsets-unique', step, `${tp}: the batch at ${b.baseOffset} does not come after offset ${prev}`);
      return;
    }
    if (dense && b.baseOffset !== prev + 1) {
      v.add('offsets-dense', step, `${tp}: offsets ${prev + 1}..${b.baseOffset - 1} are missing before anything was cleaned`);
      return;
    }
    if (b.records.length === 0) {
      // LogCleaner's checkBatchRetention → RETAIN_EMPTY (MemoryRecords.filterTo writes the header
      // alone): its offsets stay taken
      prev = b.lastOffset;
      continue;
    }
    for (const r of b.records) {
      if (r.offset <= prev || r.offset < b.baseOffset || r.offset > b.lastOffset) {
        v.add('offsets-unique', step, `${tp}: offset ${r.offset} repeats or lies outside its batch ${b.baseOffset}..${b.lastOffset}`);
        return;
      }
      if (dense && r.offset !== prev + 1) {
        v.add('offsets-dense', step, `${tp}: offset ${prev + 1} is missing before anything was cleaned`);
        return;
      }
      prev = r.offset;
    }
    if (dense && prev !== b.lastOffset) {
      v.add('offsets-dense', step, `${tp}: the batch ${b.baseOffset}..${b.lastOffset} ends at ${prev}`);
      return;
    }
  }
  if (prev >= log.logEndOffset) v.add('offsets-unique', step, `${tp}: offset ${prev} is at or past the log end offset ${log.logEndOffset}`);
  if (dense && prev !== log.logEndOffset - 1)
    v.add('offsets-dense', step, `${tp}: the last record is at ${prev} but the log end offset is ${log.logEndOffset}`);
}

/** Every partition log the actors hold, each replica of a replicated partition on its own, with its holder. */
function logsOf(actors: Iterable<readonly [string, unknown]>): { holder: string; log: PartitionLog }[] {
  const out: { holder: string; log: PartitionLog }[] = [];
  for (const [id, snap] of actors) {
    if (!LOG_HOLDERS.test(id)) continue;
    const ctx = (snap as { context: { partitions?: Record<string, PartitionLog>; logs?: Record<string, PartitionLog> } }).context;
    for (const log of Object.values((id.startsWith('broker-') ? ctx.partitions : ctx.logs) ?? {})) out.push({ holder: id, log });
  }
  return out;
}

function isDense(ledger: Ledger, log: PartitionLog, stepsTaken: number): boolean {
  const at = ledger.cleanedAt.get(keyOf(log));
  return at === undefined || at >= stepsTaken;
}

function checkCheckpoints(trace: Trace, ledger: Ledger, v: Collector, watch: ReplicationWatch | null): void {
  for (const cp of trace.checkpoints as readonly Checkpoint[]) {
    const step = Math.max(0, cp.step - 1);
    for (const { log } of logsOf(cp.actors)) checkLog(log, step, isDense(ledger, log, cp.step), v);
    watch?.observe(new Map(cp.actors as readonly (readonly [string, { value: unknown; context: unknown }])[]), cp.step);
  }
}

/** Replays the run from its first checkpoint and checks each log a step changed, right after that step. */
function checkEveryStep(trace: Trace, ledger: Ledger, v: Collector, watch: ReplicationWatch | null): void {
  const first = trace.checkpoints[0];
  if (!first) return;
  const sim = Simulation.restore(trace.built.specs, { ...trace.built.options, record: false }, first);
  const last = new Map<string, PartitionLog>();
  for (const { holder, log } of logsOf(first.actors)) last.set(`${holder}|${keyOf(log)}`, log);
  while (sim.stepIndex < trace.steps.length && !v.full) {
    if (!sim.step()) break;
    const actor = sim.lastActor as string;
    const i = sim.stepIndex - 1;
    // replication: leaders, ISRs and replicas move on broker and controller steps
    if (watch && (actor === 'controller' || actor.startsWith('broker-'))) watch.observe(sim.actorSnapshots(), i + 1);
    if (!LOG_HOLDERS.test(actor)) continue;
    const snap = sim.actorSnapshots().get(actor);
    if (!snap) continue;
    for (const { log } of logsOf([[actor, snap]])) {
      const k = `${actor}|${keyOf(log)}`;
      if (last.get(k) === log) continue;
      last.set(k, log);
      checkLog(log, i, isDense(ledger, log, i + 1), v);
    }
  }
}

// ---------------------------------------------------------------- what consumers received

function checkDeliveries(facts: readonly { step: number; fact: Fact }[], ledger: Ledger, v: Collector): void {
  for (const { step, fact } of facts) {
    if (fact.kind !== 'delivered') continue;
    const tp = keyOf(fact);
    const eventId = fact.headers.event_id ?? null;
    const r = versionBefore(ledger, tp, fact.offset, step, eventId);
    const who = `${fact.consumer} (${fact.isolationLevel})`;
    if (!r || r.step >= step) {
      v.add('delivered-from-log', step, `${who} received ${tp}@${fact.offset}, which was never appended before`);
      continue;
    }
    if (!r.control && eventId !== r.eventId)
      v.add(
        'delivered-from-log',
        step,
        `${who} received ${tp}@${fact.offset} with event_id ${eventId}, but the log holds event_id ${r.eventId} there`,
      );
    if (fact.isolationLevel === 'read_committed') {
      const outcome = outcomeAt(r, step);
      if (r.control) v.add('read-committed-isolation', step, `${who} received the ${r.control} marker at ${tp}@${fact.offset}`);
      else if ((outcome === 'open' || outcome === 'aborted') && !settledAs(r, 'committed', step))
        v.add(
          'read-committed-isolation',
          step,
          `${who} received ${tp}@${fact.offset} (producerId ${r.producerId}) while its transaction was ${outcome}`,
        );
    } else if (r.control) v.add('read-uncommitted-no-control', step, `${who} received the ${r.control} marker at ${tp}@${fact.offset}`);
  }
}

/** Whether a consumer may pass over `r` for `reason` after `step` steps: a marker, or data of a transaction aborted by then. */
const skippable = (r: LoggedRecord, reason: string, step: number) =>
  reason === 'control' ? r.control !== null : r.control === null && settledAs(r, 'aborted', step);

/**
 * A skipped range must hold only markers, or (reason 'aborted') only data of transactions aborted by
 * then. The consumer read one replica's log, which the fact does not name: an offset written again
 * after a leader change (a deposed leader's append below the new leader's records) has a version per
 * replica, and the skip is right if one of them justifies it, as a delivery is matched by its event_id.
 */
function checkSkips(facts: readonly { step: number; fact: Fact }[], ledger: Ledger, v: Collector): void {
  for (const { step, fact } of facts) {
    if (fact.kind !== 'skipped') continue;
    const tp = keyOf(fact);
    for (let o = fact.baseOffset; o <= fact.lastOffset; o++) {
      const written = (ledger.versions.get(tp)?.get(o) ?? []).filter((x) => x.step < step);
      const r = written.findLast((x) => skippable(x, fact.reason, step)) ?? versionBefore(ledger, tp, o, step);
      if (!r || r.step >= step) {
        v.add(
          'skips-only-aborted-or-markers',
          step,
          `${fact.consumer} skipped ${tp}@${o} (${fact.reason}), which was never appended before`,
        );
        break;
      }
      if (!skippable(r, fact.reason, step)) {
        const what = r.control ? `the ${r.control} marker` : `a record whose transaction was ${outcomeAt(r, step) ?? 'not transactional'}`;
        v.add('skips-only-aborted-or-markers', step, `${fact.consumer} skipped ${tp}@${o} as ${fact.reason}, but it is ${what}`);
        break;
      }
    }
  }
}

// ---------------------------------------------------------------- producers

/** Clients whose process holds a producer, and whether any of them resends or restarts. */
function producerRestartsOrResends(trace: Trace): boolean {
  const s = trace.scenario;
  const withProducer = new Set<string>();
  for (const c of s.clients) {
    if (c.type === 'producer') {
      withProducer.add(c.id);
      if (c.script.some((op) => op.op === 'resend' || op.op === 'restart')) return true;
    } else if (c.type === 'consumer' && trace.resolved.producers[`${c.id}.producer`]) withProducer.add(c.id);
    else if (c.type === 'streams') withProducer.add(c.id);
  }
  return (s.faults ?? []).some((f) => (f.type === 'crash' || f.type === 'restart') && withProducer.has(f.target));
}

/** The steps at which a broker's expiration check dropped each producer from a partition, by "tp|producerId". */
function expiriesOf(facts: readonly { step: number; fact: Fact }[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const { step, fact } of facts)
    if (fact.kind === 'producerStateExpired' || fact.kind === 'producerStateLoaded')
      // a restart's reload forgets too: producers left out as expired, earlier batches of those loaded from a snapshot
      for (const p of fact.kind === 'producerStateExpired' ? fact.producers : [...fact.dropped, ...fact.lastBatchOnly]) {
        const k = `${keyOf(fact)}|${p.producerId}`;
        out.set(k, [...(out.get(k) ?? []), step]);
      }
  return out;
}

function checkIdempotence(trace: Trace, ledger: Ledger, facts: readonly { step: number; fact: Fact }[], v: Collector): void {
  if (producerRestartsOrResends(trace)) return;
  // producer.id.expiration.ms: a batch written after the partition forgot its producer met no state
  const expiries = expiriesOf(facts);
  const byKey = new Map<string, DataBatch[]>();
  for (const b of ledger.dataBatches) {
    if (b.producerId < 0 || b.baseSequence < 0) continue;
    const k = `${b.tp}|${b.producerId}|${b.producerEpoch}`;
    const list = byKey.get(k) ?? [];
    // a deposed leader's append is in its old epoch's log, which it truncates once it follows: the
    // leader's own append of the same sequences (the producer's retry) is not a duplicate of it
    if (b.deposed) continue;
    for (const o of list) {
      // a batch a leader change took from the log may be written again by the producer's retry
      const gone = o.records[0]?.supersededAt;
      if (gone !== null && gone !== undefined && gone <= b.step) continue;
      if ((expiries.get(`${b.tp}|${b.producerId}`) ?? []).some((e) => e > o.step && e < b.step)) continue;
      if (b.baseSequence <= o.lastSequence && o.baseSequence <= b.lastSequence)
        v.add(
          'idempotent-no-duplicate',
          b.step,
          `${b.tp}: producerId ${b.producerId} epoch ${b.producerEpoch} sequences ${b.baseSequence}..${b.lastSequence} were appended at offset ${b.records[0]?.offset} although ${o.baseSequence}..${o.lastSequence} were already at offset ${o.records[0]?.offset}`,
        );
    }
    list.push(b);
    byKey.set(k, list);
  }
}

/**
 * Each coordinator's own states per transactional.id (Kafka's TransactionMetadata lives in one
 * broker's cache): a transition must start from the state that coordinator last told. A coordinator
 * that crashed, or loaded a partition (onElection takes each id's state from its replica, which may
 * hold a write its old leader never saw acknowledged), starts over; a deposed coordinator that has
 * not yet learned it (a paused broker resuming) may still complete a write from its own memory after
 * the new coordinator moved on, so one coordinator's states are never held against another's.
 */
function checkCoordinator(trace: Trace, facts: readonly { step: number; fact: Fact }[], v: Collector): void {
  const isState = (s: string): s is TxnState => (TXN_STATES as readonly string[]).includes(s);
  const isCoordinator = (actor: string) => actor === 'txn-coordinator' || actor.endsWith('.txn-coordinator');
  /** coordinator actor → transactional.id → the state it last told */
  const memory = new Map<string, Map<string, string>>();
  /** step → the coordinators whose memory starts over at it (a crash of its process, a partition's load) */
  const forget = new Map<number, string[]>();
  const forgetAt = (step: number, actor: string) => forget.set(step, [...(forget.get(step) ?? []), actor]);
  for (const s of trace.steps) {
    if (s.kind === 'fault' && s.label === 'crash') forgetAt(s.i, s.actor);
    if (s.kind === 'timer' && s.label === 'partitionLoaded' && isCoordinator(s.actor)) forgetAt(s.i, s.actor);
  }
  const wipe = (forgotten: string) => {
    // a process's crash (`broker-0`) wipes the coordinator it hosts (`broker-0.txn-coordinator`)
    for (const actor of memory.keys()) if (actor === forgotten || actor.startsWith(`${forgotten}.`)) memory.delete(actor);
  };
  let nextForget = 0;
  for (const { step, fact } of facts) {
    for (; nextForget <= step; nextForget++) for (const actor of forget.get(nextForget) ?? []) wipe(actor);
    if (fact.kind === 'clientError' && fact.client === 'txn-coordinator' && fact.error === 'IllegalStateException')
      v.add('coordinator-transitions', step, `the coordinator attempted ${fact.during}, which Kafka does not allow (it refused it)`);
    if (fact.kind !== 'txnState') continue;
    const id = fact.transactionalId;
    const ok = fact.from === '(new)' ? fact.to === 'Empty' : isState(fact.from) && isState(fact.to) && canTransition(fact.from, fact.to);
    if (!ok) v.add('coordinator-transitions', step, `${id}: ${fact.from} → ${fact.to} is not a transition Kafka allows`);
    const coordinator = trace.steps.at(step)?.actor ?? 'txn-coordinator';
    const states = memory.get(coordinator) ?? new Map<string, string>();
    memory.set(coordinator, states);
    const was = states.get(id);
    if (was !== undefined && fact.from !== '(new)' && was !== fact.from)
      v.add('coordinator-transitions', step, `${id}: ${coordinator} moved it from ${fact.from}, but its state there was ${was}`);
    states.set(id, fact.to);
  }
}

function checkFencedEpochs(facts: readonly { step: number; fact: Fact }[], ledger: Ledger, v: Collector): void {
  // the first step at which each (producerId, epoch) was known to the coordinator or written in a marker
  const epochSeen = new Map<number, { epoch: number; step: number }[]>();
  const note = (pid: number, epoch: number, step: number) => {
    const list = epochSeen.get(pid) ?? [];
    if (!list.some((e) => e.epoch === epoch)) list.push({ epoch, step });
    epochSeen.set(pid, list);
  };
  for (const { step, fact } of facts) {
    if (fact.kind === 'txnState') note(fact.producerId, fact.producerEpoch, step);
    else if (fact.kind === 'append' && fact.control) note(fact.producerId, fact.producerEpoch, step);
  }
  const end = Number.POSITIVE_INFINITY;
  for (const b of ledger.dataBatches) {
    if (!b.transactional) continue;
    const later = (epochSeen.get(b.producerId) ?? []).find((e) => e.epoch > b.producerEpoch && e.step < b.step);
    if (!later) continue;
    const committed = b.records.filter((r) => r.supersededAt === null && outcomeAt(r, end) === 'committed');
    if (committed.length)
      v.add(
        'fenced-epoch-not-committed',
        b.step,
        `${b.tp}@${b.records[0]?.offset}: producerId ${b.producerId} wrote with epoch ${b.producerEpoch} after epoch ${later.epoch} existed (step ${later.step}), and it was committed`,
      );
  }
}

/**
 * The steps at which a request of kind `rpc` reached its server after its client had closed the
 * connection it was sent on (its request timeout passed): a late request is still read and handled.
 */
export function lateRequestSteps(trace: Trace, rpc: string): Set<number> {
  const closedAt = new Map<string, number>();
  for (const s of trace.steps) {
    if (s.kind !== 'disconnected' || s.envelope === null) continue;
    const e = trace.envelopes.at(s.envelope);
    if (!e) continue;
    const k = `${e.connection}#${e.generation}`;
    if (!closedAt.has(k)) closedAt.set(k, s.i);
  }
  const late = new Set<number>();
  for (const e of envelopeRows(trace)) {
    if (e.rpc !== rpc || e.deliveredStep === null) continue;
    const closed = closedAt.get(`${e.connection}#${e.generation}`);
    if (closed !== undefined && closed < e.deliveredStep) late.add(e.deliveredStep);
  }
  return late;
}

/**
 * The steps at which an OffsetCommit that reached the group coordinator after its client had closed
 * the connection took effect: such a late request is applied — Kafka has no fencing for a plain
 * OffsetCommit of the same member and generation — so it may set the committed offset back to what
 * its retry already passed. With a deposed coordinator’s own memory (deposedCoordinatorSteps), an operator’s
 * reset and an unclean election, those are the only exceptions to committed-offsets-monotonic.
 *
 * A commit takes effect where its offsetsCommitted fact is recorded: at the delivery when
 * __consumer_offsets has one replica, and otherwise where the coordinator's write is answered (the
 * high watermark passed it, CoordinatorRuntime) — the step that sends the request's answer, lost or
 * not, which may come many steps after the delivery.
 */
export function lateOffsetCommitSteps(trace: Trace): Set<number> {
  const delivered = lateRequestSteps(trace, 'OffsetCommit');
  const lateRequests = new Set<number>();
  for (const e of envelopeRows(trace))
    if (e.rpc === 'OffsetCommit' && e.deliveredStep !== null && delivered.has(e.deliveredStep)) lateRequests.add(e.id);
  const steps = new Set(delivered);
  for (const e of envelopeRows(trace)) if (e.inReplyTo !== null && lateRequests.has(e.inReplyTo)) steps.add(e.sentStep);
  return steps;
}

/**
 * Whether a commit's fact comes from a deposed group coordinator: one a broker hosts
 * (`broker-1.group-coordinator`) while the controller has already moved the leadership of the group's
 * `__consumer_offsets` partition to another broker. A paused broker that resumes runs what it held —
 * a write whose wait for the high watermark timed out meanwhile keeps its offsets in that
 * coordinator's memory (CoordinatorRuntime fails only the answer) — before it hears that it no longer
 * leads the partition and unloads it. No client reads them there: the new coordinator loaded the
 * group from its own replica, and the deposed broker's log is truncated to the new leader's. So, as
 * with the transaction coordinator, one coordinator's memory is not held against another's.
 */
function deposedCoordinatorSteps(trace: Trace, facts: readonly { step: number; fact: Fact }[]): Set<number> {
  const partitions = trace.resolved.cluster['offsets.topic.num.partitions'];
  const leaders = new Map<number, string | null>();
  const out = new Set<number>();
  for (const { step, fact } of facts) {
    if (fact.kind === 'leaderChange' && fact.topic === CONSUMER_OFFSETS_TOPIC) leaders.set(fact.partition, fact.leader);
    if (fact.kind !== 'offsetsCommitted') continue;
    const host = /^(.+)\.group-coordinator$/.exec(trace.steps.at(step)?.actor ?? '')?.[1];
    const partition = coordinatorPartitionFor(fact.groupId, partitions);
    if (host !== undefined && leaders.has(partition) && leaders.get(partition) !== host) out.add(step);
  }
  return out;
}

function checkCommittedOffsets(
  facts: readonly { step: number; fact: Fact }[],
  late: ReadonlySet<number>,
  deposed: ReadonlySet<number>,
  v: Collector,
): void {
  const last = new Map<string, number>();
  // partitions that had an unclean election: from then on their log may end below what was committed
  // (by a consumer that read the old leader's records, before or after the election), and a consumer
  // that finds the log shorter resets to the leader's end offset and commits that — no longer checked
  const unclean = new Set<string>();
  for (const { step, fact } of facts) {
    if (fact.kind === 'leaderChange' && fact.election === 'unclean') {
      unclean.add(keyOf(fact));
      continue;
    }
    if (fact.kind !== 'offsetsCommitted' || late.has(step) || deposed.has(step)) continue;
    if (fact.operatorReset) {
      // an operator moved them on purpose: every generation's count starts again from here
      for (const o of fact.offsets)
        for (const k of [...last.keys()]) if (k.startsWith(`${fact.groupId}|`) && k.endsWith(`|${keyOf(o)}`)) last.delete(k);
      continue;
    }
    for (const o of fact.offsets) {
      if (unclean.has(keyOf(o))) continue;
      const k = `${fact.groupId}|${fact.generationId}|${keyOf(o)}`;
      const prev = last.get(k);
      if (prev !== undefined && o.offset < prev)
        v.add(
          'committed-offsets-monotonic',
          step,
          `group ${fact.groupId} generation ${fact.generationId}: committed offset of ${keyOf(o)} went back from ${prev} to ${o.offset}`,
        );
      last.set(k, Math.max(prev ?? o.offset, o.offset));
    }
  }
}

// ---------------------------------------------------------------- exactly-once output

/** Topics that some client other than the given group's members writes to. */
function topicsWrittenOutside(trace: Trace, members: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const c of trace.scenario.clients) {
    if (c.type === 'producer') for (const op of c.script) if (op.op === 'send') out.add(op.topic);
    if (c.type === 'consumer' && !members.has(c.id) && c.processing?.outputTopic) out.add(c.processing.outputTopic);
    if (c.type === 'streams') out.add(c.outputTopic);
  }
  for (const k of trace.scenario.sinks ?? []) if (k.topic) out.add(k.topic);
  return out;
}

/**
 * Per group whose members all run exactly-once consume-transform-produce with read_committed: once the
 * run has settled (no pending transactional offsets, no open output), each input record below the
 * group's committed offset appears exactly once in committed output, counted per event_id (the
 * verdict's rule: a record is committed output when it is non-transactional or its transaction
 * committed). If the input may have been read from a later start (auto.offset.reset other than
 * earliest) or cleaned, only "at most once" is checked. A group no coordinator holds at the end (its
 * `__consumer_offsets` partition without a leader, or loading) is not checked: its committed offsets
 * are in that partition's log, unknown to the run's end state.
 */
function checkExactlyOnce(trace: Trace, facts: readonly { step: number; fact: Fact }[], ledger: Ledger, v: Collector): void {
  const end = trace.checkpoints[trace.checkpoints.length - 1];
  if (!end || end.step !== trace.steps.length) return;
  const step = Math.max(0, trace.steps.length - 1);
  const gcDown = end.processes.some(([id, p]) => id === 'group-coordinator' && p.down);
  const coordinated: Record<string, ConsumerGroup> = coordinatorGroups(end.actors);
  const groups = new Map<string, ConsumerClientSpec[]>();
  for (const c of trace.scenario.clients) {
    if (c.type !== 'consumer') continue;
    const g = trace.resolved.consumers[c.id]?.['group.id'];
    if (g) groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  for (const [groupId, members] of groups) {
    // sendOffsetsToTransaction's contract: read_committed and enable.auto.commit=false (an auto-commit
    // outside the transaction can commit past records whose transaction then aborts: eos-auto-commit-rebalance)
    const eos = members.every(
      (m) =>
        m.processing?.mode === 'exactly-once' &&
        trace.resolved.consumers[m.id]?.['isolation.level'] === 'read_committed' &&
        trace.resolved.consumers[m.id]?.['enable.auto.commit'] === false,
    );
    // the committed offsets are unknown while no coordinator holds the group (its __consumer_offsets
    // partition offline or still loading): they wait in that partition's log, not "none"
    if (!eos || gcDown || !groupOffsetsHeld(end.actors, groupId)) continue;
    // an operator reset its offsets: what it had committed is processed again, on purpose (offset-reset-replays-output)
    if (facts.some(({ fact }) => fact.kind === 'offsetsCommitted' && fact.operatorReset && fact.groupId === groupId)) continue;
    const outputs = new Set(members.map((m) => m.processing?.outputTopic as string));
    const inputs = new Set(members.flatMap((m) => m.topics));
    const foreign = topicsWrittenOutside(trace, new Set(members.map((m) => m.id)));
    if ([...outputs].some((t) => foreign.has(t) || inputs.has(t))) continue;
    const group = coordinated[groupId];
    if (group && group.pending.length > 0) continue;
    const committedOffsets = group?.committed ?? {};

    const actual = new Map<string | null, number>();
    let unsettled = false;
    for (const [tp, records] of ledger.partitions) {
      if (!outputs.has(parseTopicPartition(tp).topic)) continue;
      for (const r of records.values()) {
        if (r.control || r.supersededAt !== null) continue;
        const o = outcomeAt(r, Number.POSITIVE_INFINITY);
        if (o === 'open') unsettled = true;
        if (o === null || o === 'committed') actual.set(r.eventId, (actual.get(r.eventId) ?? 0) + 1);
      }
    }
    if (unsettled) continue;
    if ([...ledger.unclean].some((tp) => inputs.has(parseTopicPartition(tp).topic))) {
      checkOutputWasInput(ledger, inputs, actual, groupId, outputs, step, v);
      continue;
    }

    // an unclean election may take committed output: only "at most once" is left to check
    let exact = ledger.unclean.size === 0 && members.every((m) => trace.resolved.consumers[m.id]?.['auto.offset.reset'] === 'earliest');
    const expected = new Map<string | null, number>();
    for (const [tp, records] of ledger.partitions) {
      if (!inputs.has(parseTopicPartition(tp).topic)) continue;
      if (ledger.cleanedAt.has(tp)) exact = false;
      const committed = committedOffsets[tp];
      if (committed === undefined) continue;
      for (const r of records.values()) {
        if (r.control || r.offset >= committed || r.supersededAt !== null) continue;
        const o = outcomeAt(r, Number.POSITIVE_INFINITY);
        if (o === 'open')
          v.add(
            'exactly-once-output',
            step,
            `group ${groupId}: committed offset ${committed} of ${tp} passes ${tp}@${r.offset}, still open`,
          );
        if (o === null || o === 'committed') expected.set(r.eventId, (expected.get(r.eventId) ?? 0) + 1);
      }
    }
    const name = (e: string | null) => (e === null ? 'records without event_id' : `event ${e}`);
    for (const e of new Set([...expected.keys(), ...actual.keys()])) {
      const want = expected.get(e) ?? 0;
      const got = actual.get(e) ?? 0;
      if (exact ? got !== want : got > want)
        v.add(
          'exactly-once-output',
          step,
          `group ${groupId}: ${name(e)} is ${got} time(s) in committed output (${[...outputs].join(', ')}), but ${want} input record(s) lie below the committed offsets`,
        );
    }
  }
}

/**
 * An unclean election of an input partition (unclean.leader.election.enable) may cut records the
 * group had read, processed and committed: their output stays. The log end may fall below the
 * committed offset, and the consumer goes back to it (Kafka: KIP-320 validation; the model:
 * OFFSET_OUT_OF_RANGE and auto.offset.reset, which may process survivors again). What is left to
 * check: every event in committed output was appended to an input at some time.
 */
function checkOutputWasInput(
  ledger: Ledger,
  inputs: ReadonlySet<string>,
  actual: ReadonlyMap<string | null, number>,
  groupId: string,
  outputs: ReadonlySet<string>,
  step: number,
  v: Collector,
): void {
  const ever = new Set<string | null>();
  for (const [tp, at] of ledger.versions) {
    if (!inputs.has(parseTopicPartition(tp).topic)) continue;
    for (const records of at.values()) for (const r of records) if (!r.control) ever.add(r.eventId);
  }
  for (const e of actual.keys())
    if (e !== null && !ever.has(e))
      v.add(
        'exactly-once-output',
        step,
        `group ${groupId}: event ${e} is in committed output (${[...outputs].join(', ')}) but was never appended to its input`,
      );
}

// ---------------------------------------------------------------- entry points

/** The ledger of a run's appends to user topics: which record is each partition's at each offset, and since when it is not. */
export function appendLedger(trace: Trace): Ledger {
  return buildLedger(trace, factsOf(trace), new Collector(50));
}

/**
 * The trace with its steps read once, as an array: the checks go over every step about ten times,
 * and a recorded trace builds each step (its facts decoded) anew whenever it is read.
 */
function withStepsRead(trace: Trace): Trace {
  if (Array.isArray(trace.steps)) return trace;
  const { scenario, resolved, built, traceHash, stopReason, stopDetail, endTime, envelopes, checkpoints } = trace;
  return { scenario, resolved, built, traceHash, stopReason, stopDetail, endTime, steps: trace.steps.slice(), envelopes, checkpoints };
}

/** Every violation of Kafka's invariants in a run, in the order found (empty when the run is sound). */
export function checkInvariants(recorded: Trace, options: InvariantOptions = {}): Violation[] {
  const trace = withStepsRead(recorded);
  const v = new Collector(options.limit ?? 50);
  const facts = factsOf(trace);
  const ledger = buildLedger(trace, facts, v);
  const add = (invariant: InvariantId, step: number, message: string, key?: string) => v.add(invariant, step, message, key);
  const watch = () => (ReplicationWatch.relevant(trace) ? new ReplicationWatch(facts, acksAllAcks(trace, facts), add) : null);
  if (options.everyStep) checkEveryStep(trace, ledger, v, watch());
  checkCheckpoints(trace, ledger, v, watch());
  checkDeliveries(facts, ledger, v);
  checkSkips(facts, ledger, v);
  checkPolls(trace, facts, ledger, (invariant, step, message) => v.add(invariant, step, message));
  checkIdempotence(trace, ledger, facts, v);
  checkSends(trace, facts, ledger, (invariant, step, message) => v.add(invariant, step, message));
  checkCoordinator(trace, facts, v);
  checkFencedEpochs(facts, ledger, v);
  checkCommittedOffsets(facts, lateOffsetCommitSteps(trace), deposedCoordinatorSteps(trace, facts), v);
  checkExactlyOnce(trace, facts, ledger, v);
  checkNetwork(trace, (invariant, step, message) => v.add(invariant, step, message));
  return v.list;
}

/** The debug mode: runs a scenario and checks every invariant over the run. */
export function runChecked(
  scenario: unknown,
  options: InvariantOptions & RunOptions = {},
): { readonly trace: Trace; readonly violations: readonly Violation[] } {
  const trace = runScenario(scenario, options);
  return { trace, violations: checkInvariants(trace, options) };
}

/** One line per violation, for test failures and the fuzzer. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations.map((x) => `[${x.invariant}] step ${x.step}: ${x.message}`).join('\n');
}
