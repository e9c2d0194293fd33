/**
 * The replication RPCs under a lost message (the rule tests/presets/networkFaults.test.ts checks
 * for every preset's requests): each request or answer dropped once ends, at its sender's
 * request timeout, in a disconnect and a resend — the controller's PartitionChange included, which
 * the controller resends until the broker answers (as a KRaft broker keeps fetching the metadata
 * log until it has caught up).
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import { type RequestRpc, RPCS } from '../../src/sim/kernel/envelope';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';

/** RF=3 with a leader failover: every replication RPC is sent (Metadata by the producer that follows the leader). */
const scenario: Scenario = {
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'p1',
      type: 'producer',
      config: { acks: 'all' },
      script: [
        { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', at: 15000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
      ],
    },
  ],
  faults: [{ type: 'crash', target: 'broker-0', at: 1000, durationMs: 20000 }],
};

const REPLICATION: RequestRpc[] = ['Metadata', 'BrokerHeartbeat', 'AlterPartition', 'PartitionChange'];

describe('a lost replication request or answer ends in a timeout and a resend', () => {
  it('the scenario sends every replication request; broker-0 returns and rejoins the ISR (AlterPartition)', () => {
    const t = runScenario(scenario);
    for (const rpc of REPLICATION) expect(t.envelopes.some((e) => e.rpc === rpc)).toBe(true);
    const alter = t.envelopes.find((e) => e.rpc === 'AlterPartition');
    expect(alter?.payload).toMatchObject({ leaderId: 'broker-1', newIsr: ['broker-1', 'broker-2', 'broker-0'] });
  });

  for (const rpc of REPLICATION) {
    for (const which of [rpc, RPCS[rpc].response] as const) {
      it(`${which} lost`, () => {
        // the first Metadata is the producer's at its first send() (waitOnMetadata), to broker-0, which
        // crashes before its timeout: the one lost here is the second, after the failover
        const nth = rpc === 'Metadata' ? 2 : 1;
        const t = runScenario({ ...scenario, faults: [...(scenario.faults ?? []), { type: 'drop', rpc: which, nth }] });
        const dropped = t.envelopes.find((e) => e.fate === 'dropped' && e.rpc === which);
        expect(dropped?.rpc).toBe(which);
        const request = which === rpc ? dropped : t.envelopes.at(dropped?.inReplyTo as number);
        expect(request?.rpc).toBe(rpc);
        const closed = t.steps.find((s) => s.kind === 'disconnected' && s.envelope === request?.id);
        // a sender that crashes first (broker-0's early heartbeats) never learns: it registers anew on restart
        const crashed = t.steps.some((s) => s.kind === 'fault' && request && s.i > request.sentStep && request.from === s.actor);
        if (!crashed) {
          // at its own timeout, or earlier when a heartbeat stalled behind it on the broker's one
          // connection to the controller times out first (Kafka has one channel each; the model one)
          expect(closed?.t).toBeLessThanOrEqual((request?.sentAt as number) + (request?.timeoutMs as number));
          expect(closed?.detail?.reason).toBe('timeout');
          const again = t.envelopes.find((e) => e.rpc === rpc && e.from === request?.from && e.sentStep >= (closed?.i as number));
          expect(again, `${rpc} is sent again after the disconnect`).toBeDefined();
        }
        expect(['quiescent', 'empty']).toContain(t.stopReason);
        const violations = checkInvariants(t);
        expect(violations, formatViolations(violations)).toEqual([]);
      });
    }
  }
});
