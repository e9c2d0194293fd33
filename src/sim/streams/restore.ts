/**
 * Starting the thread, then — once the assignment has created the tasks (assignment.ts) —
 * initialising them: under exactly_once_v2 the producer's transactions first, then their state
 * stores restored, then processing.
 *
 * Kafka Streams' order (StreamTask.initializeIfNeeded, called for a task the assignment created):
 * `recordCollector.initialize()` first — under exactly_once_v2 `StreamsProducer.initTransaction()`
 * calls `initTransactions()` once per producer (`transactionInitialized`; reset when that producer is
 * closed), which blocks until this transactional.id's previous transaction has completed
 * (committed or aborted, markers written) — and only then are the stores registered and restored.
 * So a thread that starts polls and joins its group before its first InitProducerId. The restore
 * reads the changelog up to its end: `StoreChangelogReader.endOffsetForChangelogs` asks for the
 * *log end offset* (read_uncommitted, KAFKA-10167), and the read_committed restore consumer reads
 * until its position reaches it (`hasRestoredToEnd`), which it can only do once every transaction
 * below that offset is decided. A transaction committed just before a crash is therefore restored.
 */
import type { Out } from '../actors/out';
import { topicPartitionKey } from '../protocol/topicPartition';
import { applyChangelog } from './aggregate';
import { newStorePartitions } from './assignment';
import { type Draft, eos, type PollReply, type Reply, type StreamThreadContext } from './streamThreadContext';
import { clearTaskTimeout } from './taskTimeout';

/**
 * (Re)starts the thread with no task and an empty store (under EOS the store of a dirty close is
 * wiped), then poll(); the tasks are created — their transactions initialised and their stores
 * restored — from the main consumer's next assignment.
 */
export function startTask(d: Draft, now: number): void {
  d.stores = {};
  d.restoring = null;
  d.restoreEnd = null;
  d.restorePositions = {};
  d.restoredRecords = 0;
  d.commitOffsets = {};
  d.uncommitted = 0;
  d.lastCommitAt = now;
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.counts = {};
  d.positions = {};
  d.heldBatch = null;
  d.assigned = [];
  d.owned = [];
  d.updating = [];
  d.paused = null;
}

/** After a process restart every client of the process starts afresh: nothing is outstanding. */
export function startProcess(d: Draft, now: number): void {
  d.pollOutstanding = false;
  // a new producer: its transactions are initialised when the first task is (StreamsProducer.initTransaction)
  d.transactionsInitialized = false;
  clearTaskTimeout(d);
  // a restarted process: its main consumer, restarted too, waits for no rebalance listener
  d.revocationPending = false;
  d.rebalanceInProgress = false;
  startTask(d, now);
}

/** A poll() answer while the task is not running yet: kept for when it runs. */
export function holdPoll(d: Draft, reply: PollReply): void {
  d.pollOutstanding = false;
  d.heldBatch = reply;
}

/**
 * Drops the task's work in flight, as closing a task dirty does (StreamTask.closeDirty): the loop's
 * pending continue and commit timers, the store, the batch being processed and its counts. Shared by
 * a newly assigned task (restoreForNewTask) and a task migrated away (migration.ts closeDirty).
 */
export function dropTaskWork(d: Draft, out: Out): void {
  out.cancel('continue');
  out.cancel('commitDue');
  d.stores = {};
  d.restoring = null;
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.counts = {};
  d.uncommitted = 0;
  // the state updater's tasks are closed too: their kept records are fetched again from the committed offsets
  d.updating = [];
  d.paused = null;
}

/**
 * Newly assigned tasks are created (TaskManager.createNewTasks, then addTasksToStateUpdater:
 * StreamTask.initializeIfNeeded and the state updater): their stores start empty and are restored
 * from their own changelog partitions. The tasks already running keep their stores, their work and
 * the transaction open over it — Kafka neither commits nor aborts for a new task
 * (TaskManager.transitRestoredTaskToRunning just adds the restored task to the running ones), and
 * that transaction has no record in a new task's changelog partition: a task leaves a thread only
 * through handleRevocation's commit or a dirty close's abort. A poll() answer held meanwhile is
 * processed after the restore. Every task of the assignment now exists here. This is the restore on
 * the stream thread, when no task runs (or, under exactly_once_v2, before the producer's first
 * initTransactions()); next to running tasks the state updater restores (stateUpdater.ts).
 */
