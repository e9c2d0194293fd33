/**
 * Markers follow a data partition's leader (TransactionMarkerChannelManager reads each marker's
 * destination from the hosting broker's metadata cache): when the controller moves a partition's
 * leader, the broker tells the coordinator it hosts, and markers sent from then on go to the new
 * leader. Found by Break it on transaction-state-under-replicated: with broker-0 (the leader the
 * scenario built for payments-0) crashed at the start, the coordinator sent its markers to broker-0
 * for ever, each refused NOT_LEADER_OR_FOLLOWER, and the transaction never completed.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { leaderOf } from '../../src/sim/cluster/metadata';
import { onPartitionLeader } from '../../src/sim/coordinator/markerChannel';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/txnCoordinatorContext';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const preset = findPreset('transaction-state-under-replicated')?.scenario as Scenario;

describe('the hosted coordinator learns a partition leader from its broker', () => {
  const ctx = {
    meta: {
      brokers: ['broker-0', 'broker-1', 'broker-2'],
      topics: { payments: { name: 'payments', partitions: 1, leaders: ['broker-0'], leaderEpochs: [0] } },
    },
    markers: {},
  } as unknown as TxnCoordinatorContext;

  it('a newer leader epoch moves the leader markers are sent to; an older or equal one does not', () => {
    const moved = onPartitionLeader(ctx, { topic: 'payments', partition: 0, leaderId: 'broker-1', leaderEpoch: 1 }, 0, new Out());
    expect(leaderOf(moved.meta, 'payments', 0)).toBe('broker-1');
    const stale = onPartitionLeader(moved, { topic: 'payments', partition: 0, leaderId: 'broker-0', leaderEpoch: 1 }, 0, new Out());
    expect(stale).toBe(moved);
    expect(onPartitionLeader(ctx, { topic: 'payments', partition: 0, leaderId: 'broker-2', leaderEpoch: 0 }, 0, new Out())).toBe(ctx);
  });

  it("transaction-state-under-replicated with broker-0 down for its first second: the markers go to payments-0's new leader and the commit completes", () => {
    const scenario = { ...preset, faults: [{ type: 'crash', target: 'broker-0', at: 1, durationMs: 1000 }] } as Scenario;
    const r = runWith(scenario);
    const trace = r.trace;
    expect(trace.stopReason).toBe('quiescent');
    const markers = trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers');
    expect(markers.map((e) => e.to)).toEqual(['broker-1']);
    const calls = trace.steps.filter((s) => s.label === 'partitionLeader' && s.actor === 'broker-1.txn-coordinator');
    expect(calls.length).toBeGreaterThan(0);
    expect(r.facts('txnState').at(-1)?.to).toBe('CompleteCommit');
    expect(r.layer('log', 'payments')?.status).toBe('once');
    expect(r.layer('delivery', 'ledger')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
  });
});
