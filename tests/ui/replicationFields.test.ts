/** The actors panel's replication fields, from ReplicationRow fixtures (the engine side lands at merge). */
import { describe, expect, it } from 'vitest';
import { actorFields } from '../../src/ui/actors/fields';
import { brokerReplicaFields, controllerFields, fencedBrokersOf } from '../../src/ui/actors/replicationFields';
import { failedOver, offline } from '../timeline/replicationFixtures';

const partitions = new Map([
  ['orders-0', failedOver],
  ['orders-1', offline],
]);

describe('replication fields', () => {
  it('a broker lists each replica it holds: leader or follower, ISR, leader epoch, LEO and HW', () => {
    expect(brokerReplicaFields('broker-1', partitions, 'en')).toEqual([
      { label: 'orders-0 replica', value: 'leader · leader epoch 4 · ISR broker-1, broker-2 · LEO 7 · HW 6' },
      {
        label: 'orders-1 replica',
        value: 'no leader (offline, LEADER_NOT_AVAILABLE) · leader epoch 5 · out of ISR · LEO 7 · HW 6',
      },
    ]);
    expect(brokerReplicaFields('broker-0', partitions, 'en')[0]).toEqual({
      label: 'orders-0 replica',
      value: 'follower of broker-1 · leader epoch 4 · out of ISR · LEO 5 · HW 4',
    });
    expect(brokerReplicaFields('broker-9', partitions, 'en')).toEqual([]);
    expect(brokerReplicaFields('broker-2', partitions, 'ko')[0]?.value).toBe('broker-1의 팔로워 · leaderEpoch 4 · ISR 안 · LEO 6 · HW 6');
  });

  it('the controller lists fenced brokers and each partition leader, leader epoch, ISR and replicas', () => {
    expect(controllerFields({ fencedBrokers: ['broker-0'] }, partitions, 'en')).toEqual([
      { label: 'fenced brokers', value: 'broker-0' },
      { label: 'orders-0', value: 'leader broker-1 · leader epoch 4 · ISR broker-1, broker-2 · replicas broker-0, broker-1, broker-2' },
      {
        label: 'orders-1',
        value: 'no leader (offline, LEADER_NOT_AVAILABLE) · leader epoch 5 · ISR empty · replicas broker-0, broker-1, broker-2',
      },
    ]);
    expect(controllerFields({}, new Map(), 'en')).toEqual([{ label: 'partitions', value: 'none' }]);
    expect(controllerFields({ fenced: [] }, new Map(), 'ko')).toEqual([{ label: '펜싱된 브로커', value: '없음' }]);
  });

  it('reads the fenced brokers defensively: a list, a Set or flags; anything else is not shown', () => {
    expect(fencedBrokersOf({ fenced: new Set(['broker-2', 'broker-0']) })).toEqual(['broker-0', 'broker-2']);
    expect(fencedBrokersOf({ fencedBrokers: { 'broker-1': true, 'broker-2': false } })).toEqual(['broker-1']);
    expect(fencedBrokersOf({ fencedBrokers: ['broker-1', 7, null] })).toEqual(['broker-1']);
    expect(fencedBrokersOf({ fenced: 3 })).toBeNull();
    expect(fencedBrokersOf(null)).toBeNull();
  });

  it('actorFields adds them for brokers and the controller, and nothing without replicated partitions', () => {
    const broker = { partitions: {}, parked: [] };
    const withRepl = actorFields('broker', broker, 'en', undefined, { actorId: 'broker-2', partitions });
    expect(withRepl[0]).toEqual({ label: 'orders-0 replica', value: 'follower of broker-1 · leader epoch 4 · in ISR · LEO 6 · HW 6' });
    expect(actorFields('broker', broker, 'en', undefined, { actorId: 'broker-2', partitions: new Map() })).toEqual(
      actorFields('broker', broker, 'en'),
    );
    expect(actorFields('controller', { fencedBrokers: [] }, 'en', undefined, { actorId: 'controller', partitions })).toHaveLength(3);
    expect(actorFields('controller', undefined, 'en')).toEqual([]);
  });
});
