/**
 * What the reader had selected survives an injection when it still means the same thing: the edit's
 * run is forked at the step shown, and every step before it is the old run's (trace/fork.ts). So a
 * process, a step before the fork, a message sent before it and a record stay selected; a step or a
 * message from after the fork (which the new run may not have, or has differently) is cleared.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { injectProcessFault } from '../src/sim';
import { findPreset } from '../src/sim/presets';
import { type Selection, simStore } from '../src/store/simStore';

const AT = 40;

/** opening-story at step AT, `selection` picked, then orders-service crashed there (as the Inject panel does). */
function injectWith(selection: Selection): Selection | null {
  const s = simStore.getState();
  s.select(selection);
  const { scenario, trace, step, view } = simStore.getState();
  if (!scenario || !trace || !view) throw new Error('no run');
  const outcome = injectProcessFault(scenario, { trace, step, view, process: 'orders-service', action: { type: 'crash' } });
  if (!outcome.ok) throw new Error(outcome.reason);
  const before = trace;
  simStore.getState().fork(() => outcome.scenario);
  expect(simStore.getState().trace).not.toBe(before);
  expect(simStore.getState().step).toBe(AT);
  return simStore.getState().selection;
}

describe('the selection after an injection', () => {
  beforeEach(() => {
    const preset = findPreset('opening-story');
    if (!preset) throw new Error('no preset');
    simStore.getState().load(preset.scenario);
    simStore.getState().seek(AT);
  });

  it('keeps a step before the fork, clears one at or after it', () => {
    expect(injectWith({ kind: 'step', index: AT - 1 })).toEqual({ kind: 'step', index: AT - 1 });
    simStore.getState().seek(AT);
    expect(injectWith({ kind: 'step', index: AT + 5 })).toBeNull();
  });

  it('keeps a message sent before the fork (same id in the new run), clears one sent after it', () => {
    const trace = simStore.getState().trace;
    if (!trace) throw new Error('no trace');
    const ids = Array.from({ length: trace.envelopes.length }, (_, id) => trace.envelopes.at(id)).filter((e) => e !== undefined);
    const early = ids.find((e) => e.sentStep < AT);
    const late = ids.find((e) => e.sentStep >= AT);
    if (!early || !late) throw new Error('the preset has no message on one side of the fork');
    const kept = injectWith({ kind: 'envelope', id: early.id });
    expect(kept).toEqual({ kind: 'envelope', id: early.id });
    const after = simStore.getState().trace?.envelopes.at(early.id);
    expect([after?.rpc, after?.from, after?.to, after?.sentStep]).toEqual([early.rpc, early.from, early.to, early.sentStep]);
    simStore.getState().seek(AT);
    expect(injectWith({ kind: 'envelope', id: late.id })).toBeNull();
  });

  it('keeps a record and a process', () => {
    expect(injectWith({ kind: 'record', topic: 'orders', partition: 0, offset: 0 })).toEqual({
      kind: 'record',
      topic: 'orders',
      partition: 0,
      offset: 0,
    });
    simStore.getState().seek(AT);
    expect(injectWith({ kind: 'actor', id: 'orders-service' })).toEqual({ kind: 'actor', id: 'orders-service' });
  });
});
