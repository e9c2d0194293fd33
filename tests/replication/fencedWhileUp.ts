/**
 * A broker fenced while it is up: broker-0 leads `a` (RF 3) and loses its BrokerHeartbeats from the
 * third on, so the controller fences it at 11,001 ms and elects broker-1; its heartbeats come back and
 * it is unfenced at 20,001 ms. p sends e1, then e2 20 s later; c1 reads `a`.
 */
import type { Scenario } from '../../src/sim/scenario/schema';

export const fencedWhileUp = {
  version: 1,
  id: 'fenced-while-up',
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 'a', partitions: 1, replicationFactor: 3 }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      script: [
        { op: 'send', topic: 'a', key: 'k', value: '1', headers: { event_id: 'e1' } },
        { op: 'sleep', ms: 20000 },
        { op: 'send', topic: 'a', key: 'k', value: '2', headers: { event_id: 'e2' } },
      ],
    },
    {
      id: 'c1',
      type: 'consumer',
      config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' },
      topics: ['a'],
      processing: { mode: 'at-least-once' },
    },
  ],
  faults: [{ type: 'drop', rpc: 'BrokerHeartbeat', from: 'broker-0', nth: 3, count: 8 }],
} as unknown as Scenario;
