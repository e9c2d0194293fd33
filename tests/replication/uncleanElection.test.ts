/**
 * The `unclean-election-loses-committed` preset: orders has two replicas (broker-0 leads, broker-1
 * follows), min.insync.replicas=1, unclean.leader.election.enable=true, an idempotent acks=all
 * producer. broker-1 dies and is fenced: the ISR shrinks to [broker-0], and b and c are committed
 * with the leader alone in it. broker-0 dies and is fenced: no ISR member is alive, orders-0 is
 * offline. broker-1 registers again and the controller elects it uncleanly (PartitionChangeBuilder:
 * no acceptable ISR member, unclean allowed): leader epoch 2, ISR [broker-1]. d lands at offset 1,
 * where b was. broker-0 returns, follows broker-1, and truncates the committed b and c.
 * The contrast, unclean.leader.election.enable=false: orders-0 stays offline until broker-0 returns,
 * is led by it again (a clean election from the ISR), and b and c survive.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { stateAt, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { type PresetRun, runPreset, runWith } from '../presets/helpers';

interface Log {
  batches: { toArray(): { partitionLeaderEpoch?: number; records: { value: string | null }[] }[] };
  highWatermark: number;
  logEndOffset: number;
}

/** Each replica's log of orders-0 at a step: values with the leader epoch each was written in, and its own HW. */
function replicaLog(trace: Trace, step: number, broker: string): { records: string[]; highWatermark: number } | undefined {
  const ctx = stateAt(trace, step).actors.get(broker)?.context as { partitions: Record<string, Log> } | undefined;
  const log = ctx?.partitions['orders-0'];
  if (!log) return undefined;
  return {
    records: log.batches.toArray().flatMap((b) => b.records.map((x) => `${x.value}@epoch ${b.partitionLeaderEpoch}`)),
    highWatermark: log.highWatermark,
  };
}

/** Each send()'s outcome: event@offset when acknowledged, else event:error. */
function acknowledged(r: PresetRun): string[] {
  return r.facts('sendResult').map((f) => (f.error === null ? `${f.eventId}@${f.offset}` : `${f.eventId}:${f.error}`));
}

function stepOf(trace: Trace, kind: string, nth = 0): number {
  let seen = 0;
  for (let i = 0; i < trace.steps.length; i++)
    if ((trace.steps.at(i)?.facts as { kind: string }[]).some((f) => f.kind === kind) && seen++ === nth) return i;
  throw new Error(`no ${kind} fact #${nth}`);
}

