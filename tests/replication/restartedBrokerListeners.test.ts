/**
 * A restarted broker accepts no connection until the controller unfences it (BrokerServer.startup:
 * `lifecycleManager.initialCatchUpFuture`, the first metadata publish, then
 * `lifecycleManager.setReadyToUnfence()` — the initial unfence future — and only then
 * `socketServer.enableRequestProcessing`, which opens the acceptors). A connection attempt meanwhile
 * is refused, as to a broker that is down.
 *
 * The run: three brokers, orders with three replicas led by broker-0; broker-0 crashes at 500 ms and
 * restarts at 800 ms, while its old incarnation's session is still valid: the controller refuses the
 * new one DUPLICATE_BROKER_REGISTRATION until the session expires and the old one is fenced (its
 * leadership moves to broker-1); only then does the new incarnation register and get unfenced. The
 * producer sends e2 at 1000 ms.
 *
 * On the old code the restarted broker served every request at once: it answered the Produce
 * NOT_LEADER_OR_FOLLOWER (it led nothing yet), answered Metadata from the cluster's initial layout
 * (broker-0 the leader, which it no longer was), and answered the followers' replica fetches.
 */
import { describe, expect, it } from 'vitest';
import { brokerRefusesConnections } from '../../src/sim/broker/listeners';
import { narrate } from '../../src/sim/narration';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { failoverOrders } from '../fixtures/failoverOrders';
import { HOSTED_TXN_CLUSTER } from './hostBroker';

const scenario = failoverOrders({
  id: 'restarted-broker-before-unfenced',
  firstAt: 0,
  secondAt: 1000,
  faults: [{ type: 'crash', target: 'broker-0', at: 500, durationMs: 300 }],
});

