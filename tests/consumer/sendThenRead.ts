/**
 * A whole run for a consumer's reset: orders-service sends one record (e1) to orders; reader (group
 * g, auto.offset.reset=earliest, no committed offset) reads it — on the cluster, topic and faults given.
 */
import type { Scenario } from '../../src/sim/scenario/schema';

export function sendThenRead(brokers: number, topic: Record<string, unknown>, faults: unknown[] = []): Scenario {
  return {
    version: 1,
    seed: 1,
    cluster: { brokers },
    topics: [{ name: 'orders', ...topic }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        script: [{ op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } }],
      },
      {
        id: 'reader',
        type: 'consumer',
        config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' },
        topics: ['orders'],
        processing: { mode: 'at-least-once' },
      },
    ],
    faults,
  } as Scenario;
}
