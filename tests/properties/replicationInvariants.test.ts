/**
 * The replication invariants (src/sim/checks/replicationInvariants.ts) on hand-built views of the
 * brokers and the controller: each one fires on a view that breaks it and stays quiet on one that
 * keeps it — a green fuzz run means nothing if the checker is blind.
 */
import { describe, expect, it } from 'vitest';
import {
  type AcksAllAck,
  acksAllAcks,
  checkHighWatermarks,
  type ReplicationInvariantId,
  ReplicationWatch,
} from '../../src/sim/checks/replicationInvariants';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import { asReplicatedLog, assignEpochStartOffset, truncateTo, withHighWatermark } from '../../src/sim/log/replicaLog';
import { becomeLeader, type LeaderPartition, proposeIsr } from '../../src/sim/replication/leaderPartition';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';

type Snap = { value: unknown; context: unknown };
const TP = 'orders-0';

/** A replicated log of `orders-0` written by leader epoch `epoch`: one record per event id, HW at `hw`. */
function logOf(events: readonly string[], hw: number, epoch = 0, base?: PartitionLog): PartitionLog {
  let log = base ?? assignEpochStartOffset(asReplicatedLog(createPartitionLog('orders', 0)), epoch);
  if (base) log = assignEpochStartOffset(log, epoch);
  for (const e of events)
    log = appendProducerBatch(
      log,
      {
        producerId: -1,
        producerEpoch: -1,
        baseSequence: -1,
        isTransactional: false,
        records: [{ key: 'k', value: e, headers: { event_id: e }, timestamp: 0 }],
      },
      0,
    ).log;
  return withHighWatermark(log, hw);
}

function leading(leader: string, isr: readonly string[], epoch = 0): LeaderPartition {
  return becomeLeader(
    {
      topic: 'orders',
      partition: 0,
      leader,
      leaderEpoch: epoch,
      partitionEpoch: epoch,
      replicas: ['broker-0', 'broker-1', 'broker-2'],
      isr,
    },
    2,
    0,
    0,
  );
}

interface BrokerView {
  readonly log: PartitionLog;
  readonly leads?: LeaderPartition;
  readonly down?: boolean;
}

/** The snapshots of a cluster: the controller's record (leader, epoch, ISR) and each broker's log and leadership. */
function view(controller: { leader: string | null; epoch: number; isr: readonly string[] }, brokers: Record<string, BrokerView>) {
  const actors = new Map<string, Snap>();
  actors.set('controller', {
    value: 'running',
    context: {
      partitions: {
        [TP]: {
          topic: 'orders',
          partition: 0,
          replicas: ['broker-0', 'broker-1', 'broker-2'],
          isr: controller.isr,
          leader: controller.leader,
          leaderEpoch: controller.epoch,
          partitionEpoch: controller.epoch,
        },
      },
    },
  });
  for (const [id, b] of Object.entries(brokers))
    actors.set(id, {
      value: b.down ? 'down' : 'running',
      context: { id, partitions: { [TP]: b.log }, replication: { leading: b.leads ? { [TP]: b.leads } : {} } },
    });
  return actors;
}

function collect() {
  const found: { invariant: ReplicationInvariantId; step: number; message: string }[] = [];
  return { found, report: (invariant: ReplicationInvariantId, step: number, message: string) => found.push({ invariant, step, message }) };
}

