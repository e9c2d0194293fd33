/**
 * A state store's changelog records go to the task's partition (Kafka Streams'
 * ProcessorContextImpl.logChange → RecordCollector.send with
 * `stateManager().registeredChangelogPartitionFor(storeName)`), not to the partition the key's hash
 * would pick. Before, the model sent them without a partition, so murmur2 of the key chose it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { partitionForKey } from '../../src/sim/producer/partitioner';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';

it("a record counted from page-views-1 is logged to the changelog's partition 1, though its key hashes to 0", () => {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', 'changelog-partition.json'), 'utf8'));
  // the scenario's point: the key alone would pick the other partition
  expect(partitionForKey('page-a', 2)).toBe(0);
  const summary = summarize(runScenario(scenario));
  const changelog = summary.partitions.filter((p) => p.topic === 'page-counter-count-store-changelog');
  const data = (p: (typeof changelog)[number]) => p.records.filter((r) => !r.control);
  expect(changelog.map((p) => [p.partition, data(p).map((r) => `${r.key}=${r.value}`)])).toEqual([
    [0, []],
    [1, ['page-a=1']],
  ]);
  // the output topic keeps the default partitioner (to() passes no partition)
  const output = summary.partitions.filter((p) => p.topic === 'view-counts');
  expect(output.map((p) => [p.partition, data(p).length])).toEqual([
    [0, 1],
    [1, 0],
  ]);
});
