/**
 * kafka-transactions.sh describe-producers (sim/tools/describeProducers.ts): the leader's producer state
 * as DescribeProducers answers it (UnifiedLog.activeProducers: producer id, epoch, coordinator epoch,
 * last sequence, last timestamp, open transaction's first offset), printed as ToolsUtils.prettyPrintTable
 * prints it. What it shows is all the broker knows of idempotence: a retry is recognised, an
 * application's resend under a new producer id is not.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { describeProducersAt, describeProducersText } from '../../src/sim/tools/describeProducers';
import { partitionHeads } from '../../src/sim/trace/logView';

const traceOf = (id: string): Trace => runScenario(findPreset(id)?.scenario ?? {});
const rowsAt = (trace: Trace, step: number, topic: string, partition = 0) => {
  const r = describeProducersAt(stateAt(trace, step), topic, partition);
  return r.kind === 'described' ? r.rows : null;
};

describe('kafka-transactions.sh describe-producers', () => {
  it('lost-ack-idempotent: one producer, the retry recognised — its last sequence stays 0', () => {
    const trace = traceOf('lost-ack-idempotent');
    expect(rowsAt(trace, trace.steps.length, 'orders')).toEqual([
      expect.objectContaining({ producerEpoch: 0, lastSequence: 0, coordinatorEpoch: -1, currentTransactionStartOffset: null }),
    ]);
  });

  it('producer-restart-new-pid: the resend after the restart is a second producer id, each at sequence 0', () => {
    const trace = traceOf('producer-restart-new-pid');
    const rows = rowsAt(trace, trace.steps.length, 'orders') ?? [];
    expect(rows.map((r) => r.lastSequence)).toEqual([0, 0]);
    expect(new Set(rows.map((r) => r.producerId)).size).toBe(2);
    // in producer id order
    expect(rows.map((r) => r.producerId)).toEqual([...rows.map((r) => r.producerId)].sort((a, b) => a - b));
  });

  it('lost-ack-no-idempotence: no producer id, nothing remembered — only the header', () => {
    const trace = traceOf('lost-ack-no-idempotence');
    const text = describeProducersText(describeProducersAt(stateAt(trace, trace.steps.length), 'orders', 0));
    expect(text).toBe('ProducerId\tProducerEpoch\tLatestCoordinatorEpoch\tLastSequence\tLastTimestamp\tCurrentTransactionStartOffset\t');
  });

  it('hanging-transaction: the open transaction’s first offset is where the LSO is held', () => {
    const trace = traceOf('hanging-transaction');
    const end = stateAt(trace, trace.steps.length);
    const rows = rowsAt(trace, trace.steps.length, 'orders') ?? [];
    const open = rows.filter((r) => r.currentTransactionStartOffset !== null);
    expect(open).toHaveLength(1);
    const head = partitionHeads(end.actors).find((h) => h.head.topic === 'orders')?.head;
    expect(head?.lastStableOffset).toBe(open[0]?.currentTransactionStartOffset);
    // the column widths: each value padded to its column's widest, then a tab
    const lines = describeProducersText(describeProducersAt(end, 'orders', 0)).split('\n');
    expect(lines[0]?.split('\t').map((c) => c.length)).toEqual([10, 13, 22, 12, 13, 29, 0]);
    for (const line of lines.slice(1)) expect(line.split('\t').map((c) => c.length)).toEqual([10, 13, 22, 12, 13, 29, 0]);
    expect(lines.some((l) => l.split('\t')[5]?.trim() === 'None')).toBe(true);
  });

  it('a replicated partition is described from its leader; a leader that is down answers nothing', () => {
    const trace = traceOf('acks-1-leader-failover-loss');
    const end = stateAt(trace, trace.steps.length);
    const r = describeProducersAt(end, 'orders', 0);
    const head = partitionHeads(end.actors).find((h) => h.head.topic === 'orders' && h.head.partition === 0)?.head;
    expect(r.kind === 'described' && r.leader).toBe(head?.leader);
    const processes = new Map(end.processes);
    processes.set(head?.leader ?? '', { down: true, paused: false, incarnation: 9 });
    const down = describeProducersAt({ ...end, processes }, 'orders', 0);
    expect(down.kind).toBe('unavailable');
    expect(describeProducersText(down)).toMatch(/^Failed to describe producers for partition orders-0 on leader/);
  });
});

describe('kafka-transactions.sh describe-producers --broker-id (a replica’s own producer state)', () => {
  it('hw-behind-leo-slow-follower: the followers still hold the producer’s earlier batch while the leader has its next', () => {
    const view = stateAt(traceOf('hw-behind-leo-slow-follower'), 147);
    const leader = describeProducersAt(view, 'orders', 0);
    expect(leader).toMatchObject({ kind: 'described', leader: 'broker-0', rows: [{ lastSequence: 1 }] });
    expect(describeProducersAt(view, 'orders', 0, 0)).toEqual(leader);
    for (const b of [1, 2])
      expect(describeProducersAt(view, 'orders', 0, b)).toMatchObject({ leader: `broker-${b}`, rows: [{ lastSequence: 0 }] });
  });

  it('idempotence-survives-failover: with the leader down the leader’s request fails, a follower answers', () => {
    const view = stateAt(traceOf('idempotence-survives-failover'), 26);
    expect(describeProducersText(describeProducersAt(view, 'orders', 0))).toBe(
      'Failed to describe producers for partition orders-0 on leader: …',
    );
    expect(describeProducersText(describeProducersAt(view, 'orders', 0, 0))).toBe(
      'Failed to describe producers for partition orders-0 on broker 0: …',
    );
    expect(describeProducersAt(view, 'orders', 0, 1)).toMatchObject({ kind: 'described', rows: [{ lastSequence: 0 }] });
  });

  it('a broker with no replica answers NOT_LEADER_OR_FOLLOWER, fatal when it was named', () => {
    const view = stateAt(traceOf('lost-ack-idempotent'), 1);
    // a broker that is up and hosts none of orders' replicas
    const actors = new Map(view.actors);
    actors.set('broker-5', { value: 'up', context: { partitions: {} } });
    expect(describeProducersText(describeProducersAt({ ...view, actors }, 'orders', 0, 5))).toBe(
      'Failed to describe producers for partition orders-0 on broker 5: Failed to describe active producers for partition orders-0 on brokerId 5. Enable debug logging for additional detail.',
    );
  });
});
