/**
 * The log invariants (offsets-unique, offsets-dense, delivered-from-log) with replication: a new
 * leader appends at its own log end offset, below what the old leader had appended, and the old
 * leader truncates when it returns. A truncated suffix is not a gap and offsets written again after
 * a leader change are legitimate — but a gap, or a leader writing over its own records, still is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLedger, checkInvariants, formatViolations, type InvariantId, runChecked } from '../../src/sim/checks/invariants';
import type { Checkpoint } from '../../src/sim/kernel/checkpoint';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import type { PartitionLog } from '../../src/sim/log/partitionLog';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';

const preset = PRESETS.find((p) => p.id === 'acks-1-leader-failover-loss');
if (!preset) throw new Error('preset acks-1-leader-failover-loss is gone');

/** acks-1-leader-failover-loss, then c sent to the new leader (written at offset 1 again), read by a consumer. */
const scenario: Scenario = {
  ...preset.scenario,
  clients: [
    ...preset.scenario.clients.map((c) =>
      c.type === 'producer'
        ? {
            ...c,
            script: [
              ...c.script,
              { op: 'send' as const, at: 16000, topic: 'orders', key: 'order-3', value: 'c', headers: { event_id: 'e3' } },
            ],
          }
        : c,
    ),
    { id: 'reader', type: 'consumer', config: { 'group.id': 'r', 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
  ],
};

const { trace, violations } = runChecked(scenario, { everyStep: true });
const facts = [...trace.steps].flatMap((s) => s.facts.map((f) => ({ step: s.i, actor: s.actor, fact: f as Fact })));
const appends = facts.filter((f) => f.fact.kind === 'append') as { step: number; actor: string; fact: Extract<Fact, { kind: 'append' }> }[];
const last = trace.steps.length - 1;
const ids = (t: Trace): InvariantId[] => [...new Set(checkInvariants(t).map((v) => v.invariant))];

function doctor(extra: Record<number, Fact[]>, checkpoints = trace.checkpoints): Trace {
  const steps: TraceStep[] = [...trace.steps].map((s) => (extra[s.i] ? { ...s, facts: [...s.facts, ...(extra[s.i] as Fact[])] } : s));
  return { ...trace, steps, checkpoints };
}

describe('log invariants with replication', () => {
  it('the run writes offset 1 twice: e2 on broker-0 (then truncated), e3 on broker-1 after the failover', () => {
    expect(appends.map((a) => `${a.actor} ${a.fact.baseOffset} ${a.fact.eventIds.join()}`)).toEqual([
      'broker-0 0 e1',
      'broker-0 1 e2',
      'broker-1 1 e3',
    ]);
    const truncated = facts.find((f) => f.fact.kind === 'truncated');
    expect(truncated?.actor).toBe('broker-0');
    expect(facts.some((f) => f.fact.kind === 'delivered' && f.fact.offset === 1 && f.fact.headers.event_id === 'e3')).toBe(true);
  });

  it('finds nothing wrong in it, checked after every step and at checkpoints', () => {
    expect(formatViolations(violations)).toBe('');
    expect(formatViolations(checkInvariants(trace))).toBe('');
  });

  const e3 = appends[2] as (typeof appends)[number];
  /** An extra append of one record at `offset` on `step`. */
  const at = (step: number, offset: number, eventId: string): Record<number, Fact[]> => ({
    [step]: [{ ...e3.fact, baseOffset: offset, lastOffset: offset, eventIds: [eventId], origins: [null] }],
  });
  /** Steps broker-1 took after appending e3 (no leader change since). */
  const later = [...trace.steps].filter((s) => s.actor === 'broker-1' && s.i > e3.step).map((s) => s.i);

  it('offsets-dense: after a leader change an append past everything appended before is a gap', () => {
    expect(later.length).toBeGreaterThan(0);
    expect(ids(doctor(at(later[0] as number, 5, 'gap')))).toEqual(['offsets-dense']);
  });

  it('offsets-unique: a leader writing below its own log end offset with no leader change since', () => {
    expect(ids(doctor(at(later[0] as number, 1, 'again')))).toEqual(['offsets-unique']);
    // at offset 2 it follows on from broker-1's e3: fine
    expect(ids(doctor(at(later[0] as number, 2, 'next')))).toEqual([]);
  });

  it('delivered-from-log: e2 read at offset 1 before the failover is fine; an event never at offset 1 is not', () => {
    const readerStep = facts.find((f) => f.fact.kind === 'delivered')?.step as number;
    // to a reader of its own: `reader` polls offset 1 itself, and a second poll of it is a non-monotonic poll
    const delivered = (eventId: string): Fact => ({
      kind: 'delivered',
      consumer: 'another-reader',
      groupId: 'r',
      isolationLevel: 'read_uncommitted',
      topic: 'orders',
      partition: 0,
      offset: 1,
      key: null,
      value: null,
      headers: { event_id: eventId },
    });
    expect(readerStep).toBeGreaterThan(appends[1]?.step as number);
    expect(ids(doctor({ [readerStep]: [delivered('e2')] }))).toEqual([]);
    expect(ids(doctor({ [last]: [delivered('e3')] }))).toEqual([]);
    expect(ids(doctor({ [last]: [delivered('zz')] }))).toEqual(['delivered-from-log']);
  });

  it("offsets-dense: every replica's log is checked, a follower's too", () => {
    const end = trace.checkpoints[trace.checkpoints.length - 1] as Checkpoint;
    const actors = end.actors.map(([id, snap]) => {
      if (id !== 'broker-2') return [id, snap] as [string, unknown];
      const ctx = (snap as { context: { partitions: Record<string, PartitionLog> } }).context;
      const log = ctx.partitions['orders-0'] as PartitionLog;
      const first = log.batches.at(0);
      if (!first) throw new Error('broker-2 has no batch');
      // the follower's only batch moved one offset up: offset 0 is missing
      const moved = { ...first, baseOffset: 1, lastOffset: 1, records: first.records.map((r) => ({ ...r, offset: 1 })) };
      const gap = { ...log, batches: log.batches.with(0, moved), logEndOffset: 2, highWatermark: 2 };
      return [id, { ...(snap as object), context: { ...ctx, partitions: { ...ctx.partitions, 'orders-0': gap } } }] as [string, unknown];
    });
    expect(ids(doctor({}, [...trace.checkpoints.slice(0, -1), { ...end, actors }]))).toContain('offsets-dense');
  });
});

describe('the ledger: a truncation cuts the append it names (offset and leader epoch), not another at that offset', () => {
  const file = join(import.meta.dirname, 'regressions', 'deposed-leader-append-then-retry-same-instant.json');
  const deposed = runScenario(JSON.parse(readFileSync(file, 'utf8')));
  const all = [...deposed.steps].flatMap((s) => s.facts.map((f) => ({ step: s.i, t: s.t, actor: s.actor, fact: f as Fact })));
  type Cut = Extract<Fact, { kind: 'append' | 'truncated' }>;
  const onIn11 = all.filter(
    (f): f is typeof f & { fact: Cut } =>
      (f.fact.kind === 'append' || f.fact.kind === 'truncated') && f.fact.topic === 'in1' && f.fact.partition === 1,
  );

  it('the run: broker-0 (deposed) and broker-1 (elected) both write p0-0 at offset 0 at the same instant, broker-0 cuts its own', () => {
    expect(
      onIn11.map(
        (f) =>
          `${f.actor} ${f.fact.kind} t=${f.t} epoch=${f.fact.kind === 'append' ? f.fact.leaderEpoch : f.fact.batches.map((b) => b.partitionLeaderEpoch).join()}`,
      ),
    ).toEqual(['broker-0 append t=9000 epoch=0', 'broker-1 append t=9000 epoch=1', 'broker-0 truncated t=9000 epoch=0']);
  });

  it("the partition's record at offset 0 is broker-1's retry, and the truncation leaves it", () => {
    const retry = onIn11[1] as (typeof onIn11)[number];
    const r = appendLedger(deposed).partitions.get('in1-1')?.get(0);
    expect(r?.step).toBe(retry.step);
    expect(r?.leaderEpoch).toBe(1);
    expect(r?.supersededAt).toBeNull();
  });

  it("the deposed leader's own append at offset 0 is the one superseded", () => {
    const first = appendLedger(deposed).versions.get('in1-1')?.get(0)?.[0];
    expect(first?.step).toBe(onIn11[0]?.step);
    expect(first?.supersededAt).toBe(onIn11[1]?.step);
  });
});

describe("the ledger: a deposed leader's append in an older epoch never replaces a newer epoch's record", () => {
  // Kafka: a leader stamps its own epoch (UnifiedLog.appendAsLeader); a deposed leader that has not
  // heard of the election appends in its old epoch, in its own log only, and truncates that when it
  // follows (DivergingEpoch) — the new leader's record at the offset is the partition's
  const e2 = appends[1] as (typeof appends)[number];
  const e3 = appends[2] as (typeof appends)[number];
  const stepAfterE3 = [...trace.steps].find((s) => s.actor === 'broker-0' && s.i > e3.step)?.i as number;
  const stale: Fact = { ...e2.fact, baseOffset: 1, lastOffset: 1, eventIds: ['stale'], origins: [null] };
  const doctored = doctor({ [stepAfterE3]: [stale] });

  it('the run: e2 in epoch 0 on broker-0, e3 in epoch 1 on broker-1, both at offset 1', () => {
    expect([e2.fact.leaderEpoch, e3.fact.leaderEpoch]).toEqual([0, 1]);
    expect(stepAfterE3).toBeGreaterThan(e3.step);
  });

  it("an epoch-0 append at offset 1 after e3: e3 stays the partition's record, the stale one is superseded at once", () => {
    const ledger = appendLedger(doctored);
    const r = ledger.partitions.get('orders-0')?.get(1);
    expect(r?.eventId).toBe('e3');
    expect(r?.supersededAt).toBeNull();
    const versions = ledger.versions.get('orders-0')?.get(1) ?? [];
    expect(versions.map((x) => `${x.eventId}@${x.leaderEpoch}:${x.supersededAt === null ? 'current' : x.supersededAt}`)).toEqual([
      `e2@0:${e3.step}`,
      'e3@1:current',
      `stale@0:${stepAfterE3}`,
    ]);
    expect(ids(doctored)).toEqual([]);
  });

  it('an append in a newer epoch still takes the offset (the epoch-1 retry over the epoch-0 e2, as in the run)', () => {
    const newerStale: Fact = { ...stale, leaderEpoch: 2 };
    const r = appendLedger(doctor({ [stepAfterE3]: [newerStale] }))
      .partitions.get('orders-0')
      ?.get(1);
    expect(r?.eventId).toBe('stale');
  });
});

describe("leader-epochs-monotonic: a replica's log never goes back to an older leader epoch", () => {
  it('the run keeps it; a follower log with an epoch-0 batch after an epoch-1 batch breaks it', () => {
    expect(ids(trace)).not.toContain('leader-epochs-monotonic');
    const end = trace.checkpoints[trace.checkpoints.length - 1] as Checkpoint;
    const actors = end.actors.map(([id, snap]) => {
      if (id !== 'broker-2') return [id, snap] as [string, unknown];
      const ctx = (snap as { context: { partitions: Record<string, PartitionLog> } }).context;
      const log = ctx.partitions['orders-0'] as PartitionLog;
      const first = log.batches.at(0);
      if (!first) throw new Error('broker-2 has no batch');
      expect(log.batches.at(log.batches.length - 1)?.partitionLeaderEpoch).toBe(1);
      // its first batch stamped with a later epoch than the batch after it
      const bad = { ...log, batches: log.batches.with(0, { ...first, partitionLeaderEpoch: 3 }) };
      return [id, { ...(snap as object), context: { ...ctx, partitions: { ...ctx.partitions, 'orders-0': bad } } }] as [string, unknown];
    });
    expect(ids(doctor({}, [...trace.checkpoints.slice(0, -1), { ...end, actors }]))).toEqual(['leader-epochs-monotonic']);
  });
});