describe('hw-within-isr (Partition.maybeIncrementLeaderHW)', () => {
  const check = (actors: Map<string, Snap>, uncleanEpoch = -1) => {
    const { found, report } = collect();
    checkHighWatermarks(actors, 7, () => uncleanEpoch, report);
    return found;
  };

  it('holds when every ISR member the leader knows has the records below the HW', () => {
    const actors = view(
      { leader: 'broker-0', epoch: 0, isr: ['broker-0', 'broker-1'] },
      {
        'broker-0': { log: logOf(['a', 'b', 'c'], 2), leads: leading('broker-0', ['broker-0', 'broker-1']) },
        'broker-1': { log: logOf(['a', 'b'], 2) },
        // outside the ISR a replica may lag as far as it likes
        'broker-2': { log: logOf([], 0) },
      },
    );
    expect(check(actors)).toEqual([]);
  });

  it('fires when the HW passes the log end offset of an ISR member', () => {
    const actors = view(
      { leader: 'broker-0', epoch: 0, isr: ['broker-0', 'broker-1'] },
      {
        'broker-0': { log: logOf(['a', 'b', 'c'], 3), leads: leading('broker-0', ['broker-0', 'broker-1']) },
        'broker-1': { log: logOf(['a', 'b'], 2) },
      },
    );
    const found = check(actors);
    expect(found.map((f) => f.invariant)).toEqual(['hw-within-isr']);
    expect(found[0]?.message).toContain('ISR member broker-1 has log end offset 2');
  });

  it("judges by the ISR as the leader knows it: its maximal ISR, not the controller's or a follower's", () => {
    const logs = {
      'broker-1': { log: logOf(['a', 'b'], 2) },
      'broker-2': { log: logOf(['a'], 1) },
    };
    // the controller already dropped broker-1, the leader has not heard yet: still in its ISR
    const stale = view(
      { leader: 'broker-0', epoch: 0, isr: ['broker-0'] },
      { ...logs, 'broker-0': { log: logOf(['a', 'b', 'c'], 3), leads: leading('broker-0', ['broker-0', 'broker-1']) } },
    );
    expect(check(stale).map((f) => f.message)).toEqual([expect.stringContaining('ISR member broker-1')]);
    // an AlterPartition in flight adding broker-2 counts it already (the maximal ISR)
    const pending = view(
      { leader: 'broker-0', epoch: 0, isr: ['broker-0'] },
      {
        ...logs,
        'broker-0': { log: logOf(['a', 'b'], 2), leads: proposeIsr(leading('broker-0', ['broker-0']), ['broker-0', 'broker-2']) },
      },
    );
    expect(check(pending).map((f) => f.message)).toEqual([expect.stringContaining('ISR member broker-2')]);
  });

  it('does not judge a leader that is down, or one older than an unclean election', () => {
    const brokers = {
      'broker-0': { log: logOf(['a', 'b', 'c'], 3), leads: leading('broker-0', ['broker-0', 'broker-1']) },
      'broker-1': { log: logOf(['a'], 1) },
    };
    expect(
      check(view({ leader: 'broker-0', epoch: 0, isr: ['broker-0'] }, { ...brokers, 'broker-0': { ...brokers['broker-0'], down: true } })),
    ).toEqual([]);
    expect(check(view({ leader: 'broker-1', epoch: 1, isr: ['broker-1'] }, brokers), 1)).toEqual([]);
  });
});

