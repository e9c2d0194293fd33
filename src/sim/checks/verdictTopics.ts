/**
 * The verdict's topic layers: for every topic a writer produces to — a producer application
 * ("Kafka log"), or an application, Kafka Streams or an outbox relay ("committed output") — what
 * each copy of each event is (committed, aborted, open, removed by compaction; a retry, a second
 * send(), a new producer session, another writer), which retries the broker recognised, and which
 * events that should be there are not, with why.
 */
import { topicPartitionKey } from '../protocol/topicPartition';
import { type RawCopy, type RunIndex, resultsOf } from './verdictIndex';
import type { Copy, CopyCause, CopyState, Loss, TopicEvent, TopicFinding, WriterKind } from './verdictTypes';

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
  readonly index: RunIndex;
  readonly writers: readonly TopicWriter[];
  /** Sends the producer scripts ask for: "client|topic|eventId". */
  readonly intended: readonly { client: string; topic: string; eventId: string }[];
  /** Clients that have stopped for good at the step described, and how. */
  readonly stopped: Readonly<Record<string, 'down' | 'stopped'>>;
  readonly final: boolean;
  /** Whether any reader or application received or processed an event of a topic. */
  readonly seen: (topic: string, key: string) => boolean;
  /** Every topic's copies, classified (classifyAll). */
  readonly classified: ReadonlyMap<string, ReadonlyMap<string, readonly Copy[]>>;
}

const EFFECTIVE = new Set<CopyState>(['committed', 'plain']);
const OPEN_STATES = new Set(['Ongoing', 'PrepareCommit', 'PrepareAbort', 'PrepareEpochFence']);

function sessionOf(index: RunIndex, client: string | null, step: number | null): number {
  if (!client || step === null) return 0;
  return (index.sessions.get(client) ?? []).filter((s) => s <= step).length;
}

/** Each copy with why it exists next to the copies before it. */
export function classifyCopies(index: RunIndex, raw: readonly RawCopy[]): Copy[] {
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
      transactionalId: c.producerId >= 0 ? (index.transactionalIds.get(c.producerId) ?? null) : null,
      step: c.step,
    });
  });
  return out;
}

/** classifyCopies for every event of every topic that has more than one copy (one copy is simply 'first'). */
export function classifyAll(index: RunIndex): Map<string, Map<string, Copy[]>> {
  const out = new Map<string, Map<string, Copy[]>>();
  for (const [topic, byKey] of index.copies) {
    const m = new Map<string, Copy[]>();
    for (const [key, raw] of byKey) if (raw.length > 1) m.set(key, classifyCopies(index, raw));
    out.set(topic, m);
  }
  return out;
}

/** The coordinator's last word on a producer's transaction, and whether it still tracks one open since `sinceStep`. */
export function coordinatorView(index: RunIndex, producerId: number, sinceStep: number | null): { state: string | null; tracked: boolean } {
  const states = index.txnStates.get(producerId) ?? [];
  const last = states.at(-1);
  if (!last) return { state: null, tracked: false };
  const lastOngoing = [...states].reverse().find((s) => s.to === 'Ongoing');
  const tracked = OPEN_STATES.has(last.to) && lastOngoing !== undefined && (sinceStep === null || lastOngoing.step <= sinceStep);
  return { state: last.to, tracked };
}

/** Why a transaction with a copy appended at `step` was aborted. */
function abortCause(index: RunIndex, copy: Copy): string {
  const after = (index.txnStates.get(copy.producerId) ?? []).filter((s) => copy.step === null || s.step >= copy.step);
  const end = after.find((s) => s.to === 'PrepareAbort') ?? after.find((s) => s.to === 'PrepareEpochFence');
  const until = end?.step ?? Number.POSITIVE_INFINITY;
  const tid = copy.transactionalId;
  // the coordinator's timeout fences the epoch too (PrepareEpochFence), so it is looked for first
  if (tid && (index.timedOut.get(tid) ?? []).some((s) => (copy.step === null || s >= copy.step) && s <= until)) return 'timeout';
  if (after.some((s) => s.to === 'PrepareEpochFence' && s.step <= until)) return 'fenced';
  return 'application';
}

