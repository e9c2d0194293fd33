/**
 * Scenarios that test the page's budgets (tests/budget.test.ts, e2e/budget.test.ts, the bench):
 * issue 13's heavy link and a long run.
 */
import type { Scenario } from '../src/sim/scenario/schema';

/** The heavy link: 16 topics × 64 partitions read by 15 consumers. */
export function heavyScenario(): Scenario {
  const topics = Array.from({ length: 16 }, (_, i) => ({ name: `t${i}`, partitions: 64 }));
  return {
    version: 1,
    seed: 1,
    topics,
    clients: [
      { id: 'p', type: 'producer', script: [{ op: 'send', topic: 't0', key: 'k{i}', value: 'v', count: 1000 }] },
      ...Array.from({ length: 15 }, (_, i) => ({
        id: `c${i}`,
        type: 'consumer' as const,
        config: { 'group.id': 'g' },
        topics: topics.map((t) => t.name),
      })),
    ],
  } as Scenario;
}

/** A long run: one producer sending many records. */
export function longScenario(records: number): Scenario {
  return {
    version: 1,
    seed: 7,
    topics: [{ name: 'in', partitions: 1 }],
    clients: [{ id: 'p', type: 'producer', script: [{ op: 'send', topic: 'in', key: 'k{i}', value: 'v', count: records }] }],
  } as Scenario;
}
