/**
 * Kafka Streams with groupBy: records re-keyed into the repartition topic are work to commit. Under
 * exactly_once_v2 they only become readable (read_committed) once their transaction commits, so a
 * batch holding nothing but re-keyed records must still be committed — otherwise the counting side
 * waits for a commit that never comes, until transaction.timeout.ms aborts it. Under at_least_once
 * the input offsets of such a batch must be committed too.
 */

import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import { summarize } from '../src/sim/trace/summary';
import { storeOf } from './streams/storeOf';

function withoutFaults(guarantee: 'exactly_once_v2' | 'at_least_once'): Scenario {
  const preset = findPreset('streams-eos-repartition')?.scenario as Scenario;
  return {
    ...preset,
    faults: [],
    clients: preset.clients.map((c) => (c.type === 'streams' ? { ...c, config: { ...c.config, 'processing.guarantee': guarantee } } : c)),
  };
}

describe('Streams groupBy through a repartition topic', () => {
  it.each(['exactly_once_v2', 'at_least_once'] as const)(
    '%s counts every view and commits every input and re-keyed record',
    (guarantee) => {
      const summary = summarize(runScenario(withoutFaults(guarantee)));
      expect(storeOf(summary.streams[0])).toEqual({ 'page-a': 3, 'page-b': 2 });
      const group = summary.groups.find((g) => g.groupId === 'page-counter');
      const leo = (name: string) => {
        const p = summary.partitions.find((x) => keyOf(x) === name);
        return p?.logEndOffset;
      };
      for (const tp of ['page-views-0', 'page-views-1']) expect(group?.committed[tp]).toBe(leo(tp));
      // the repartition topic's records were consumed and their offsets committed too (under
      // exactly_once_v2 the commit marker sits at the end, so the committed offset is past the data)
      for (const tp of ['page-counter-count-store-repartition-0', 'page-counter-count-store-repartition-1'])
        expect(group?.committed[tp]).toBeGreaterThan(0);
      if (guarantee === 'exactly_once_v2') {
        const aborted = summary.partitions.flatMap((p) => p.records).filter((r) => r.txnOutcome === 'aborted');
        expect(aborted).toEqual([]);
      }
    },
  );
});
