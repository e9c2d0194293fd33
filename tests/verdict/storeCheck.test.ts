/**
 * A Kafka Streams count's store against the events it counted (src/sim/checks/verdictStore.ts): the
 * rule on hand-made logs, and the three Streams presets whose words speak of the counts — at least
 * once inflates them after a crash, exactly_once_v2 keeps each event counted once, and exactly-once
 * counts records, so an input that repeats an event repeats it in the count.
 */
import { describe, expect, it } from 'vitest';
import { storeCheck } from '../../src/sim/checks/verdictStore';
import { findingText } from '../../src/sim/checks/verdictText';
import type { ProcessingFinding } from '../../src/sim/checks/verdictTypes';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import type { PartitionRow, RecordRow } from '../../src/sim/trace/logView';
import { verdictAtStep } from '../../src/sim/trace/summary';
import { runPreset } from '../presets/helpers';

const record = (offset: number, key: string | null, value: string | null, more: Partial<RecordRow> = {}): RecordRow => ({
  offset,
  control: null,
  key,
  value,
  headers: {},
  producerId: 1,
  producerEpoch: 0,
  sequence: offset,
  transactional: false,
  txnOutcome: null,
  baseOffset: offset,
  timestamp: 0,
  origin: null,
  ...more,
});

const partition = (topic: string, records: RecordRow[], more: Partial<PartitionRow> = {}): PartitionRow =>
  ({
    topic,
    partition: 0,
    leader: 'broker-0',
    internal: false,
    logStartOffset: 0,
    highWatermark: records.length,
    lastStableOffset: records.length,
    records,
    ...more,
  }) as PartitionRow;

const spec = { changelogTopic: 'app-count-store-changelog', countedTopic: 'in' };
const input = (...keys: [string, string][]) =>
  partition(
    'in',
    keys.map(([key, eventId], i) => record(i, key, 'v', { headers: { event_id: eventId } })),
  );
const changelog = (...updates: [string, number][]) =>
  partition(
    spec.changelogTopic,
    updates.map(([key, n], i) => record(i, key, String(n))),
  );

describe('the store check: each key counted against its events', () => {
  it('a count equal to its distinct events: nothing inflated', () => {
    const c = storeCheck([input(['a', 'e1'], ['a', 'e2']), changelog(['a', 1], ['a', 2])], spec, false, true);
    expect(c?.keys).toEqual([{ key: 'a', count: 2, events: 2, records: 2 }]);
    expect(c?.inflated).toEqual([]);
  });

  it('a count above its events: inflated (the last changelog value is the store)', () => {
    const c = storeCheck([input(['a', 'e1'], ['a', 'e2']), changelog(['a', 1], ['a', 2], ['a', 3])], spec, false, true);
    expect(c?.inflated).toEqual([{ key: 'a', count: 3, events: 2, records: 2 }]);
  });

  it('read_committed: an aborted changelog update is not the store; at read_uncommitted it is', () => {
    const rows = [
      input(['a', 'e1']),
      partition(spec.changelogTopic, [record(0, 'a', '1', { txnOutcome: 'committed' }), record(1, 'a', '2', { txnOutcome: 'aborted' })]),
    ];
    expect(storeCheck(rows, spec, true, true)?.inflated).toEqual([]);
    expect(storeCheck(rows, spec, false, true)?.inflated).toEqual([{ key: 'a', count: 2, events: 1, records: 1 }]);
  });

  it('a count below its events is a loss at the end of the run only (before it, the count may still be behind)', () => {
    const rows = [input(['a', 'e1'], ['a', 'e2']), changelog(['a', 1])];
    expect(storeCheck(rows, spec, false, true)?.short).toEqual([{ key: 'a', count: 1, events: 2, records: 2 }]);
    expect(storeCheck(rows, spec, false, false)?.short).toEqual([]);
  });

  it('records above the high watermark and records count() drops (a null key or value) are not events of the count', () => {
    const rows = [
      partition(
        'in',
        [record(0, 'a', 'v', { headers: { event_id: 'e1' } }), record(1, null, 'v'), record(2, 'a', null), record(3, 'a', 'v')],
        {
          highWatermark: 3,
        },
      ),
      changelog(['a', 1]),
    ];
    expect(storeCheck(rows, spec, false, true)?.keys).toEqual([{ key: 'a', count: 1, events: 1, records: 1 }]);
  });

  it('a counted topic the cleaner removed records from is not judged', () => {
    const cleaned = partition('in', [record(1, 'a', 'v', { headers: { event_id: 'e2' } })], { highWatermark: 2 });
    expect(storeCheck([cleaned, changelog(['a', 2])], spec, false, true)).toBeNull();
  });

  it('a counted topic a truncation cut records from is not judged, though its offsets are whole again', () => {
    // e1 was counted, then an unclean election cut it and e2 took its offset: the count is not "inflated"
    const rows = [input(['a', 'e2']), changelog(['a', 1], ['a', 2])];
    expect(storeCheck(rows, spec, false, true)?.inflated).toEqual([{ key: 'a', count: 2, events: 1, records: 1 }]);
    expect(storeCheck(rows, spec, false, true, true)).toBeNull();
  });

  it('read_committed reads below the LSO: behind an open transaction, or one whose marker is not yet below the HW, nothing counts', () => {
    // the changelog's update to 2 is in a transaction whose COMMIT marker (offset 2) is above the HW (2): LSO 1
    const rows = [
      input(['a', 'e1']),
      partition(
        spec.changelogTopic,
        [
          record(0, 'a', '1', { txnOutcome: 'committed' }),
          record(1, 'a', '2', { txnOutcome: 'committed', producerId: 2 }),
          record(2, null, null, { control: 'COMMIT', producerId: 2 }),
        ],
        { highWatermark: 2, lastStableOffset: 1, unreplicatedTxns: [{ producerId: 2, firstOffset: 1, lastOffset: 2 }] },
      ),
    ];
    expect(storeCheck(rows, spec, true, true)?.keys).toEqual([{ key: 'a', count: 1, events: 1, records: 1 }]);
    expect(storeCheck(rows, spec, false, true)?.inflated).toEqual([{ key: 'a', count: 2, events: 1, records: 1 }]);
  });
});

