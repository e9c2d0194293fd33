/** Engine runs the timeline tests look at: the opening story, and the same with its first ack lost. */
import { findPreset } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';

let opening: Trace | undefined;
let lostAck: Trace | undefined;

export function openingStory(): Trace {
  if (!opening) opening = runScenario(findPreset('opening-story')?.scenario);
  return opening;
}

/** opening-story with the first ProduceResponse dropped by the network. */
export function openingStoryLostAck(): Trace {
  if (!lostAck) {
    const scenario = structuredClone(findPreset('opening-story')?.scenario) as Record<string, unknown>;
    scenario.faults = [{ type: 'drop', rpc: 'ProduceResponse', nth: 1, note: 'the ack of the first send is lost' }];
    lostAck = runScenario(scenario);
  }
  return lostAck;
}

/** Index of the first step after which `pred` holds for the trace's steps so far, from the start. */
export function firstStepWhere(trace: Trace, pred: (label: string, actor: string) => boolean): number {
  const i = trace.steps.findIndex((s) => pred(s.label, s.actor));
  if (i < 0) throw new Error('no such step');
  return i;
}
