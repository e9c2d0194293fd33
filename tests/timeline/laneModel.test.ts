import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import { partitionRows, type RecordRow } from '../../src/sim/trace/logView';
import { CellKind, cellKindOf } from '../../src/ui/timeline/cellKind';
import { cellLabel, duplicateCounts, fitLabel } from '../../src/ui/timeline/cellLabels';
import { buildLane, buildLanes, collectPointers } from '../../src/ui/timeline/laneModel';
import { laneNameLines, shortLaneName } from '../../src/ui/timeline/laneName';
import { laneSummary } from '../../src/ui/timeline/laneSummary';
import { openingStory } from './fixtures';

function lanesAt(step: number) {
  const view = stateAt(openingStory(), step);
  return buildLanes(partitionRows(view.actors), collectPointers(view.actors));
}

describe('lane model', () => {
  it('gives each record a cell kind by control type and transaction outcome', () => {
    expect(cellKindOf({ control: null, txnOutcome: null })).toBe(CellKind.plain);
    expect(cellKindOf({ control: null, txnOutcome: 'committed' })).toBe(CellKind.committed);
    expect(cellKindOf({ control: null, txnOutcome: 'open' })).toBe(CellKind.open);
    expect(cellKindOf({ control: null, txnOutcome: 'aborted' })).toBe(CellKind.aborted);
    expect(cellKindOf({ control: 'COMMIT', txnOutcome: null })).toBe(CellKind.commitMarker);
    expect(cellKindOf({ control: 'ABORT', txnOutcome: null })).toBe(CellKind.abortMarker);
  });

  it('shows orders-0 with offsets 100 and 101 at the end of opening-story, user topics first', () => {
    const lanes = lanesAt(openingStory().steps.length);
    expect(lanes[0]?.key).toBe('orders-0');
    expect(lanes.slice(1).every((l) => l.internal)).toBe(true);
    const orders = lanes[0];
    expect(Array.from(orders?.offsets ?? [])).toEqual([100, 101]);
    expect(Array.from(orders?.kinds ?? [])).toEqual([CellKind.plain, CellKind.plain]);
    expect([orders?.highWatermark, orders?.lastStableOffset, orders?.logEndOffset]).toEqual([102, 102, 102]);
  });

  it('shows no record before the step that appended it (the view is the source of truth)', () => {
    const trace = openingStory();
    const append = trace.steps.findIndex((s) => s.actor === 'broker-0' && s.label === 'Produce');
    expect(append).toBeGreaterThan(0);
    expect(lanesAt(append)[0]?.offsets.length).toBe(0);
    expect(Array.from(lanesAt(append + 1)[0]?.offsets ?? [])).toEqual([100]);
  });

  it("collects the consumer's position and the group's committed offset as pointers", () => {
    const view = stateAt(openingStory(), openingStory().steps.length);
    const pointers = collectPointers(view.actors).get('orders-0');
    expect(pointers).toEqual(
      expect.arrayContaining([
        { kind: 'position', owner: 'billing', offset: 102 },
        { kind: 'committed', owner: 'billing', offset: 102 },
      ]),
    );
    const lane = lanesAt(openingStory().steps.length)[0];
    expect(lane?.pointers.map((p) => p.kind)).toEqual(['position', 'committed']);
  });

  it('summarises a lane in one sentence for the text alternative', () => {
    const lane = lanesAt(openingStory().steps.length)[0];
    expect(lane && laneSummary(lane)).toBe(
      'orders-0: 2 records at offsets 100–101 (2 non-transactional); log end offset 102, HW 102, LSO 102; event_id evt-789 2 times, at offsets 100, 101; consumer billing position 102; group billing committed offset 102',
    );
  });

  it('sorts records by offset and counts each kind', () => {
    const row = (offset: number, control: RecordRow['control'], txnOutcome: RecordRow['txnOutcome']): RecordRow => ({
      offset,
      control,
      key: null,
      value: null,
      headers: {},
      producerId: 1,
      producerEpoch: 0,
      sequence: 0,
      transactional: true,
      txnOutcome,
      baseOffset: offset,
      timestamp: 0,
      origin: null,
    });
    const lane = buildLane({
      topic: 't',
      partition: 0,
      leader: 'broker-0',
      internal: false,
      logStartOffset: 0,
      highWatermark: 4,
      lastStableOffset: 4,
      logEndOffset: 4,
      records: [row(2, 'ABORT', null), row(0, null, 'aborted'), row(1, null, 'aborted'), row(3, null, 'open')],
    });
    expect(Array.from(lane.offsets)).toEqual([0, 1, 2, 3]);
    expect(lane.counts[CellKind.aborted]).toBe(2);
    expect(lane.counts[CellKind.abortMarker]).toBe(1);
    expect(laneSummary(lane)).toContain('(1 open, 2 aborted, 1 ABORT marker)');
  });
});

