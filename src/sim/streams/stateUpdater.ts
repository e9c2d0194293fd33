/**
 * Kafka 4.x's state updater (DefaultStateUpdater, on by default): a task newly assigned next to
 * running ones is restored on the state updater's own thread, with its own restore consumer, while
 * the stream thread goes on (StreamThread.runOnceWithoutProcessingThreads: poll, process the running
 * tasks, maybeCommit every commit.interval.ms; the new task's input partitions paused by
 * TaskManager.handleRebalanceComplete). Each pass of the loop calls checkStateUpdater:
 * addTasksToStateUpdater hands the new task over, and once it is restored
 * handleRestoredTasksFromStateUpdater → transitRestoredTaskToRunning adds it to the running tasks and
 * `mainConsumer.resume(task.inputPartitions())` — no commit, so under exactly_once_v2 its records go
 * into the thread's transaction as it stands.
 *
 * In the model the state updater is a part of the stream thread's machine driven by the context:
 * `updating` (the tasks it restores) is not empty while it works, and the restore consumer's answers
 * are taken in every `running` sub-state (streamThread.machine.ts `updaterReplies`), so polling,
 * processing and committing go on meanwhile. *The model's main consumer has no pause()*: what its
 * poll() returns of the paused partitions is kept aside (`paused`), its offsets uncommitted, and
 * processed once the task runs — as the resumed partitions' first records.
 */
import type { Out } from '../actors/out';
import { topicPartitionKey } from '../protocol/topicPartition';
import { newStorePartitions, newTasks } from './assignment';
import { applyRestoreReply, awaitsInitTransactions, finishRestore, startRestore } from './restore';
import { type Draft, eos, type PollReply, type Reply, type StreamThreadContext } from './streamThreadContext';

/** The tasks that run: created here and not in the state updater. */
export function runningTasks(d: Pick<StreamThreadContext, 'owned' | 'updating'>): string[] {
  return d.owned.filter((tp) => !d.updating.includes(tp));
}

/**
 * Tasks newly assigned while others run: the state updater restores them (one restore at a time in
 * the model: a task assigned during one waits for its end). With no task running the stream thread
 * has nothing to go on with, and the model restores on it (streamThread.machine.ts `restoring`).
 */
export function updaterTakesNewTasks(d: StreamThreadContext): boolean {
  return newTasks(d).length > 0 && d.updating.length === 0 && runningTasks(d).length > 0 && !awaitsInitTransactions(d);
}

/** addTasksToStateUpdater: the new tasks are created and their stores restored, their partitions paused. */
export function startUpdater(d: Draft, out: Out): void {
  const tasks = newTasks(d);
  const fresh = newStorePartitions(d);
  d.stores = Object.fromEntries(Object.entries(d.stores).filter(([p]) => !fresh.includes(Number(p))));
  d.restoring = fresh;
  d.restoreEnd = null;
  d.restorePositions = {};
  d.restoredRecords = 0;
  d.updating = tasks;
  d.owned = [...d.assigned];
  d.paused = null;
  d.positions = omit(d.positions, tasks);
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `${tasks.length === 1 ? 'task' : 'tasks'} for ${tasks.join(', ')} newly assigned to this instance: the state updater restores ${tasks.length === 1 ? 'its store' : 'their stores'} from the changelog while the running tasks go on processing and committing; ${tasks.join(', ')} paused until then`,
  });
  startRestore(d, out);
}

/**
 * A poll() answer while the state updater restores: the paused partitions' records and positions
 * are kept aside (not processed, not committed); the rest is the running tasks' batch.
 */
export function setAsidePaused(d: Draft, reply: PollReply): PollReply {
  if (d.updating.length === 0) return reply;
  const isPaused = (tp: string) => d.updating.includes(tp);
  const records = reply.records ?? [];
  const positions = reply.positions ?? {};
  const kept = records.filter((r) => isPaused(topicPartitionKey(r.topic, r.partition)));
  d.paused = {
    records: [...(d.paused?.records ?? []), ...kept],
    positions: { ...(d.paused?.positions ?? {}), ...pick(positions, d.updating) },
  };
  return { ...reply, records: records.filter((r) => !kept.includes(r)), positions: omit(positions, d.updating) };
}

/**
 * The restore consumer read the changelog to its end: transitRestoredTaskToRunning — the tasks run,
 * their partitions resumed; what poll() returned of them is processed next (`heldBatch`, taken
 * when the thread would poll), inside the open transaction. Nothing is committed.
 */
export function finishUpdater(d: Draft, r: Reply, out: Out): void {
  applyRestoreReply(d, r);
  finishRestore(d, out);
  const tasks = d.updating;
  const paused = d.paused;
  d.updating = [];
  d.paused = null;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `${tasks.length === 1 ? 'task' : 'tasks'} for ${tasks.join(', ')} restored: ${tasks.length === 1 ? 'it joins' : 'they join'} the running tasks with no commit (${tasks.join(', ')} resumed)${eos(d) ? ', ' + (tasks.length === 1 ? 'its' : 'their') + ' records going into the open transaction' : ''}`,
  });
  const resumed = { records: paused?.records ?? [], positions: { ...d.positions, ...(paused?.positions ?? {}) } };
  if (resumed.records.length === 0) d.positions = resumed.positions;
  else d.heldBatch = joinBatches(d.heldBatch, { ...resumed, groupMetadata: d.groupMetadata });
  if (updaterTakesNewTasks(d)) startUpdater(d, out);
}

/**
 * A poll() answer while the thread processes or commits (its poll() was out when a restored task's
 * records were taken first): kept after them, for when the thread would poll again.
 */
export function holdBusyPoll(d: Draft, reply: PollReply): void {
  d.pollOutstanding = false;
  d.heldBatch = joinBatches(d.heldBatch, reply);
}

function joinBatches(a: PollReply | null, b: PollReply): PollReply {
  if (a === null) return b;
  return {
    records: [...(a.records ?? []), ...(b.records ?? [])],
    positions: { ...(a.positions ?? {}), ...(b.positions ?? {}) },
    groupMetadata: b.groupMetadata ?? a.groupMetadata ?? null,
  };
}

function pick(m: Readonly<Record<string, number>>, keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => keys.includes(k)));
}

function omit(m: Readonly<Record<string, number>>, keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => !keys.includes(k)));
}
