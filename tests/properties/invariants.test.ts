/**
 * The invariant checker itself: sound runs pass, and each invariant fires on a trace doctored to
 * break exactly it (an extra append, a delivery of an aborted record, an illegal coordinator
 * transition …). Without these, a green property test could mean a blind checker.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations, type InvariantId, runChecked } from '../../src/sim/checks/invariants';
import type { Checkpoint } from '../../src/sim/kernel/checkpoint';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import { PRESETS } from '../../src/sim/presets';
import type { Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';

/** A committed and an aborted transaction into `in`, read by an exactly-once app (→ `out`) and a read_uncommitted reader. */
const base: Scenario = {
  version: 1,
  seed: 3,
  cluster: { 'transaction.version': 1 },
  topics: [
    { name: 'in', partitions: 1 },
    { name: 'out', partitions: 1 },
  ],
  clients: [
    {
      id: 'p1',
      type: 'producer',
      config: { 'transactional.id': 'tx1' },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'in', key: 'k{i}', value: 'v{i}', headers: { event_id: 'e{i}' }, count: 3 },
        { op: 'commitTransaction' },
        { op: 'beginTransaction' },
        { op: 'send', topic: 'in', key: 'a', value: 'x', headers: { event_id: 'ab' } },
        { op: 'flush' },
        { op: 'abortTransaction' },
      ],
    },
    {
      id: 'c1',
      type: 'consumer',
      config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'isolation.level': 'read_committed', 'enable.auto.commit': false },
      topics: ['in'],
      processing: { mode: 'exactly-once', outputTopic: 'out' },
    },
    {
      id: 'c2',
      type: 'consumer',
      config: { 'group.id': 'h', 'auto.offset.reset': 'earliest', 'isolation.level': 'read_uncommitted' },
      topics: ['in'],
    },
  ],
};

const { trace } = runChecked(base);
const facts = trace.steps.flatMap((s) => s.facts.map((f) => ({ step: s.i, fact: f as Fact })));
const last = trace.steps.length - 1;

function appendOf(pred: (f: Extract<Fact, { kind: 'append' }>) => boolean): { step: number; fact: Extract<Fact, { kind: 'append' }> } {
  const hit = facts.find((x) => x.fact.kind === 'append' && pred(x.fact));
  if (!hit) throw new Error('base scenario changed: append not found');
  return hit as { step: number; fact: Extract<Fact, { kind: 'append' }> };
}
const inData = appendOf((f) => f.topic === 'in' && f.control === null && f.baseOffset === 0);
const inCommit = appendOf((f) => f.topic === 'in' && f.control === 'COMMIT');
const inAborted = appendOf((f) => f.topic === 'in' && f.control === null && f.baseOffset > 0);
const inAbort = appendOf((f) => f.topic === 'in' && f.control === 'ABORT');
const outCommit = appendOf((f) => f.topic === 'out' && f.control === 'COMMIT');
/** A second, non-transactional copy of e0 in the output: one more than its input. */
const extraOutput: Fact = {
  ...outCommit.fact,
  control: null,
  transactional: false,
  baseOffset: 4,
  lastOffset: 4,
  eventIds: ['e0'],
  origins: [null],
};

/** The trace with extra facts on some steps (and optionally a changed scenario or checkpoints). */
function doctor(extra: Record<number, Fact[]>, change: Partial<Pick<Trace, 'scenario' | 'checkpoints'>> = {}): Trace {
  const steps: TraceStep[] = trace.steps.map((s) => (extra[s.i] ? { ...s, facts: [...s.facts, ...(extra[s.i] as Fact[])] } : s));
  return { ...trace, steps, ...change };
}

function replaceFact(pred: (f: Fact) => boolean, by: (f: Fact) => Fact): Trace {
  const steps = trace.steps.map((s) => ({ ...s, facts: s.facts.map((f) => (pred(f as Fact) ? by(f as Fact) : f)) }));
  return { ...trace, steps };
}

const ids = (t: Trace): InvariantId[] => [...new Set(checkInvariants(t).map((v) => v.invariant))];

