/**
 * skips-only-aborted-or-markers when an offset has a version per replica: a leader paused past its
 * session appends its queued batch at its own log end after the new leader wrote a marker at the same
 * offset. A consumer of the new leader skips the marker; the skip fact does not name the replica, so
 * the check accepts it when one version of the offset justifies it (as a delivery is matched by its
 * event_id), and still reports a skip that no version justifies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/sim/checks/invariants';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

const file = join(import.meta.dirname, 'regressions', 'deposed-append-below-new-leader-marker.json');
const trace = runScenario(JSON.parse(readFileSync(file, 'utf8')));
const facts = [...trace.steps].flatMap((s) => s.facts.map((f) => ({ step: s.i, actor: s.actor, fact: f as Fact })));
const skipsOf = (t: Trace) =>
  checkInvariants(t)
    .filter((v) => v.invariant === 'skips-only-aborted-or-markers')
    .map((v) => v.message);
const at2 = (f: Fact) => f.kind === 'append' && f.topic === 'in0' && f.baseOffset === 2;
const skip = facts.find((f) => f.fact.kind === 'skipped' && f.fact.baseOffset === 2);

/** The trace with one more skip by c0 of in0-0@`offset` as `reason`, at the step of its real skip of offset 2. */
function withSkip(offset: number, reason: 'control' | 'aborted'): Trace {
  const extra: Fact = { kind: 'skipped', consumer: 'c0', topic: 'in0', partition: 0, baseOffset: offset, lastOffset: offset, reason };
  const steps: TraceStep[] = [...trace.steps].map((s) => (s.i === skip?.step ? { ...s, facts: [...s.facts, extra] } : s));
  return {
    ...trace,
    scenario: trace.scenario,
    resolved: trace.resolved,
    checkpoints: trace.checkpoints,
    envelopes: trace.envelopes,
    steps,
  };
}

describe('a skip of an offset written by two leaders', () => {
  it('the run: broker-1 (epoch 1) writes ABORT at in0-0@2, deposed broker-0 then appends p0-0 there (epoch 0) and truncates it; c0 skips offset 2 as control', () => {
    const writes = facts.filter((f) => at2(f.fact));
    expect(
      writes.map((f) => [f.actor, (f.fact as { control: unknown }).control, (f.fact as { leaderEpoch?: number }).leaderEpoch]),
    ).toEqual([
      ['broker-1', 'ABORT', 1],
      ['broker-0', null, 0],
    ]);
    const cut = facts.find((f) => f.fact.kind === 'truncated' && f.fact.topic === 'in0');
    expect(cut?.fact).toMatchObject({ broker: 'broker-0', fromOffset: 2, eventIds: ['p0-0', 'p0-1'] });
    expect(skip?.actor).toBe('c0.consumer');
    expect(skip?.fact).toMatchObject({ reason: 'control', lastOffset: 2 });
    expect(skip?.step).toBeGreaterThan(cut?.step as number);
  });

  it('the skip of the new leader’s marker is no violation', () => {
    expect(skipsOf(trace)).toEqual([]);
  });

  it('a skip that no version of the offset justifies still is: committed data at 0, data of an open transaction at 3', () => {
    expect(skipsOf(withSkip(0, 'control'))).toEqual(['c0 skipped in0-0@0 as control, but it is a record whose transaction was committed']);
    expect(skipsOf(withSkip(3, 'control'))).toEqual(['c0 skipped in0-0@3 as control, but it is a record whose transaction was open']);
    expect(skipsOf(withSkip(2, 'aborted'))).toEqual(['c0 skipped in0-0@2 as aborted, but it is a record whose transaction was open']);
  });
});
