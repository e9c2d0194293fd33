/**
 * The verdict's topic layers: for every topic a writer produces to — a producer application
 * ("Kafka log"), or an application, Kafka Streams or an outbox relay ("committed output") — what
 * each copy of each event is (committed, aborted, open, removed by compaction; a retry, a second
 * send(), a new producer session, another writer), which retries the broker recognised, and which
 * events that should be there are not, with why.
 */
import type { UnreplicatedTxn } from '../log/partitionLog';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { Expected, IndexQueries, PartitionHead } from './indexQueries';
import { EFFECTIVE, NO_COPIES } from './indexQueriesOfIndex';
import { eventKey, type RawCopy } from './verdictIndex';
import type {
  AboveHighWatermark,
  AboveHighWatermarkReason,
  Copy,
  CopyCause,
  Loss,
  TopicEvent,
  TopicFinding,
  WriterKind,
  WrittenThoughFailed,
} from './verdictTypes';

export interface TopicWriter {
  readonly topic: string;
  readonly writer: string;
  readonly kind: WriterKind;
  /** relay: the outbox sink it publishes from. */
  readonly sink?: string;
  /** app: the topics it reads. */
  readonly inputs?: readonly string[];
}

export interface TopicContext {
  readonly index: IndexQueries;
  readonly writers: readonly TopicWriter[];
  /** Sends the producer scripts ask for: "client|topic|eventId". */
  readonly intended: readonly { client: string; topic: string; eventId: string }[];
  /** Clients that have stopped for good at the step described, and how. */
  readonly stopped: Readonly<Record<string, 'down' | 'stopped'>>;
  readonly final: boolean;
  /** Whether any reader or application received or processed an event of a topic. */
  readonly seen: (topic: string, key: string) => boolean;
}

const OPEN_STATES = new Set(['Ongoing', 'PrepareCommit', 'PrepareAbort', 'PrepareEpochFence']);

function sessionOf(index: IndexQueries, client: string | null, step: number | null): number {
  if (!client || step === null) return 0;
  return index.sessionsUpTo(client, step);
}

/** Each copy with why it exists next to the copies before it. */
export function classifyCopies(index: IndexQueries, raw: readonly RawCopy[]): Copy[] {
  const ordered = [...raw].sort((a, b) => (a.step ?? Number.MAX_SAFE_INTEGER) - (b.step ?? Number.MAX_SAFE_INTEGER) || a.offset - b.offset);
  const out: Copy[] = [];
  ordered.forEach((c, i) => {
    let cause: CopyCause = 'first';
    if (i > 0) {
      const earlier = ordered.slice(0, i);
      if (c.origin !== null && earlier.some((e) => e.origin === c.origin)) cause = 'retry';
      else {
        const same = [...earlier].reverse().find((e) => e.writer !== null && e.writer === c.writer);
        if (!same) cause = 'other-writer';
        else cause = sessionOf(index, same.writer, same.step) === sessionOf(index, c.writer, c.step) ? 'resend' : 'new-session';
      }
    }
    out.push({
      topic: c.topic,
      partition: c.partition,
      offset: c.offset,
      state: c.state,
      cause,
      writer: c.writer,
      producerId: c.producerId,
      producerEpoch: c.producerEpoch,
      transactionalId: c.producerId >= 0 ? index.transactionalId(c.producerId) : null,
      step: c.step,
    });
  });
  return out;
}

/** The coordinator's last word on a producer's transaction, and whether it still tracks one open since `sinceStep`. */
export function coordinatorView(
  index: IndexQueries,
  producerId: number,
  sinceStep: number | null,
): { state: string | null; tracked: boolean } {
  const last = index.lastTxnState(producerId);
  if (!last) return { state: null, tracked: false };
  const lastOngoing = index.lastTxnStep(producerId, 'Ongoing');
  const tracked = OPEN_STATES.has(last.to) && lastOngoing !== undefined && (sinceStep === null || lastOngoing <= sinceStep);
  return { state: last.to, tracked };
}

