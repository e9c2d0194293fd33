/**
 * kafka-consumer-groups.sh --describe (sim/tools/describeGroup.ts), as ConsumerGroupCommand computes
 * it: LOG-END-OFFSET is ListOffsets LATEST with the Admin client's READ_UNCOMMITTED — the high
 * watermark, whatever the group reads — and LAG counts from it; CURRENT-OFFSET is the committed offset;
 * members with the most partitions first, then committed partitions no member holds; a group the
 * coordinator does not know is Dead; an Empty or rebalancing group says so.
 */
import { describe, expect, it } from 'vitest';
import { clientMetricsAt } from '../../src/sim/metrics/clientMetrics';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { describeGroupAt, describeGroupText } from '../../src/sim/tools/describeGroup';
import { partitionHeads } from '../../src/sim/trace/logView';
import { batchJob, committedReader } from '../fixtures/batchJob';

/**
 * A read_committed reader that has read and committed a plain record, then waits behind a
 * transaction opened after it while plain records keep coming.
 */
const heldBack = {
  version: 1,
  seed: 7,
  topics: [{ name: 'events', partitions: 1 }],
  clients: [
    {
      id: 'clicks',
      type: 'producer',
      script: [
        { op: 'send', topic: 'events', key: 'c', value: 'c-0', headers: { event_id: 'evt-c0' } },
        { op: 'flush' },
        { op: 'send', topic: 'events', key: 'c', value: 'c-1', headers: { event_id: 'evt-c1' }, at: 9000 },
        { op: 'send', topic: 'events', key: 'c', value: 'c-2', headers: { event_id: 'evt-c2' }, delayMs: 100 },
        { op: 'flush' },
      ],
    },
    batchJob({ topic: 'events', beginAt: 8000, commitAt: 20000, eventId: 'evt-job-1' }),
    committedReader('events'),
  ],
};

function rowAt(trace: Trace, step: number) {
  const r = describeGroupAt(stateAt(trace, step), 'reader');
  return r.kind === 'described' ? (r.rows[0] ?? null) : null;
}

describe('kafka-consumer-groups.sh --describe', () => {
  it('a read_committed group held back by an open transaction: LAG from the high watermark, while its records-lag reads 0', () => {
    const trace = runScenario(heldBack);
    // the first step at which the tool shows the two clicks after the open transaction as lag
    let step = 0;
    for (; step <= trace.steps.length; step++) if ((rowAt(trace, step)?.lag ?? 0) === 3) break;
    expect(step).toBeLessThan(trace.steps.length);
    const view = stateAt(trace, step);
    expect(view.time).toBeLessThan(20000);
    expect(rowAt(trace, step)).toMatchObject({ topic: 'events', partition: 0, currentOffset: 1, logEndOffset: 4, lag: 3 });
    const lag = clientMetricsAt(trace, view, 'reader')?.metrics.find((m) => m.name === 'records-lag');
    expect(lag?.value).toBe(0);
    // after the commit the reader has read everything: nothing behind
    expect(rowAt(trace, trace.steps.length)).toMatchObject({ currentOffset: 5, logEndOffset: 5, lag: 0 });
  });

  it('LOG-END-OFFSET is the leader’s high watermark and LAG = LOG-END-OFFSET − CURRENT-OFFSET, at every step of a run', () => {
    const trace = runScenario(findPreset('ctp-exactly-once-crash')?.scenario ?? {});
    let rows = 0;
    for (let s = 0; s <= trace.steps.length; s += 11) {
      const view = stateAt(trace, s);
      const hw = new Map(partitionHeads(view.actors).map(({ head }) => [`${head.topic}-${head.partition}`, head.highWatermark]));
      for (const group of ['enricher', 'auditor', 'raw-reader']) {
        const r = describeGroupAt(view, group);
        if (r.kind !== 'described') continue;
        for (const row of r.rows) {
          rows++;
          expect(row.logEndOffset).toBe(hw.get(`${row.topic}-${row.partition}`));
          expect(row.lag).toBe(row.currentOffset === null || row.logEndOffset === null ? null : row.logEndOffset - row.currentOffset);
        }
      }
    }
    expect(rows).toBeGreaterThan(0);
  });

  it('before the group exists: Dead, the tool’s error; the text is the tool’s table otherwise', () => {
    const trace = runScenario(heldBack);
    expect(describeGroupText(describeGroupAt(stateAt(trace, 0), 'reader'))).toBe("Error: Consumer group 'reader' does not exist.");
    const text = describeGroupText(describeGroupAt(stateAt(trace, trace.steps.length), 'reader'));
    const [header, row] = text.split('\n');
    // printOffsetFormat: %-15s for group and topic (at least), %-10s partition, %-15s for the offsets and lag
    expect(header).toMatch(/^GROUP {11}TOPIC {11}PARTITION {2}CURRENT-OFFSET {2}LOG-END-OFFSET {2}LAG {13}CONSUMER-ID/);
    expect(row).toMatch(/^reader {10}events {10}0 {10}5 {15}5 {15}0 {15}reader-\d+/);
  });

  it('an Empty group with committed offsets: "has no active members", its partitions with "-" for the member', () => {
    const trace = runScenario(findPreset('offset-reset-replays-output')?.scenario ?? {});
    let found = false;
    for (let s = 0; s <= trace.steps.length && !found; s++) {
      const view = stateAt(trace, s);
      for (const group of trace.scenario.clients.flatMap((c) =>
        c.type === 'consumer' ? [String(trace.resolved.consumers[c.id]?.['group.id'] ?? '')] : [],
      )) {
        const r = describeGroupAt(view, group);
        if (r.kind !== 'described' || r.state !== 'Empty' || r.rows.length === 0) continue;
        found = true;
        const text = describeGroupText(r);
        expect(text.split('\n')[0]).toBe(`Consumer group '${group}' has no active members.`);
        for (const row of r.rows) expect(row).toMatchObject({ consumerId: '-', host: '-', clientId: '-' });
      }
    }
    expect(found).toBe(true);
  });

  it('the coordinator down: no answer (the tool times out)', () => {
    const trace = runScenario(findPreset('at-least-once-consumer-crash')?.scenario ?? {});
    const view = stateAt(trace, trace.steps.length);
    const processes = new Map(view.processes);
    processes.set('group-coordinator', { down: true, paused: false, incarnation: 1 });
    const group = String(trace.resolved.consumers[trace.scenario.clients.find((c) => c.type === 'consumer')?.id ?? '']?.['group.id']);
    expect(describeGroupAt({ ...view, processes }, group)).toEqual({ kind: 'unavailable', group });
  });
});
