/**
 * Differential checks of the producer's per-partition rules, stated from Kafka's source and checked
 * against what a run recorded (facts and the application's calls), independently of the model's code
 * that implements them. Run by the property tests and `npm run fuzz` next to the invariants.
 *
 * - broker-sequence (ProducerAppendInfo.checkProducerEpoch / checkSequence, ProducerStateEntry):
 *   replaying every append of a partition, a batch of producerId P is appended only with an epoch at
 *   least P's stored one; with a new epoch it starts at sequence 0 (unless the partition has never
 *   seen P); with the stored epoch it continues at last+1 — at 0 if that epoch has no batch yet (a
 *   marker bumped it). So no two appended batches share (P, epoch, sequence).
 * - one-copy-per-send (TransactionManager.bumpIdempotentProducerEpoch, partitionsToRewriteSequences):
 *   with idempotence a send() is appended at most once — unless a batch of that same partition failed
 *   on the client while the first copy was in flight or after (the only thing that makes Kafka rewrite
 *   that partition's sequences: the bump rewrites every batch then in flight, handleFailedBatch →
 *   requestEpochBumpForPartition, TxnPartitionEntry.startSequencesAtBeginning).
 * - abort-means-abort (TransactionManager.nextRequest / maybeTerminateRequestWithError; KIP-98):
 *   when abortTransaction() returned ok, no record the transaction appended before it is committed;
 *   when commitTransaction() returned ok, every such record that was settled is committed.
 *
 * Replication: after a leader change the new leader appends at its own log end offset, below what a
 * previous (or deposed) leader appended; what lay at and after that offset is not in the appending
 * leader's log, whose producer state is rebuilt from the log it has (UnifiedLog.truncateTo →
 * rebuildProducerState on the old leader, and the new leader's state came from replication). So an
 * append below the partition's end drops the appends from that offset on, and the checks go on from
 * the appends that are left.
 */