/** Why a transaction with a copy appended at `step` was aborted. */
function abortCause(index: IndexQueries, copy: Copy): string {
  const from = copy.step ?? Number.NEGATIVE_INFINITY;
  const fence = index.firstTxnStepFrom(copy.producerId, 'PrepareEpochFence', from);
  const until = index.firstTxnStepFrom(copy.producerId, 'PrepareAbort', from) ?? fence ?? Number.POSITIVE_INFINITY;
  const tid = copy.transactionalId;
  // an operator's kafka-transactions.sh abort wrote the first marker after the copy: the coordinator
  // was not told, and when it commits the transaction later its other partitions hold it committed
  const op = index.operatorAbortAfter(copy.topic, copy.partition, copy.producerId, copy.offset);
  if (
    op &&
    !index
      .recordsIn(copy.topic, copy.partition, copy.offset + 1, op.markerOffset)
      .some((r) => r.control !== null && r.producerId === copy.producerId)
  )
    return index.firstTxnStepFrom(copy.producerId, 'PrepareCommit', op.step) !== undefined ? 'operator-split' : 'operator';
  // the coordinator's timeout fences the epoch too (PrepareEpochFence), so it is looked for first
  if (tid && index.timedOutBetween(tid, from, until)) return 'timeout';
  if (fence !== undefined && fence <= until) return 'fenced';
  return 'application';
}

function stopCause(ctx: TopicContext, client: string): string | null {
  const stop = ctx.index.stopNote(client);
  // the application's own words: "this instance was fenced" only for a fence (consumerAppGuards.fatalByFencing)
  if (stop) return /this instance (?:was|is) fenced/.test(stop.text) ? 'fenced' : 'fatal';
  const fatal = ctx.index.fatalError(client);
  if (fatal) return /FENCED|EPOCH|INVALID_TXN_STATE/.test(fatal.error) ? 'fenced' : 'fatal';
  const s = ctx.stopped[client];
  if (s === 'down') return 'down';
  if (s === 'stopped') return 'fatal';
  return null;
}

const IN_LOG: Omit<Expected, 'eventId'> = { by: null, via: 'log' };

function logEndOf(index: IndexQueries, topic: string, partition: number): number {
  return headOf(index, topic, partition)?.logEndOffset ?? Number.POSITIVE_INFINITY;
}

/** A removed copy cut by truncation: past the log's end, or its offset written again by a later copy. */
function wasTruncated(index: IndexQueries, c: Copy): boolean {
  if (c.offset >= logEndOf(index, c.topic, c.partition)) return true;
  const now = index.copyAt(c.topic, c.partition, c.offset);
  return now !== undefined && now.step !== c.step;
}

/** The copies, a removed one that truncation cut marked so (the others were cleaned by compaction). */
function withRemovedBy(index: IndexQueries, copies: readonly Copy[]): readonly Copy[] {
  if (!copies.some((c) => c.state === 'removed' && wasTruncated(index, c))) return copies;
  return copies.map((c) => (c.state === 'removed' && wasTruncated(index, c) ? { ...c, removedBy: 'truncation' as const } : c));
}

/**
 * Whether the controller elected an out-of-sync replica of the copy's partition after the copy was
 * appended (PartitionChangeBuilder's unclean election): the new leader lacked it, so even a
 * committed copy (below the high watermark) was truncated.
 */
function uncleanAfter(index: IndexQueries, c: Copy): boolean {
  return c.step !== null && index.uncleanAfter(c.topic, c.partition, c.step);
}

