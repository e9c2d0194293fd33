/**
 * A subscribed consumer joins its group only from its application's first poll(), as Kafka's classic
 * consumer does: ClassicKafkaConsumer.subscribe sends nothing (it asks for metadata); poll() →
 * updateAssignmentMetadataIfNeeded → ConsumerCoordinator.poll → ensureCoordinatorReady (FindCoordinator)
 * and ensureActiveGroup (JoinGroup). An exactly-once consume-transform-produce application calls
 * initTransactions() before its first poll(), so its JoinGroup goes after the InitProducerId answer.
 */
import { describe, expect, it } from 'vitest';
import { consumerMachine, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Scenario } from '../../src/sim/scenario/schema';
import { HOSTED_GROUP_CONSUMER } from '../fixtures/hostedGroup';
import { appCall, sent } from '../machines/consumerDriver';
import { drive, inputOf, sends } from '../machines/harness';
import { runWith } from '../presets/helpers';
import { run } from '../workedCases/helpers';

const scenario = () => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] }],
});

describe('a consumer joins its group from its first poll()', () => {
  it('boot sends no JoinGroup: the member stays UNJOINED until poll(), which sends it and waits', () => {
    const m = drive(consumerMachine, inputOf(scenario(), 'c.consumer'));
    const booted = m.send({ type: 'boot' }, 0);
    expect(sends(booted)).not.toContain('JoinGroup→group-coordinator');
    expect(sent(booted, 'FindCoordinator')).toBeUndefined();
    expect(membershipState(m.state())).toBe('UNJOINED');
    const polled = m.send(appCall('poll'), 1000);
    expect(sent(polled, 'JoinGroup')?.payload).toMatchObject({ groupId: 'g', memberId: '', topics: ['t'] });
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect((m.context() as { pollWaiting: string | null }).pollWaiting).toBe('c.app');
  });

  it('with the coordinator on a __consumer_offsets leader, boot sends no FindCoordinator; the first poll() does', () => {
    const m = drive(consumerMachine, inputOf(HOSTED_GROUP_CONSUMER, 'c.consumer'));
    const booted = m.send({ type: 'boot' }, 0);
    expect(sent(booted, 'FindCoordinator')).toBeUndefined();
    expect(sent(booted, 'JoinGroup')).toBeUndefined();
    const polled = m.send(appCall('poll'), 5);
    expect(sent(polled, 'FindCoordinator')?.payload).toMatchObject({ key: 'g', keyType: 'group' });
    // the JoinGroup is held for the coordinator the lookup finds
    expect(sent(polled, 'JoinGroup')).toBeUndefined();
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
  });

  it('commitSync() before the first poll() fails with CommitFailedException and sends no OffsetCommit; with nothing to commit it succeeds', () => {
    const m = drive(consumerMachine, inputOf(scenario(), 'c.consumer'));
    m.send({ type: 'boot' }, 0);
    const refused = m.send(appCall('commitSync', { offsets: [{ topic: 't', partition: 0, offset: 3 }] }), 10);
    expect(sent(refused, 'OffsetCommit')).toBeUndefined();
    expect(sent(refused, 'JoinGroup')).toBeUndefined();
    const reply = refused.find((e) => e.type === 'call' && e.name === 'reply') as { args: Record<string, unknown> } | undefined;
    expect(reply?.args).toMatchObject({ call: 'commitSync', ok: false, error: 'CommitFailedException' });
    expect(membershipState(m.state())).toBe('UNJOINED');
    const empty = m.send(appCall('commitSync', { offsets: [] }), 20);
    const ok = empty.find((e) => e.type === 'call' && e.name === 'reply') as { args: Record<string, unknown> } | undefined;
    expect(ok?.args).toMatchObject({ call: 'commitSync', ok: true });
  });

  it('a consumer without group.id takes its partitions at boot (assign()), no poll() needed', () => {
    const s = scenario();
    const input = inputOf({ ...s, clients: [{ ...s.clients[0], config: { 'auto.offset.reset': 'earliest' } }] }, 'c.consumer');
    const m = drive(consumerMachine, input);
    const booted = m.send({ type: 'boot' }, 0);
    expect(membershipState(m.state())).toBe('USER_ASSIGNED');
    expect(sent(booted, 'JoinGroup')).toBeUndefined();
  });
});

describe('an exactly-once application joins after initTransactions() returns', () => {
  const eos = {
    version: 1,
    id: 'join-after-init-transactions',
    seed: 1,
    cluster: { 'group.initial.rebalance.delay.ms': 0 },
    topics: [{ name: 'in' }, { name: 'out' }],
    clients: [
      { id: 'src', type: 'producer', script: [{ op: 'send', topic: 'in', key: 'k', value: 'v' }, { op: 'flush' }] },
      {
        id: 'app',
        type: 'consumer',
        config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false, 'isolation.level': 'read_committed' },
        topics: ['in'],
        processing: { mode: 'exactly-once', outputTopic: 'out' },
      },
    ],
  } as unknown as Scenario;

  it('its JoinGroup goes once the InitProducerId answer is in, not at boot', () => {
    const r = runWith(eos);
    const of = (rpc: string) => r.trace.envelopes.filter((e) => e.rpc === rpc);
    const init = of('InitProducerId').filter((e) => e.from === 'app.producer');
    const initAnswer = of('InitProducerIdResponse').filter((e) => e.to === 'app.producer');
    // a new member's first JoinGroup (no member id; the second carries the id MEMBER_ID_REQUIRED gave)
    const joins = of('JoinGroup').filter((e) => e.from === 'app.consumer' && (e.payload as { memberId: string }).memberId === '');
    expect(init.length).toBe(1);
    expect(joins.length).toBe(1);
    expect(joins[0]?.sentAt).toBeGreaterThan(init[0]?.sentAt as number);
    expect(joins[0]?.sentAt).toBeGreaterThanOrEqual(initAnswer[0]?.deliverAt as number);
    expect(
      r
        .facts('processed')
        .filter((f) => f.app === 'app')
        .map((f) => f.key),
    ).toEqual(['k']);
  });

  it('ctp-restart-before-last-marker: the restarted member’s JoinGroup goes after its initTransactions() returns (~8 s of CONCURRENT_TRANSACTIONS)', () => {
    const r = run('ctp-restart-before-last-marker.json');
    const initAnswers = r.rpcs('InitProducerIdResponse').filter((e) => e.to === 'c1.producer');
    const granted = initAnswers.filter((e) => (e.payload as { error: string }).error === 'NONE');
    expect(granted.length).toBe(2);
    const joins = r.rpcs('JoinGroup').filter((e) => e.from === 'c1.consumer' && (e.payload as { memberId: string }).memberId === '');
    expect(joins.length).toBe(2);
    // the first instance joins after its first InitProducerId answer; the restarted one after its last
    expect(joins[0]?.sentAt).toBeGreaterThanOrEqual(granted[0]?.deliverAt as number);
    expect(joins[1]?.sentAt).toBeGreaterThanOrEqual(granted[1]?.deliverAt as number);
    const busy = initAnswers.filter((e) => (e.payload as { error: string }).error === 'CONCURRENT_TRANSACTIONS');
    expect(busy.length).toBeGreaterThanOrEqual(20);
    expect(joins[1]?.sentAt).toBeGreaterThan(busy.at(-1)?.deliverAt as number);
    expect(joins[1]?.sentAt).toBe(8074);
  });
});