import type { RecordOrigin } from '../../src/sim/log/recordBatch';
import { keyOf, recordAddress } from '../../src/sim/protocol/topicPartition';
import type { Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

export type ProducerRule = 'broker-sequence' | 'one-copy-per-send' | 'abort-means-abort';

export const PRODUCER_RULES: Readonly<Record<ProducerRule, string>> = {
  'broker-sequence':
    'Every appended batch passed the leader’s epoch and sequence checks: epoch ≥ the stored one; a new epoch starts at 0; the same epoch continues at last+1 (0 after a marker that bumped it).',
  'one-copy-per-send':
    'With idempotence a send() is appended once, unless a batch of the same partition failed on the client after its first copy was sent (the epoch bump then rewrites that partition’s batches in flight, and only those).',
  'abort-means-abort':
    'A transaction the client aborted (abortTransaction() ok) has nothing committed; one it committed (commitTransaction() ok) has nothing aborted.',
};

export interface RuleViolation {
  readonly rule: ProducerRule;
  readonly step: number;
  readonly message: string;
}

/**
 * The parts of a trace the checks read (a whole Trace fits). Without envelopes, a copy's request is
 * taken to have been sent at the step that appended it.
 */
export type RuleInput = Pick<Trace, 'steps'> & Partial<Pick<Trace, 'envelopes'>>;

type Append = Extract<Fact, { kind: 'append' }>;

const NO_EPOCH = -1;
const NO_SEQ = -1;
const inSequence = (last: number, next: number) => next === last + 1 || (next === 0 && last === 2147483647);
const isData = (f: Append) => f.control === null;
const hasSequence = (f: Append) => f.producerId >= 0 && f.baseSequence >= 0;

/**
 * Every append of a user topic, but a deposed leader's: a broker that was leader and has not yet
 * learned of a newer election (a paused broker resuming) still appends to its own log
 * (Partition.appendRecordsToLeader checks only its own metadata), below the elected leader's end and
 * with its old leader epoch. That log diverged; it is truncated when the broker follows the new
 * leader, so it is not the history the new leader's producer state comes from (the replication
 * invariants check the truncation). Unless that broker is elected again before it truncates (an
 * unclean election, its fetch from the leader in between never answered): then its log, its deposed
 * appends included, is the partition's history again (makeLeader truncates nothing), so they join
 * it at that election.
 */
function appendsOf(input: RuleInput): { step: number; appendedAt: number; fact: Append }[] {
  const out: { step: number; appendedAt: number; fact: Append }[] = [];
  const elected = new Map<string, number>();
  const leaders = new Map<string, string | null>();
  // per partition, per broker: the deposed appends still in that broker's log
  const deposed = new Map<string, Map<string, { step: number; fact: Append }[]>>();
  const raise = (tp: string, epoch: number | undefined) => {
    if (epoch !== undefined && epoch > (elected.get(tp) ?? Number.NEGATIVE_INFINITY)) elected.set(tp, epoch);
  };
  for (const s of input.steps)
    for (const f of s.facts as Fact[]) {
      if (f.kind === 'leaderChange') {
        const tp = keyOf(f);
        raise(tp, f.leaderEpoch);
        leaders.set(tp, f.leader);
        const kept = f.leader === null ? undefined : deposed.get(tp)?.get(f.leader);
        if (kept && f.leader !== null) {
          for (const a of kept) out.push({ step: s.i, appendedAt: a.step, fact: a.fact });
          deposed.get(tp)?.delete(f.leader);
        }
      }
      if (f.kind === 'truncated') {
        const list = deposed.get(keyOf(f))?.get(f.broker);
        if (list)
          deposed.get(keyOf(f))?.set(
            f.broker,
            list.filter((a) => a.fact.lastOffset < f.fromOffset),
          );
      }
      if (f.kind !== 'append' || f.topic.startsWith('__')) continue;
      const tp = keyOf(f);
      if (f.leaderEpoch !== undefined && f.leaderEpoch < (elected.get(tp) ?? Number.NEGATIVE_INFINITY)) {
        // the broker elected already (it has not applied it yet): the append is in the new leader's log
        if (leaders.get(tp) === s.actor) out.push({ step: s.i, appendedAt: s.i, fact: f });
        else {
          const byBroker = deposed.get(tp) ?? new Map<string, { step: number; fact: Append }[]>();
          byBroker.set(s.actor, [...(byBroker.get(s.actor) ?? []), { step: s.i, fact: f }]);
          deposed.set(tp, byBroker);
        }
        continue;
      }
      raise(tp, f.leaderEpoch);
      out.push({ step: s.i, appendedAt: s.i, fact: f });
    }
  return out;
}

/**
 * The appends of each partition that are still in the log as the appending leader has it: an append
 * below the partition's end (a leader change wrote those offsets again) drops the ones from its
 * offset on. `onDrop` hears which were dropped, before the append that dropped them is handled.
 */
class PartitionAppends {
  private readonly kept = new Map<string, { step: number; fact: Append }[]>();
  constructor(private readonly onDrop: (tp: string, dropped: readonly Append[], kept: readonly Append[]) => void) {}
  add(step: number, f: Append): void {
    const tp = keyOf(f);
    const list = this.kept.get(tp) ?? [];
    const end = list.length ? (list[list.length - 1] as { fact: Append }).fact.lastOffset + 1 : Number.NEGATIVE_INFINITY;
    if (f.baseOffset < end) {
      const stay = list.filter((a) => a.fact.baseOffset < f.baseOffset);
      this.onDrop(
        tp,
        list.filter((a) => a.fact.baseOffset >= f.baseOffset).map((a) => a.fact),
        stay.map((a) => a.fact),
      );
      list.length = 0;
      list.push(...stay);
    }
    list.push({ step, fact: f });
    this.kept.set(tp, list);
  }
}

/** The stored epoch and last sequence after `f` (ProducerAppendInfo.append / appendEndTxnMarker). */
function nextState(s: { epoch: number; lastSeq: number } | undefined, f: Append): { epoch: number; lastSeq: number } {
  if (!isData(f)) return { epoch: f.producerEpoch, lastSeq: s && s.epoch === f.producerEpoch ? s.lastSeq : NO_SEQ };
  return { epoch: f.producerEpoch, lastSeq: f.lastSequence };
}

/**
 * The producers brokers' expiration checks dropped (producer.id.expiration.ms), by "tp|producerId",
 * with the steps: such a producer starts over on that partition (ProducerStateManager.removeExpiredProducers,
 * and a restart's loadFromSnapshot).
 */
function expiriesOf(input: RuleInput): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const s of input.steps)
    for (const f of s.facts as Fact[])
      if (f.kind === 'producerStateExpired' || f.kind === 'producerStateLoaded')
        // a restarted broker's reload leaves out the producers of its snapshot idle that long, too
        for (const p of f.kind === 'producerStateExpired' ? f.producers : f.dropped) {
          const k = `${keyOf(f)}|${p.producerId}`;
          out.set(k, [...(out.get(k) ?? []), s.i]);
        }
  return out;
}