/** Why an expected event has no committed or plain copy in the topic, or null when it is not (yet) a loss. */
function lossOf(ctx: TopicContext, layer: 'log' | 'output', topic: string, exp: Expected, copies: readonly Copy[]): Loss | null {
  const base = { eventId: exp.eventId, layer, subject: topic };
  const steps = copies.map((c) => c.step).filter((s): s is number => s !== null);
  const aborted = copies.filter((c) => c.state === 'aborted');
  const open = copies.filter((c) => c.state === 'open');
  const removed = copies.filter((c) => c.state === 'removed');
  if (open.length > 0) {
    if (!ctx.final) return null;
    const first = open[0] as Copy;
    const hanging = !coordinatorView(ctx.index, first.producerId, first.step).tracked;
    return { ...base, kind: 'open-only', cause: hanging ? 'hanging' : 'open', actor: first.writer, offset: first.offset, steps };
  }
  if (aborted.length > 0) {
    const last = aborted[aborted.length - 1] as Copy;
    return { ...base, kind: 'aborted-only', cause: abortCause(ctx.index, last), actor: last.writer, offset: last.offset, steps };
  }
  // a copy gone from the log's end, or whose offset holds another record now, was truncated by a
  // leader change (compaction keeps the tail and never reuses an offset)
  const truncated = removed.length > 0 && removed.every((c) => wasTruncated(ctx.index, c));
  if (removed.length > 0 && !truncated) {
    // compaction after a reader received it is what compaction is for; before any did, the event is gone
    if (ctx.seen(topic, exp.eventId)) return null;
    return { ...base, kind: 'compacted', cause: 'compaction', actor: null, offset: (removed[0] as Copy).offset, steps };
  }
  const results = ctx.index.resultsOf(topic, exp.eventId);
  const acked = results.find((r) => r.error === null);
  if (acked && truncated) {
    const first = removed[0] as Copy;
    const unclean = uncleanAfter(ctx.index, first);
    const cause = unclean ? 'unclean-election' : 'truncated';
    // the election whose leader lacked it and the truncation that cut it lead; the append follows
    const cutBy = first.step === null ? [] : ctx.index.cutBy(topic, first.partition, first.offset, first.step, unclean);
    return {
      ...base,
      kind: 'acked-then-lost',
      cause,
      actor: acked.client,
      offset: first.offset,
      steps: [...new Set([...cutBy, ...steps])],
    };
  }
  if (acked)
    return ctx.final ? { ...base, kind: 'acked-then-lost', cause: 'acked', actor: acked.client, offset: null, steps: [acked.step] } : null;
  const failed = results.at(-1);
  // refused by send() itself (max.block.ms on metadata or buffer.memory, a record too large, the pool's hard limit): it never left the producer
  if (failed?.beforeAppend)
    return { ...base, kind: 'never-sent', cause: failed.error ?? 'unknown', actor: failed.client, offset: null, steps: [failed.step] };
  // a forced close (close(Duration)'s timeout) failed it: KafkaException, but not a refused call
  if (failed?.closedForcefully)
    return { ...base, kind: 'not-acked', cause: 'closed-forcefully', actor: failed.client, offset: null, steps: [failed.step] };
  if (failed)
    return { ...base, kind: 'not-acked', cause: failed.error ?? 'unknown', actor: failed.client, offset: null, steps: [failed.step] };
  if (exp.via === 'producer' && exp.by) {
    const why = stopCause(ctx, exp.by);
    if (why) return { ...base, kind: 'never-sent', cause: why, actor: exp.by, offset: null, steps: [] };
    return ctx.final ? { ...base, kind: 'never-sent', cause: 'ended', actor: exp.by, offset: null, steps: [] } : null;
  }
  if (exp.via === 'relay' && exp.by) {
    if (!ctx.final) return null;
    return { ...base, kind: 'not-published', cause: ctx.stopped[exp.by] ? 'down' : 'ended', actor: exp.by, offset: null, steps: [] };
  }
  if (exp.via === 'app' && exp.by) {
    if (!ctx.final) return null;
    return { ...base, kind: 'not-written', cause: stopCause(ctx, exp.by) ?? 'ended', actor: exp.by, offset: null, steps: [] };
  }
  return null;
}

/** The partition's high watermark at the step described (Infinity for a partition the index does not hold). */
export function highWatermarkOf(index: IndexQueries, topic: string, partition: number): number {
  return headOf(index, topic, partition)?.highWatermark ?? Number.POSITIVE_INFINITY;
}

const headMaps = new WeakMap<readonly PartitionHead[], Map<string, PartitionHead>>();

