/**
 * The groups as `kafka-consumer-groups.sh --describe` prints them: LOG-END-OFFSET is what the tool
 * reads with ListOffsets(latest) at the admin client's default read_uncommitted — the partition's
 * high watermark, not the leader's log end offset — and LAG is that minus CURRENT-OFFSET. A record
 * left above the high watermark (min.insync.replicas=2 with one replica left) is in neither.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { describeGroups } from '../../src/sim/trace/dumpLog';
import { summarize } from '../../src/sim/trace/summary';

describe('the groups table', () => {
  it('LOG-END-OFFSET is the high watermark: 2 with a record at offset 2 above it, LAG 0 for a reader at 2', () => {
    const base = findPreset('min-insync-blocks-writes')?.scenario as Scenario;
    const reader = {
      id: 'reader',
      type: 'consumer' as const,
      config: { 'group.id': 'reader', 'auto.offset.reset': 'earliest' as const },
      topics: ['orders'],
      processing: { mode: 'at-least-once' as const },
    };
    const summary = summarize(runScenario({ ...base, clients: [...base.clients.filter((c) => c.id !== reader.id), reader] }));
    const orders = summary.partitions.find((p) => p.topic === 'orders');
    expect([orders?.highWatermark, orders?.logEndOffset]).toEqual([2, 3]);
    const rows = describeGroups(summary)
      .split('\n')
      .map((line) => line.trim().split(/\s+/));
    expect(rows[0]).toEqual(['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'STATE', 'GENERATION']);
    expect(rows.find((r) => r[0] === 'reader')?.slice(0, 6)).toEqual(['reader', 'orders', '0', '2', '2', '0']);
  });
});
