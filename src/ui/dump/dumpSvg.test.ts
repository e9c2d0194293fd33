// @vitest-environment happy-dom
/**
 * The SVG export: well-formed, every lane with HW/LSO, markers as glyphs, scenario text escaped,
 * and no character XML 1.0 forbids (a control character in a key would make every parser reject it).
 */
import { describe, expect, it } from 'vitest';
import { PRESETS, runScenario, stateAt } from '../../sim';
import { keyOf, type PartitionRow, partitionRows } from '../../sim/views';
import { escapeXml, timelineSvg } from './dumpSvg';

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
      expect(svg).toContain(`data-partition="${keyOf(p)}"`);
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

  it('replaces the characters XML 1.0 forbids, so an XML parser accepts the file', () => {
    const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');
    const nasty = `a${controls}\u007f\u0085\ufffe\uffff\ud800z\udc00b<&>`;
    const svg = timelineSvg({
      title: nasty,
      step: 0,
      steps: 0,
      timeMs: 0,
      partitions: [
        row({
          topic: 'orders',
          logEndOffset: 1,
          highWatermark: 1,
          lastStableOffset: 1,
          records: [record(0, { key: nasty, headers: { event_id: nasty } })],
        }),
      ],
      groups: [{ groupId: nasty, committed: { 'orders-0': 1 } }],
    });
    // XML 1.0's Char production: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF
    const forbidden = [...svg].filter((ch) => {
      const c = ch.codePointAt(0) as number;
      const ok = c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
      return !ok;
    });
    expect(forbidden.map((ch) => ch.codePointAt(0)?.toString(16))).toEqual([]);
    expect(svg).toContain('a\ufffd\ufffd');
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror').length).toBe(0);
    expect(doc.querySelector('title')?.textContent).toContain('<&>');
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