/** The partition as the index reads it at the step described (looked up by key: a run may have many). */
function headOf(index: IndexQueries, topic: string, partition: number): PartitionHead | undefined {
  let m = headMaps.get(index.partitions);
  if (!m) {
    m = new Map(index.partitions.map((p) => [topicPartitionKey(p.topic, p.partition), p]));
    headMaps.set(index.partitions, m);
  }
  return m.get(topicPartitionKey(topic, partition));
}

/** The finished transaction of `producerId` holding `offset` whose marker is not yet below the HW, if any. */
export function unreplicatedTxnOf(p: PartitionHead, producerId: number, offset: number): UnreplicatedTxn | undefined {
  return p.unreplicatedTxns?.find((t) => t.producerId === producerId && t.firstOffset <= offset && offset < t.lastOffset);
}

/**
 * Whether a committed or plain copy is not committed yet, and why (null: it is). Kafka's readers
 * fetch only below the HW (`FetchIsolation`: read_uncommitted up to the HW, read_committed up to the
 * LSO ≤ HW), so a copy at or above it is not committed: 'log'. A copy below it whose transaction's
 * COMMIT marker is at or above it holds the LSO at the transaction's first offset until the HW passes
 * the marker (ProducerStateManager.unreplicatedTxns): read_committed readers do not see it yet, and
 * the coordinator has not finished the commit: 'marker'.
 */
export function pendingOf(
  index: IndexQueries,
  c: Pick<RawCopy, 'topic' | 'partition' | 'offset' | 'state' | 'producerId'>,
): AboveHighWatermarkReason | null {
  if (!EFFECTIVE.has(c.state)) return null;
  const p = headOf(index, c.topic, c.partition);
  if (!p) return null;
  if (c.offset >= p.highWatermark) return 'log';
  if (c.state === 'committed' && unreplicatedTxnOf(p, c.producerId, c.offset)) return 'marker';
  return null;
}

/** The copies, each one not committed yet marked with why (pendingOf). */
function withPending(index: IndexQueries, copies: readonly Copy[]): readonly Copy[] {
  if (!copies.some((c) => pendingOf(index, c) !== null)) return copies;
  return copies.map((c) => {
    const reason = pendingOf(index, c);
    return reason ? { ...c, aboveHighWatermark: reason } : c;
  });
}

/** The offsets whose records may be not committed yet: from the HW up, and each unreplicated transaction's records below it. */
function pendingRanges(p: PartitionHead): [from: number, to: number][] {
  const ranges: [number, number][] = [];
  for (const t of p.unreplicatedTxns ?? [])
    if (t.firstOffset < p.highWatermark) ranges.push([t.firstOffset, Math.min(t.lastOffset, p.highWatermark)]);
  if (p.highWatermark < p.logEndOffset) ranges.push([p.highWatermark, p.logEndOffset]);
  return ranges;
}

/**
 * The topic's events that have a committed or plain copy not committed yet (pendingOf) and at most
 * one that is — their only copies, or a second copy, a duplicate once the HW passes it; in offset
 * order, each with what its send() was told so far. A record at or above the HW may still be
 * truncated by a later leader, or become committed when the ISR catches up (Kafka's
 * `Partition`/`UnifiedLog`); a transaction whose COMMIT marker is there becomes readable to
 * read_committed readers when the followers copy the marker.
 */
