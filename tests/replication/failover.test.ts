/**
 * The `acks-1-leader-failover-loss` preset: the leader broker-0 writes a record with acks=1 that no follower fetched (its
 * followers' replication link is slow), then crashes. The controller fences it after
 * broker.session.timeout.ms and elects broker-1 from the ISR (leader epoch 1). When broker-0 returns
 * it re-registers, follows broker-1, gets a DivergingEpoch and truncates the acknowledged record:
 * the acks=1 loss of `acks-1-leader-failover-loss`.
 */
import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import { runPreset } from '../presets/helpers';

describe('leader failover with acks=1', () => {
  const r = runPreset('acks-1-leader-failover-loss');
  const end = stateAt(r.trace, r.trace.steps.length - 1);
  const values = (broker: string) =>
    (
      end.actors.get(broker)?.context as {
        partitions: Record<string, { batches: { toArray(): { records: { value: string | null }[] }[] } }>;
      }
    ).partitions['orders-0']?.batches
      .toArray()
      .flatMap((b) => b.records.map((x) => x.value));

  it('b is acknowledged by broker-0 alone before it crashes (linger.ms 5: the batch leaves at 3005)', () => {
    expect(r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
  });

  it('the controller fences broker-0 after the session timeout and elects broker-1 from the ISR, leader epoch 1', () => {
    const change = r.facts('leaderChange')[0];
    expect(change).toMatchObject({ leader: 'broker-1', leaderEpoch: 1, election: 'clean', isr: ['broker-1', 'broker-2'] });
    const at = r.trace.steps.find((s) => (s.facts as { kind: string }[]).some((f) => f.kind === 'leaderChange'))?.t;
    expect(at).toBeGreaterThanOrEqual(3020 + 9000 - 2000);
  });

  it('broker-0 returns, follows broker-1 and truncates the acknowledged b; every replica ends with a only', () => {
    const cut = r.facts('truncated');
    expect(cut.map(({ batches, ...f }) => ({ ...f, values: batches.flatMap((b) => b.records.map((x) => x.value)) }))).toEqual([
      {
        kind: 'truncated',
        broker: 'broker-0',
        topic: 'orders',
        partition: 0,
        fromOffset: 1,
        toOffset: 2,
        leaderEpoch: 1,
        eventIds: ['e2'],
        // broker-0's high watermark was 1: b, acknowledged with acks=1, had never been committed
        highWatermark: 1,
        values: ['b'],
      },
    ]);
    expect(values('broker-0')).toEqual(['a']);
    expect(values('broker-1')).toEqual(['a']);
    expect(values('broker-2')).toEqual(['a']);
    expect(r.partition('orders-0').replication).toMatchObject({ leader: 'broker-1', leaderEpoch: 1 });
  });

  it('billing reads a only: b never rose below the high watermark, so no reader ever saw it', () => {
    expect(r.received('billing').map((x) => [x.offset, x.headers.event_id])).toEqual([[0, 'e1']]);
    expect(r.layer('delivery', 'billing')?.status).toBe('once');
  });

  it('the producer saw no error; the verdict names b acknowledged, then lost from the log at offset 1 when the leader changed', () => {
    expect(r.errors('orders-service')).toEqual([]);
    expect(r.layer('log', 'orders')?.status).toBe('lost');
    expect(r.layer('loss')).toMatchObject({
      status: 'lost',
      sentence:
        'Lost: e2 (orders) acknowledged to orders-service, then lost from the log at offset 1 when the leader changed: the new leader never had it, and the old leader truncates its copy when it follows the new one.',
    });
  });
});
