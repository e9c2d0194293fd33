/**
 * Controlled shutdowns in whole runs (broker/controlledShutdown.ts, the controller's
 * onShutdownHeartbeat): the leaderships move before the broker stops — at once, not after
 * broker.session.timeout.ms as after a crash —, its clients go to the new leader, it restarts and
 * registers at once; acks=1 still loses what only the leader had; a rolling restart of a replicated
 * exactly-once pipeline keeps every layer once; a broker with no controller stops at once; a shutdown
 * the controller never grants ends after 5 minutes; a restarted broker not registered yet skips it.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import { narrate } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';
import { firstStep, withFact } from './replicaView';

const idempotent = (faults: unknown[]) =>
  ({
    version: 1,
    id: 'rolling',
    seed: 1,
    cluster: { brokers: 3, 'min.insync.replicas': 2 },
    topics: [{ name: 'orders', replicationFactor: 3 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { acks: 'all', 'enable.idempotence': true },
        script: [
          { op: 'send', topic: 'orders', key: 'order-1', value: 'a', headers: { event_id: 'e1' } },
          { op: 'send', at: 3000, topic: 'orders', key: 'order-2', value: 'b', headers: { event_id: 'e2' } },
          { op: 'send', at: 3005, topic: 'orders', key: 'order-3', value: 'c', headers: { event_id: 'e3' } },
        ],
      },
      {
        id: 'billing',
        type: 'consumer',
        config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest' },
        topics: ['orders'],
        processing: { mode: 'at-least-once' },
      },
    ],
    faults,
  }) as unknown as Scenario;

describe('a controlled shutdown of the leader, acks=all and idempotence', () => {
  const r = runWith(idempotent([{ type: 'controlledShutdown', target: 'broker-0', at: 3002, durationMs: 5000 }]));
  const signal = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'controlledShutdown');
  const moved = firstStep(r.trace, withFact('leaderChange'));
  const stopped = firstStep(r.trace, withFact('brokerStopped'));

  it('the controller moves the leadership at the first heartbeat asking for it, and the broker stops after: no session timeout waited', () => {
    expect(r.trace.steps.at(moved)).toMatchObject({ actor: 'controller', label: 'BrokerHeartbeat' });
    expect(r.facts('leaderChange')[0]).toMatchObject({
      topic: 'orders',
      leader: 'broker-1',
      isr: ['broker-1', 'broker-2'],
      election: 'clean',
    });
    const at = (i: number) => r.trace.steps.at(i)?.t ?? Number.NaN;
    expect(signal).toBeLessThan(moved);
    expect(moved).toBeLessThan(stopped);
    expect(at(stopped) - at(signal)).toBeLessThan(r.trace.resolved.cluster['broker.session.timeout.ms']);
    expect(r.facts('brokerStopped')).toEqual([{ kind: 'brokerStopped', broker: 'broker-0', reason: 'granted', restartAfterMs: 5000 }]);
  });

  it('the producer is told NOT_LEADER_OR_FOLLOWER, finds broker-1 and writes e2 and e3 there: every event once, nothing lost', () => {
    expect(r.errors('orders-service')).toContain('NOT_LEADER_OR_FOLLOWER');
    expect(r.data('orders-0').map((x) => x.headers.event_id)).toEqual(['e1', 'e2', 'e3']);
    expect(r.layer('log', 'orders')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('it restarts 5 s after it stopped and registers at once (its old incarnation was fenced when it stopped)', () => {
    const restart = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.kind === 'fault' && s.label === 'restart');
    expect((r.trace.steps.at(restart)?.t ?? 0) - (r.trace.steps.at(stopped)?.t ?? 0)).toBe(5000);
    const refused = r.trace.envelopes.some(
      (e) => e.rpc === 'BrokerHeartbeatResponse' && e.payload.error === 'DUPLICATE_BROKER_REGISTRATION',
    );
    expect(refused).toBe(false);
  });

  it('a crash of the same broker moves the leadership only once the controller fences it, broker.session.timeout.ms later', () => {
    const crashed = runWith(idempotent([{ type: 'crash', target: 'broker-0', at: 3002, durationMs: 5000 }]));
    const change = firstStep(crashed.trace, withFact('leaderChange'));
    expect(crashed.trace.steps.at(change)?.t ?? 0).toBeGreaterThanOrEqual(3002 + 6000);
  });
});

describe('a controlled shutdown with acks=1', () => {
  const preset = findPreset('acks-1-leader-failover-loss');
  if (!preset) throw new Error('no preset');
  const scenario = {
    ...preset.scenario,
    faults: [
      ...(preset.scenario.faults ?? []).filter((f) => f.type !== 'crash'),
      { type: 'controlledShutdown', target: 'broker-0', at: 3020, durationMs: 5000 },
    ],
  } as Scenario;
  const r = runWith(scenario);

  it('loses e2 all the same: broker-1, elected without it, never had it, and broker-0 truncates it once it follows again after its restart', () => {
    expect(r.layer('log', 'orders')).toMatchObject({ status: 'lost' });
    expect(r.layer('loss')?.sentence).toContain('e2');
    const stopped = firstStep(r.trace, withFact('brokerStopped'));
    const restart = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.kind === 'fault' && s.label === 'restart');
    const truncated = firstStep(r.trace, withFact('truncated'));
    // in its controlled shutdown, out of the ISR, it stopped fetching: the cut comes after the restart
    expect(stopped).toBeLessThan(restart);
    expect(restart).toBeLessThan(truncated);
    expect(r.facts('truncated')).toMatchObject([{ broker: 'broker-0', fromOffset: 1, toOffset: 2, eventIds: ['e2'] }]);
  });
});

describe('a rolling restart of a replicated exactly-once pipeline', () => {
  const preset = findPreset('ctp-exactly-once-crash');
  if (!preset) throw new Error('no preset');
  const producer = preset.scenario.clients.find((c) => c.id === 'orders-service');
  const scenario = {
    ...preset.scenario,
    cluster: { brokers: 3, 'transaction.state.log.replication.factor': 3, 'offsets.topic.replication.factor': 3, 'min.insync.replicas': 2 },
    topics: preset.scenario.topics.map((t) => ({ ...t, replicationFactor: 3 })),
    clients: preset.scenario.clients.map((c) =>
      c === producer
        ? {
            ...c,
            script: Array.from({ length: 12 }, (_, i) => ({
              op: 'send',
              at: i * 900,
              topic: 'orders',
              key: `order-${i}`,
              value: `v${i}`,
              headers: { event_id: `evt-${i}` },
            })),
          }
        : c,
    ),
    faults: [0, 1, 2].map((b) => ({ type: 'controlledShutdown', target: `broker-${b}`, at: 2000 + b * 4000, durationMs: 1500 })),
  } as Scenario;
  const r = runWith(scenario);

  it('every layer says once, and the run keeps every invariant', () => {
    for (const l of r.summary.verdict.layers) expect(`${l.layer} ${l.subject}: ${l.status}`).toBe(`${l.layer} ${l.subject}: once`);
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
    expect(r.facts('brokerStopped').map((f) => f.broker)).toEqual(['broker-0', 'broker-1', 'broker-2']);
  });

  it('each broker’s coordinators resign before it stops (their partitions moved first)', () => {
    for (const b of ['broker-0', 'broker-1', 'broker-2']) {
      const stopped = firstStep(
        r.trace,
        withFact('brokerStopped', (f) => f.broker === b),
      );
      const resigned = firstStep(r.trace, (s) => s.actor === `${b}.txn-coordinator` && s.label === 'resignCoordinator');
      expect(resigned, b).toBeLessThan(stopped);
    }
  });
});

describe('a controlled shutdown without a controller, and one never granted', () => {
  it('a broker of an unreplicated cluster stops at once, cleanly, and restarts', () => {
    const r = runWith({
      ...idempotent([{ type: 'controlledShutdown', target: 'broker-0', at: 3002, durationMs: 1000 }]),
      cluster: { brokers: 1 },
      topics: [{ name: 'orders' }],
    } as Scenario);
    const signal = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'controlledShutdown');
    expect(r.trace.steps.at(signal)?.facts).toEqual([
      { kind: 'brokerStopped', broker: 'broker-0', reason: 'unreplicated', restartAfterMs: 1000 },
    ]);
    expect(r.layer('loss')?.status).toBe('once');
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('with its heartbeats lost, the controller fences it after its session and it stops 5 minutes after it was asked, still cleanly', () => {
    const r = runWith(
      idempotent([
        { type: 'drop', rpc: 'BrokerHeartbeat', from: 'broker-0', nth: 2, count: 1000 },
        { type: 'controlledShutdown', target: 'broker-0', at: 3002 },
      ]),
    );
    const stopped = firstStep(r.trace, withFact('brokerStopped'));
    expect(r.trace.steps.at(stopped)?.t).toBe(3002 + 300_000);
    expect(r.facts('brokerStopped')).toEqual([{ kind: 'brokerStopped', broker: 'broker-0', reason: 'timedOut', restartAfterMs: null }]);
    // the session expired long before: the controller fenced it and moved orders-0 (a timer, not a heartbeat)
    const moved = firstStep(r.trace, withFact('leaderChange'));
    expect(r.trace.steps.at(moved)).toMatchObject({ actor: 'controller', kind: 'timer' });
    expect(moved).toBeLessThan(stopped);
  });
});

describe('a controlled shutdown of a restarted broker not registered yet', () => {
  // broker-0 crashes at 5000 and starts again at 6000; its new incarnation is refused
  // DUPLICATE_BROKER_REGISTRATION until the old one's session ends (13001); the operator stops it at 8000
  const r = runWith(
    idempotent([
      { type: 'crash', target: 'broker-0', at: 5000, durationMs: 1000 },
      { type: 'controlledShutdown', target: 'broker-0', at: 8000, durationMs: 3000 },
    ]),
  );

  it('skips the controlled shutdown (not RUNNING): it stops at once, asks the controller nothing and never registered that incarnation', () => {
    const signal = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'controlledShutdown');
    expect(r.trace.steps.at(signal)).toMatchObject({ t: 8000 });
    expect(r.trace.steps.at(signal)?.facts).toEqual([
      { kind: 'brokerStopped', broker: 'broker-0', reason: 'notRegistered', restartAfterMs: 3000 },
    ]);
    expect(r.facts('brokerStopped')).toHaveLength(1);
    const asked = r.trace.steps.filter(
      (s) => s.actor === 'controller' && s.label === 'BrokerHeartbeat' && s.from === 'broker-0' && s.t >= 8000 && s.t < 11000,
    );
    expect(asked).toEqual([]);
    // its next start (11000) waits for the old incarnation's session like any restart after a crash
    const moved = firstStep(r.trace, withFact('leaderChange'));
    expect(r.trace.steps.at(moved)).toMatchObject({ actor: 'controller', kind: 'timer', t: 13001 });
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('is told in English and in Korean', () => {
    const signal = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'controlledShutdown');
    expect(narrate(r.trace, signal, 'en')).toContain(
      'skips the controlled shutdown ("Skipping controlled shutdown because we are in state STARTING")',
    );
    expect(narrate(r.trace, signal, 'en')).toContain('its next start recovers them as after a crash');
    expect(narrate(r.trace, signal, 'ko')).toContain('제어된 종료를 건너뛰고');
    expect(narrate(r.trace, signal, 'ko')).not.toMatch(/\b(the|is|and|stops)\b/);
  });
});

describe('the rolling-restart-acks-1 preset', () => {
  const preset = findPreset('rolling-restart-acks-1');
  if (!preset) throw new Error('no preset');
  const r = runWith(preset.scenario);

  it('loses click-2 (acks=1) and keeps pay-2 once (acks=all, retried on the new leader); the log sentence counts every payment', () => {
    expect(r.layer('log', 'clicks')).toMatchObject({ status: 'lost' });
    expect(r.layer('log', 'payments')?.sentence).toBe(
      "Kafka log payments: each of 3 events once; payments-0@1 cut from the log by truncation after a leader change (a replica's records the new leader did not have).",
    );
    expect(r.facts('truncated').map((f) => [f.broker, f.topic, f.eventIds])).toEqual([
      ['broker-0', 'payments', ['pay-2']],
      ['broker-0', 'clicks', ['click-2']],
    ]);
  });

  it('tells the retry the new leader writes where the deposed leader had written it, and the shutting-down broker that stops fetching', () => {
    const retry = firstStep(
      r.trace,
      withFact('append', (f) => f.topic === 'payments' && f.baseOffset === 1 && f.leaderEpoch === 1),
    );
    expect(narrate(r.trace, retry, 'en')).toContain(
      'it is a retry of the send() that broker-0, the previous leader, had written at offset 1 (leader epoch 0) before the leader changed: broker-1 never had that copy, so it writes the retry as new — broker-0 cuts its own copy when it follows broker-1, and the log keeps this one',
    );
    expect(narrate(r.trace, retry, 'ko')).toContain('broker-1은 그 사본을 받은 적이 없어 재시도를 새로 기록합니다');
    const record = firstStep(
      r.trace,
      (s) => s.actor === 'broker-0' && s.label === 'PartitionChange' && s.i > firstStep(r.trace, (x) => x.label === 'controlledShutdown'),
    );
    expect(narrate(r.trace, record, 'en')).toContain('in its controlled shutdown and out of the ISR, it stops fetching');
    expect(narrate(r.trace, record, 'ko')).toContain('제어된 종료 중이고 ISR에서 빠졌으므로');
  });
});
