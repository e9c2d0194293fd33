/**
 * A differential check of every Kafka Streams restore in a run, computed from the changelog
 * partitions themselves (not from the thread's own bookkeeping):
 *
 * 1. When a restore ends, each store it restored (the partitions of its end offsets: the tasks
 *    newly assigned; a running task keeps its own store) equals the fold of its own changelog partition (the
 *    task's partition, ProcessorStateManager.getStorePartition) below the restore's end offset as the
 *    restore consumer may read it — under exactly_once_v2 only records of committed transactions
 *    (read_committed), under at_least_once every record — the last value per key.
 *    (StoreChangelogReader.restore applies records below `restoreEndOffset`; ProcessorStateManager
 *    restores through a read_committed consumer under EOS.)
 * 2. No changelog record written before the restore began whose transaction commits is left out:
 *    the restore reads to the changelog's log end offset (StoreChangelogReader.endOffsetForChangelogs,
 *    read_uncommitted) after initTransactions() has completed this transactional.id's previous
 *    transaction (StreamTask.initializeIfNeeded → StreamsProducer.initTransaction).
 * 3. Virtual time is a finite number that never goes backwards.
 */

import { keyOf, recordAddress } from '../../src/sim/protocol/topicPartition';
import { type SimView, stateAt, type Trace } from '../../src/sim/run';
import { changelogTopic } from '../../src/sim/streams/streamsTopology';
import type { StreamThreadContext } from '../../src/sim/streams/streamThread.machine';
import type { Fact } from '../../src/sim/trace/facts';
import { type PartitionRow, partitionRows } from '../../src/sim/trace/logView';

type Stores = Readonly<Record<number, Readonly<Record<string, number>>>>;

const sorted = <T>(o: Readonly<Record<string, T>>) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1));
/** Each task's store by partition, sorted; an empty store is left out (a task whose keys were all deleted). */
const show = (stores: Stores) =>
  JSON.stringify(
    Object.fromEntries(
      sorted(stores)
        .filter(([, s]) => Object.keys(s).length > 0)
        .map(([p, s]) => [p, Object.fromEntries(sorted(s))]),
    ),
  );

/** Per changelog partition (its task's store), the last count per key of the records below `end` that a reader with this isolation sees. */
export function committedFold(
  partitions: readonly PartitionRow[],
  end: Readonly<Record<string, number>>,
  readCommitted: boolean,
): Record<number, Record<string, number>> {
  const stores: Record<number, Record<string, number>> = {};
  for (const p of partitions)
    for (const r of [...p.records].sort((a, b) => a.offset - b.offset)) {
      stores[p.partition] ??= {};
      const store = stores[p.partition] as Record<string, number>;
      if (r.control !== null || r.key === null || r.offset >= (end[keyOf(p)] ?? 0)) continue;
      if (readCommitted && r.transactional && r.txnOutcome !== 'committed') continue;
      if (r.value === null) delete store[r.key];
      else store[r.key] = Number(r.value);
    }
  return stores;
}

function changelogRows(view: SimView, topic: string): PartitionRow[] {
  return partitionRows(view.actors).filter((p) => p.topic === topic);
}

/** The step at which each changelog offset was appended ("partition:offset" → step). */
function appendSteps(trace: Trace, topic: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const st of trace.steps)
    for (const f of st.facts as readonly Fact[])
      if (f.kind === 'append' && f.topic === topic && f.control === null)
        for (let o = f.baseOffset; o <= f.lastOffset; o++) out.set(`${f.partition}:${o}`, st.i);
  return out;
}

export function timeProblems(trace: Trace): string[] {
  let last = 0;
  for (const st of trace.steps) {
    if (!Number.isFinite(st.t)) return [`step ${st.i}: virtual time is ${st.t}`];
    if (st.t < last) return [`step ${st.i}: virtual time went back from ${last} to ${st.t}`];
    last = st.t;
  }
  return [];
}

/** What is wrong with the run's Streams restores; empty when every restore matches the committed changelog. */
export function streamsRestoreProblems(trace: Trace): string[] {
  const problems: string[] = [...timeProblems(trace)];
  let finalRows: Map<string, PartitionRow[]> | null = null;
  for (const c of trace.scenario.clients) {
    if (c.type !== 'streams') continue;
    const app = `${c.id}.app`;
    const config = trace.resolved.streams[c.id];
    const topic = changelogTopic(config?.['application.id'] ?? c.id);
    const readCommitted = config?.['processing.guarantee'] === 'exactly_once_v2';
    const appended = appendSteps(trace, topic);
    let started = 0;
    for (const st of trace.steps) {
      if (st.actor !== app) continue;
      // the thread's states are nested: restoring.readingChangelog, running.polling …
      const [before, after] = [st.before.split('.')[0], st.after.split('.')[0]];
      if (after === 'restoring' && before !== 'restoring') started = st.i;
      if (before !== 'restoring' || after !== 'running') continue;
      const view = stateAt(trace, st.i + 1);
      const ctx = view.actors.get(app)?.context as StreamThreadContext;
      const end = ctx.restoreEnd ?? {};
      const where = `${c.id}'s restore that ended at step ${st.i}`;
      // the stores this restore rebuilt: those of the changelog partitions it read to an end offset
      const restored = (stores: Stores) => Object.fromEntries(Object.entries(stores).filter(([q]) => `${topic}-${q}` in end));
      const expected = committedFold(changelogRows(view, topic), end, readCommitted);
      if (show(restored(ctx.stores)) !== show(restored(expected)))
        problems.push(
          `${where}: the stores (by task partition) hold ${show(restored(ctx.stores))}, the committed changelog partitions below ${JSON.stringify(end)} ${show(restored(expected))}`,
        );
      finalRows ??= new Map();
      let rows = finalRows.get(topic);
      if (!rows) {
        rows = changelogRows(stateAt(trace, trace.steps.length), topic);
        finalRows.set(topic, rows);
      }
      for (const p of rows)
        for (const r of keyOf(p) in end ? p.records : []) {
          const step = appended.get(`${p.partition}:${r.offset}`);
          if (r.control !== null || step === undefined || step >= started) continue;
          if (readCommitted && r.transactional && r.txnOutcome !== 'committed') continue;
          if (r.offset >= (end[keyOf(p)] ?? 0))
            problems.push(
              `${where}: ${recordAddress(p.topic, p.partition, r.offset)} (key ${r.key}, written at step ${step}, before the restore began at step ${started}) is committed but was not restored`,
            );
        }
    }
  }
  return problems;
}