function aboveHighWatermark(index: IndexQueries, topic: string): { items: AboveHighWatermark[]; steps: number[] } {
  const out: AboveHighWatermark[] = [];
  const steps: number[] = [];
  const done = new Set<string>();
  for (const p of index.partitions) {
    if (p.topic !== topic) continue;
    for (const [from, to] of pendingRanges(p))
      for (const r of index.recordsIn(topic, p.partition, from, to)) {
        if (r.control !== null || !EFFECTIVE.has(r.txnOutcome ?? 'plain')) continue;
        const key = eventKey(r.headers.event_id, topic, p.partition, r.offset);
        if (done.has(key)) continue;
        const effective = index.copiesOf(topic, key).filter((c) => EFFECTIVE.has(c.state));
        const pending = effective.filter((c) => pendingOf(index, c) !== null);
        // two committed copies are a duplicate: what else it has is that story's
        if (effective.length - pending.length > 1) continue;
        done.add(key);
        const state = r.txnOutcome ?? 'plain';
        const last = pending.at(-1) ?? {
          topic,
          partition: p.partition,
          offset: r.offset,
          state,
          producerId: r.producerId,
          writer: null,
          step: null,
        };
        const reason = pendingOf(index, last) ?? 'log';
        const head = headOf(index, topic, last.partition);
        const markerOffset = reason === 'marker' && head ? unreplicatedTxnOf(head, last.producerId, last.offset)?.lastOffset : undefined;
        const result = last.writer === null ? undefined : index.resultsOf(topic, key).at(-1);
        if (last.step !== null) steps.push(last.step);
        if (result) steps.push(result.step);
        out.push({
          eventId: key,
          topic,
          partition: last.partition,
          offset: last.offset,
          highWatermark: head?.highWatermark ?? Number.POSITIVE_INFINITY,
          reason,
          ...(markerOffset !== undefined ? { markerOffset } : {}),
          secondCopy: effective.length > pending.length,
          writer: last.writer,
          told: result === undefined ? null : (result.error ?? 'acknowledged'),
        });
      }
  }
  return { items: out.sort((a, b) => a.partition - b.partition || a.offset - b.offset), steps };
}

/**
 * The topic's events that a send() was told had failed although a copy that send wrote is committed:
 * a copy by the failed send's client, committed (not above the HW, not held by its marker), that no
 * successful result of that client claims (an acknowledged send() names its offset). Kafka's producer
 * cannot tell: a lost acknowledgement, a request timeout (REQUEST_TIMED_OUT), a
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND (`Partition.appendRecordsToLeader` appended before it checked the
 * ISR) or a forced close fails a send() whose batch the leader may have written. In partition and
 * offset order, with the steps of the copy and of the failure.
 */
function writtenThoughFailed(index: IndexQueries, topic: string): { items: WrittenThoughFailed[]; steps: number[] } {
  const items: WrittenThoughFailed[] = [];
  const steps: number[] = [];
  for (const key of index.failedSendEvents(topic)) {
    const results = index.resultsOf(topic, key);
    const copies = index.copiesOf(topic, key);
    for (const r of results) {
      if (r.error === null || r.beforeAppend) continue;
      const written = copies.find(
        (c) =>
          c.writer === r.client &&
          EFFECTIVE.has(c.state) &&
          pendingOf(index, c) === null &&
          !results.some((o) => o.error === null && o.client === c.writer && o.offset === c.offset),
      );
      if (!written) continue;
      items.push({
        eventId: key,
        topic,
        partition: written.partition,
        offset: written.offset,
        writer: r.client,
        error: r.error,
        ...(r.closedForcefully ? { closedForcefully: true as const } : {}),
      });
      if (written.step !== null) steps.push(written.step);
      steps.push(r.step);
      break;
    }
  }
  return { items: items.sort((a, b) => a.partition - b.partition || a.offset - b.offset), steps };
}

/** Committed or plain copies of an event in the input topics of the applications that write `topic`. */
function inputCopies(ctx: TopicContext, topic: string, key: string): number {
  let most = 0;
  for (const w of ctx.writers) {
    if (w.topic !== topic || w.kind !== 'app') continue;
    let n = 0;
    for (const input of w.inputs ?? []) n += ctx.index.copiesOf(input, key).filter((c) => EFFECTIVE.has(c.state)).length;
    most = Math.max(most, n);
  }
  return most;
}

/**
 * Whether a producer retry's copy was written again because the broker had forgotten the producer:
 * an earlier copy of the same producerId and epoch on the same partition, and an expiration check
 * between the two that dropped that producer (ProducerStateManager.removeExpiredProducers).
 */
