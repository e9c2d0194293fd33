/**
 * markerMetadata.ts on its own: the one-replica txn-coordinator, once restarted (it missed the leader
 * moves its brokers told while it was down), looks a moved data-partition leader up (a Metadata
 * request to another broker) when a marker of a replicated partition is refused
 * NOT_LEADER_OR_FOLLOWER or lost, takes the newer leader from the answer, and sends the waiting
 * markers there. Unreplicated partitions never ask (their leader cannot move); a coordinator that
 * never restarted never asks (its cache has every move, told by the brokers).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { onLeaderLookupAnswered, onMarkerRequestLost, onMarkersResponse, startMarkers } from '../../src/sim/coordinator/markerChannel';
import { onLeaderLookupLost } from '../../src/sim/coordinator/markerMetadata';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { TxnCoordinatorContext, TxnDraft } from '../../src/sim/coordinator/txnCoordinatorContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { drive, inputOf } from '../machines/harness';
import { preparedTxn } from './fixture';

const scenario = (replicationFactor: number) => ({
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 't', partitions: 1, replicationFactor }],
  clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
});

const prepared = preparedTxn(['t-0']);

/** A restarted coordinator that has sent its COMMIT marker for t-0 (to broker-0, the leader it was built with). */
function markersSent(replicationFactor: number, leadersMissed = true) {
  const m = drive(transactionCoordinatorMachine, inputOf(scenario(replicationFactor), 'txn-coordinator'));
  m.send({ type: 'boot' }, 0);
  const d: TxnDraft = { ...m.context<TxnCoordinatorContext>(), txns: { tx: prepared }, ...(leadersMissed ? { leadersMissed: true } : {}) };
  const out = new Out();
  startMarkers(d, prepared, 'COMMIT', 10, out);
  const request = sent(out.effects, 'WriteTxnMarkers')[0];
  return { ctx: d as TxnCoordinatorContext, request };
}

const sent = (fx: readonly Effect[], rpc: string) =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === rpc ? [{ to: e.to, payload: e.payload as Record<string, unknown> }] : []));

const refused = (ctx: TxnCoordinatorContext, request: { to: string; payload: Record<string, unknown> } | undefined) => {
  const out = new Out();
  const next = onMarkersResponse(
    ctx,
    {
      type: 'WriteTxnMarkersResponse',
      now: 20,
      from: request?.to,
      envelopeId: 1,
      inReplyTo: 0,
      payload: {
        correlationId: request?.payload.correlationId,
        markers: [{ producerId: 1000, partitions: [{ topic: 't', partition: 0, error: 'NOT_LEADER_OR_FOLLOWER' }] }],
      },
    } as never,
    out,
  );
  return { next, effects: out.effects };
};

