/**
 * The "slow replication link" injection writes exactly the scenario fault the engine reads
 * ({ type: 'slowReplication', target: 'broker-N', at, durationMs?, delayMs }) at the next millisecond,
 * refuses a process that is not a broker and bad numbers, and hands the edited scenario to the
 * engine's validation.
 */
import { describe, expect, it } from 'vitest';
import type { Scenario, validateScenario } from '../../src/sim';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { injectSlowReplication, slowReplicationEdit } from '../../src/ui/inject/slowReplication';
import { processKindNames } from '../../src/ui/processKinds';

const scenario = findPreset('opening-story')?.scenario as Scenario;
const trace = runScenario(scenario);
const step = Math.floor(trace.steps.length / 2);
const t = trace.steps.at(step - 1)?.t ?? -1;

describe('slow replication link', () => {
  it('appends the slowReplication fault for the broker at the next millisecond, leaving the scenario as it was', () => {
    const before = JSON.stringify(scenario);
    const edit = slowReplicationEdit(scenario, { trace, step }, { broker: 'broker-0', delayMs: 2500, durationMs: 30000 });
    if (!edit.ok) throw new Error(edit.reason);
    const { note, ...fault } = edit.fault;
    expect(fault).toEqual({ type: 'slowReplication', target: 'broker-0', at: t + 1, durationMs: 30000, delayMs: 2500 });
    expect(note).toBe(`slow replication link to broker-0: each replica fetch 2500 ms late for 30000 ms (injected at step ${step})`);
    expect(edit.scenario.faults?.at(-1)).toEqual(edit.fault);
    expect(edit.scenario.faults?.length).toBe((scenario.faults?.length ?? 0) + 1);
    expect(JSON.stringify(scenario)).toBe(before);
  });

  it('without a duration lasts to the end of the run (no durationMs); at step 0 starts at time 0', () => {
    const edit = slowReplicationEdit(scenario, { trace, step: 0 }, { broker: 'broker-0', delayMs: 100 });
    if (!edit.ok) throw new Error(edit.reason);
    expect(edit.fault.at).toBe(0);
    expect('durationMs' in edit.fault).toBe(false);
  });

  it('refuses a process that is not a broker, and delays that are not whole milliseconds in range', () => {
    const client = trace.built.processes.find((p) => p.kind !== 'broker')?.id ?? '';
    expect(slowReplicationEdit(scenario, { trace, step }, { broker: client, delayMs: 10 })).toMatchObject({
      ok: false,
      code: 'unknown-process',
    });
    expect(slowReplicationEdit(scenario, { trace, step }, { broker: 'broker-77', delayMs: 10 })).toMatchObject({
      ok: false,
      code: 'unknown-process',
    });
    for (const [delayMs, durationMs] of [
      [0, undefined],
      [1.5, undefined],
      [Number.NaN, undefined],
      [10, 0],
      [10, 86400001],
    ])
      expect(slowReplicationEdit(scenario, { trace, step }, { broker: 'broker-0', delayMs: delayMs as number, durationMs })).toMatchObject({
        ok: false,
        code: 'bad-number',
      });
  });

  it('is validated by the engine: its scenario and note when valid, the errors as an "invalid" refusal when not', () => {
    let seen: unknown = null;
    const accept = ((s: Scenario) => {
      seen = s;
      return { ok: true, resolved: { scenario: s } };
    }) as unknown as typeof validateScenario;
    const ok = injectSlowReplication(scenario, { trace, step, broker: 'broker-0', delayMs: 50 }, accept);
    expect(ok.ok && ok.note).toBe(`slow replication link to broker-0: each replica fetch 50 ms late (injected at step ${step})`);
    expect((seen as Scenario).faults?.at(-1)).toMatchObject({ type: 'slowReplication', target: 'broker-0', delayMs: 50 });
    const reject = (() => ({ ok: false, errors: [{ path: 'faults.0.type', message: 'unknown' }] })) as unknown as typeof validateScenario;
    expect(injectSlowReplication(scenario, { trace, step, broker: 'broker-0', delayMs: 50 }, reject)).toEqual({
      ok: false,
      code: 'invalid',
      reason: 'faults.0.type: unknown',
    });
  });

  it('brokers are processes of kind broker, named as brokers in both languages', () => {
    const brokers = trace.built.processes.filter((p) => p.kind === 'broker').map((p) => p.id);
    expect(brokers.length).toBeGreaterThan(0);
    expect(brokers.every((id) => /^broker-\d+$/.test(id))).toBe(true);
    expect(processKindNames('en').broker).toBe('broker');
    expect(processKindNames('ko').broker).toBe('브로커');
    expect(processKindNames('en').controller).toBe('KRaft controller');
  });
});