function producerExpiredBetween(ctx: TopicContext, copies: readonly Copy[]): TopicEvent['producerExpired'] {
  for (const retry of copies) {
    if (retry.cause !== 'retry' || retry.producerId < 0 || retry.step === null) continue;
    const first = copies.find(
      (c) =>
        c !== retry &&
        c.step !== null &&
        c.step < (retry.step as number) &&
        c.partition === retry.partition &&
        c.producerId === retry.producerId &&
        c.producerEpoch === retry.producerEpoch,
    );
    if (!first || first.step === null) continue;
    const e = ctx.index.expiredBetween(retry.topic, retry.partition, retry.producerId, first.step, retry.step);
    if (e) return { broker: e.broker, step: e.step, expirationMs: e.expirationMs };
  }
  return undefined;
}

export function topicFindings(ctx: TopicContext, outputTopics: ReadonlySet<string>): Omit<TopicFinding, 'sentence'>[] {
  const topics = new Set<string>([...ctx.index.copyTopics(), ...ctx.writers.map((w) => w.topic), ...ctx.index.resultTopics()]);
  const out: Omit<TopicFinding, 'sentence'>[] = [];
  for (const topic of [...topics].sort()) {
    const layer = outputTopics.has(topic) ? 'output' : 'log';
    const tally = ctx.index.tally(topic);
    const copyCounts = { ...NO_COPIES, ...tally.copyCounts };
    const notable: TopicEvent[] = [];
    const twice: string[] = [];
    const steps: number[] = [];
    const losses: Loss[] = [];
    const { items: above, steps: aboveSteps } = aboveHighWatermark(ctx.index, topic);
    const aboveIds = new Set(above.map((a) => a.eventId));
    const { items: failedWritten, steps: failedSteps } = writtenThoughFailed(ctx.index, topic);
    // an event with one committed or plain copy and no recognised retry is only counted: nothing to say
    for (const [key, raw] of ctx.index.notable(topic)) {
      const copies = withPending(ctx.index, withRemovedBy(ctx.index, classifyCopies(ctx.index, raw)));
      const effective = copies.filter((c) => EFFECTIVE.has(c.state));
      // copies not committed yet (above the HW, or their marker is) are not a duplicate a reader sees
      const committed = effective.filter((c) => c.aboveHighWatermark === undefined);
      if (committed.length > 1) {
        twice.push(key);
        for (const c of committed) if (c.step !== null) steps.push(c.step);
      }
      const expired = producerExpiredBetween(ctx, committed);
      notable.push({
        eventId: key,
        copies,
        deduplicated: ctx.index.deduplicated(topic, key),
        inputCopies: inputCopies(ctx, topic, key),
        ...(expired ? { producerExpired: expired } : {}),
      });
      if (effective.length === 0) {
        const loss = lossOf(ctx, layer, topic, { eventId: key, ...IN_LOG }, copies);
        if (loss) losses.push(loss);
      }
    }
    for (const exp of ctx.index.missing(topic, ctx.writers, ctx.intended).values()) {
      const loss = lossOf(ctx, layer, topic, exp, []);
      if (loss) losses.push(loss);
    }
    const writers = [...new Set([...ctx.writers.filter((w) => w.topic === topic).map((w) => w.writer), ...tally.writers])].sort();
    const writerKinds: Record<string, WriterKind> = {};
    for (const w of ctx.writers) if (w.topic === topic) writerKinds[w.writer] = w.kind;
    const anyEffective = copyCounts.committed + copyCounts.plain > 0;
    const status = losses.length
      ? 'lost'
      : twice.length
        ? 'more-than-once'
        : above.length
          ? 'above-hw'
          : anyEffective
            ? 'once'
            : 'not-applicable';
    out.push({
      layer,
      subject: topic,
      status,
      eventIds: [...new Set([...losses.map((l) => l.eventId), ...twice, ...aboveIds])],
      steps: [...new Set([...steps, ...losses.flatMap((l) => l.steps), ...aboveSteps, ...failedSteps])].sort((a, b) => a - b),
      writers,
      writerKinds,
      events: tally.events,
      copyCounts,
      notable,
      losses,
      ...(above.length ? { aboveHighWatermark: above } : {}),
      ...(failedWritten.length ? { writtenThoughFailed: failedWritten } : {}),
    });
  }
  return out;
}
