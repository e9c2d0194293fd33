/**
 * The `transaction-state-under-replicated` preset: __transaction_state (RF 3, min.isr 2, one
 * partition led by broker-0, which hosts the coordinator) loses broker-1 and broker-2 while a
 * transaction is open. EndTxn gets COORDINATOR_NOT_AVAILABLE (the PrepareCommit append is refused
 * NOT_ENOUGH_REPLICAS) and is retried; payments' LSO stays at the first open record; when broker-1
 * returns and rejoins the ISR, the commit completes and the read_committed consumer reads.
 */
import { describe, expect, it } from 'vitest';
import { lastStableOffset, type PartitionLog } from '../../src/sim/log/partitionLog';
import { stateAt } from '../../src/sim/run';
import { runPreset } from '../presets/helpers';

describe('transaction-state-under-replicated', () => {
  const r = runPreset('transaction-state-under-replicated');
  const end = stateAt(r.trace, r.trace.steps.length - 1);
  const log = (state: ReturnType<typeof stateAt>, broker: string, key: string) =>
    (state.actors.get(broker)?.context as { partitions: Record<string, PartitionLog> }).partitions[key] as PartitionLog;
  const states = (broker: string) =>
    log(end, broker, '__transaction_state-0')
      .batches.toArray()
      .flatMap((b) => b.records.map((x) => (JSON.parse(x.value as string) as { state: string }).state));
  const stepAt = (t: number) => {
    let last = 0;
    r.trace.steps.forEach((s, i) => {
      if (s.t <= t) last = i;
    });
    return last;
  };
  const lsoAt = (t: number) => lastStableOffset(log(stateAt(r.trace, stepAt(t)), 'broker-0', 'payments-0'));

  it('the coordinator is hosted by broker-0, the leader of __transaction_state-0, and FindCoordinator names it', () => {
    const answers = r.trace.steps.filter((s) => s.label === 'FindCoordinatorResponse');
    expect(answers.length).toBeGreaterThan(1);
    const txnStates = r.facts('txnState');
    expect(txnStates.map((f) => f.to)).toEqual(['Empty', 'Ongoing', 'PrepareCommit', 'CompleteCommit']);
    const coordinators = new Set(
      r.trace.steps.filter((s) => (s.facts as { kind: string }[]).some((f) => f.kind === 'txnState')).map((s) => s.actor),
    );
    expect([...coordinators]).toEqual(['broker-0.txn-coordinator']);
    expect(r.facts('leaderChange')).toEqual([]);
  });

  it('each replica of __transaction_state: broker-0 and broker-1 hold Empty, Ongoing, PrepareCommit, CompleteCommit; broker-2 (down since 2 s) only the first two', () => {
    expect(states('broker-0')).toEqual(['Empty', 'Ongoing', 'PrepareCommit', 'CompleteCommit']);
    expect(states('broker-1')).toEqual(['Empty', 'Ongoing', 'PrepareCommit', 'CompleteCommit']);
    expect(states('broker-2')).toEqual(['Empty', 'Ongoing']);
    // no PrepareCommit was appended while the ISR was below the min ISR (refused before the append)
    expect(r.partition('__transaction_state-0').replication).toMatchObject({ leader: 'broker-0', leaderEpoch: 0 });
  });

  it('EndTxn gets COORDINATOR_NOT_AVAILABLE (NOT_ENOUGH_REPLICAS mapped), looks the coordinator up again and retries until broker-1 is back', () => {
    const errors = r.facts('clientError').filter((f) => f.client === 'payment-service');
    expect(errors.length).toBeGreaterThanOrEqual(5);
    expect(new Set(errors.map((f) => `${f.error} during ${f.during}`))).toEqual(new Set(['COORDINATOR_NOT_AVAILABLE during EndTxn']));
    const notes = r.facts('note').filter((n) => n.actor === 'broker-0.txn-coordinator' && n.text.includes('failed'));
    expect(notes.length).toBe(errors.length);
    for (const n of notes) expect(n.text).toContain('NOT_ENOUGH_REPLICAS → COORDINATOR_NOT_AVAILABLE');
    const finds = r.trace.steps.filter((s) => s.label === 'FindCoordinator').length;
    expect(finds).toBe(errors.length + 1);
    const committed = r.trace.steps.find((s) => (s.facts as { kind: string; to?: string }[]).some((f) => f.to === 'PrepareCommit'));
    expect(committed?.t).toBeGreaterThan(22000);
  });

  it("payments' LSO stays at 0, the first open record, until the marker; the consumer reads both records once after it", () => {
    expect(lsoAt(1000)).toBe(0);
    expect(lsoAt(12000)).toBe(0);
    expect(lsoAt(21000)).toBe(0);
    expect(lastStableOffset(log(end, 'broker-0', 'payments-0'))).toBe(3);
    const delivered = r.trace.steps.filter((s) => (s.facts as { kind: string }[]).some((f) => f.kind === 'delivered'));
    expect(delivered.every((s) => s.t > 22000)).toBe(true);
    expect(r.received('ledger').map((x) => x.headers.event_id)).toEqual(['evt-debit-1', 'evt-credit-1']);
  });

  it('the verdict: each event once, nothing lost', () => {
    expect(r.layer('log', 'payments')?.status).toBe('once');
    expect(r.layer('delivery', 'ledger')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
    expect(r.summary.verdict.layers.some((l) => l.subject === '__transaction_state')).toBe(false);
  });
});
