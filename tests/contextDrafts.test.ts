/**
 * The handlers' drafts written out field by field (producerDraft, consumerDraft, appDraft,
 * producerAppDraft, and the broker's withParked) copy a
 * context exactly as a spread does: the same keys, in the same order, with the same values — on the
 * contexts every preset's producers, consumers and consumer applications go through. A field added
 * to a context and not to its draft fails here.
 */

import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { consumerAppMachine } from '../src/sim/application/consumerApp.machine';
import { appDraft } from '../src/sim/application/consumerAppContext';
import { producerAppDraft, producerAppMachine } from '../src/sim/application/producerApp.machine';
import { type BrokerContext, brokerMachine } from '../src/sim/broker/broker.machine';
import { withParked } from '../src/sim/broker/consumerFetch';
import { consumerMachine } from '../src/sim/consumer/consumer.machine';
import { consumerDraft } from '../src/sim/consumer/consumerContext';
import { Simulation } from '../src/sim/kernel/simulation';
import { PRESETS } from '../src/sim/presets';
import { producerMachine } from '../src/sim/producer/producer.machine';
import { producerDraft } from '../src/sim/producer/producerContext';
import { buildScenario } from '../src/sim/scenario/build';
import { validateScenario } from '../src/sim/scenario/validate';

type Draft = (c: never) => object;
const drafts = new Map<AnyStateMachine, { name: string; draft: Draft; spread: (c: object) => object }>([
  [
    producerMachine as AnyStateMachine,
    { name: 'producerDraft', draft: producerDraft as Draft, spread: (c) => ({ ...c, txnSignal: 'none' }) },
  ],
  [consumerMachine as AnyStateMachine, { name: 'consumerDraft', draft: consumerDraft as Draft, spread: (c) => ({ ...c }) }],
  [consumerAppMachine as AnyStateMachine, { name: 'appDraft', draft: appDraft as Draft, spread: (c) => ({ ...c }) }],
  [
    brokerMachine as AnyStateMachine,
    {
      name: 'withParked',
      draft: ((c: BrokerContext) => withParked(c, [], c.nextParkId + 1)) as Draft,
      spread: (c) => ({ ...c, parked: [], nextParkId: (c as BrokerContext).nextParkId + 1 }),
    },
  ],
  [producerAppMachine as AnyStateMachine, { name: 'producerAppDraft', draft: producerAppDraft as Draft, spread: (c) => ({ ...c }) }],
]);

describe('context drafts', () => {
  it('copy every context of every preset as a spread does: same keys, same order, same values', () => {
    const checked = new Map<string, number>();
    for (const preset of PRESETS) {
      const v = validateScenario(preset.scenario);
      if (!v.ok) throw new Error(`${preset.id}: invalid`);
      const built = buildScenario(v.resolved);
      const sim = Simulation.create(built.specs, { ...built.options, record: false });
      const watched = built.specs.filter((s) => drafts.has(s.logic));
      const check = (): void => {
        const snapshots = sim.actorSnapshots();
        for (const spec of watched) {
          const d = drafts.get(spec.logic);
          const context = snapshots.get(spec.id)?.context as object | undefined;
          if (!d || !context) continue;
          const copy = d.draft(context as never);
          const spread = d.spread(context);
          expect(copy, `${preset.id} ${spec.id}`).not.toBe(context);
          expect(Object.keys(copy), `${preset.id} ${spec.id} at step ${sim.stepIndex}`).toEqual(Object.keys(spread));
          for (const key of Object.keys(spread)) {
            // (the broker's new held-fetch list is a fresh [] in both: equal, not the same)
            if (key === 'parked') expect((copy as BrokerContext).parked).toEqual([]);
            else expect((copy as Record<string, unknown>)[key]).toBe((spread as Record<string, unknown>)[key]);
          }
          checked.set(d.name, (checked.get(d.name) ?? 0) + 1);
        }
      };
      check();
      // every 25th step of the first 2,000: the contexts as they change, not only the first and last
      while (sim.stepIndex < 2000 && !sim.done) {
        sim.run(sim.stepIndex + 25);
        check();
      }
    }
    expect([...checked.keys()].sort()).toEqual(['appDraft', 'consumerDraft', 'producerAppDraft', 'producerDraft', 'withParked']);
  });
});