describe('the one-replica coordinator looks a moved leader up', () => {
  it('a marker refused NOT_LEADER_OR_FOLLOWER on a replicated partition asks another broker, once', () => {
    const { ctx, request } = markersSent(3);
    expect(request?.to).toBe('broker-0');
    const { next, effects } = refused(ctx, request);
    const lookups = sent(effects, 'Metadata');
    expect(lookups).toEqual([{ to: 'broker-1', payload: { correlationId: expect.any(Number), topics: ['t'] } }]);
    expect(next.leaderLookup?.inFlight).toBe(lookups[0]?.payload.correlationId);
    // a second refusal while the lookup is in flight asks nothing more
    expect(sent(refused(next, request).effects, 'Metadata')).toEqual([]);
  });

  it('the answer moves the leader (a newer epoch) and the waiting marker goes to it', () => {
    const { ctx, request } = markersSent(3);
    const { next, effects } = refused(ctx, request);
    const lookup = sent(effects, 'Metadata')[0];
    const out = new Out();
    const answered = onLeaderLookupAnswered(
      next,
      {
        type: 'MetadataResponse',
        now: 30,
        from: lookup?.to,
        envelopeId: 2,
        inReplyTo: 1,
        payload: {
          correlationId: lookup?.payload.correlationId,
          brokers: ['broker-0', 'broker-1', 'broker-2'],
          topics: [
            {
              name: 't',
              partitions: [{ partition: 0, error: 'NONE', leader: 'broker-2', leaderEpoch: 1, replicas: [], isr: ['broker-2'] }],
            },
          ],
        },
      } as never,
      out,
    );
    expect(sent(out.effects, 'WriteTxnMarkers').map((r) => r.to)).toEqual(['broker-2']);
    expect(answered.meta.topics.t?.leaders).toEqual(['broker-2']);
    expect(answered.leaderLookup?.inFlight).toBeUndefined();
  });

  it('a lost lookup clears the way for the next one; a lost marker request asks too', () => {
    const { ctx, request } = markersSent(3);
    const lostOut = new Out();
    const afterLost = onMarkerRequestLost(
      ctx,
      { type: 'disconnected', now: 30, to: 'broker-0', rpc: 'WriteTxnMarkers', payload: request?.payload } as never,
      lostOut,
    );
    const lookup = sent(lostOut.effects, 'Metadata')[0];
    expect(lookup?.to).toBe('broker-1');
    const cleared = onLeaderLookupLost(afterLost, {
      type: 'disconnected',
      now: 40,
      to: 'broker-1',
      rpc: 'Metadata',
      payload: lookup?.payload,
    } as never);
    expect(cleared.leaderLookup).toEqual({ turn: 1 });
  });

  it('a coordinator that never restarted never asks: its brokers told it every move', () => {
    const { ctx, request } = markersSent(3, false);
    expect(sent(refused(ctx, request).effects, 'Metadata')).toEqual([]);
    const lostOut = new Out();
    onMarkerRequestLost(
      ctx,
      { type: 'disconnected', now: 30, to: 'broker-0', rpc: 'WriteTxnMarkers', payload: request?.payload } as never,
      lostOut,
    );
    expect(sent(lostOut.effects, 'Metadata')).toEqual([]);
  });

  it('a restart marks the cache behind: the restarted coordinator asks', () => {
    const m = drive(transactionCoordinatorMachine, inputOf(scenario(3), 'txn-coordinator'));
    m.send({ type: 'boot' }, 0);
    expect(m.context<TxnCoordinatorContext>().leadersMissed).toBeUndefined();
    m.send({ type: 'crash' }, 10);
    m.send({ type: 'restart' }, 20);
    expect(m.context<TxnCoordinatorContext>().leadersMissed).toBe(true);
  });

  it('an unreplicated partition never asks: its leader cannot move', () => {
    const { ctx, request } = markersSent(1);
    expect(sent(refused(ctx, request).effects, 'Metadata')).toEqual([]);
  });

  it('a crash forgets a lookup in flight: after its restart the coordinator asks again and the markers reach the new leader', () => {
    // broker-0 (orders-0's leader) crashes at 20 ms; the coordinator's first lookup is delayed 60 s,
    // and the coordinator crashes at 200 ms with it in flight, restarting at 1200 ms
    const trace = runScenario({
      version: 1,
      seed: 1,
      cluster: { brokers: 3, 'min.insync.replicas': 1 },
      topics: [{ name: 'orders', replicationFactor: 3 }],
      clients: [
        {
          id: 'svc',
          type: 'producer',
          config: { 'transactional.id': 'svc-1' },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
            { op: 'commitTransaction' },
          ],
        },
      ],
      faults: [
        { type: 'delay', rpc: 'WriteTxnMarkers', from: 'txn-coordinator', nth: 1, delayMs: 50 },
        { type: 'crash', target: 'broker-0', at: 20, durationMs: 30000 },
        { type: 'delay', rpc: 'Metadata', from: 'txn-coordinator', nth: 1, delayMs: 60000 },
        { type: 'crash', target: 'txn-coordinator', at: 200, durationMs: 1000 },
        { type: 'crash', target: 'txn-coordinator', at: 1400, durationMs: 500 },
      ],
      run: { maxTimeMs: 120000 },
    });
    const lookups = trace.envelopes.filter((e) => e.rpc === 'Metadata' && e.from === 'txn-coordinator');
    expect(lookups.some((e) => e.sentAt > 1200 && e.sentAt < 30000)).toBe(true);
    const completed = trace.steps.flatMap((st) =>
      (st.facts as Fact[]).filter((f) => f.kind === 'txnState' && f.to === 'CompleteCommit').map(() => st.t),
    );
    // before broker-0 is back (at 30 s): the markers went to the partition's new leader
    expect(completed).toHaveLength(1);
    expect(completed[0]).toBeLessThan(30000);
  });
});