describe('duplicates and cell labels', () => {
  it('marks the two copies of evt-789 in opening-story and says so in the text alternative', () => {
    const orders = lanesAt(openingStory().steps.length)[0];
    expect(Array.from(orders?.duplicates ?? [])).toEqual([2, 2]);
    expect(laneSummary(orders as NonNullable<typeof orders>)).toContain('event_id evt-789 2 times, at offsets 100, 101');
    expect(laneSummary(orders as NonNullable<typeof orders>, 'ko')).toBe(
      'orders-0: offset 100–101에 레코드 2개 (트랜잭션 아님 2개); LEO(로그 끝 offset) 102, HW 102, LSO 102; event_id evt-789 2번 (offset 100, 101); 컨슈머 billing 위치 102; 그룹 billing 커밋 offset 102',
    );
    expect(cellLabel(orders?.rows[0] as RecordRow)).toBe('evt-789');
  });

  it('leaves aborted copies, markers and records without event_id out of the count', () => {
    const row = (
      offset: number,
      eventId: string | null,
      txnOutcome: RecordRow['txnOutcome'],
      control: RecordRow['control'] = null,
    ): RecordRow => ({
      offset,
      control,
      key: 'k',
      value: 'v',
      headers: eventId === null ? {} : { event_id: eventId },
      producerId: 1,
      producerEpoch: 0,
      sequence: offset,
      transactional: txnOutcome !== null,
      txnOutcome,
      baseOffset: offset,
      timestamp: 0,
      origin: null,
    });
    expect(
      duplicateCounts([
        row(0, 'e1', 'aborted'),
        row(1, null, null, 'ABORT'),
        row(2, 'e1', 'committed'),
        row(3, null, null),
        row(4, null, null),
      ]),
    ).toBeNull();
    expect(Array.from(duplicateCounts([row(0, 'e1', 'open'), row(1, 'e2', null), row(2, 'e1', 'committed')]) ?? [])).toEqual([2, 1, 2]);
    expect(cellLabel(row(1, null, null, 'ABORT'))).toBe('ABORT');
    expect(cellLabel({ ...row(3, null, null), key: null })).toBe('∅');
    expect(cellLabel(row(3, null, null))).toBe('k');
  });

  it('fits a label to its cell, keeping the ×n suffix whole', () => {
    const measure = (s: string) => s.length * 6;
    expect(fitLabel('evt-789', ' ×2', 100, measure)).toBe('evt-789 ×2');
    expect(fitLabel('evt-789', ' ×2', 42, measure)).toBe('evt… ×2');
    expect(fitLabel('evt-789', '', 20, measure)).toBe('ev…');
    expect(fitLabel('evt-789', ' ×2', 10, measure)).toBe('');
  });
});

describe('lane names in the gutter', () => {
  it('cut long names in the middle, keeping the end that tells partitions apart', () => {
    expect(shortLaneName('orders-0')).toBe('orders-0');
    const a = shortLaneName('page-counter-count-store-changelog-0');
    const b = shortLaneName('page-counter-count-store-repartition-1');
    expect(a.length).toBeLessThanOrEqual(20);
    expect(a.endsWith('changelog-0')).toBe(true);
    expect(b.endsWith('repartition-1')).toBe(true);
    expect(a.startsWith('page-cou')).toBe(true);
    expect(a).toContain('…');
  });
});

describe('lane names measured', () => {
  it('keep as much of the head as the measure allows', () => {
    const fits = (t: string) => t.length <= 24;
    expect(shortLaneName('page-counter-count-store-changelog-0', fits)).toBe('page-counter…changelog-0');
    expect(shortLaneName('__transaction_state-2', fits)).toBe('__transaction_state-2');
    expect(shortLaneName('averyveryverylongtopicnamewithoutdashes-3', (t) => t.length <= 12)).toMatch(/^a+.*….*-3$/);
  });
});

describe('lane names on a phone: one or two lines, each of which fits', () => {
  const fits = (t: string) => t.length <= 14;
  it('one line when the name fits', () => {
    expect(laneNameLines('orders-0', fits)).toEqual(['orders-0']);
  });
  it('two whole lines, broken after a - or _ as late as the first line allows', () => {
    expect(laneNameLines('__transaction_state-0', fits)).toEqual(['__transaction_', 'state-0']);
    expect(laneNameLines('__consumer_offsets-2', fits)).toEqual(['__consumer_', 'offsets-2']);
    expect(laneNameLines('orders-per-customer-0', fits)).toEqual(['orders-per-', 'customer-0']);
  });
  it('shortened in the middle when two lines are not enough: the head with …, the end whole', () => {
    const lines = laneNameLines('order-counter-count-store-changelog-0', fits);
    expect(lines).toEqual(['order-counter…', 'changelog-0']);
    expect(laneNameLines('page-counter-count-store-repartition-1', fits)).toEqual(['page-counter-…', 'repartition-1']);
    // measured by width rather than length: each line fits, no more than two
    const narrow = (t: string) => t.length <= 9;
    for (const key of ['order-counter-count-store-changelog-0', '__transaction_state-12', 'averyveryverylongtopicname-3']) {
      const l = laneNameLines(key, narrow);
      expect(l.length, key).toBeLessThanOrEqual(2);
      for (const line of l) expect(narrow(line), `${key}: ${line}`).toBe(true);
      expect(l.join('').replace('…', '').length, key).toBeLessThanOrEqual(key.length);
      expect(key.endsWith(l[l.length - 1] ?? ''), key).toBe(true);
    }
  });
});