function checkBrokerSequences(input: RuleInput, v: RuleViolation[]): void {
  const expiries = expiriesOf(input);
  // the step each state entry was last written at: an expiry after it (and before the next append) drops it
  const writtenAt = new Map<string, number>();
  // per partition and producerId: the stored epoch and the last sequence of that epoch (NO_SEQ: no batch yet)
  const state = new Map<string, { epoch: number; lastSeq: number }>();
  // a leader change wrote offsets again: the producer state is rebuilt from the appends left
  const appends = new PartitionAppends((tp, _dropped, kept) => {
    for (const k of [...state.keys()]) if (k.startsWith(`${tp}|`)) state.delete(k);
    for (const f of kept) {
      if (f.producerId < 0 || (isData(f) && !hasSequence(f))) continue;
      const k = `${tp}|${f.producerId}`;
      state.set(k, nextState(state.get(k), f));
    }
  });
  for (const { step, fact: f } of appendsOf(input)) {
    appends.add(step, f);
    if (f.producerId < 0) continue;
    const key = `${keyOf(f)}|${f.producerId}`;
    const written = writtenAt.get(key);
    if (written !== undefined && (expiries.get(key) ?? []).some((e) => e > written && e < step)) state.delete(key);
    writtenAt.set(key, step);
    const s = state.get(key);
    const where = `${recordAddress(f.topic, f.partition, f.baseOffset)}: producerId ${f.producerId}`;
    if (!isData(f)) {
      if (s && f.producerEpoch < s.epoch)
        v.push({
          rule: 'broker-sequence',
          step,
          message: `${where} got a ${f.control} marker with epoch ${f.producerEpoch} below the stored ${s.epoch}`,
        });
      state.set(key, nextState(s, f));
      continue;
    }
    if (!hasSequence(f)) continue;
    const stored = s?.epoch ?? NO_EPOCH;
    let problem: string | null = null;
    if (f.producerEpoch < stored) problem = `epoch ${f.producerEpoch} was appended below the stored epoch ${stored}`;
    else if (f.producerEpoch !== stored) {
      if (stored !== NO_EPOCH && f.baseSequence !== 0)
        problem = `a new epoch ${f.producerEpoch} (stored ${stored}) was appended starting at sequence ${f.baseSequence}, not 0`;
    } else if (!inSequence(s?.lastSeq ?? NO_SEQ, f.baseSequence))
      problem = `epoch ${f.producerEpoch} was appended at sequence ${f.baseSequence} after ${s?.lastSeq === NO_SEQ ? 'no batch of that epoch' : `sequence ${s?.lastSeq}`}`;
    if (problem) v.push({ rule: 'broker-sequence', step, message: `${where}: ${problem}` });
    state.set(key, nextState(s, f));
  }
}

