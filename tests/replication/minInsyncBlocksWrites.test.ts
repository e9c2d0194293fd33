/**
 * The `min-insync-blocks-writes` preset: RF=3, min.insync.replicas=2, acks=all. broker-2 dies: the
 * controller fences it after broker.session.timeout.ms and the ISR shrinks to [broker-0, broker-1] —
 * writes go on. broker-1 dies: a Produce already waiting for it ends REQUEST_TIMED_OUT (strict min
 * ISR freezes the HW, so not NOT_ENOUGH_REPLICAS_AFTER_APPEND) with the batch (e3) left in the
 * leader's log above the HW; its retries get NOT_ENOUGH_REPLICAS before any append. billing, a
 * read_uncommitted consumer, receives e1 and e2 and never e3.
 */
import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import { runPreset } from '../presets/helpers';

describe('min.insync.replicas=2 with acks=all on three replicas', () => {
  const r = runPreset('min-insync-blocks-writes');
  const finalState = stateAt(r.trace, r.trace.steps.length - 1);
  const logOf = (broker: string) =>
    (
      finalState.actors.get(broker)?.context as {
        partitions: Record<
          string,
          { batches: { toArray(): { records: { value: string | null; headers: Record<string, string> }[] }[] }; highWatermark: number }
        >;
      }
    ).partitions['orders-0'];
  // the records as the timeline names them: by their event_id
  const events = (broker: string) =>
    logOf(broker)
      ?.batches.toArray()
      .flatMap((b) => b.records.map((x) => x.headers.event_id));

  it('one follower down: the write is acknowledged; two down: the waiting Produce times out, retries get NOT_ENOUGH_REPLICAS', () => {
    const results = r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset]);
    expect(results.slice(0, 2)).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
    const errors = r.errors('orders-service');
    expect(errors[0]).toBe('REQUEST_TIMED_OUT');
    expect(errors.slice(1, -1).every((e) => e === 'NOT_ENOUGH_REPLICAS')).toBe(true);
    expect(errors).not.toContain('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    // the record is given up at delivery.timeout.ms
    expect(r.facts('sendResult').find((f) => f.eventId === 'e3')?.error).toBe('TimeoutException');
    const refused = r.facts('rejected').filter((f) => f.error === 'NOT_ENOUGH_REPLICAS');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.reason).toBe(
      'The size of the current ISR [broker-0] is insufficient to satisfy the min.isr requirement of 2 for partition orders-0',
    );
  });

  it('the log on every replica: the leader keeps e3 above its HW; broker-1 has e1 and e2; broker-2 only e1', () => {
    expect(events('broker-0')).toEqual(['e1', 'e2', 'e3']);
    expect(logOf('broker-0')?.highWatermark).toBe(2);
    expect(events('broker-1')).toEqual(['e1', 'e2']);
    expect(events('broker-2')).toEqual(['e1']);
  });

  it('billing (read_uncommitted) receives e1 and e2, never e3: every fetch from offset 2 after e3 is appended comes back empty at HW 2', () => {
    expect(r.received('billing').map((x) => [x.headers.event_id, x.offset])).toEqual([
      ['e1', 0],
      ['e2', 1],
    ]);
    const appended = r.trace.steps.find((s) =>
      s.facts.some((f) => f.kind === 'append' && (f as { eventIds?: string[] }).eventIds?.includes('e3')),
    );
    if (!appended) throw new Error('e3 is never appended');
    const answers = r.trace.envelopes
      .filter((e) => e.rpc === 'FetchResponse' && e.to === 'billing.consumer' && e.sentStep > appended.i)
      .flatMap((e) => e.payload.partitions as { error: string; highWatermark: number; batches: unknown[] }[]);
    expect(answers.length).toBeGreaterThan(100);
    for (const a of answers) expect([a.error, a.highWatermark, a.batches]).toEqual(['NONE', 2, []]);
    expect(r.summary.groups.find((g) => g.groupId === 'billing')?.committed).toEqual({ 'orders-0': 2 });
  });

  it('the partition row: leader broker-0, ISR [broker-0] after both fencings, HW frozen at 2, effective min ISR 2', () => {
    const row = r.partition('orders-0');
    expect(row.leader).toBe('broker-0');
    expect(row.highWatermark).toBe(2);
    expect(row.replication).toMatchObject({ leader: 'broker-0', leaderEpoch: 0, isr: ['broker-0'], effectiveMinIsr: 2 });
    expect(row.replication?.replicas.map((x) => [x.broker, x.online, x.inIsr, x.logEndOffset])).toEqual([
      ['broker-0', true, true, 3],
      ['broker-1', false, false, 2],
      ['broker-2', false, false, 1],
    ]);
  });

  it('the verdict: both acknowledged events once, e3 above the high watermark (neither once nor lost), billing got each of the two once, nothing acknowledged lost', () => {
    expect(r.layer('log', 'orders')?.status).toBe('above-hw');
    expect(r.layer('log', 'orders')?.sentence).toContain("e3 in the leader's log above the high watermark");
    expect(r.layer('log', 'orders')?.sentence).toContain('2 other events once');
    expect(r.layer('delivery', 'billing')).toMatchObject({
      status: 'once',
      sentence: 'Delivery to billing (read_uncommitted): each of 2 events received once.',
    });
    expect(r.layer('processing', 'billing')).toMatchObject({
      status: 'once',
      sentence: 'Processing in billing: each of 2 events processed once.',
    });
    expect(r.layer('loss')?.status).toBe('once');
  });
});
