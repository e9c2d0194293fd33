/** The [transactions] presets: logs with markers at their offsets, HW, LSO, deliveries and error codes. */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { partitionRows } from '../../src/sim/trace/logView';
import { summarize } from '../../src/sim/trace/summary';
import { runPreset } from './helpers';

const layout = (rows: readonly { offset: number; control: string | null; txnOutcome: string | null; producerEpoch: number }[]) =>
  rows.map((r) => `${r.offset}:${r.control ?? r.txnOutcome ?? 'plain'}@${r.producerEpoch}`);

describe('transactions presets', () => {
  it('commit-two-partitions: data at 0 and a COMMIT marker at 1 on each partition; each becomes visible with its own marker', () => {
    const r = runPreset('commit-two-partitions');
    for (const name of ['payments-0', 'payments-1']) {
      const p = r.partition(name);
      expect(layout(p.records)).toEqual(['0:committed@0', '1:COMMIT@1']);
      expect([p.highWatermark, p.lastStableOffset]).toEqual([2, 2]);
    }
    const delivered = r.facts('delivered');
    const step = (partition: number) =>
      r.trace.steps.findIndex((s) =>
        s.facts.some((f) => (f as Fact).kind === 'delivered' && (f as Extract<Fact, { kind: 'delivered' }>).partition === partition),
      );
    expect(delivered).toHaveLength(2);
    const t0 = r.trace.steps.at(step(0))?.t ?? 0;
    const t1 = r.trace.steps.at(step(1))?.t ?? 0;
    expect(t1 - t0).toBeGreaterThanOrEqual(1900);
  });

  it('abort-hidden-from-read-committed: read_committed receives nothing and moves past; read_uncommitted receives the aborted record', () => {
    const r = runPreset('abort-hidden-from-read-committed');
    expect(layout(r.partition('orders-0').records)).toEqual(['0:aborted@0', '1:ABORT@1']);
    expect(r.received('committed-reader')).toEqual([]);
    expect(r.summary.consumers.find((c) => c.id === 'committed-reader')?.positions['orders-0']).toBe(2);
    expect(
      r
        .facts('skipped')
        .filter((s) => s.consumer === 'committed-reader')
        .map((s) => s.reason),
    ).toEqual(['aborted', 'control']);
    expect(r.received('uncommitted-reader').map((x) => x.offset)).toEqual([0]);
  });

  it('open-transaction-pins-lso: plain records after an open transaction stay invisible to read_committed until it commits', () => {
    const r = runPreset('open-transaction-pins-lso');
    const commitStep = r.trace.steps.findIndex((s) =>
      s.facts.some((f) => (f as Fact).kind === 'append' && (f as Extract<Fact, { kind: 'append' }>).control === 'COMMIT'),
    );
    expect(commitStep).toBeGreaterThan(0);
    // just before the marker, the LSO is the open transaction's first offset while the HW has moved on
    const before = partitionRows(stateAt(r.trace, commitStep).actors).find((p) => p.topic === 'events');
    expect(before).toMatchObject({ lastStableOffset: 0, highWatermark: 3 });
    const rcSteps = r.trace.steps.filter((s) =>
      s.facts.some((f) => (f as Fact).kind === 'delivered' && (f as Extract<Fact, { kind: 'delivered' }>).consumer === 'committed-reader'),
    );
    expect(rcSteps.every((s) => s.i > commitStep)).toBe(true);
    expect(r.received('committed-reader').map((x) => x.offset)).toEqual([0, 1, 2]);
    const ruFirst = r.trace.steps.find((s) =>
      s.facts.some(
        (f) => (f as Fact).kind === 'delivered' && (f as Extract<Fact, { kind: 'delivered' }>).consumer === 'uncommitted-reader',
      ),
    );
    expect(ruFirst?.i ?? Number.POSITIVE_INFINITY).toBeLessThan(commitStep);
  });

  it('transaction-timeout: the coordinator fences and aborts; the next send gets INVALID_PRODUCER_EPOCH, ending the transaction PRODUCER_FENCED', () => {
    const r = runPreset('transaction-timeout');
    expect(layout(r.partition('orders-0').records)).toEqual(['0:aborted@0', '1:ABORT@1']);
    const abortAt = r.trace.steps.find((s) =>
      s.facts.some((f) => (f as Fact).kind === 'append' && (f as Extract<Fact, { kind: 'append' }>).control === 'ABORT'),
    )?.t;
    expect(abortAt).toBe(10001);
    expect(r.errors('slow-service')).toContain('INVALID_PRODUCER_EPOCH');
    expect(r.errors('slow-service')).toContain('PRODUCER_FENCED');
    expect(r.received('committed-reader')).toEqual([]);
    expect(r.facts('txnState').map((f) => f.to)).toContain('PrepareEpochFence');
  });

  it('transaction-timeout under protocol v2: the stale commit gets INVALID_TXN_STATE instead of PRODUCER_FENCED', () => {
    const preset = findPreset('transaction-timeout');
    const trace = runScenario({ ...preset?.scenario, cluster: { 'transaction.version': 2 } });
    const errors = summarize(trace).clients.find((c) => c.id === 'slow-service')?.errors ?? [];
    expect(errors).toContain('INVALID_PRODUCER_EPOCH');
    expect(errors).not.toContain('PRODUCER_FENCED');
  });

  it('zombie-fencing: B fences A (CONCURRENT_TRANSACTIONS, then epoch 2); A is fenced when it wakes; only B is committed', () => {
    const r = runPreset('zombie-fencing');
    const recs = r.partition('orders-0').records;
    expect(layout(recs)).toEqual(['0:aborted@0', '1:ABORT@1', '2:committed@2', '3:COMMIT@2']);
    expect(recs[2]?.value).toBe('from B');
    expect(r.errors('instance-b')).toEqual(['CONCURRENT_TRANSACTIONS']);
    expect(r.errors('instance-a')).toEqual(expect.arrayContaining(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED']));
    expect(r.received('committed-reader').map((x) => x.offset)).toEqual([2]);
  });

  it('same-payload-twice-in-one-transaction: both records are committed and delivered', () => {
    const r = runPreset('same-payload-twice-in-one-transaction');
    expect(layout(r.partition('orders-0').records)).toEqual(['0:committed@0', '1:committed@0', '2:COMMIT@1']);
    expect(r.received('committed-reader').map((x) => x.headers.event_id)).toEqual(['evt-789', 'evt-789']);
  });

  it('coordinator-failover-mid-commit: the new coordinator finishes the prepared commit', () => {
    const r = runPreset('coordinator-failover-mid-commit');
    const states = r.facts('txnState').map((f) => f.to);
    expect(states).toEqual(expect.arrayContaining(['PrepareCommit', 'CompleteCommit']));
    const prepare = r.trace.steps.find((s) =>
      s.facts.some((f) => (f as Fact).kind === 'txnState' && (f as Extract<Fact, { kind: 'txnState' }>).to === 'PrepareCommit'),
    );
    const complete = r.trace.steps.find((s) =>
      s.facts.some((f) => (f as Fact).kind === 'txnState' && (f as Extract<Fact, { kind: 'txnState' }>).to === 'CompleteCommit'),
    );
    expect((complete?.t ?? 0) - (prepare?.t ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(r.facts('note').some((n) => n.text.includes('loaded 1 transactional id'))).toBe(true);
    for (const name of ['payments-0', 'payments-1']) expect(layout(r.partition(name).records)).toEqual(['0:committed@0', '1:COMMIT@1']);
    expect(r.received('ledger')).toHaveLength(2);
    expect(r.errors('payment-service')).toEqual([]);
  });

  it('hanging-transaction: without verification the late batch opens a transaction nobody ends; the LSO stays pinned', () => {
    const r = runPreset('hanging-transaction');
    const p = r.partition('orders-0');
    expect(layout(p.records)).toEqual(['0:ABORT@0', '1:open@0', '2:plain@0']);
    expect(p.lastStableOffset).toBe(1);
    expect(p.highWatermark).toBe(3);
    expect(r.received('committed-reader')).toEqual([]);
    expect(r.received('uncommitted-reader').map((x) => x.offset)).toEqual([1, 2]);
  });

  it('hanging-transaction with partition verification on: the leader verifies the late batch and refuses it (the v1 abort bumped the epoch)', () => {
    const preset = findPreset('hanging-transaction');
    const trace = runScenario({
      ...preset?.scenario,
      cluster: { 'transaction.version': 1, 'transaction.partition.verification.enable': true },
    });
    const s = summarize(trace);
    const p = s.partitions.find((x) => x.topic === 'orders');
    expect(p?.records.filter((x) => x.control === null).map((x) => x.key)).toEqual(['click']);
    expect(p?.lastStableOffset).toBe(p?.highWatermark);
    // the timed-out batch made the client end its abort with InitProducerId (KIP-360): the coordinator
    // answers the leader's verification PRODUCER_FENCED, which the leader returns as INVALID_PRODUCER_EPOCH
    expect(trace.steps.flatMap((x) => x.facts as Fact[]).find((f) => f.kind === 'rejected')).toMatchObject({
      error: 'INVALID_PRODUCER_EPOCH',
      reason: 'transaction verification failed: PRODUCER_FENCED',
    });
    expect(s.consumers.find((c) => c.id === 'committed-reader')?.received.map((x) => x.key)).toEqual(['click']);
  });

  it('hanging-transaction under protocol v2: the bumped epoch of the ABORT marker fences the late batch', () => {
    const preset = findPreset('hanging-transaction');
    const trace = runScenario({ ...preset?.scenario, cluster: { 'transaction.version': 2 } });
    const facts = trace.steps.flatMap((x) => x.facts as Fact[]);
    expect(facts.find((f) => f.kind === 'rejected')).toMatchObject({ error: 'INVALID_PRODUCER_EPOCH' });
    const p = summarize(trace).partitions.find((x) => x.topic === 'orders');
    expect(p?.lastStableOffset).toBe(p?.highWatermark);
  });
});