/** A delivery to c1 (read_committed) or c2; `consumer` names another (one with no earlier polls). */
const delivered = (offset: number, isolationLevel: string, eventId?: string, consumer?: string): Fact => ({
  kind: 'delivered',
  consumer: consumer ?? (isolationLevel === 'read_committed' ? 'c1' : 'c2'),
  groupId: 'g',
  isolationLevel,
  topic: 'in',
  partition: 0,
  offset,
  key: null,
  value: null,
  headers: eventId ? { event_id: eventId } : {},
});

const dataAppend = (over: Partial<Extract<Fact, { kind: 'append' }>>): Fact => ({
  ...inData.fact,
  producerId: 4242,
  baseSequence: 0,
  lastSequence: 0,
  transactional: false,
  baseOffset: 6,
  lastOffset: 6,
  eventIds: ['x'],
  origins: [null],
  ...over,
});

describe('the invariant checker', () => {
  it('finds nothing wrong in a sound run, checked at checkpoints or after every step', () => {
    expect(formatViolations(checkInvariants(trace))).toBe('');
    expect(formatViolations(checkInvariants(trace, { everyStep: true }))).toBe('');
    // the run really did what the checks are about
    expect(facts.some((f) => f.fact.kind === 'delivered' && f.fact.isolationLevel === 'read_committed')).toBe(true);
    expect(outCommit.step).toBeGreaterThan(0);
  });

  it.each(PRESETS.map((p) => [p.id, p.scenario] as const))('finds nothing wrong in preset %s', (_id, scenario) => {
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it('offsets-unique: an append below the log end offset', () => {
    expect(ids(doctor({ [last]: [dataAppend({ baseOffset: 2, lastOffset: 2 })] }))).toContain('offsets-unique');
  });

  it('offsets-dense: an append that leaves a gap', () => {
    expect(ids(doctor({ [last]: [dataAppend({ baseOffset: 9, lastOffset: 9 })] }))).toEqual(['offsets-dense']);
  });

  describe('partition logs in checkpoints', () => {
    const batch = (n: number, seq: number) => ({
      producerId: 7,
      producerEpoch: 0,
      baseSequence: seq,
      isTransactional: false,
      records: Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v', headers: {}, timestamp: 0 })),
    });
    let log: PartitionLog = createPartitionLog('in', 0);
    log = appendProducerBatch(log, batch(2, 0), 0).log;
    log = appendProducerBatch(log, batch(2, 2), 0).log;
    const withLog = (l: PartitionLog, extra: Record<number, Fact[]> = {}): Trace => {
      const end = trace.checkpoints[trace.checkpoints.length - 1] as Checkpoint;
      const actors = end.actors.map(([id, snap]) =>
        id === 'broker-0'
          ? ([id, { ...(snap as object), context: { ...(snap as { context: object }).context, partitions: { 'in-0': l } } }] as [
              string,
              unknown,
            ])
          : ([id, snap] as [string, unknown]),
      );
      return doctor(extra, { checkpoints: [...trace.checkpoints.slice(0, -1), { ...end, actors }] });
    };
    const second = log.batches.at(1);
    if (!second) throw new Error('no second batch');
    const shifted = { ...second, baseOffset: 3, lastOffset: 4, records: second.records.map((r, i) => ({ ...r, offset: 3 + i })) };
    const gap = { ...log, batches: log.batches.with(1, shifted), logEndOffset: 5, highWatermark: 5 };

    it('a sound log passes', () => {
      expect(checkInvariants(withLog(log)).filter((v) => v.step === last)).toEqual([]);
    });

    it('offsets-dense: a gap before anything was cleaned; none once the cleaner removed records', () => {
      expect(ids(withLog(gap))).toContain('offsets-dense');
      const cleaned: Fact = { kind: 'cleaned', topic: 'in', partition: 0, removed: 1, cleanedUpTo: 3 };
      expect(ids(withLog(gap, { [last - 1]: [cleaned] }))).not.toContain('offsets-dense');
    });

    it('offsets-unique: an empty batch before anything was cleaned; a header the cleaner kept (RETAIN_EMPTY) once it removed records', () => {
      const emptied = { ...log, batches: log.batches.with(1, { ...second, records: [] }) };
      expect(ids(withLog(emptied))).toContain('offsets-unique');
      const cleaned: Fact = { kind: 'cleaned', topic: 'in', partition: 0, removed: 2, cleanedUpTo: 3 };
      expect(ids(withLog(emptied, { [last - 1]: [cleaned] }))).not.toContain('offsets-unique');
    });

    it('offsets-unique: overlapping batches', () => {
      const overlap = { ...second, baseOffset: 1, lastOffset: 2, records: second.records.map((r, i) => ({ ...r, offset: 1 + i })) };
      expect(ids(withLog({ ...log, batches: log.batches.with(1, overlap), logEndOffset: 3, highWatermark: 3 }))).toContain(
        'offsets-unique',
      );
    });

    it('lso-hw-leo: a high watermark past the log end, a log start past the LSO', () => {
      expect(ids(withLog({ ...log, highWatermark: log.logEndOffset + 1 }))).toContain('lso-hw-leo');
      expect(ids(withLog({ ...log, logStartOffset: 9 }))).toContain('lso-hw-leo');
    });
  });

  it('delivered-from-log: a record that was never appended, or another event at that offset', () => {
    expect(ids(doctor({ [last]: [delivered(42, 'read_uncommitted')] }))).toEqual(['delivered-from-log']);
    // (to another consumer: c2 had already polled 0, and a second 0 is a non-monotonic poll too)
    expect(ids(doctor({ [last]: [delivered(0, 'read_uncommitted', 'not-e0', 'c3')] }))).toEqual(['delivered-from-log']);
    expect(ids(doctor({ [inData.step]: [delivered(0, 'read_uncommitted', 'e0')] }))).toEqual(['delivered-from-log']);
  });

  it('read-committed-isolation: an aborted record, a marker, an open record', () => {
    expect(ids(doctor({ [last]: [delivered(inAborted.fact.baseOffset, 'read_committed', 'ab')] }))).toEqual(['read-committed-isolation']);
    expect(ids(doctor({ [last]: [delivered(inCommit.fact.baseOffset, 'read_committed')] }))).toEqual(['read-committed-isolation']);
    // before its COMMIT marker landed, e0 was open
    expect(ids(doctor({ [inCommit.step - 1]: [delivered(0, 'read_committed', 'e0')] }))).toEqual(['read-committed-isolation']);
    // the same record once committed is fine, and read_uncommitted may see aborted data
    expect(ids(doctor({ [inCommit.step + 1]: [delivered(0, 'read_committed', 'e0', 'c3')] }))).toEqual([]);
    expect(ids(doctor({ [last]: [delivered(inAborted.fact.baseOffset, 'read_uncommitted', 'ab', 'c3')] }))).toEqual([]);
  });

  it('read-uncommitted-no-control: a marker', () => {
    expect(ids(doctor({ [last]: [delivered(inAbort.fact.baseOffset, 'read_uncommitted')] }))).toEqual(['read-uncommitted-no-control']);
  });

  it('skips-only-aborted-or-markers: skipping committed data, or data as a marker', () => {
    const skip = (offset: number, reason: 'aborted' | 'control'): Fact => ({
      kind: 'skipped',
      consumer: 'c1',
      topic: 'in',
      partition: 0,
      baseOffset: offset,
      lastOffset: offset,
      reason,
    });
    expect(ids(doctor({ [last]: [skip(0, 'aborted')] }))).toEqual(['skips-only-aborted-or-markers']);
    expect(ids(doctor({ [last]: [skip(inAborted.fact.baseOffset, 'control')] }))).toEqual(['skips-only-aborted-or-markers']);
    expect(ids(doctor({ [last]: [skip(inAborted.fact.baseOffset, 'aborted'), skip(inAbort.fact.baseOffset, 'control')] }))).toEqual([]);
  });

  it('polls-in-order: a non-monotonic poll, and a poll skip over committed data (Jepsen); markers and aborted data may be passed over', () => {
    const polled = (consumer: string) =>
      facts.flatMap(({ step, fact }) => (fact.kind === 'delivered' && fact.consumer === consumer ? [{ step, offset: fact.offset }] : []));
    // the base run: c2 (read_uncommitted) returns e0..e2 and the aborted ab, c1 (read_committed) e0..e2
    expect(polled('c2').map((d) => d.offset)).toEqual([0, 1, 2, inAborted.fact.baseOffset]);
    expect(polled('c1').map((d) => d.offset)).toEqual([0, 1, 2]);
    // c2 returns offset 1 again at the end, with nothing setting its position back
    expect(ids(doctor({ [last]: [delivered(1, 'read_uncommitted', 'e1')] }))).toEqual(['polls-in-order']);
    const without = (consumer: string, offset: number): Trace => {
      const steps = trace.steps.map((s) => ({
        ...s,
        facts: s.facts.filter((f) => {
          const x = f as Fact;
          return !(x.kind === 'delivered' && x.consumer === consumer && x.offset === offset);
        }),
      }));
      return { ...trace, steps };
    };
    // a poll skip: c1 never returns the committed e1, yet returns e2
    const skip = checkInvariants(without('c1', 1)).filter((v) => v.invariant === 'polls-in-order');
    expect(skip.map((v) => v.message)).toEqual([expect.stringContaining('c1 received in-0@2 after in-0@0')]);
    // a record at 6 after the ABORT marker: read_committed passes the marker, the aborted ab and the
    // marker before it; read_uncommitted returns aborted data, so passing over ab is a skip
    const ab = inAborted.fact.baseOffset;
    expect(inAbort.fact.baseOffset).toBe(ab + 1);
    const withSix = (t: Trace, consumer: string, isolationLevel: string): Trace => ({
      ...t,
      steps: t.steps.map((s) =>
        s.i === last - 1
          ? { ...s, facts: [...s.facts, dataAppend({ baseOffset: ab + 2, lastOffset: ab + 2 })] }
          : s.i === last
            ? { ...s, facts: [...s.facts, delivered(ab + 2, isolationLevel, 'x', consumer)] }
            : s,
      ),
    });
    expect(ids(withSix(trace, 'c1', 'read_committed'))).toEqual([]);
    expect(ids(withSix(trace, 'c2', 'read_uncommitted'))).toEqual([]);
    const passed = checkInvariants(withSix(without('c2', ab), 'c2', 'read_uncommitted')).filter((v) => v.invariant === 'polls-in-order');
    expect(passed.map((v) => v.message)).toEqual([expect.stringContaining(`never returned in-0@${ab}`)]);
  });

  it('polls-in-order: a restart, a rebalance or a reset may set the position back (the crashed consumer reads again)', () => {
    for (const id of ['at-least-once-consumer-crash', 'ctp-exactly-once-crash', 'offset-reset-replays-output']) {
      const run = runChecked(PRESETS.find((p) => p.id === id)?.scenario);
      const last = new Map<string, number>();
      let back = 0;
      for (const s of run.trace.steps)
        for (const f of s.facts as Fact[]) {
          if (f.kind !== 'delivered') continue;
          const k = `${f.consumer}|${f.topic}-${f.partition}`;
          if ((last.get(k) ?? -1) >= f.offset) back++;
          last.set(k, f.offset);
        }
      expect(back, id).toBeGreaterThan(0);
      expect(run.violations, id).toEqual([]);
    }
  });

  it("sends-in-order: an idempotent producer's records acknowledged out of send order (Jepsen's non-monotonic send)", () => {
    const results = facts.flatMap(({ fact }) => (fact.kind === 'sendResult' && fact.client === 'p1' && fact.offset !== null ? [fact] : []));
    expect(results.slice(0, 3).map((r) => [r.ref, r.offset])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    // record #0 reported at offset 2 and #2 at offset 0: acknowledged in the reverse of send order
    const swapped = replaceFact(
      (f) => f.kind === 'sendResult' && f.client === 'p1' && (f.ref === 0 || f.ref === 2),
      (f) => (f.kind === 'sendResult' ? { ...f, offset: 2 - (f.offset as number) } : f),
    );
    const found = checkInvariants(swapped).filter((x) => x.invariant === 'sends-in-order');
    expect(found.map((x) => x.message)).toEqual([expect.stringContaining("p1's record #1 to in-0 was acknowledged at offset 1")]);
    // without idempotence Kafka may reorder on retries (more than one request in flight): not a violation
    const plain = { ...trace.resolved.producers.p1, 'enable.idempotence': false } as (typeof trace.resolved.producers)[string];
    const notIdempotent = { ...swapped, resolved: { ...swapped.resolved, producers: { ...swapped.resolved.producers, p1: plain } } };
    expect(checkInvariants(notIdempotent).filter((x) => x.invariant === 'sends-in-order')).toEqual([]);
  });

  it('idempotent-no-duplicate: the same producerId, epoch and sequences appended twice — unless the application resends', () => {
    const again = dataAppend({
      producerId: inAborted.fact.producerId,
      baseSequence: inAborted.fact.baseSequence,
      lastSequence: inAborted.fact.lastSequence,
      transactional: false,
    });
    expect(ids(doctor({ [last]: [again] }))).toEqual(['idempotent-no-duplicate']);
    const resending: Scenario = {
      ...base,
      clients: base.clients.map((c) =>
        c.type === 'producer' ? { ...c, script: [...c.script, { op: 'resend' as const, eventId: 'ab' }] } : c,
      ),
    };
    expect(ids(doctor({ [last]: [again] }, { scenario: resending }))).toEqual([]);
    // producer.id.expiration.ms: the partition forgot the producer between the two copies
    const forgot: Fact = {
      kind: 'producerStateExpired',
      broker: 'broker-0',
      topic: 'in',
      partition: 0,
      producers: [{ producerId: inAborted.fact.producerId, producerEpoch: inAborted.fact.producerEpoch, lastTimestamp: 0 }],
      expirationMs: 1,
    };
    expect(ids(doctor({ [last - 1]: [forgot], [last]: [again] }))).toEqual([]);
    // an expiry before the first copy excuses nothing
    expect(ids(doctor({ [inAborted.step - 1]: [forgot], [last]: [again] }))).toEqual(['idempotent-no-duplicate']);
  });

  it('coordinator-transitions: a transition Kafka refuses, a jump, and a refused attempt', () => {
    const toComplete = replaceFact(
      (f) => f.kind === 'txnState' && f.transactionalId === 'tx1' && f.to === 'PrepareCommit',
      (f) => ({ ...(f as Extract<Fact, { kind: 'txnState' }>), to: 'CompleteCommit' }),
    );
    expect(ids(toComplete)).toContain('coordinator-transitions');
    const fromNew = replaceFact(
      (f) => f.kind === 'txnState' && f.from === '(new)' && f.transactionalId === 'tx1',
      (f) => ({ ...(f as Extract<Fact, { kind: 'txnState' }>), to: 'Ongoing' }),
    );
    expect(ids(fromNew)).toContain('coordinator-transitions');
    const attempt: Fact = {
      kind: 'clientError',
      client: 'txn-coordinator',
      error: 'IllegalStateException',
      during: 'Empty → PrepareCommit',
      fatal: false,
    };
    expect(ids(doctor({ [last]: [attempt] }))).toEqual(['coordinator-transitions']);
  });

  it("coordinator-transitions: a hosted coordinator's load starts the states over (its replica may hold a write never told)", () => {
    const prepared = (f: Fact) => f.kind === 'txnState' && f.transactionalId === 'tx1' && f.to === 'PrepareCommit';
    const at = facts.find((x) => prepared(x.fact))?.step as number;
    // PrepareCommit written to the replica but never acknowledged to the old leader: no fact
    const untold = (load: boolean): Trace => ({
      ...trace,
      steps: trace.steps.map((s) =>
        s.i !== at
          ? s
          : {
              ...s,
              facts: s.facts.filter((f) => !prepared(f as Fact)),
              // the coordinator loads the partition whose replica holds the untold write
              ...(load ? { kind: 'timer' as const, label: 'partitionLoaded' } : {}),
            },
      ),
    });
    expect(ids(untold(false))).toEqual(['coordinator-transitions']);
    expect(ids(untold(true))).toEqual([]);
  });

  it("coordinator-transitions: each coordinator's states are its own (a deposed one may still complete a write from its memory)", () => {
    const coordinatorStep = (f: Fact) => f.kind === 'txnState' && f.transactionalId === 'tx1' && f.to === 'CompleteAbort';
    const at = facts.find((x) => coordinatorStep(x.fact))?.step as number;
    const coordinator = trace.steps.at(at)?.actor as string;
    // tx1 has ended CompleteAbort at `coordinator`; a late Ongoing → PrepareAbort told at `last`
    const late: Fact = {
      kind: 'txnState',
      transactionalId: 'tx1',
      producerId: 1000,
      producerEpoch: 0,
      from: 'Ongoing',
      to: 'PrepareAbort',
    };
    const toldBy = (actor: string): Trace => ({
      ...trace,
      steps: trace.steps.map((s) => (s.i === last ? { ...s, actor, facts: [...s.facts, late] } : s)),
    });
    // by the same coordinator: a jump in its own memory
    expect(ids(toldBy(coordinator))).toEqual(['coordinator-transitions']);
    // by another broker's coordinator (a paused leader resuming, not yet told it was deposed): its own write
    expect(ids(toldBy('broker-0.txn-coordinator'))).toEqual([]);
  });

  it("marker-coordinator-epochs-monotonic: a producer's marker from an older coordinator epoch after a newer one on a log", () => {
    const end = trace.checkpoints[trace.checkpoints.length - 1] as Checkpoint;
    const withFirstMarkerEpoch = (coordinatorEpoch: number): Trace => {
      const actors = end.actors.map(([id, snap]) => {
        const ctx = (snap as { context: { partitions?: Record<string, PartitionLog> } }).context;
        const log = ctx.partitions?.['in-0'];
        if (!id.startsWith('broker-') || !log) return [id, snap] as [string, unknown];
        const i = log.batches.toArray().findIndex((b) => b.isControl);
        const marker = log.batches.at(i);
        if (!marker) throw new Error('base scenario changed: no marker in in-0');
        const bad = { ...log, batches: log.batches.with(i, { ...marker, coordinatorEpoch }) };
        return [id, { ...(snap as object), context: { ...ctx, partitions: { ...ctx.partitions, 'in-0': bad } } }] as [string, unknown];
      });
      return doctor({}, { checkpoints: [...trace.checkpoints.slice(0, -1), { ...end, actors }] });
    };
    // in-0 holds tx1's COMMIT, then the ABORT of its next transaction, both from coordinator epoch 0
    expect(ids(withFirstMarkerEpoch(0))).toEqual([]);
    expect(ids(withFirstMarkerEpoch(3))).toEqual(['marker-coordinator-epochs-monotonic']);
  });

  it('fenced-epoch-not-committed: data of epoch 0 written after epoch 1 existed, then committed', () => {
    const bump: Fact = { kind: 'txnState', transactionalId: 'tx1', producerId: 1000, producerEpoch: 1, from: 'CompleteAbort', to: 'Empty' };
    const late = dataAppend({ producerId: 1000, producerEpoch: 0, baseSequence: 4, lastSequence: 4, transactional: true });
    const commit: Fact = { ...inCommit.fact, baseOffset: 7, lastOffset: 7, producerEpoch: 1 };
    expect(ids(doctor({ [last - 1]: [bump], [last]: [late, commit] }))).toEqual(['fenced-epoch-not-committed']);
    // aborted instead: the fenced write never becomes visible, which is what Kafka guarantees
    expect(ids(doctor({ [last - 1]: [bump], [last]: [late, { ...commit, control: 'ABORT' }] }))).toEqual([]);
  });

  it('exactly-once-output: an extra committed copy, or a committed input whose output was aborted', () => {
    const v = checkInvariants(doctor({ [last]: [extraOutput] }));
    expect(v.map((x) => x.invariant)).toEqual(['exactly-once-output']);
    expect(v[0]?.message).toContain('event e0 is 2 time(s) in committed output');
    const aborted = replaceFact(
      (f) => f.kind === 'append' && f.topic === 'out' && f.control === 'COMMIT',
      (f) => ({ ...(f as Extract<Fact, { kind: 'append' }>), control: 'ABORT' }),
    );
    expect(ids(aborted)).toEqual(['exactly-once-output']);
  });

  it('committed-offsets-monotonic: backwards within a generation, not across generations', () => {
    const commit = (generationId: number, offset: number): Fact => ({
      kind: 'offsetsCommitted',
      groupId: 'g',
      generationId,
      offsets: [{ topic: 'in', partition: 0, offset }],
      transactional: false,
    });
    expect(ids(doctor({ [last - 1]: [commit(1, 100)], [last]: [commit(1, 50)] }))).toEqual(['committed-offsets-monotonic']);
    expect(ids(doctor({ [last - 1]: [commit(1, 100)], [last]: [commit(2, 50)] }))).toEqual([]);
  });

  it('committed-offsets-monotonic: from an unclean election of the partition on, its committed offset may go back', () => {
    const commit = (offset: number, partition = 0): Fact => ({
      kind: 'offsetsCommitted',
      groupId: 'g',
      generationId: 1,
      offsets: [{ topic: 'in', partition, offset }],
      transactional: false,
    });
    const election = (partition: number): Fact => ({
      kind: 'leaderChange',
      topic: 'in',
      partition,
      leader: 'broker-0',
      leaderEpoch: 2,
      isr: ['broker-0'],
      election: 'unclean',
    });
    // found by the replication fuzz family: in0-0 committed at 18, broker-2 elected unclean with 4 records, the consumer commits 4
    expect(ids(doctor({ [last - 3]: [commit(100)], [last - 2]: [election(0)], [last - 1]: [commit(50)] }))).toEqual([]);
    // not another partition's election
    expect(ids(doctor({ [last - 3]: [commit(100)], [last - 2]: [election(1)], [last - 1]: [commit(50)] }))).toEqual([
      'committed-offsets-monotonic',
    ]);
    // found by replication-transactions: offsets read from the old leader before the election are
    // committed after it (23), then set back once the consumer finds the shorter log (22)
    expect(ids(doctor({ [last - 3]: [election(0)], [last - 2]: [commit(23)], [last - 1]: [commit(22)] }))).toEqual([]);
    // and before any election, going back is still a violation
    expect(ids(doctor({ [last - 3]: [commit(23)], [last - 2]: [commit(22)], [last - 1]: [election(0)] }))).toEqual([
      'committed-offsets-monotonic',
    ]);
  });

  it("committed-offsets-monotonic and exactly-once-output: an operator's reset (kafka-consumer-groups --reset-offsets) moves the offsets back on purpose", () => {
    const commit = (generationId: number, offset: number, operatorReset = false): Fact => ({
      kind: 'offsetsCommitted',
      groupId: 'g',
      generationId,
      offsets: [{ topic: 'in', partition: 0, offset }],
      transactional: false,
      ...(operatorReset ? { operatorReset: true as const } : {}),
    });
    // two resets in a row, back and forth (both generation −1), then the group's own commits again
    expect(ids(doctor({ [last - 3]: [commit(-1, 100, true)], [last - 2]: [commit(-1, 0, true)], [last - 1]: [commit(1, 50)] }))).toEqual(
      [],
    );
    // the same offsets set back by a standalone consumer's commit (generation −1, not a reset) are a violation
    expect(ids(doctor({ [last - 2]: [commit(-1, 100)], [last - 1]: [commit(-1, 0)] }))).toEqual(['committed-offsets-monotonic']);
    // a reset lets the pipeline commit its output again: not an exactly-once-output violation
    expect(ids(doctor({ [last - 1]: [commit(-1, 0, true)], [last]: [extraOutput] }))).toEqual([]);
  });

  describe('the network and the kernel (differential checks from the trace)', () => {
    /** Two answers delivered on one connection, from the sound run. */
    const answers = trace.envelopes.filter((e) => e.rpc === 'FetchResponse' && e.fate === 'delivered' && e.to === 'c2.consumer');
    const [a, b] = answers;
    if (!a || !b) throw new Error('base scenario changed: two FetchResponses to c2 expected');
    const withEnvelopes = (change: (e: EnvelopeRecord) => EnvelopeRecord): Trace => ({ ...trace, envelopes: trace.envelopes.map(change) });

    it('connection-order: an envelope delivered before one sent earlier on the same connection and direction', () => {
      const swapped = withEnvelopes((e) =>
        e.id === a.id ? { ...e, deliveredStep: b.deliveredStep } : e.id === b.id ? { ...e, deliveredStep: a.deliveredStep } : e,
      );
      expect(ids(swapped)).toEqual(['connection-order']);
    });

    it('closed-connection-silent: an answer delivered on a generation its client had closed', () => {
      const closeAt = (b.deliveredStep as number) - 1;
      const steps = trace.steps.map((st) =>
        st.i === closeAt
          ? { ...st, kind: 'disconnected' as const, detail: { connection: b.connection, generation: b.generation, reason: 'timeout' } }
          : st,
      );
      expect(ids({ ...trace, steps })).toContain('closed-connection-silent');
    });

    it('one-request-at-a-time: a server reads a request before it has answered the one before it on the connection', () => {
      // two requests in a row on one connection (not Fetch): the second read before the first's answer was sent
      const reads = trace.envelopes
        .filter(
          (e) =>
            e.rpc !== 'Fetch' && e.timeoutMs !== null && e.fate === 'delivered' && e.deliveredStep !== null && !e.rpc.endsWith('Response'),
        )
        .sort((x, y) => (x.deliveredStep as number) - (y.deliveredStep as number));
      const pair = reads
        .map(
          (first, i) =>
            [first, reads.slice(i + 1).find((e) => e.connection === first.connection && e.generation === first.generation)] as const,
        )
        .find(([, second]) => second !== undefined);
      if (!pair?.[1]) throw new Error('base scenario changed: two requests on one connection expected');
      const [first, second] = pair;
      const answer = trace.envelopes.find((e) => e.inReplyTo === first.id);
      if (!answer) throw new Error('base scenario changed: the first request is answered');
      expect(ids(trace)).not.toContain('one-request-at-a-time');
      // its answer sent only after the second request was read
      const late = withEnvelopes((e) => (e.id === answer.id ? { ...e, sentStep: (second.deliveredStep as number) + 1 } : e));
      expect(ids(late)).toEqual(['one-request-at-a-time']);
    });

    it('requests-resolved: a request neither answered nor disconnected long before the end', () => {
      const request = trace.envelopes.find((e) => e.rpc === 'ListOffsets');
      if (!request) throw new Error('base scenario changed: a ListOffsets expected');
      // with a 100 ms timeout it should have been answered or disconnected long before the run ended
      const unanswered = withEnvelopes((e) =>
        e.id === request.id ? { ...e, timeoutMs: 100 } : e.inReplyTo === request.id ? { ...e, fate: 'lost' } : e,
      );
      expect(ids(unanswered)).toEqual(['requests-resolved']);
      // with its real timeout (30 s) it is still within it when the run ends: fine
      expect(ids(withEnvelopes((e) => (e.inReplyTo === request.id ? { ...e, fate: 'lost' } : e)))).toEqual([]);
    });

    it('virtual-time: a step that goes back in time, a non-finite time, a livelock stop', () => {
      const back = trace.steps.map((st) => (st.i === last ? { ...st, t: 0 } : st));
      expect(ids({ ...trace, steps: back })).toEqual(['virtual-time']);
      const nan = trace.steps.map((st) => (st.i === last ? { ...st, t: Number.NaN } : st));
      expect(ids({ ...trace, steps: nan })).toEqual(['virtual-time']);
      expect(ids({ ...trace, stopReason: 'livelock', stopDetail: '9 steps at 5 ms' })).toEqual(['virtual-time']);
    });

    it('quiescent-settled: a quiescent end with a transaction still Ongoing at the live coordinator', () => {
      const end = trace.checkpoints[trace.checkpoints.length - 1] as Checkpoint;
      const actors = end.actors.map(([id, snap]) => {
        if (id !== 'txn-coordinator') return [id, snap] as [string, unknown];
        const ctx = (snap as { context: { txns: Record<string, object> } }).context;
        const txns = Object.fromEntries(Object.entries(ctx.txns).map(([k, m]) => [k, { ...m, state: 'Ongoing' }]));
        return [id, { ...(snap as object), context: { ...ctx, txns } }] as [string, unknown];
      });
      const open = { ...trace, stopReason: 'quiescent' as const, checkpoints: [...trace.checkpoints.slice(0, -1), { ...end, actors }] };
      expect(ids(open)).toEqual(['quiescent-settled']);
    });
  });

  it('formats violations one per line with the invariant and the step', () => {
    const v = checkInvariants(doctor({ [last]: [delivered(42, 'read_uncommitted')] }));
    expect(formatViolations(v)).toBe(
      `[delivered-from-log] step ${last}: c2 (read_uncommitted) received in-0@42, which was never appended before`,
    );
  });
});