function stopCause(ctx: TopicContext, client: string): string | null {
  const stop = ctx.index.stopNotes.get(client);
  if (stop) return /fenced/.test(stop.text) ? 'fenced' : 'fatal';
  const fatal = ctx.index.fatalErrors.get(client);
  if (fatal) return /FENCED|EPOCH|INVALID_TXN_STATE/.test(fatal.error) ? 'fenced' : 'fatal';
  const s = ctx.stopped[client];
  if (s === 'down') return 'down';
  if (s === 'stopped') return 'fatal';
  return null;
}

interface Expected {
  readonly eventId: string;
  readonly by: string | null;
  readonly via: 'producer' | 'app' | 'relay' | 'log';
}

const IN_LOG: Omit<Expected, 'eventId'> = { by: null, via: 'log' };

/** Events a writer should have put in the topic that have no copy there at all (sent, scripted, processed, in an outbox). */
function missingIn(ctx: TopicContext, topic: string, present: ReadonlyMap<string, unknown>): Map<string, Expected> {
  const out = new Map<string, Expected>();
  const add = (e: Expected) => {
    if (!present.has(e.eventId) && !out.has(e.eventId)) out.set(e.eventId, e);
  };
  // what a send() was answered for (an application's producer, a relay's, a Streams producer's)
  for (const r of ctx.index.resultsByTopic.get(topic) ?? []) if (r.eventId) add({ eventId: r.eventId, by: r.client, via: 'producer' });
  for (const w of ctx.writers) {
    if (w.topic !== topic) continue;
    if (w.kind === 'producer') {
      for (const i of ctx.intended)
        if (i.client === w.writer && i.topic === topic) add({ eventId: i.eventId, by: w.writer, via: 'producer' });
    } else if (w.kind === 'app') {
      for (const o of ctx.index.processed.get(w.writer) ?? [])
        if (o.eventId && o.topic !== topic) add({ eventId: o.eventId, by: w.writer, via: 'app' });
    } else if (w.sink) {
      for (const [eventId, e] of ctx.index.sideEffects.get(w.sink) ?? [])
        if (e.applied.length > 0) add({ eventId, by: w.writer, via: 'relay' });
    }
  }
  return out;
}

function logEndOf(index: RunIndex, topic: string, partition: number): number {
  return index.partitions.find((p) => p.topic === topic && p.partition === partition)?.logEndOffset ?? Number.POSITIVE_INFINITY;
}

/** A removed copy cut by truncation: past the log's end, or its offset written again by a later copy. */
function wasTruncated(index: RunIndex, c: Copy): boolean {
  if (c.offset >= logEndOf(index, c.topic, c.partition)) return true;
  const now = index.copyAt(c.topic, c.partition, c.offset);
  return now !== undefined && now.step !== c.step;
}

/** The copies, a removed one that truncation cut marked so (the others were cleaned by compaction). */
function withRemovedBy(index: RunIndex, copies: readonly Copy[]): readonly Copy[] {
  if (!copies.some((c) => c.state === 'removed' && wasTruncated(index, c))) return copies;
  return copies.map((c) => (c.state === 'removed' && wasTruncated(index, c) ? { ...c, removedBy: 'truncation' as const } : c));
}

/**
 * Whether the controller elected an out-of-sync replica of the copy's partition after the copy was
 * appended (PartitionChangeBuilder's unclean election): the new leader lacked it, so even a
 * committed copy (below the high watermark) was truncated.
 */
