/**
 * A replica Fetch (or its answer) that a slowReplication fault slows keeps the run going until it
 * arrives (kernel/transport.ts). An idle replica fetch is background traffic otherwise; without the
 * rule a run could end quiescent while the fetch that would bring a record to the follower — and
 * then move the leader's high watermark — was still on its slowed way, and the verdict called an
 * acknowledged acks=1 record "above the HW".
 */
import { describe, expect, it } from 'vitest';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';

const SLOW_FROM = 1000;
const SLOW_UNTIL = 4000;

function scenario(faulted: boolean): Scenario {
  return {
    version: 1,
    seed: 1,
    cluster: { brokers: 2 },
    topics: [{ name: 't', replicationFactor: 2 }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        config: { acks: '1', 'enable.idempotence': false },
        script: [
          { op: 'send', topic: 't', key: 'r0', value: 'r0', headers: { event_id: 'r0' } },
          { op: 'send', topic: 't', key: 'r1', value: 'r1', at: 1500, headers: { event_id: 'r1' } },
        ],
      },
    ],
    faults: faulted
      ? [{ type: 'slowReplication', target: 'broker-1', at: SLOW_FROM, durationMs: SLOW_UNTIL - SLOW_FROM, delayMs: 2000 }]
      : [],
  } as Scenario;
}

function replicaTraffic(s: Scenario): { envelopes: EnvelopeRecord[]; endedAt: number } {
  const trace = runScenario(s);
  const envelopes = trace.envelopes.filter(
    (e) =>
      (e.rpc === 'Fetch' && e.from === 'broker-1' && e.to === 'broker-0') ||
      (e.rpc === 'FetchResponse' && e.from === 'broker-0' && e.to === 'broker-1'),
  );
  const last = trace.steps.at(trace.steps.length - 1);
  return { envelopes, endedAt: last?.t ?? 0 };
}

describe('a replica fetch on a slowed link', () => {
  it('is foreground while the fault slows it, background when idle outside the window', () => {
    const { envelopes } = replicaTraffic(scenario(true));
    const slowed = envelopes.filter((e) => e.sentAt >= SLOW_FROM && e.sentAt < SLOW_UNTIL);
    expect(slowed.length).toBeGreaterThan(0);
    for (const e of slowed) {
      expect(e.background).toBe(false);
      expect((e.deliverAt ?? 0) - e.sentAt).toBeGreaterThanOrEqual(2000);
    }
    const idleOutside = envelopes.filter(
      (e) =>
        (e.sentAt < SLOW_FROM || e.sentAt >= SLOW_UNTIL) &&
        !(e.rpc === 'FetchResponse' && ((e.payload as { batches?: unknown[] }).batches?.length ?? 0) > 0),
    );
    expect(idleOutside.length).toBeGreaterThan(0);
    for (const e of idleOutside) expect(e.background).toBe(true);
  });

  it('keeps the run going until the slowed fetch arrives, so the follower’s next fetch moves the HW over the acknowledged record', () => {
    const { envelopes, endedAt } = replicaTraffic(scenario(true));
    for (const e of envelopes.filter((x) => x.sentAt >= SLOW_FROM && x.sentAt < SLOW_UNTIL)) {
      expect(e.fate).toBe('delivered');
      expect(endedAt).toBeGreaterThan(e.deliverAt ?? Number.POSITIVE_INFINITY);
    }
    const movedHw = envelopes.find((e) => e.rpc === 'Fetch' && (e.payload as { fetchOffset: number }).fetchOffset === 2);
    expect(movedHw?.fate).toBe('delivered');
  });

  it('changes nothing when no link is slowed: idle replica fetches stay background', () => {
    const { envelopes } = replicaTraffic(scenario(false));
    const idle = envelopes.filter((e) => e.rpc === 'Fetch');
    expect(idle.length).toBeGreaterThan(2);
    expect(idle.every((e) => e.background)).toBe(true);
  });
});