function checkOneCopyPerSend(input: RuleInput, v: RuleViolation[]): void {
  const expiries = expiriesOf(input);
  // steps at which each client saw a batch of a partition fail (a failed send, or a sequence gap)
  const failures = new Map<string, number[]>();
  const noteFailure = (client: string, tp: string, step: number) => {
    const k = `${client}|${tp}`;
    failures.set(k, [...(failures.get(k) ?? []), step]);
  };
  for (const s of input.steps)
    for (const f of s.facts as Fact[]) {
      if (f.kind === 'sendResult' && f.error !== null) noteFailure(f.client, keyOf(f), s.i);
      if (f.kind === 'clientError' && f.error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' && f.during.startsWith('Produce to '))
        noteFailure(f.client, f.during.slice('Produce to '.length), s.i);
    }
  // where the request that appended a copy was sent: a batch in flight from then on is rewritten by
  // an epoch bump that a failure of its partition asks for — also one that comes before the broker
  // appends it (the failure answered first, the in-flight batch appended after, its answer lost)
  const sentAt = (appendedAt: number) => {
    const envelope = input.steps.at(appendedAt)?.envelope;
    const sent = envelope === null || envelope === undefined ? undefined : input.envelopes?.at(envelope)?.sentStep;
    return sent ?? appendedAt;
  };
  const firstCopy = new Map<string, { step: number; sentStep: number; epoch: number; offset: number }>();
  // a copy a leader change took out of the log does not count: the producer's retry writes it again
  const appends = new PartitionAppends((_tp, dropped) => {
    for (const d of dropped)
      d.origins.forEach((o, i) => {
        if (o && firstCopy.get(`${o.client}|${o.ref}`)?.offset === d.baseOffset + i) firstCopy.delete(`${o.client}|${o.ref}`);
      });
  });
  for (const { step, appendedAt, fact: f } of appendsOf(input)) {
    appends.add(step, f);
    if (!isData(f) || !hasSequence(f)) continue;
    f.origins.forEach((o: RecordOrigin | null, i) => {
      if (!o) return;
      const k = `${o.client}|${o.ref}`;
      const first = firstCopy.get(k);
      const offset = f.baseOffset + i;
      if (!first) {
        firstCopy.set(k, { step, sentStep: sentAt(appendedAt), epoch: f.producerEpoch, offset });
        return;
      }
      const excused =
        (f.producerEpoch > first.epoch &&
          (failures.get(`${o.client}|${keyOf(f)}`) ?? []).some((at) => at >= first.sentStep && at <= step)) ||
        // the partition forgot the producer between the two copies (producer.id.expiration.ms)
        (expiries.get(`${keyOf(f)}|${f.producerId}`) ?? []).some((e) => e > first.step && e < step);
      if (!excused)
        v.push({
          rule: 'one-copy-per-send',
          step,
          message: `${o.client}'s send #${o.ref} was appended again at ${recordAddress(f.topic, f.partition, offset)} (epoch ${f.producerEpoch}, sequence ${f.baseSequence + i}) after ${recordAddress(f.topic, f.partition, first.offset)} (epoch ${first.epoch}), with no failed batch of that partition since the first copy was sent`,
        });
    });
  }
}

interface TxnSegment {
  readonly client: string;
  readonly refs: Set<number>;
}

function checkAbortMeansAbort(input: RuleInput, v: RuleViolation[]): void {
  // the outcome of each transactional record, by origin, from the markers that settled it
  const outcome = new Map<string, { step: number; result: 'COMMIT' | 'ABORT' | null; where: string }[]>();
  const open = new Map<string, string[]>();
  for (const { step, fact: f } of appendsOf(input)) {
    const pk = `${keyOf(f)}|${f.producerId}`;
    if (!isData(f)) {
      for (const k of open.get(pk) ?? [])
        for (const r of outcome.get(k) ?? []) if (r.result === null && r.where.startsWith(`${keyOf(f)}@`)) r.result = f.control;
      open.delete(pk);
      continue;
    }
    if (!f.transactional) continue;
    f.origins.forEach((o, i) => {
      if (!o) return;
      const k = `${o.client}|${o.ref}`;
      outcome.set(k, [...(outcome.get(k) ?? []), { step, result: null, where: recordAddress(f.topic, f.partition, f.baseOffset + i) }]);
      open.set(pk, [...(open.get(pk) ?? []), k]);
    });
  }
  const segments = new Map<string, TxnSegment>();
  for (const s of input.steps) {
    if (s.kind !== 'call' || s.label !== 'reply' || !s.from?.endsWith('.producer')) continue;
    const d = s.detail as { call?: string; ok?: boolean; ref?: number } | null;
    if (!d) continue;
    const client = s.from.slice(0, s.from.indexOf('.'));
    if (d.call === 'beginTransaction' && d.ok) segments.set(s.from, { client, refs: new Set() });
    else if (d.call === 'send' && d.ok && typeof d.ref === 'number') segments.get(s.from)?.refs.add(d.ref);
    else if ((d.call === 'commitTransaction' || d.call === 'abortTransaction') && d.ok) {
      const seg = segments.get(s.from);
      segments.delete(s.from);
      if (!seg) continue;
      const wrong = d.call === 'commitTransaction' ? 'ABORT' : 'COMMIT';
      for (const ref of seg.refs)
        for (const r of outcome.get(`${client}|${ref}`) ?? [])
          if (r.step < s.i && r.result === wrong)
            v.push({
              rule: 'abort-means-abort',
              step: s.i,
              message: `${client}'s ${d.call}() returned ok, but its send #${ref} at ${r.where} was ${wrong === 'COMMIT' ? 'committed' : 'aborted'}`,
            });
    }
  }
}

/** Every violation of the producer rules in a run (empty when the run follows them). */
export function producerRuleViolations(input: RuleInput): RuleViolation[] {
  const v: RuleViolation[] = [];
  checkBrokerSequences(input, v);
  checkOneCopyPerSend(input, v);
  checkAbortMeansAbort(input, v);
  return v;
}

export function formatRuleViolations(violations: readonly RuleViolation[]): string {
  return violations.map((x) => `[${x.rule}] step ${x.step}: ${x.message}`).join('\n');
}
