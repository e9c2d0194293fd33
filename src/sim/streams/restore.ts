/**
 * Starting a task: initialise transactions, then restore the state store, then process.
 *
 * Kafka Streams' order (StreamTask.initializeIfNeeded): `recordCollector.initialize()` first —
 * under exactly_once_v2 `StreamsProducer.initTransaction()` calls `initTransactions()`, which
 * blocks until this transactional.id's previous transaction has completed (committed or aborted,
 * markers written) — and only then are the stores registered and restored. The restore reads the
 * changelog up to its end: `StoreChangelogReader.endOffsetForChangelogs` asks for the *log end
 * offset* (read_uncommitted, KAFKA-10167), and the read_committed restore consumer reads until its
 * position reaches it (`hasRestoredToEnd`), which it can only do once every transaction below that
 * offset is decided. A transaction committed just before a crash is therefore restored.
 */
import type { Out } from '../actors/out';
import type { RecordForApp } from '../protocol/messages';
import { applyChangelog } from './aggregate';
import { type Draft, type Ev, eos, type PollReply, replier, replyOf, stop } from './streamThreadContext';

/**
 * (Re)starts the task with an empty store (under EOS the store of a dirty close is wiped): under
 * exactly_once_v2 initTransactions() first, then the restore.
 */
export function startTask(d: Draft, now: number, out: Out): void {
  d.store = {};
  d.restoreEnd = null;
  d.restorePositions = {};
  d.restoredRecords = 0;
  d.restoreCall = null;
  d.inTransaction = false;
  d.committing = false;
  d.batchWaiting = false;
  d.commitOffsets = {};
  d.uncommitted = 0;
  d.lastCommitAt = now;
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.counts = {};
  d.positions = {};
  d.heldBatch = null;
  d.migration = null;
  d.owned = [];
  d.recreate = null;
  if (eos(d)) out.call(d.producer, 'initTransactions');
  else out.raise({ type: 'initialized' });
}

/** After a process restart every client of the process starts afresh: nothing is outstanding. */
export function startProcess(d: Draft, now: number, out: Out): void {
  d.pollOutstanding = false;
  d.discardPolls = false;
  startTask(d, now, out);
}

/** A poll() answer while the task is not running yet: kept for when it runs. */
export function holdPoll(d: Draft, reply: PollReply): void {
  d.pollOutstanding = false;
  if (!d.discardPolls) d.heldBatch = reply;
}

/** While initialising: initTransactions() has returned (or failed). */
export function onInitReply(d: Draft, ev: Ev, out: Out): void {
  const r = replyOf(ev);
  const who = replier(d, ev);
  if (who === 'consumer' && r.call === 'poll') {
    holdPoll(d, r as PollReply);
    return;
  }
  if (who !== 'producer' || r.call !== 'initTransactions') return;
  if (!r.ok) {
    stop(d, out, `initTransactions failed: ${r.error}`);
    return;
  }
  out.raise({ type: 'initialized' });
}

/**
 * Drops the task's work in flight, as closing a task dirty does (StreamTask.closeDirty): the loop's
 * pending continue and commit timers, the store, the batch being processed and its counts. Shared by
 * a newly assigned task (restoreForNewTask) and a task migrated away (migration.ts closeDirty).
 */
export function dropTaskWork(d: Draft, out: Out): void {
  out.cancel('continue');
  out.cancel('commitDue');
  d.store = {};
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.counts = {};
  d.committing = false;
  d.batchWaiting = false;
  d.uncommitted = 0;
}

/**
 * A newly assigned task is created while the thread runs: its work in flight is gone (under EOS its
 * transaction was aborted), the store is wiped and restored, and the poll() answer that brought the
 * task is processed after the restore — it now counts as held since the restore.
 */
export function restoreForNewTask(d: Draft, out: Out): void {
  dropTaskWork(d, out);
  d.restoredRecords = 0;
  d.owned = Object.keys(d.heldBatch?.positions ?? {});
  startRestore(d, out);
}

/** The restore starts: where does the changelog end (its log end offset, read_uncommitted)? */
export function startRestore(d: Draft, out: Out): void {
  d.restoreCall = 'endOffsets';
  out.call(d.restoreConsumer, 'endOffsets', { isolationLevel: 'read_uncommitted' });
}

function restoredToEnd(d: Draft): boolean {
  const end = d.restoreEnd ?? {};
  return Object.entries(end).every(([tp, offset]) => offset === 0 || (d.restorePositions[tp] ?? 0) >= offset);
}

function finishRestore(d: Draft, out: Out): void {
  d.restoreCall = null;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `state store restored from ${d.changelogTopic}${eos(d) ? ' (read_committed)' : ''}: ${d.restoredRecords} changelog record(s), ${Object.keys(d.store).length} key(s)`,
  });
  out.raise({ type: 'restored' });
}

/** While restoring: the restore consumer's answers drive the restore; a main-consumer poll() answer waits. */
export function onRestoreReply(d: Draft, ev: Ev, out: Out): void {
  const r = replyOf(ev);
  const who = replier(d, ev);
  if (who === 'consumer' && r.call === 'poll') {
    holdPoll(d, r as PollReply);
    return;
  }
  // only the restore consumer's answer to the call the restore waits for
  if (who !== 'restore' || r.call !== d.restoreCall) return;
  switch (r.call) {
    case 'endOffsets': {
      d.restoreEnd = (r.offsets as Record<string, number> | undefined) ?? {};
      d.restorePositions = {};
      if (restoredToEnd(d)) {
        finishRestore(d, out);
        return;
      }
      // no checkpoint under EOS (and none kept by the model): the whole changelog is read again
      d.restoreCall = 'seekToBeginning';
      out.call(d.restoreConsumer, 'seekToBeginning');
      return;
    }
    case 'seekToBeginning':
      d.restoreCall = 'poll';
      out.call(d.restoreConsumer, 'poll');
      return;
    case 'poll': {
      const { store, applied } = applyChangelog(d.store, (r.records as RecordForApp[] | undefined) ?? [], d.restoreEnd ?? {});
      d.store = store;
      d.restoredRecords += applied;
      d.restorePositions = { ...d.restorePositions, ...((r.positions as Record<string, number> | undefined) ?? {}) };
      if (restoredToEnd(d)) {
        finishRestore(d, out);
        return;
      }
      out.call(d.restoreConsumer, 'poll');
      return;
    }
  }
}
