/**
 * A consumer that passes over several batches in one poll is told once per partition and reason,
 * the batches' offsets joined into runs — not "(records of an aborted transaction)" after every
 * offset (eos-auto-commit-rebalance: the reader passes over five aborted batches at once), in English
 * and Korean; a marker on its own keeps its own clause.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';

const run = (id: string): Trace => runScenario(findPreset(id)?.scenario);

type Skip = { kind: string; consumer?: string; reason?: string; baseOffset?: number };
const skipsAt = (trace: Trace, i: number) => (trace.steps.at(i)?.facts as readonly Skip[]).filter((f) => f.kind === 'skipped');

describe('narration of skipped batches', () => {
  it('eos-auto-commit-rebalance: five aborted batches in one clause, offsets 0–4', () => {
    const trace = run('eos-auto-commit-rebalance');
    const i = trace.steps.findIndex((_, j) => skipsAt(trace, j).filter((f) => f.reason === 'aborted').length >= 5);
    expect(i).toBeGreaterThan(0);
    const en = narrate(trace, i, 'en');
    expect(en).toContain('settlements-0 offsets 0–4 (records of an aborted transaction)');
    expect(en.match(/records of an aborted transaction/g)).toHaveLength(1);
    const ko = narrate(trace, i, 'ko');
    expect(ko).toContain('settlements-0 offset 0–4 (취소된 트랜잭션의 레코드)');
    expect(ko.match(/취소된 트랜잭션의 레코드/g)).toHaveLength(1);
  });

  it('abort-hidden-from-read-committed: a marker passed over on its own is named as one', () => {
    const trace = run('abort-hidden-from-read-committed');
    const i = trace.steps.findIndex((_, j) => skipsAt(trace, j).some((f) => f.reason === 'control'));
    expect(i).toBeGreaterThan(0);
    expect(narrate(trace, i, 'en')).toMatch(/offset \d+ \(a transaction marker\)/);
  });
});
