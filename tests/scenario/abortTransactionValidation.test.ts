/**
 * The scenario checks of an operator's transaction abort (`abortTransaction`,
 * scenario/validateAbortTransaction.ts and the schema): the topic and partition exist, startOffset
 * is a whole number ≥ 0; its description reads back into the same fault (a removal's confirmation),
 * in English and Korean; the search keeps it as workload, not as a failure it injects.
 */
import { describe, expect, it } from 'vitest';
import { describeFaultKo, parseFaultDescription } from '../../src/sim/narration/faultLabels';
import { describeFault } from '../../src/sim/scenario/build';
import type { FaultSpec } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { prepareBase } from '../../src/sim/search/runner';

const scenario = (fault: Record<string, unknown>) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 'orders', partitions: 2 }],
  clients: [{ id: 'p', type: 'producer', script: [{ op: 'send', topic: 'orders', key: 'k', value: 'v' }] }],
  faults: [fault],
});
const errors = (fault: Record<string, unknown>) => {
  const v = validateScenario(scenario(fault));
  return v.ok ? [] : v.errors.map((e) => ({ path: e.path, message: e.message, ko: e.ko }));
};
const abort = { type: 'abortTransaction', at: 100, topic: 'orders', partition: 1, startOffset: 0 };

describe('abortTransaction in a scenario', () => {
  it('is accepted when the topic and partition exist', () => {
    expect(errors(abort)).toEqual([]);
  });

  it('an unknown topic', () => {
    expect(errors({ ...abort, topic: 'nope' })).toEqual([
      { path: 'faults[0].topic', message: 'topic nope is not defined under topics', ko: '토픽 nope가 topics에 정의돼 있지 않습니다' },
    ]);
  });

  it('a partition the topic does not have', () => {
    expect(errors({ ...abort, partition: 2 })).toEqual([
      {
        path: 'faults[0].partition',
        message: 'topic orders has 2 partition(s): there is no partition 2',
        ko: '토픽 orders의 파티션은 2개입니다. 파티션 2는 없습니다',
      },
    ]);
  });

  it('a negative or missing startOffset is refused by the schema', () => {
    expect(errors({ ...abort, startOffset: -1 }).map((e) => e.path)).toEqual(['faults[0].startOffset']);
    const { startOffset: _, ...without } = abort;
    expect(errors(without).map((e) => e.path)).toEqual(['faults[0].startOffset']);
  });

  it('its description reads back into the same fault, and has a Korean one', () => {
    const f = abort as FaultSpec;
    expect(describeFault(f)).toBe('abort the transaction starting at offset 0 of orders-1 at 100 ms');
    expect(parseFaultDescription(describeFault(f))).toEqual(f);
    expect(describeFaultKo(f)).toBe('100 ms에 orders-1의 offset 0에서 시작하는 트랜잭션 중단');
  });

  it('the search keeps it as part of the workload (it is not a failure the search injects)', () => {
    const base = prepareBase(scenario(abort));
    expect(base.fixedFaults).toEqual([abort]);
  });
});
