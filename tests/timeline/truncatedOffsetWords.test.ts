/**
 * A truncation of one offset says "offset 1", not "offsets 1–1" (in the replica details and the lanes'
 * text alternative), several "offsets 1–2"; Korean "offset 1", "offset 1–2".
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { offsetsCut, replicationSummary } from '../../src/ui/timeline/replicaText';

describe('wording', () => {
  it('one truncated offset is "offset 1", several "offsets 1–2"', () => {
    expect(offsetsCut('en', { fromOffset: 1, toOffset: 2 })).toBe('offset 1');
    expect(offsetsCut('en', { fromOffset: 1, toOffset: 3 })).toBe('offsets 1–2');
    expect(offsetsCut('ko', { fromOffset: 1, toOffset: 2 })).toBe('offset 1');
    expect(offsetsCut('ko', { fromOffset: 1, toOffset: 3 })).toBe('offset 1–2');
    // acks-1-leader-failover-loss: broker-0 cut e2 alone, at offset 1
    const trace = runScenario(PRESETS.find((p) => p.id === 'acks-1-leader-failover-loss')?.scenario);
    const s = summarize(trace);
    const row = s.partitions?.find((p) => p.topic === 'orders');
    if (!row?.replication) throw new Error('no replication row');
    const alt = replicationSummary(row.replication).join(' ');
    expect(alt).toContain('broker-0 truncated offset 1 by leader epoch 1');
    expect(alt).not.toContain('1–1');
  });
});