describe('a restarted broker before the controller unfences it', () => {
  const trace = runScenario(scenario);
  const steps = [...Array(trace.steps.length).keys()].map((i) => trace.steps.at(i) as NonNullable<ReturnType<typeof trace.steps.at>>);
  // the step at which broker-0's new incarnation is registered and unfenced: the first heartbeat answer without an error after the restart
  const unfenced = steps.find(
    (s) =>
      s.actor === 'broker-0' &&
      s.label === 'BrokerHeartbeatResponse' &&
      s.t > 800 &&
      s.envelope !== null &&
      (trace.envelopes.at(s.envelope)?.payload as { error?: string }).error === undefined,
  ) as (typeof steps)[number];
  const restart = steps.find((s) => s.actor === 'broker-0' && s.kind === 'fault' && s.label === 'restart') as (typeof steps)[number];

  it('refuses every client and replica connection (the producer’s Produce, the followers’ Fetch): none is read, each client sees the connection refused', () => {
    expect(restart.t).toBe(800);
    expect(unfenced.t).toBeGreaterThan(9000);
    const between = steps.filter((s) => s.i > restart.i && s.i < unfenced.i);
    const toBroker0 = between.filter(
      (s) => s.actor.startsWith('broker-0') && (s.kind === 'deliver' || s.kind === 'lost') && s.from !== 'controller',
    );
    const requests = toBroker0.filter((s) => !s.label.endsWith('Response'));
    expect(new Set(requests.map((s) => s.label))).toEqual(new Set(['Produce', 'Fetch']));
    expect(requests.every((s) => s.kind === 'lost' && s.faults[0]?.includes('broker-0 is not accepting connections'))).toBe(true);
    const refused = between.filter((s) => s.kind === 'disconnected' && s.from === 'broker-0');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((s) => (s.detail as { reason: string }).reason === 'refused')).toBe(true);
    // no answer comes from broker-0 meanwhile: no NOT_LEADER_OR_FOLLOWER from it, no Metadata from its stale cache
    const answers = between.filter((s) => s.kind === 'deliver' && s.from === 'broker-0' && s.actor.startsWith('orders-service'));
    expect(answers).toEqual([]);
    // the controller's records still reach it (they stand for the metadata log it fetches itself)
    expect(steps.some((s) => s.actor === 'broker-0' && s.label === 'PartitionChange' && s.kind === 'deliver' && s.i > restart.i)).toBe(
      true,
    );
  });

  it('accepts connections once unfenced; e2 is written once through the new leader', () => {
    const after = steps.filter((s) => s.i > unfenced.i);
    expect(after.some((s) => s.kind === 'lost' && s.faults.some((f) => f.includes('not accepting connections')))).toBe(false);
    // it follows broker-1, which leads now, and catches up
    expect(after.some((s) => s.actor === 'broker-0' && s.kind === 'deliver' && s.label === 'FetchResponse' && s.from === 'broker-1')).toBe(
      true,
    );
    const errors = steps.flatMap((s) => (s.facts as Fact[]).filter((f) => f.kind === 'clientError'));
    expect(errors).toEqual([]);
    const verdict = summarize(trace).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:once', 'loss:once']);
  });

  it('narrates the refusal as a broker that is up but not listening yet (en, ko)', () => {
    const refused = steps.find((s) => s.kind === 'disconnected' && s.from === 'broker-0' && s.t > 800) as (typeof steps)[number];
    expect(narrate(trace, refused.i, 'en')).toContain('which restarted and does not accept connections until the controller unfences it');
    expect(narrate(trace, refused.i, 'ko')).toContain('컨트롤러가 펜스를 풀 때까지 연결을 받지 않는');
    // the controller's side: the refused registration, then the one that unfences it
    const heartbeats = steps.filter((s) => s.actor === 'controller' && s.label === 'BrokerHeartbeat' && s.from === 'broker-0' && s.t > 800);
    const told = heartbeats.map((s) => narrate(trace, s.i, 'en'));
    expect(
      told.some((t) => t.includes('DUPLICATE_BROKER_REGISTRATION') && t.includes('until it is unfenced it accepts no connection')),
    ).toBe(true);
    expect(told.some((t) => t.includes('with its answer broker-0 opens its listeners'))).toBe(true);
    const toldKo = heartbeats.map((s) => narrate(trace, s.i, 'ko'));
    expect(toldKo.some((t) => t.includes('펜스가 풀릴 때까지 연결을 받지 않습니다'))).toBe(true);
    expect(toldKo.some((t) => t.includes('리스너를 엽니다'))).toBe(true);
  });

  it('refuses the requests to the coordinator it hosts too: the producer’s InitProducerId fails as a disconnect until the coordinator moves', () => {
    // broker-0 leads __transaction_state-0 and hosts the coordinator; the other brokers name it as
    // the coordinator until its old incarnation is fenced and broker-1 takes the partition
    const hosted = runScenario({
      version: 1,
      id: 'hosted-coordinator-on-restarted-broker',
      seed: 1,
      cluster: HOSTED_TXN_CLUSTER,
      topics: [{ name: 'orders', partitions: 1, replicationFactor: 3 }],
      clients: [
        {
          id: 'app',
          type: 'producer',
          startAt: 1000,
          config: { 'transactional.id': 'app-1' },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } },
            { op: 'commitTransaction' },
          ],
        },
      ],
      faults: [{ type: 'crash', target: 'broker-0', at: 500, durationMs: 100 }],
    });
    const all = [...Array(hosted.steps.length).keys()].map((i) => hosted.steps.at(i) as (typeof steps)[number]);
    const toCoordinator = all.filter((s) => s.actor === 'broker-0.txn-coordinator' && s.label === 'InitProducerId');
    expect(toCoordinator.length).toBeGreaterThan(3);
    expect(
      toCoordinator.every((s) => s.kind === 'lost' && s.faults[0]?.includes('broker-0.txn-coordinator is not accepting connections')),
    ).toBe(true);
    const answered = all.filter((s) => s.actor === 'app.producer' && s.label === 'InitProducerIdResponse' && s.kind === 'deliver');
    expect(answered.map((s) => s.from)).toEqual(['broker-1.txn-coordinator']);
    const verdict = summarize(hosted).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:once', 'loss:once']);
  });

  it('the rule: only a registering broker refuses, and never the controller’s records', () => {
    const registering = { replication: { registering: true } };
    expect(brokerRefusesConnections(registering, 'Produce')).toMatch(/not yet unfenced/);
    expect(brokerRefusesConnections(registering, 'FindCoordinator')).toMatch(/not yet unfenced/);
    expect(brokerRefusesConnections(registering, 'PartitionChange')).toBeNull();
    expect(brokerRefusesConnections({ replication: {} }, 'Produce')).toBeNull();
    expect(brokerRefusesConnections({}, 'Produce')).toBeNull();
  });
});