describe('unclean-election-loses-committed', () => {
  const r = runPreset('unclean-election-loses-committed');
  const end = r.trace.steps.length;

  it('b and c are acknowledged (acks=all) with broker-0 alone in the ISR; d later lands at offset 1, where b was', () => {
    // a, b, c acknowledged at 0–2; d at 1
    expect(acknowledged(r)).toEqual(['e1@0', 'e2@1', 'e3@2', 'e4@1']);
  });

  it('before broker-0 goes offline: it holds a, b and c committed (HW 3), broker-1 only a', () => {
    const before = stepOf(r.trace, 'leaderChange');
    expect(replicaLog(r.trace, before, 'broker-0')).toEqual({ records: ['a@epoch 0', 'b@epoch 0', 'c@epoch 0'], highWatermark: 3 });
    expect(replicaLog(r.trace, before, 'broker-1')).toEqual({ records: ['a@epoch 0'], highWatermark: 1 });
    // orders has two replicas: broker-2 holds none
    expect(replicaLog(r.trace, before, 'broker-2')).toBeUndefined();
  });

  it('the controller: orders-0 offline (epoch 1, ISR keeps broker-0), then broker-1 elected uncleanly (epoch 2, ISR [broker-1])', () => {
    expect(r.facts('leaderChange')).toEqual([
      { kind: 'leaderChange', topic: 'orders', partition: 0, leader: null, leaderEpoch: 1, isr: ['broker-0'], election: null },
      { kind: 'leaderChange', topic: 'orders', partition: 0, leader: 'broker-1', leaderEpoch: 2, isr: ['broker-1'], election: 'unclean' },
    ]);
    const unclean = stepOf(r.trace, 'leaderChange', 1);
    // after the registration that let it happen (broker-1's BrokerHeartbeat)
    expect(narrate(r.trace, unclean, 'en')).toMatch(
      /^The controller registers broker-1's new incarnation \(broker epoch 1, after its restart\) and unfences it/,
    );
    expect(narrate(r.trace, unclean, 'en')).toContain(
      '; the controller makes broker-1 leader of orders-0 by an unclean election: no in-sync replica is alive and unclean.leader.election.enable=true, so a replica from outside the ISR leads, and records it lacks are lost, committed ones too (leader epoch 2, ISR broker-1).',
    );
    expect(narrate(r.trace, unclean, 'ko')).toContain(
      '컨트롤러가 언클린 선출로 broker-1을 orders-0의 리더로 정했습니다. 살아 있는 ISR 복제본이 없고 unclean.leader.election.enable=true여서 ISR 밖 복제본이 리더가 되며, 이 복제본에 없는 레코드는 커밋된 것까지 사라집니다(리더 epoch 2, ISR broker-1).',
    );
    // a clean election says so (acks-1-leader-failover-loss), after the fencing that caused it
    const clean = runPreset('acks-1-leader-failover-loss');
    expect(narrate(clean.trace, stepOf(clean.trace, 'leaderChange'), 'en')).toContain(
      'the controller fences it; orders-0, which it led, needs a new leader; the controller makes broker-1 leader of orders-0 by an election from the ISR (leader epoch 1, ISR broker-1, broker-2).',
    );
  });

  it('client errors: OUT_OF_ORDER_SEQUENCE_NUMBER from broker-1, which never saw b and c; the refused connection attempts to the dead leader are no error', () => {
    expect(r.errors('orders-service')).toEqual(['OUT_OF_ORDER_SEQUENCE_NUMBER']);
  });

  it('broker-0 returns, follows leader epoch 2 and truncates b and c, which were below its HW (committed)', () => {
    expect(r.facts('truncated').map(({ batches, ...f }) => f)).toEqual([
      {
        kind: 'truncated',
        broker: 'broker-0',
        topic: 'orders',
        partition: 0,
        fromOffset: 1,
        toOffset: 3,
        leaderEpoch: 2,
        eventIds: ['e2', 'e3'],
        highWatermark: 3,
      },
    ]);
  });

  it('the log on every replica at the end: a (epoch 0) and d (epoch 2), HW 2', () => {
    expect(replicaLog(r.trace, end, 'broker-0')).toEqual({ records: ['a@epoch 0', 'd@epoch 2'], highWatermark: 2 });
    expect(replicaLog(r.trace, end, 'broker-1')).toEqual({ records: ['a@epoch 0', 'd@epoch 2'], highWatermark: 2 });
    expect(r.partition('orders-0').replication).toMatchObject({
      leader: 'broker-1',
      leaderEpoch: 2,
      // broker-0 caught up and the leader added it back (AlterPartition)
      isr: ['broker-1', 'broker-0'],
      uncleanLeaderElection: true,
    });
  });

  it("the log view: broker-0's truncation with its step, offsets, epoch, the records cut and the unclean cause", () => {
    const cut = r.partition('orders-0').replication?.truncations;
    expect(cut?.map(({ records, ...t }) => ({ ...t, values: records.map((x) => [x.offset, x.value]) }))).toEqual([
      {
        broker: 'broker-0',
        fromOffset: 1,
        toOffset: 3,
        leaderEpoch: 2,
        at: r.trace.steps.at(stepOf(r.trace, 'truncated'))?.t,
        step: stepOf(r.trace, 'truncated'),
        highWatermark: 3,
        cause: 'unclean-election',
        values: [
          [1, 'b'],
          [2, 'c'],
        ],
      },
    ]);
  });

  it('the verdict: b and c lost, by an unclean leader election', () => {
    expect(r.layer('log', 'orders')?.status).toBe('lost');
    expect(r.layer('loss')).toMatchObject({
      status: 'lost',
      sentence:
        'Lost: e2 (orders) acknowledged to orders-service, then lost from the log at offset 1 by an unclean leader election (an out-of-sync replica without it became leader); e3 (orders) acknowledged to orders-service, then lost from the log at offset 2 by an unclean leader election (an out-of-sync replica without it became leader).',
    });
  });
});

describe('the same with unclean.leader.election.enable=false (the default): offline, nothing lost', () => {
  const preset = findPreset('unclean-election-loses-committed');
  if (!preset) throw new Error('preset');
  const scenario: Scenario = {
    ...preset.scenario,
    topics: preset.scenario.topics.map((t) => ({ ...t, config: { ...t.config, 'unclean.leader.election.enable': false } })),
  };
  const r = runWith(scenario);
  const end = r.trace.steps.length;

  it('broker-1 returning changes nothing: orders-0 stays offline until broker-0, its ISR member, returns and is elected cleanly', () => {
    expect(r.facts('leaderChange')).toEqual([
      { kind: 'leaderChange', topic: 'orders', partition: 0, leader: null, leaderEpoch: 1, isr: ['broker-0'], election: null },
      { kind: 'leaderChange', topic: 'orders', partition: 0, leader: 'broker-0', leaderEpoch: 2, isr: ['broker-0'], election: 'clean' },
    ]);
    expect(r.facts('truncated')).toEqual([]);
  });

  it('d waits while orders-0 is offline, then lands after c; every replica ends with a, b, c, d', () => {
    expect(acknowledged(r)).toEqual(['e1@0', 'e2@1', 'e3@2', 'e4@3']);
    // d waited undrained while its leader was down or unknown: no error (refused connection attempts are none)
    expect(r.errors('orders-service')).toEqual([]);
    expect(replicaLog(r.trace, end, 'broker-0')).toEqual({
      records: ['a@epoch 0', 'b@epoch 0', 'c@epoch 0', 'd@epoch 2'],
      highWatermark: 4,
    });
    expect(replicaLog(r.trace, end, 'broker-1')?.records).toEqual(['a@epoch 0', 'b@epoch 0', 'c@epoch 0', 'd@epoch 2']);
  });

  it('the verdict: every event once, nothing lost', () => {
    expect(r.layer('log', 'orders')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
  });
});