export function restoreForNewTask(d: Draft, out: Out): void {
  const fresh = newStorePartitions(d);
  d.stores = Object.fromEntries(Object.entries(d.stores).filter(([p]) => !fresh.includes(Number(p))));
  d.restoring = fresh;
  d.restoredRecords = 0;
  d.owned = [...d.assigned];
  if (awaitsInitTransactions(d)) out.call(d.producer, 'initTransactions');
  else startRestore(d, out);
}

/**
 * exactly_once_v2 and the producer's transactions not initialised yet: a task created now calls
 * initTransactions() before its stores are registered (RecordCollectorImpl.initialize).
 */
export function awaitsInitTransactions(d: StreamThreadContext): boolean {
  return eos(d) && !d.transactionsInitialized;
}

/** initTransactions() returned: the producer may begin transactions, and the new tasks' restore starts. */
export function transactionsInitialized(d: Draft, out: Out): void {
  d.transactionsInitialized = true;
  clearTaskTimeout(d);
  startRestore(d, out);
}

/** The restore starts: where does the changelog end (its log end offset, read_uncommitted)? */
export function startRestore(d: Draft, out: Out): void {
  out.call(d.restoreConsumer, 'endOffsets', { isolationLevel: 'read_uncommitted' });
}

/** Where the restore stands once the restore consumer's answer is applied (endOffsets, or a poll() of the changelog). */
export function restoreAfter(
  d: StreamThreadContext,
  r: Reply,
): Pick<StreamThreadContext, 'restoreEnd' | 'restorePositions' | 'stores' | 'restoredRecords'> {
  if (r.call === 'endOffsets')
    return { restoreEnd: restoredEnds(d, r.offsets ?? {}), restorePositions: {}, stores: d.stores, restoredRecords: d.restoredRecords };
  const { stores, applied } = applyChangelog(d.stores, r.records ?? [], d.restoreEnd ?? {});
  return {
    restoreEnd: d.restoreEnd,
    restorePositions: { ...d.restorePositions, ...(r.positions ?? {}) },
    stores,
    restoredRecords: d.restoredRecords + applied,
  };
}

/**
 * The end offsets of the changelog partitions restored (`restoring`), as the state updater's
 * changelog reader asks only for the restoring tasks' changelogs: a running task's changelog
 * partition, where the thread's own transaction may be open, is not waited for.
 */
function restoredEnds(d: StreamThreadContext, offsets: Readonly<Record<string, number>>): Record<string, number> {
  const restoring = d.restoring;
  if (restoring === null) return { ...offsets };
  return Object.fromEntries(
    restoring.map((p) => [topicPartitionKey(d.changelogTopic, p), offsets[topicPartitionKey(d.changelogTopic, p)] ?? 0]),
  );
}

/** The restore consumer's position has reached the changelog's end offset on every partition (hasRestoredToEnd). */
export function restoredToEnd(d: Pick<StreamThreadContext, 'restoreEnd' | 'restorePositions'>): boolean {
  const end = d.restoreEnd ?? {};
  return Object.entries(end).every(([tp, offset]) => offset === 0 || (d.restorePositions[tp] ?? 0) >= offset);
}

/** Applies the restore consumer's answer. */
export function applyRestoreReply(d: Draft, r: Reply): void {
  Object.assign(d, restoreAfter(d, r));
}

/** The changelog is not read to its end yet: no checkpoint under EOS (and none kept by the model), so it is read from the beginning. */
export function seekChangelogToBeginning(d: Draft, out: Out): void {
  out.call(d.restoreConsumer, 'seekToBeginning');
}

/** Reads the changelog on (the first poll after seekToBeginning, or the next one). */
export function pollChangelog(d: Draft, out: Out): void {
  out.call(d.restoreConsumer, 'poll');
}

/** The stores are restored, each task's from its own changelog partition (the keys counted over all of them). */
export function finishRestore(d: Draft, out: Out): void {
  const restored = Object.entries(d.stores).filter(([p]) => d.restoring === null || d.restoring.includes(Number(p)));
  const keys = restored.reduce((n, [, s]) => n + Object.keys(s).length, 0);
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `state store restored from ${d.changelogTopic}${eos(d) ? ' (read_committed)' : ''}: ${d.restoredRecords} changelog record(s), ${keys} key(s)`,
  });
}
