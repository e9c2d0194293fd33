/**
 * The compiled runner (src/sim/kernel/compiledMachine.ts) and XState's interpreter run every actor
 * to the same steps: every preset and random scenarios give one traceHash with either. A machine the
 * compiled runner cannot run (history or final states, delays …) runs with XState instead, so
 * the property holds for it too. Since the compiled runner learnt compound and parallel states, every
 * machine of the model compiles (tests/compiledMachine.test.ts compares the two feature by feature).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { consumerAppMachine } from '../../src/sim/application/consumerApp.machine';
import { producerAppMachine } from '../../src/sim/application/producerApp.machine';
import { brokerMachine } from '../../src/sim/broker/broker.machine';
import { consumerMachine } from '../../src/sim/consumer/consumer.machine';
import { groupCoordinatorMachine } from '../../src/sim/coordinator/groupCoordinator.machine';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { startActor } from '../../src/sim/kernel/actorDriver';
import { CompiledActor, compile } from '../../src/sim/kernel/compiledMachine';
import { PRESETS } from '../../src/sim/presets';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import { databaseMachine } from '../../src/sim/sinks/database.machine';
import { httpApiMachine } from '../../src/sim/sinks/httpApi.machine';
import { outboxRelayMachine } from '../../src/sim/sinks/outboxRelay.machine';
import { streamThreadMachine } from '../../src/sim/streams/streamThread.machine';
import { scenarioArb } from './arbitraries';
import { cases, PROPERTY_SEED } from './modelProperty';
import { hashWith } from './runnerHash';

describe('compiled runner and XState', () => {
  it.each(PRESETS.map((p) => [p.id, p.scenario] as const))('preset %s: one traceHash with either runner', (_id, scenario) => {
    expect(hashWith(scenario, 'compiled')).toBe(hashWith(scenario, 'xstate'));
  });

  it('random scenarios: one traceHash with either runner', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => hashWith(scenario, 'compiled') === hashWith(scenario, 'xstate')),
      { numRuns: cases(30), seed: PROPERTY_SEED + 13 },
    );
  }, 600000);

  it('every machine of the model compiles; a machine using what the compiled runner does not do runs with XState', () => {
    const machines = [
      brokerMachine,
      consumerAppMachine,
      consumerMachine,
      databaseMachine,
      groupCoordinatorMachine,
      httpApiMachine,
      outboxRelayMachine,
      producerAppMachine,
      producerMachine,
      streamThreadMachine,
      transactionCoordinatorMachine,
    ];
    for (const m of machines) expect(compile(m), m.id).not.toBeNull();
    const withHistory = createMachine({ initial: 'a', states: { a: { initial: 'x', states: { x: {}, h: { type: 'history' } } } } });
    const parallel = createMachine({ type: 'parallel', states: { a: {}, b: {} } });
    expect(compile(withHistory)).toBeNull();
    const spec = { id: 'x.app', kind: 'test', logic: withHistory, input: {} };
    expect(startActor(spec, undefined, 'compiled', () => {})).not.toBeInstanceOf(CompiledActor);
    expect(startActor({ ...spec, logic: parallel }, undefined, 'compiled', () => {})).toBeInstanceOf(CompiledActor);
  });
});
