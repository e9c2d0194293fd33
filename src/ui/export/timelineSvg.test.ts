/** The SVG export: well-formed, every lane with HW/LSO, markers as glyphs, scenario text escaped. */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../sim/presets';
import { runScenario, stateAt } from '../../sim/run';
import { type PartitionRow, partitionRows } from '../../sim/trace/logView';
import { escapeXml, timelineSvg } from './timelineSvg';

function row(over: Partial<PartitionRow>): PartitionRow {
  return {
    topic: 'orders',
    partition: 0,
    leader: 'broker-0',
    internal: false,
    logStartOffset: 0,
    highWatermark: 0,
    lastStableOffset: 0,
    logEndOffset: 0,
    records: [],
    ...over,
  };
}

const record = (offset: number, over: object = {}) => ({
  offset,
  control: null,
  key: 'k',
  value: 'v',
  headers: {},
  producerId: 1000,
  producerEpoch: 0,
  sequence: offset,
  transactional: false,
  txnOutcome: null,
  baseOffset: offset,
  timestamp: 0,
  origin: null,
  ...over,
});

describe('timeline SVG export', () => {
  it('draws a preset run: one lane per partition, cells, HW', () => {
    const preset = PRESETS[0]!;
    const trace = runScenario(preset.scenario);
    const view = stateAt(trace, trace.steps.length);
    const partitions = partitionRows(view.actors).filter((p) => !p.internal);
    const svg = timelineSvg({ title: preset.title, step: view.step, steps: trace.steps.length, timeMs: view.time, partitions });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    for (const p of partitions) {
      expect(svg).toContain(`data-partition="${p.topic}-${p.partition}"`);
      expect(svg).toContain(`HW ${p.highWatermark}`);
      for (const r of p.records) expect(svg).toContain(`offset ${r.offset}:`);
    }
  });

  it('shows LSO, LEO, markers with letters, group offsets', () => {
    const svg = timelineSvg({
      title: 't',
      step: 1,
      steps: 2,
      timeMs: 3,
      partitions: [
        row({
          highWatermark: 4,
          lastStableOffset: 1,
          logEndOffset: 5,
          records: [
            record(0),
            record(1, { transactional: true, txnOutcome: 'open' }),
            record(2, { control: 'ABORT', txnOutcome: null }),
            record(3, { txnOutcome: 'aborted' }),
            record(4, { control: 'COMMIT' }),
          ],
        }),
      ],
      groups: [{ groupId: 'billing', committed: { 'orders-0': 2 } }],
    });
    expect(svg).toContain('LSO 1');
    expect(svg).toContain('LEO 5');
    expect(svg).toMatch(/>A<\/text>/);
    expect(svg).toMatch(/>C<\/text>/);
    expect(svg).toMatch(/>o<\/text>/);
    expect(svg).toContain('billing committed 2');
  });

  it('escapes text from the scenario: a key cannot become markup', () => {
    const evil = '<script>alert(1)</script>&"\'';
    const svg = timelineSvg({
      title: evil,
      step: 0,
      steps: 0,
      timeMs: 0,
      partitions: [
        row({
          topic: evil,
          logEndOffset: 1,
          highWatermark: 1,
          lastStableOffset: 1,
          records: [record(0, { key: evil, headers: { event_id: evil } })],
        }),
      ],
    });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain(escapeXml(evil));
    expect(escapeXml(evil)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&apos;');
  });

  it('cuts very long logs to the latest offsets and says so', () => {
    const svg = timelineSvg({
      title: 't',
      step: 0,
      steps: 0,
      timeMs: 0,
      maxCells: 10,
      partitions: [row({ logEndOffset: 100, highWatermark: 100, lastStableOffset: 100 })],
    });
    expect(svg).toContain('from offset 90');
    expect(svg.match(/<rect x=/g)?.length).toBe(10);
  });
});
