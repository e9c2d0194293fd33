/**
 * Two rules of the one-replica coordinator's marker channel where they meet: a marker lost on its way
 * to a data partition's leader is sent again once the channel's reconnect backoff for that broker
 * has passed (markerChannel.ts MARKER_CHANNEL_RECONNECT, a constant 50 ms), and a marker of a replicated partition that is lost or refused
 * NOT_LEADER_OR_FOLLOWER makes the coordinator look the leader up (markerMetadata.ts). While the
 * leader is down but not yet fenced by the controller (broker.session.timeout.ms), every broker still
 * names it: the lookup's answer moves nothing. On the old code that answer sent the markers again at
 * once, bypassing the pause — to the dead leader, lost, looked up, answered, sent… one
 * WriteTxnMarkers every round trip (about 2200 in the 9 s before the fence). Kafka's marker channel
 * (TransactionMarkerChannelManager's NetworkClient, an InterBrokerSendThread) waits its reconnect
 * backoff between attempts to an unreachable broker, and so does the model.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { markerPendingAtCrash } from '../fixtures/markerPendingAtCrash';

/** orders-0 (three replicas) led by broker-1, which crashes at 230 ms with the COMMIT marker on its way. */
const leaderDownWithMarkerPending = markerPendingAtCrash(3);

describe('markers to a leader that is down but not yet fenced', () => {
  it('are sent again once per reconnect backoff, not at every answer of a lookup that moved no leader', () => {
    const trace = runScenario(leaderDownWithMarkerPending);
    const markers = trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers' && e.from === 'txn-coordinator');
    const toDeadLeader = markers.filter((e) => e.to === 'broker-1');
    // one attempt per 50 ms backoff (plus the refusal's trip) from 230 ms until the controller fences broker-1 at 9001 ms
    expect(toDeadLeader.length).toBeGreaterThan(160);
    expect(toDeadLeader.length).toBeLessThan(180);
    // the new leader gets the marker right after the fence, and the transaction completes
    const completed = trace.steps.flatMap((s) =>
      (s.facts as Fact[]).filter((f) => f.kind === 'txnState' && f.to === 'CompleteCommit').map(() => s.t),
    );
    expect(completed).toHaveLength(1);
    expect(completed[0]).toBeGreaterThan(9001);
    expect(completed[0]).toBeLessThan(9200);
  });
});
