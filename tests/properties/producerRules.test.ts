/** The differential producer-rule checks: each flags the pattern of the defect it was written for, and every preset passes them. */
import { describe, expect, it } from 'vitest';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { producerRuleViolations } from './producerRules';

function step(i: number, facts: Fact[], call?: { from: string; detail: Record<string, unknown> }): TraceStep {
  return {
    i,
    t: i,
    actor: call ? 'app.app' : 'broker-0',
    kind: call ? 'call' : 'deliver',
    label: call ? 'reply' : 'Produce',
    from: call?.from ?? null,
    envelope: null,
    detail: call?.detail ?? null,
    before: '',
    after: '',
    sent: [],
    facts,
    faults: [],
  };
}

function append(
  tp: [string, number],
  offset: number,
  pid: number,
  epoch: number,
  seq: number,
  opts: { control?: 'COMMIT' | 'ABORT'; transactional?: boolean; ref?: number } = {},
): Fact {
  const control = opts.control ?? null;
  return {
    kind: 'append',
    topic: tp[0],
    partition: tp[1],
    baseOffset: offset,
    lastOffset: offset,
    producerId: pid,
    producerEpoch: epoch,
    baseSequence: control ? -1 : seq,
    lastSequence: control ? -1 : seq,
    transactional: opts.transactional ?? control !== null,
    control,
    eventIds: control ? [] : [null],
    origins: control ? [] : [{ client: 'app', ref: opts.ref ?? offset }],
  };
}

const orders: [string, number] = ['orders', 0];
const rules = (steps: TraceStep[]) => producerRuleViolations({ steps }).map((v) => v.rule);

