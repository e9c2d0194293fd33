/**
 * An operator's offset reset through whole runs (coordinator/offsetReset.ts): refused while the
 * group's consumer is alive; after the consumer crashed and its session expired, --to-earliest makes
 * the restarted consumer process every order again — duplicates at the processing layer that no
 * producer setting could prevent, with the log holding each order once.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';
import { ordersToBilling as scenario } from './fixtures/ordersToBilling';

const layer = (verdict: ReturnType<typeof summarize>['verdict'], name: string) => verdict.layers.find((l) => l.layer === name);
const notes = (trace: ReturnType<typeof runScenario>) =>
  trace.steps.flatMap((s) =>
    s.facts.flatMap((f) => {
      const text = f.kind === 'note' ? (f as Fact & { kind: 'note' }).text : '';
      return text.startsWith('an operator ran kafka-consumer-groups') ? [text] : [];
    }),
  );

describe('kafka-consumer-groups --reset-offsets in a run', () => {
  it('while billing is a member of its group, the reset is refused and nothing is processed twice', () => {
    const trace = runScenario(scenario([{ type: 'resetOffsets', at: 5000, group: 'billing', topic: 'orders', to: 'earliest' }]));
    expect(notes(trace)).toEqual([
      'an operator ran kafka-consumer-groups --reset-offsets --to-earliest on group billing (orders); it printed "Assignments can only be reset if the group \'billing\' is inactive, but the current state is Stable." and reset nothing',
    ]);
    expect(layer(summarize(trace).verdict, 'processing')?.status).toBe('once');
  });

  /** billing crashes at `crashAt` and restarts at 60 s; its session has expired when the operator resets at 55 s. */
  const rewound = (to: 'earliest' | 'latest', crashAt: number) =>
    runScenario(
      scenario([
        { type: 'crash', target: 'billing', at: crashAt, durationMs: 60000 - crashAt },
        { type: 'resetOffsets', at: 55000, group: 'billing', topic: 'orders', to },
      ]),
    );

  it('after billing crashed and its session expired, --to-earliest makes the restarted billing process every order again', () => {
    const trace = rewound('earliest', 5000);
    expect(notes(trace)).toEqual([
      'an operator ran kafka-consumer-groups --reset-offsets --to-earliest on group billing (orders): it now starts at orders-0=0',
    ]);
    const verdict = summarize(trace).verdict;
    expect(layer(verdict, 'log')?.status).toBe('once');
    expect(layer(verdict, 'processing')).toMatchObject({ status: 'more-than-once', eventIds: ['evt-1', 'evt-2', 'evt-3'] });
    expect(layer(verdict, 'loss')?.status).toBe('once');
  });

  it('--to-latest skips what was never processed: a loss the log does not show', () => {
    const trace = rewound('latest', 1);
    expect(notes(trace)).toEqual([
      'an operator ran kafka-consumer-groups --reset-offsets --to-latest on group billing (orders): it now starts at orders-0=3',
    ]);
    const verdict = summarize(trace).verdict;
    expect(layer(verdict, 'processing')?.status).not.toBe('more-than-once');
    expect(layer(verdict, 'loss')).toMatchObject({ status: 'lost', eventIds: ['evt-1', 'evt-2', 'evt-3'] });
  });
});
