/**
 * A Kafka Streams application with one stream thread running one counting task:
 * input topic → (optional groupBy through a repartition topic) → a count per key in a state store,
 * backed by its changelog topic → output topic (key → count). Records with a null key or value are
 * not counted (dropped-records), as Kafka's aggregations do.
 *
 * States: initializing (exactly_once_v2: initTransactions(), which waits for this transactional.id's
 * previous transaction to complete) → restoring (the store rebuilt from the changelog up to its end)
 * → running (poll, process, commit) → migrating, after a TaskMigratedException (the task closed
 * dirty, a new producer, the group rejoined) → initializing again. A crash and restart starts over
 * at initializing. When a rebalance gives the instance a task another instance worked on (a
 * partition it did not hold, at an offset it did not commit), running → restoring: the task is
 * created and its store restored before its first batch, as StreamThread does on assignment.
 *
 * processing.guarantee=exactly_once_v2: one transaction per commit.interval.ms (100 ms) covers the
 * output records, the changelog records, the repartition records and the input offsets
 * (sendOffsetsToTransaction). After a crash or a dirty close the store is wiped and restored from the
 * changelog with read_committed, and input resumes from the committed offsets — so the store holds
 * exactly the committed count.
 *
 * at_least_once: the same writes without a transaction, then commitSync every commit.interval.ms
 * (30 s). A crash after the changelog and output writes but before the commit reprocesses those
 * inputs: outputs are duplicated and the restored count is inflated.
 *
 * Every answer is matched to the call it answers: by who answers (the producer, the main consumer,
 * the restore consumer) and by what the thread waits for. Simplifications (said in the UI and
 * docs): one thread and one task; the store is restored from the whole changelog on every start
 * (no local checkpoint file).
 */
import { setup } from 'xstate';
import { closeDirty, onAbortTimeout, onMigrationReply } from './migration';
import { beginProcessing, onCommitDue, onRunningReply, runStep } from './processing';
import { onInitReply, onRestoreReply, restoreForNewTask, startProcess, startRestore, startTask } from './restore';
import { act, type Ev, initialContext, type StreamThreadContext, type StreamThreadInput, tpName } from './streamThreadContext';

export type { ProcessingGuarantee, StreamThreadContext, StreamThreadInput } from './streamThreadContext';

export const streamThreadMachine = setup({
  types: {} as { context: StreamThreadContext; input: StreamThreadInput; events: Ev },
}).createMachine({
  id: 'streamThread',
  context: ({ input }) => initialContext(input),
  initial: 'idle',
  on: { crash: '.DOWN' },
  states: {
    idle: { on: { boot: { target: 'initializing', actions: act((d, now, _ev, out) => startProcess(d, now, out)) } } },
    initializing: {
      on: {
        reply: { actions: act((d, _now, ev, out) => onInitReply(d, ev, out)) },
        initialized: { target: 'restoring', actions: act((d, _now, _ev, out) => startRestore(d, out)) },
        halt: 'stopped',
      },
    },
    restoring: {
      on: {
        reply: { actions: act((d, _now, ev, out) => onRestoreReply(d, ev, out)) },
        restored: { target: 'running', actions: act((d, now, _ev, out) => beginProcessing(d, now, out)) },
      },
    },
    running: {
      on: {
        continue: { actions: act((d, now, _ev, out) => runStep(d, now, out)) },
        reply: { actions: act((d, now, ev, out) => onRunningReply(d, now, ev, out)) },
        commitDue: { actions: act((d, now, _ev, out) => onCommitDue(d, now, out)) },
        migrate: { target: 'migrating', actions: act((d, _now, _ev, out) => closeDirty(d, out)) },
        // a rebalance assigned this instance a task another one worked on: restore it first
        recreate: { target: 'restoring', actions: act((d, _now, _ev, out) => restoreForNewTask(d, out)) },
        halt: 'stopped',
      },
    },
    migrating: {
      on: {
        reply: { actions: act((d, _now, ev, out) => onMigrationReply(d, ev, out)) },
        abortTimeout: { actions: act((d, _now, _ev, out) => onAbortTimeout(d, out)) },
        migrated: { target: 'initializing', actions: act((d, now, _ev, out) => startTask(d, now, out)) },
      },
    },
    stopped: {},
    DOWN: {
      on: { restart: { target: 'initializing', actions: act((d, now, _ev, out) => startProcess(d, now, out)) } },
    },
  },
});

export { tpName };
