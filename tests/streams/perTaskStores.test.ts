/**
 * Kafka Streams creates one task per input partition (TaskId `0_0`, `0_1`, `0_2`), each with its own
 * state store and its own changelog partition — the task's partition
 * (ProcessorStateManager.getStorePartition). count() therefore counts per task: a key arriving on two
 * input partitions is counted in two stores, each update logged to its own changelog partition and
 * emitted with that task's count; a restore applies each changelog partition to its own task's store
 * (StoreChangelogReader.restoreChangelog → ProcessorStateManager.restore). Before, the model kept one
 * store for the whole thread: the key was counted 2, and a restore folded every changelog partition
 * into one store, so the result hung on the order the partitions were read.
 *
 * The scenario (found by the fuzzer): p1 writes key k to in0-0, p0 to in0-2 (k's hash), and st0 —
 * exactly_once_v2 — restarts at 504 ms, restoring both tasks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeCheck } from '../../src/sim/checks/verdictStore';
import { findingText } from '../../src/sim/checks/verdictText';
import type { ProcessingFinding } from '../../src/sim/checks/verdictTypes';
import { partitionForKey } from '../../src/sim/producer/partitioner';
import { runScenario, stateAt } from '../../src/sim/run';
import { applyChangelog } from '../../src/sim/streams/aggregate';
import { summarize } from '../../src/sim/trace/summary';
import { actorFields } from '../../src/ui/actors/fields';
import { streamsRestoreProblems } from '../properties/streamsRestore';

const scenario = () => JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', 'streams-two-partitions-one-key.json'), 'utf8'));

describe('one state store per task (ProcessorStateManager, StoreChangelogReader)', () => {
  it('the same key on two input partitions: two counts of 1, in two stores, on two changelog partitions, emitted as 1 and 1', () => {
    // p0 sends without a partition: k's hash picks in0-2; p1 writes in0-0 explicitly
    expect(partitionForKey('k', 3)).toBe(2);
    const trace = runScenario(scenario());
    const summary = summarize(trace);
    expect(summary.streams[0]?.stores).toEqual({ '0_0': { k: 1 }, '0_2': { k: 1 } });
    const data = (topic: string) =>
      summary.partitions
        .filter((p) => p.topic === topic)
        .map((p) => [
          p.partition,
          p.records.filter((r) => r.control === null && r.txnOutcome === 'committed').map((r) => `${r.key}=${r.value}`),
        ]);
    expect(data('st0-count-store-changelog')).toEqual([
      [0, ['k=1']],
      [1, []],
      [2, ['k=1']],
    ]);
    // each task's update carries its own count
    expect(data('out-st0')).toEqual([[0, ['k=1', 'k=1']]]);
    // the actors panel shows the stores per task
    const ctx = stateAt(trace, trace.steps.length).actors.get('st0.app')?.context;
    expect(actorFields('streams-thread', ctx, 'en')).toContainEqual({
      label: 'state stores (task: count per key)',
      value: '0_0: k=1 · 0_2: k=1',
    });
    expect(actorFields('streams-thread', ctx, 'ko')).toContainEqual({
      label: '상태 저장소 (태스크: 키별 개수)',
      value: '0_0: k=1 · 0_2: k=1',
    });
  });

  it('the restart restores each store from its own changelog partition: the restore property holds', () => {
    const trace = runScenario(scenario());
    // the restart's restore read both changelog records, one per task
    const restores = trace.steps.flatMap((st) =>
      (st.facts as readonly { kind: string; text?: string }[]).filter(
        (f) => f.kind === 'note' && f.text?.startsWith('state store restored'),
      ),
    );
    expect(restores.map((f) => f.text)).toContain(
      'state store restored from st0-count-store-changelog (read_committed): 2 changelog record(s), 2 key(s)',
    );
    expect(streamsRestoreProblems(trace)).toEqual([]);
  });

  it('applyChangelog: each changelog partition goes to its own task, whatever the order the partitions are read in', () => {
    const cl = (partition: number, offset: number, value: string) => ({ topic: 'cl', partition, offset, key: 'k', value });
    const end = { 'cl-0': 2, 'cl-2': 1 };
    const forward = applyChangelog({}, [cl(0, 0, '1'), cl(0, 1, '2'), cl(2, 0, '1')], end);
    const backward = applyChangelog({}, [cl(2, 0, '1'), cl(0, 0, '1'), cl(0, 1, '2')], end);
    expect(forward.stores).toEqual({ 0: { k: 2 }, 2: { k: 1 } });
    expect(backward.stores).toEqual(forward.stores);
    expect(forward.applied).toBe(3);
  });

  it("the verdict's store check judges each task against its own partition's events, and names the task of a key counted twice", () => {
    const row = (topic: string, partition: number, key: string, value: string, eventId?: string) => ({
      topic,
      partition,
      leader: 'broker-0',
      internal: false,
      logStartOffset: 0,
      highWatermark: 1,
      lastStableOffset: 1,
      records: [
        {
          offset: 0,
          control: null,
          key,
          value,
          headers: eventId ? { event_id: eventId } : {},
          producerId: 1,
          producerEpoch: 0,
          sequence: 0,
          transactional: false,
          txnOutcome: null,
          baseOffset: 0,
          timestamp: 0,
          origin: null,
        },
      ],
    });
    const spec = { changelogTopic: 'cl', countedTopic: 'in' };
    const rows = [row('in', 0, 'k', 'v', 'e1'), row('in', 2, 'k', 'v', 'e2'), row('cl', 0, 'k', '1'), row('cl', 2, 'k', '1')];
    const c = storeCheck(rows as never, spec, false, true);
    // one store counting k over both partitions would hold 1 for 2 events: a loss
    expect(c?.short).toEqual([]);
    expect(c?.inflated).toEqual([]);
    expect(c?.keys).toEqual([
      { key: 'k', task: '0_0', count: 1, events: 1, records: 1 },
      { key: 'k', task: '0_2', count: 1, events: 1, records: 1 },
    ]);
    const f = {
      layer: 'processing',
      subject: 'st0',
      groupId: 'st0',
      events: 2,
      repeated: [],
      losses: [],
      stalls: [],
      store: c,
    } as unknown as ProcessingFinding;
    expect(findingText(f, 'en')).toContain('its count store counts each event once (k in task 0_0 1 and k in task 0_2 1)');
    expect(findingText(f, 'ko')).toContain('태스크 0_0의 k 1');
  });
});