describe('committed-not-lost and acks-all-survives (ReplicationWatch)', () => {
  const initial = view(
    { leader: 'broker-0', epoch: 0, isr: ['broker-0', 'broker-1'] },
    {
      'broker-0': { log: logOf(['a', 'b'], 2), leads: leading('broker-0', ['broker-0', 'broker-1']) },
      'broker-1': { log: logOf(['a', 'b'], 2) },
    },
  );
  /** broker-1 leads epoch 1 with `kept` of epoch 0 and `added` in epoch 1 (a clean failover keeps a and b). */
  const failedOver = (added: readonly string[], kept: readonly string[] = ['a']) =>
    view(
      { leader: 'broker-1', epoch: 1, isr: ['broker-1'] },
      {
        'broker-0': { log: logOf(['a', 'b'], 2), down: true },
        'broker-1': { log: logOf(added, kept.length, 1, logOf(kept, kept.length)), leads: leading('broker-1', ['broker-1'], 1) },
      },
    );
  const unclean: { step: number; fact: Fact } = {
    step: 5,
    fact: {
      kind: 'leaderChange',
      topic: 'orders',
      partition: 0,
      leader: 'broker-1',
      leaderEpoch: 1,
      isr: ['broker-1'],
      election: 'unclean',
    },
  };
  const watch = (facts: { step: number; fact: Fact }[] = [], acks: AcksAllAck[] = []) => {
    const { found, report } = collect();
    const w = new ReplicationWatch(facts, acks, report);
    return { found, w };
  };

  it('committed-not-lost holds when the new leader has every committed record', () => {
    const { found, w } = watch();
    w.observe(initial, 3);
    // broker-1 was in the ISR: it has a and b, written in epoch 0
    const same = view(
      { leader: 'broker-1', epoch: 1, isr: ['broker-1'] },
      { 'broker-1': { log: assignEpochStartOffset(logOf(['a', 'b'], 2), 1), leads: leading('broker-1', ['broker-1'], 1) } },
    );
    w.observe(same, 9);
    expect(found).toEqual([]);
  });

  it('committed-not-lost fires when a committed record is gone from the leader, or another record took its offset', () => {
    const { found, w } = watch();
    w.observe(initial, 3);
    w.observe(failedOver(['a']), 9);
    expect(found.map((f) => [f.invariant, f.step])).toEqual([['committed-not-lost', 8]]);
    expect(found[0]?.message).toContain('orders-0@1 (event b)');
    const other = watch();
    other.w.observe(initial, 3);
    // x written at offset 1 in epoch 1
    other.w.observe(failedOver(['x']), 9);
    expect(other.found.map((f) => f.message)).toEqual([expect.stringContaining('orders-0@1 (event b)')]);
    expect(other.found[0]?.message).toContain('holds another record there');
    // a written again in epoch 1 at offset 0 is another record than the committed a of epoch 0
    const resent = watch();
    resent.w.observe(initial, 3);
    resent.w.observe(failedOver(['a', 'x'], []), 9);
    expect(resent.found.map((f) => f.message)).toEqual([
      expect.stringContaining('orders-0@0 (event a)'),
      expect.stringContaining('orders-0@1 (event b)'),
    ]);
  });

  it('committed-not-lost: an unclean election before the loss excuses it; what is committed after is promised again', () => {
    const { found, w } = watch([unclean]);
    w.observe(initial, 3);
    w.observe(failedOver(['a']), 9);
    expect(found).toEqual([]);
    // d committed by the unclean leader, then lost without a new unclean election: caught
    const committedD = view(
      { leader: 'broker-1', epoch: 1, isr: ['broker-1'] },
      { 'broker-1': { log: logOf(['d'], 2, 1, logOf(['a'], 1)), leads: leading('broker-1', ['broker-1'], 1) } },
    );
    w.observe(committedD, 12);
    w.observe(
      view(
        { leader: 'broker-1', epoch: 1, isr: ['broker-1'] },
        { 'broker-1': { log: truncateTo(logOf(['d'], 2, 1, logOf(['a'], 1)), 1), leads: leading('broker-1', ['broker-1'], 1) } },
      ),
      14,
    );
    expect(found.map((f) => f.message)).toEqual([expect.stringContaining('orders-0@1 (event d)')]);
  });

  const ack: AcksAllAck = { step: 2, tp: TP, offset: 1, eventId: 'b', client: 'p' };

  it('acks-all-survives holds while the acknowledged record is in the leader log', () => {
    const { found, w } = watch([], [ack]);
    w.observe(initial, 3);
    expect(found).toEqual([]);
  });

  it('acks-all-survives fires when the acknowledged record is not in the leader log after a failover', () => {
    // the ack watch alone (nothing seen committed before: the leader's HW never reached it here)
    const { found, w } = watch([], [ack]);
    w.observe(failedOver(['a']), 9);
    expect(found.map((f) => f.invariant)).toEqual(['acks-all-survives']);
    expect(found[0]?.message).toContain("p's acks=all record orders-0@1 (event b) was acknowledged at step 2");
    const replaced = watch([], [ack]);
    replaced.w.observe(failedOver(['x']), 9);
    expect(replaced.found.map((f) => f.message)).toEqual([expect.stringContaining('holds event x there')]);
  });

  it('acks-all-survives: not judged before the acknowledgement, nor after an unclean election', () => {
    const early = watch([], [{ ...ack, step: 20 }]);
    early.w.observe(failedOver(['a']), 9);
    expect(early.found).toEqual([]);
    const { found, w } = watch([unclean], [ack]);
    w.observe(failedOver(['a']), 9);
    expect(found).toEqual([]);
  });
});

describe('acksAllAcks: which acknowledgements acks-all-survives follows', () => {
  const scenario = (minIsr: number, acks: string, faults: Scenario['faults']): Scenario => ({
    version: 1,
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 'orders', replicationFactor: 3, config: { 'min.insync.replicas': minIsr } }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        config: { acks, 'enable.idempotence': false },
        script: [{ op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } }],
      },
    ],
    faults,
  });
  const acksOf = (s: Scenario) => {
    const trace = runScenario(s);
    return acksAllAcks(
      trace,
      [...trace.steps].flatMap((st) => st.facts.map((f) => ({ step: st.i, fact: f as Fact }))),
    ).map((a) => `${a.client} ${a.tp}@${a.offset} ${a.eventId}`);
  };
  const one: Scenario['faults'] = [{ type: 'crash', target: 'broker-1', at: 5000 }];

  it('acks=all with min.insync.replicas 2 and one failing broker: followed', () => {
    expect(acksOf(scenario(2, 'all', one))).toEqual(['p orders-0@0 e1']);
  });

  it('acks=1, min.insync.replicas 1, or two failing brokers: not promised', () => {
    expect(acksOf(scenario(2, '1', one))).toEqual([]);
    expect(acksOf(scenario(1, 'all', one))).toEqual([]);
    expect(acksOf(scenario(2, 'all', [...(one ?? []), { type: 'pause', target: 'broker-2', at: 6000 }]))).toEqual([]);
  });
});