const counterFinding = (id: string) =>
  runPreset(id).summary.verdict.layers.find((l) => l.layer === 'processing' && l.subject === 'counter') as ProcessingFinding;

describe('the Streams presets: what their words say of the counts, the verdict says too', () => {
  it('streams-alos-crash-duplicate: page-a 5 for 3 events, page-b 3 for 2 — counted again after the restore', () => {
    const f = counterFinding('streams-alos-crash-duplicate');
    expect(f.store?.inflated).toEqual([
      { key: 'page-a', count: 5, events: 3, records: 3 },
      { key: 'page-b', count: 3, events: 2, records: 2 },
    ]);
    expect(f.sentence).toContain('page-a 5 for 3 events');
    expect(findingText(f, 'ko')).toContain('page-a 5(이벤트 3개)');
    // the preset's own words give the same numbers
    expect(findPreset('streams-alos-crash-duplicate')?.expected).toContain('page-a 5 instead of 3');
  });

  it('streams-eos-crash-restore: processed twice, yet each event counted once (page-a 3, page-b 2)', () => {
    const f = counterFinding('streams-eos-crash-restore');
    expect(f.repeated.length).toBeGreaterThan(0);
    expect(f.store?.inflated).toEqual([]);
    expect(f.store?.keys.map((k) => [k.key, k.count])).toEqual([
      ['page-a', 3],
      ['page-b', 2],
    ]);
    expect(f.sentence).toContain('its count store counts each event once');
  });

  it('streams-eos-crash-restore mid-run, right after the crash: the counts behind their events are said to be behind, not "each event once"', () => {
    const trace = runScenario(findPreset('streams-eos-crash-restore')!.scenario);
    // the step the counter crashes at (its fault), with 4 page views processed and 1 counted so far
    const crash = trace.steps.find((st) => st.faults.length > 0 && st.actor.startsWith('counter'))?.i ?? -1;
    expect(crash).toBeGreaterThan(0);
    const f = verdictAtStep(trace, stateAt(trace, crash)).layers.find(
      (l) => l.layer === 'processing' && l.subject === 'counter',
    ) as ProcessingFinding;
    const behind = f.store?.keys.filter((k) => k.count < k.events) ?? [];
    expect(behind.length).toBeGreaterThan(0);
    // it read "its count store counts each event once (page-a 1 and page-b 0)" of 4 events
    expect(f.sentence).not.toContain('counts each event once');
    expect(f.sentence).toContain(`its count store has ${behind[0]?.key} ${behind[0]?.count} for`);
    expect(f.sentence).toContain('not all counted yet');
    expect(findingText(f, 'ko')).toContain('그 증가분은 아직 기록되지 않았거나 커밋되지 않았습니다');
  });

  it('upstream-duplicate-event-id: the count follows the records, and the input holds evt-42 twice', () => {
    const f = counterFinding('upstream-duplicate-event-id');
    expect(f.store?.inflated).toEqual([{ key: 'customer-7', count: 3, events: 2, records: 3 }]);
    expect(f.sentence).toContain('it counts records, and its input holds the same event more than once');
  });
});
