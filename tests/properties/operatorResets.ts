/**
 * Operators' offset resets on random scenarios (family `operator-resets`): transactional producers
 * and consumers in every processing mode under 0–3 faults, plus one or two
 * `kafka-consumer-groups --reset-offsets` of a consumer's group at random times, to the earliest or
 * latest offset, to an offset or shifted — sometimes after that consumer was stopped for longer than
 * its session (so the group is Empty and the reset applies), sometimes while it runs (refused).
 * Every invariant must hold: a reset moves committed offsets back and makes an exactly-once
 * pipeline process again on purpose, which the invariants allow; nothing else may change.
 */
import fc from 'fast-check';
import type { FaultSpec, Scenario } from '../../src/sim/scenario/schema';
import { scenarioArbWith } from './arbitraries';

const base = scenarioArbWith({ transactional: true, consumers: { min: 1, max: 2 }, faults: { min: 0, max: 3 }, maxTimeMs: 90000 });

const resetArb = fc.record({
  consumer: fc.nat(),
  at: fc.integer({ min: 0, max: 70000 }),
  target: fc.oneof(
    fc.constantFrom<'earliest' | 'latest'>('earliest', 'latest').map((to) => ({ to })),
    fc.integer({ min: 0, max: 6 }).map((to) => ({ to })),
    fc.integer({ min: -4, max: 4 }).map((shiftBy) => ({ shiftBy })),
  ),
  /** Stop the consumer first, past its session, and start it again after the reset. */
  stopFirst: fc.boolean(),
});

export const operatorResetsArb: fc.Arbitrary<Scenario> = fc
  .record({ scenario: base, resets: fc.array(resetArb, { minLength: 1, maxLength: 2 }) })
  .map(({ scenario, resets }) => {
    const consumers = scenario.clients.filter((c) => c.type === 'consumer');
    const faults: FaultSpec[] = [...(scenario.faults ?? [])];
    for (const r of resets) {
      const c = consumers[r.consumer % consumers.length];
      if (!c || c.type !== 'consumer') continue;
      const group = (c.config?.['group.id'] as string | undefined) ?? null;
      const topic = c.topics[0];
      if (!group || !topic) continue;
      if (r.stopFirst) {
        const session = Number(c.config?.['session.timeout.ms'] ?? 45000);
        const stopAt = Math.max(0, r.at - session - 2000);
        faults.push({ type: 'crash', target: c.id, at: stopAt, durationMs: r.at + 1000 - stopAt });
      }
      faults.push({ type: 'resetOffsets', at: r.at, group, topic, ...r.target });
    }
    return { ...scenario, faults };
  });