describe('producer rules (differential checks)', () => {
  it('broker-sequence: after a marker that bumped the epoch, a batch of that epoch must start at 0 (issue 11, item 2)', () => {
    const before = [
      step(0, [append(orders, 0, 1, 0, 0, { transactional: true })]),
      step(1, [append(orders, 1, 1, 1, -1, { control: 'COMMIT' })]),
    ];
    expect(rules([...before, step(2, [append(orders, 2, 1, 1, 1, { transactional: true, ref: 5 })])])).toEqual(['broker-sequence']);
    expect(rules([...before, step(2, [append(orders, 2, 1, 1, 0, { transactional: true, ref: 5 })])])).toEqual([]);
  });

  it('broker-sequence: the same (producerId, epoch, sequence) appended twice, or a stale epoch, is flagged', () => {
    expect(rules([step(0, [append(orders, 0, 1, 0, 0)]), step(1, [append(orders, 1, 1, 0, 0, { ref: 9 })])])).toContain('broker-sequence');
    expect(rules([step(0, [append(orders, 0, 1, 2, 0)]), step(1, [append(orders, 1, 1, 1, 0, { ref: 9 })])])).toContain('broker-sequence');
  });

  it('a partition that forgot its producer (producer.id.expiration.ms) takes any sequence, and the same send again', () => {
    const expired: Fact = {
      kind: 'producerStateExpired',
      broker: 'broker-0',
      topic: 'orders',
      partition: 0,
      producers: [{ producerId: 1, producerEpoch: 0, lastTimestamp: 0 }],
      expirationMs: 10000,
    };
    // the same send's retry (ref 0) at offset 1, same epoch and sequence: a duplicate only if the producer was remembered
    const first = step(0, [append(orders, 0, 1, 0, 0)]);
    const retry = step(2, [append(orders, 1, 1, 0, 0, { ref: 0 })]);
    expect(rules([first, step(1, []), retry]).sort()).toEqual(['broker-sequence', 'one-copy-per-send']);
    expect(rules([first, step(1, [expired]), retry])).toEqual([]);
    // an expiry on another partition excuses nothing
    expect(rules([first, step(1, [{ ...expired, partition: 1 }]), retry]).sort()).toEqual(['broker-sequence', 'one-copy-per-send']);
  });

  it('one-copy-per-send: a send appended again under a new epoch with no failure of its own partition is flagged (item 1)', () => {
    const failedElsewhere: Fact = {
      kind: 'sendResult',
      client: 'app',
      ref: 0,
      topic: 'accounts',
      partition: 0,
      offset: null,
      error: 'INVALID_RECORD',
      eventId: null,
    };
    const copies = (failure: Fact) => [
      step(0, [append(orders, 0, 1, 0, 0, { ref: 1 })]),
      step(1, [failure]),
      step(2, [append(orders, 1, 1, 1, 0, { ref: 1 })]),
    ];
    expect(rules(copies(failedElsewhere))).toEqual(['one-copy-per-send']);
    // a failed batch of orders-0 itself is what makes Kafka rewrite orders-0's sequences
    expect(rules(copies({ ...failedElsewhere, topic: 'orders' }))).toEqual([]);
  });

  it('one-copy-per-send: a failure of the partition answered while the first copy was in flight, before the broker appended it, excuses the copy under the new epoch', () => {
    // fuzz (family replication): batch A is sent (step 0); batch B of the same partition fails (step 1)
    // and the epoch bump rewrites A, still in flight; the broker appends A's first copy (step 2), its
    // answer is lost, and A's retry is appended under the new epoch (step 3) — Kafka's own duplicate
    const failedHere: Fact = {
      kind: 'sendResult',
      client: 'app',
      ref: 0,
      topic: 'orders',
      partition: 0,
      offset: null,
      error: 'INVALID_RECORD',
      eventId: null,
    };
    const appendedFrom = (i: number, envelope: number, facts: Fact[]) => ({ ...step(i, facts), envelope });
    const steps = [
      step(0, []),
      step(1, [failedHere]),
      appendedFrom(2, 7, [append(orders, 0, 1, 2, 1, { ref: 1 })]),
      step(3, [append(orders, 1, 1, 3, 0, { ref: 1 })]),
    ];
    const sentAt = (sentStep: number) => ({ at: (id: number) => (id === 7 ? { sentStep } : undefined) }) as never;
    // the copy's request was sent at step 0, before the failure: excused
    expect(producerRuleViolations({ steps, envelopes: sentAt(0) }).map((v) => v.rule)).toEqual([]);
    // sent at step 2, after the failure (the bump was already made, so nothing rewrote it): flagged
    expect(producerRuleViolations({ steps, envelopes: sentAt(2) }).map((v) => v.rule)).toEqual(['one-copy-per-send']);
    // without envelopes the copy counts as sent where it was appended: flagged
    expect(rules(steps)).toEqual(['one-copy-per-send']);
  });

  it('replication: a batch a deposed leader appended, then written again at its offset by the new leader, is one copy in the log', () => {
    // fuzz (family replication): broker-1, paused past its session, appends the queued Produce at 0;
    // broker-0, the new leader, appends the producer's retry at 0 too; broker-1 then truncates its copy
    const zombie = step(0, [append(orders, 0, 1, 0, 0, { ref: 1 })]);
    expect(rules([zombie, step(1, [append(orders, 0, 1, 0, 0, { ref: 1 })])])).toEqual([]);
    // the new leader's next batch follows on from the copy it has
    expect(rules([zombie, step(1, [append(orders, 0, 1, 0, 0, { ref: 1 })]), step(2, [append(orders, 1, 1, 0, 1, { ref: 2 })])])).toEqual(
      [],
    );
    // but the same send twice in the log (at 0 and at 1) is still two copies
    expect(rules([zombie, step(1, [append(orders, 1, 1, 0, 0, { ref: 1 })])])).toEqual(['broker-sequence', 'one-copy-per-send']);
  });

  it('abort-means-abort: abortTransaction() returned ok but the transaction’s record was committed (item 8)', () => {
    const from = 'app.producer';
    const steps = [
      step(0, [], { from, detail: { call: 'beginTransaction', ok: true, error: null } }),
      step(1, [], { from, detail: { call: 'send', ok: true, error: null, ref: 1 } }),
      step(2, [append(orders, 0, 1, 0, 0, { transactional: true, ref: 1 })]),
      step(3, [], { from, detail: { call: 'commitTransaction', ok: false, error: 'INVALID_RECORD' } }),
      step(4, [], { from, detail: { call: 'abortTransaction', ok: true, error: null } }),
    ];
    expect(rules([...steps, step(5, [append(orders, 1, 1, 1, -1, { control: 'COMMIT' })])])).toEqual(['abort-means-abort']);
    expect(rules([...steps, step(5, [append(orders, 1, 1, 1, -1, { control: 'ABORT' })])])).toEqual([]);
  });

  for (const preset of PRESETS)
    it(`finds nothing wrong in preset ${preset.scenario.id}`, () => {
      expect(producerRuleViolations(runScenario(preset.scenario))).toEqual([]);
    });
});
