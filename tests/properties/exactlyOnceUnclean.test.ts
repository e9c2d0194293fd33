/**
 * exactly-once-output after an unclean leader election of an input partition: the election may cut
 * input the group had already processed and committed (its output stays), so the one thing left to
 * check is that every event in committed output was appended to an input at some time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/sim/checks/invariants';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

const file = join(import.meta.dirname, 'regressions', 'unclean-election-cuts-processed-input.json');
const trace = runScenario(JSON.parse(readFileSync(file, 'utf8')));
const facts = [...trace.steps].flatMap((s) => s.facts.map((f) => ({ step: s.i, actor: s.actor, fact: f as Fact })));
const outputOf = (t: Trace) =>
  checkInvariants(t)
    .filter((v) => v.invariant === 'exactly-once-output')
    .map((v) => v.message);

describe('exactly-once-output after an unclean election of the input', () => {
  it('the run: p0-0 is processed, c0 commits its output and offset 1, then the unclean election cuts p0-0 from in0', () => {
    const election = facts.find((f) => f.fact.kind === 'leaderChange' && f.fact.topic === 'in0');
    expect(election?.fact).toMatchObject({ leader: 'broker-1', election: 'unclean' });
    const cut = facts.find((f) => f.fact.kind === 'truncated' && f.fact.topic === 'in0');
    expect(cut?.fact).toMatchObject({ broker: 'broker-0', fromOffset: 0, toOffset: 1, eventIds: ['p0-0'], highWatermark: 1 });
    const processed = facts.find((f) => f.fact.kind === 'processed' && f.fact.app === 'c0');
    expect(processed?.step).toBeLessThan(election?.step as number);
    const commit = facts.find((f) => f.fact.kind === 'offsetsCommitted' && f.fact.groupId === 'g0');
    expect(commit?.fact).toMatchObject({ offsets: [{ topic: 'in0', partition: 0, offset: 1 }] });
    expect(commit?.step).toBeLessThan(cut?.step as number);
    // the election waits for broker-0's old session to expire (a new incarnation is refused until then)
    expect(trace.steps.at(election?.step as number)?.t).toBe(21000);
  });

  it('the output of the cut input is no violation', () => {
    expect(outputOf(trace)).toEqual([]);
  });

  it('an event in committed output that no input ever held still is', () => {
    const last = facts.filter((f) => f.actor === 'broker-1').at(-1);
    if (!last) throw new Error('broker-1 took no step');
    const invented: Fact = {
      kind: 'append',
      topic: 'out-c0',
      partition: 0,
      baseOffset: 2,
      lastOffset: 2,
      producerId: 1002,
      producerEpoch: 0,
      baseSequence: 1,
      lastSequence: 1,
      transactional: false,
      control: null,
      eventIds: ['zz'],
      origins: [null],
      leaderEpoch: 2,
    };
    const steps: TraceStep[] = [...trace.steps].map((s) => (s.i === last.step ? { ...s, facts: [...s.facts, invented] } : s));
    expect(outputOf({ ...trace, steps })).toEqual([
      'group g0: event zz is in committed output (out-c0) but was never appended to its input',
    ]);
  });
});