function uncleanAfter(index: RunIndex, c: Copy): boolean {
  const steps = index.uncleanElections.get(topicPartitionKey(c.topic, c.partition)) ?? [];
  return c.step !== null && steps.some((s) => s > (c.step as number));
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
  const results = resultsOf(ctx.index, topic, exp.eventId);
  const acked = results.find((r) => r.error === null);
  if (acked && truncated) {
    const first = removed[0] as Copy;
    const cause = uncleanAfter(ctx.index, first) ? 'unclean-election' : 'truncated';
    return { ...base, kind: 'acked-then-lost', cause, actor: acked.client, offset: first.offset, steps };
  }
  if (acked)
    return ctx.final ? { ...base, kind: 'acked-then-lost', cause: 'acked', actor: acked.client, offset: null, steps: [acked.step] } : null;
  const failed = results.at(-1);
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

/** Committed or plain copies of an event in the input topics of the applications that write `topic`. */
function inputCopies(ctx: TopicContext, topic: string, key: string): number {
  let most = 0;
  for (const w of ctx.writers) {
    if (w.topic !== topic || w.kind !== 'app') continue;
    let n = 0;
    for (const input of w.inputs ?? []) n += (ctx.index.copies.get(input)?.get(key) ?? []).filter((c) => EFFECTIVE.has(c.state)).length;
    most = Math.max(most, n);
  }
  return most;
}

const ZERO: Record<CopyState, number> = { committed: 0, plain: 0, aborted: 0, open: 0, removed: 0 };

export function topicFindings(ctx: TopicContext, outputTopics: ReadonlySet<string>): Omit<TopicFinding, 'sentence'>[] {
  const topics = new Set<string>([...ctx.index.copies.keys(), ...ctx.writers.map((w) => w.topic), ...ctx.index.resultsByTopic.keys()]);
  const out: Omit<TopicFinding, 'sentence'>[] = [];
  for (const topic of [...topics].sort()) {
    const layer = outputTopics.has(topic) ? 'output' : 'log';
    const byKey = ctx.index.copies.get(topic) ?? new Map<string, RawCopy[]>();
    const copyCounts = { ...ZERO };
    const notable: TopicEvent[] = [];
    const twice: string[] = [];
    const steps: number[] = [];
    const classified = ctx.classified.get(topic);
    const losses: Loss[] = [];
    for (const [key, raw] of byKey) {
      const deduplicated = ctx.index.deduplicated.get(`${topic}|${key}`) ?? [];
      const single = raw.length === 1 ? (raw[0] as RawCopy) : null;
      // the common case, one committed or plain copy: counted, nothing to say
      if (single && EFFECTIVE.has(single.state) && deduplicated.length === 0) {
        copyCounts[single.state] += 1;
        continue;
      }
      const copies = withRemovedBy(ctx.index, classified?.get(key) ?? classifyCopies(ctx.index, raw));
      for (const c of copies) copyCounts[c.state] += 1;
      const effective = copies.filter((c) => EFFECTIVE.has(c.state));
      if (effective.length > 1) {
        twice.push(key);
        for (const c of effective) if (c.step !== null) steps.push(c.step);
      }
      notable.push({ eventId: key, copies, deduplicated: deduplicated.length, inputCopies: inputCopies(ctx, topic, key) });
      if (effective.length === 0) {
        const loss = lossOf(ctx, layer, topic, { eventId: key, ...IN_LOG }, copies);
        if (loss) losses.push(loss);
      }
    }
    for (const exp of missingIn(ctx, topic, byKey).values()) {
      const loss = lossOf(ctx, layer, topic, exp, []);
      if (loss) losses.push(loss);
    }
    const writers = [
      ...new Set([
        ...ctx.writers.filter((w) => w.topic === topic).map((w) => w.writer),
        ...[...byKey.values()].flatMap((cs) => cs.map((c) => c.writer)).filter((w): w is string => w !== null),
      ]),
    ].sort();
    const writerKinds: Record<string, WriterKind> = {};
    for (const w of ctx.writers) if (w.topic === topic) writerKinds[w.writer] = w.kind;
    const anyEffective = copyCounts.committed + copyCounts.plain > 0;
    const status = losses.length ? 'lost' : twice.length ? 'more-than-once' : anyEffective ? 'once' : 'not-applicable';
    out.push({
      layer,
      subject: topic,
      status,
      eventIds: [...new Set([...losses.map((l) => l.eventId), ...twice])],
      steps: [...new Set([...steps, ...losses.flatMap((l) => l.steps)])].sort((a, b) => a - b),
      writers,
      writerKinds,
      events: byKey.size,
      copyCounts,
      notable,
      losses,
    });
  }
  return out;
}
