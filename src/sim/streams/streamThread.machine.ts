/**
 * A Kafka Streams application with one stream thread running its counting tasks (one per input
 * partition, each with its own store and changelog partition):
 * input topic → (optional groupBy through a repartition topic) → a count per key in a state store,
 * backed by its changelog topic → output topic (key → count). Records with a null key or value are
 * not counted (dropped-records), as Kafka's aggregations do.
 *
 * States: starting (a transient step: no task yet, so straight on to poll()) → running, the
 * application loop (application/applicationLoop.ts): polling → processing → committing, with
 * pollingInTransaction for the exactly_once_v2 transaction kept open across polls until
 * commit.interval.ms, and committingWhilePolling / committingBeforeBatch when commit.interval.ms
 * passes while poll() waits → migrating, after a TaskMigratedException (aborting → closingProducer →
 * resubscribing: the task closed dirty, a new producer, the group rejoined) → starting again. A crash
 * and restart starts over at starting. Tasks come from the ASSIGNMENT (assignment.ts): when the main
 * consumer's onPartitionsAssigned brings a partition whose task the thread does not have — every
 * partition of the first assignment after a start, or one moved here from another instance — and
 * no task runs yet, running → restoring: the task is initialised (StreamTask.initializeIfNeeded) — under
 * exactly_once_v2 the producer's initTransactions() first, once per producer
 * (initializingTransactions: it waits for this transactional.id's previous transaction to complete)
 * — and its store rebuilt from its changelog partition up to its end (readingEndOffsets →
 * seekingToBeginning → readingChangelog), before its first batch, as TaskManager.handleAssignment,
 * addTasksToStateUpdater and the state updater do. The running tasks keep their stores and an open
 * exactly_once_v2 transaction: a new task neither aborts nor commits it (from pollingInTransaction
 * the held batch goes on inside it after the restore); one assigned while a commit is under way
 * waits for its end (committingBeforeNewTask: Kafka's commit is over before the poll() that brings
 * the assignment). A task newly assigned NEXT TO running ones is restored by the state updater
 * (stateUpdater.ts, stateUpdaterTransitions.ts) while the thread stays in `running`: it polls,
 * processes the running tasks and commits them on commit.interval.ms; the new task's records wait
 * (its partitions paused) and run once it is restored, in the open transaction. A position that
 * moves (past aborted batches and markers) creates nothing.
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
 * docs): one thread (running every task of its instance; its first tasks restored on it); a
 * restore rebuilds each store it restores from the whole changelog partition (no local checkpoint file).
 */
import { setup } from 'xstate';
import { advance } from '../application/applicationLoop';
import { announceNewTask, takeAssignment } from './assignment';
import {
  aborted,
  closeDirty,
  closeProducer,
  commitSyncMigrated,
  dropPoll,
  onAbortTimeout,
  resubscribe,
  streamsException,
  taskMigrated,
} from './migration';
import {
  beginBatch,
  committed,
  continueCommit,
  holdForNewTask,
  poll,
  runBatch,
  runStep,
  sent,
  startCommit,
  takeBatch,
  takeHeldBatch,
} from './processing';
import {
  applyRestoreReply,
  dropTaskWork,
  finishRestore,
  holdPoll,
  pollChangelog,
  restoreForNewTask,
  seekChangelogToBeginning,
  startProcess,
  startTask,
  transactionsInitialized,
} from './restore';
import { answerAfterCommit, answerRevocation, rebalanceStarted, tasksLost, tasksLostAtLeastOnce, tasksLostWithoutWork } from './revocation';
import { onSendFailed, restoreAfterCorruption, sendFatal, sendMigrated, taskCorrupted } from './sendErrors';
import { closeMainConsumer, closeRestoreConsumer, closeTasksForShutdown } from './shutdown';
import { holdPollWhileBusy, runHeldBatch, startUpdating, updaterReplies } from './stateUpdaterTransitions';
import {
  act,
  type Ev,
  initialContext,
  replyOf,
  type SendFailedCall,
  type StreamThreadContext,
  type StreamThreadInput,
  stop,
} from './streamThreadContext';
import { streamThreadGuards } from './streamThreadGuards';
import { retryTimedOut } from './taskTimeout';

export type { ProcessingGuarantee, StreamThreadContext, StreamThreadInput } from './streamThreadContext';

/** A producer call timed out within the task timeout: the same call again (taskTimeout.ts). */
const retryOnTimeout = {
  guard: 'timedOutWithinTaskTimeout' as const,
  actions: act((d, now, ev, out) => retryTimedOut(d, now, ev, out)),
};

/** A producer call of the task failed: TaskMigratedException (close dirty, rejoin) or StreamsException (the thread dies). */
const taskFailed = () => [
  {
    guard: 'taskMigrated' as const,
    target: '#streamThread.migrating',
    actions: [act((d, _now, ev, out) => taskMigrated(d, replyOf(ev), out)), act((d, _now, _ev, out) => closeDirty(d, out))],
  },
  {
    guard: 'streamsException' as const,
    target: '#streamThread.shuttingDown',
    actions: act((d, _now, ev, out) => streamsException(d, replyOf(ev), out)),
  },
];

/** at_least_once: a failed commitSync is a TaskMigratedException (CommitFailedException) or a StreamsException (TaskExecutor). */
const commitSyncFailed = [
  {
    guard: 'commitSyncMigrated' as const,
    target: '#streamThread.migrating.resubscribing',
    actions: act((d, _now, ev, out) => commitSyncMigrated(d, replyOf(ev), out)),
  },
  {
    guard: 'commitSyncFatal' as const,
    target: '#streamThread.shuttingDown',
    actions: act((d, _now, ev, out) =>
      stop(d, out, `commitSync failed with ${replyOf(ev)?.error ?? null}: StreamsException, the stream thread dies`),
    ),
  },
];

/**
 * The thread goes on to run — initTransactions() returned (or at_least_once has none), or a restore
 * ended (`done`: its last answer applied): tasks the assignment brought and this instance does not
 * have yet are created and restored first; else the batch a poll() answer brought meanwhile runs;
 * else it polls (a poll() already out is not sent again).
 */
const toRunning = (guard: 'emptyChangelog' | 'changelogReadToEnd' | 'started', done: readonly ReturnType<typeof act>[] = []) => [
  {
    guard: `${guard}NewTask` as const,
    // (from inside restoring too: its first step again)
    target: '#streamThread.restoring.initializingTask',
    actions: [...done, act((d, _now, _ev, out) => announceNewTask(d, out)), act((d, _now, _ev, out) => restoreForNewTask(d, out))],
  },
  {
    guard: `${guard}Held` as const,
    target: '#streamThread.running.processing',
    actions: [...done, act((d, _now, _ev, out) => takeHeldBatch(d, out)), act((d, _now, _ev, out) => beginBatch(d, out))],
  },
  { guard, target: '#streamThread.running.polling', actions: [...done, act((d, now, _ev, out) => poll(d, now, out))] },
];

/** The restore ended: as toRunning, with the restore consumer's last answer applied. */
const restored = (guard: 'emptyChangelog' | 'changelogReadToEnd') =>
  toRunning(guard, [act((d, _now, ev) => applyRestoreReply(d, replyOf(ev))), act((d, _now, _ev, out) => finishRestore(d, out))]);

/**
 * at_least_once: the collector throws the failed send it holds (sendErrors.ts) — at the next send()
 * (`point` 'BeforeSend', on the `continue` that would run it) or at flush() ('AtFlush').
 */
const sendFailedAt = (point: 'BeforeSend' | 'AtFlush') => [
  {
    guard: `corrupted${point}` as const,
    target: '#streamThread.recovering',
    actions: act((d, _now, _ev, out) => taskCorrupted(d, out)),
  },
  {
    guard: `migrated${point}` as const,
    target: '#streamThread.migrating.resubscribing',
    actions: act((d, _now, _ev, out) => sendMigrated(d, out)),
  },
  { guard: `fatal${point}` as const, target: '#streamThread.shuttingDown', actions: act((d, _now, _ev, out) => sendFatal(d, out)) },
];

const onCommitted = act((d, now, ev, out) => committed(d, now, replyOf(ev).ok, out));
const commitGoesOn = { guard: 'commitGoesOn' as const, actions: act((d, _now, ev, out) => continueCommit(d, replyOf(ev), out)) };
const takeWaitingBatch = act((d, _now, ev, out) => takeBatch(d, replyOf(ev), out));
const holdNewTask = act((d, _now, ev) => holdForNewTask(d, replyOf(ev)));
const newTask = [holdNewTask, act((d, _now, _ev, out) => announceNewTask(d, out))];
const startCommitting = act((d, _now, _ev, out) => startCommit(d, out));
/**
 * The main consumer's onPartitionsRevoked / onPartitionsLost (revocation.ts), while poll() is out:
 * uncommitted work is committed first (the answer follows the commit); a lost generation closes the
 * task dirty under either guarantee (under exactly_once_v2 with its transaction aborted and the
 * producer re-created); otherwise the listener returns at once.
 */
const answerNow = act((d, _now, _ev, out) => answerRevocation(d, out));
const waitForCommit = act((d, _now, ev) => answerAfterCommit(d, ev));
const revokedWhilePolling = [
  {
    guard: 'lostInTransaction' as const,
    target: '#streamThread.migrating',
    actions: [act((d, _now, _ev, out) => tasksLost(d, out)), act((d, _now, _ev, out) => closeDirty(d, out))],
  },
  {
    guard: 'lostWithoutWork' as const,
    target: '#streamThread.migrating.closingProducer',
    actions: act((d, _now, _ev, out) => {
      tasksLostWithoutWork(d, out);
      dropTaskWork(d, out);
      closeProducer(d, out);
    }),
  },
  {
    // at_least_once: the task closed dirty (its uncommitted work and commit timer dropped) and
    // created again — restored, then run from the committed offsets; the thread's commit clock goes on
    guard: 'lostAtLeastOnce' as const,
    target: '#streamThread.starting',
    actions: act((d, now, _ev, out) => {
      tasksLostAtLeastOnce(d, out);
      dropTaskWork(d, out);
      const lastCommitAt = d.lastCommitAt;
      startTask(d, now);
      d.lastCommitAt = lastCommitAt;
    }),
  },
  { guard: 'revokedWithWork' as const, target: '#streamThread.running.committingWhilePolling', actions: [waitForCommit, startCommitting] },
  { actions: answerNow },
];

/**
 * The same while a batch runs with poll() out (a restored task's records, stateUpdater.ts): a lost
 * generation closes dirty as above; uncommitted work is committed once the batch ends (Kafka's
 * handleRevocation runs inside poll(), between batches), the listener answered after that commit.
 */
const revokedWhileBusy = [
  ...revokedWhilePolling.slice(0, 3),
  { guard: 'revokedWithWork' as const, actions: waitForCommit },
  { actions: answerNow },
];
/** Where the thread would poll, a revocation that waits for a commit (revokedWhileBusy) has it first. */
const commitForRevocation = { guard: 'revocationWaits' as const, target: 'committingWhilePolling', actions: startCommitting };

/**
 * A commit under way (sendOffsetsToTransaction + commitTransaction, or flush + commitSync): `done`
 * is where its end leads; `more` are the state's other answers (a poll() answer while it commits).
 */
function committingState(done: { target: string; actions: unknown }, more: readonly object[] = [], before: readonly object[] = []) {
  return {
    on: {
      reply: [
        retryOnTimeout,
        ...taskFailed(),
        ...commitSyncFailed,
        ...sendFailedAt('AtFlush'),
        commitGoesOn,
        ...before,
        { guard: 'commitDone' as const, ...done },
        ...more,
      ],
      // the main consumer's onPartitionsRevoked returns when this commit ends
      onPartitionsRevoked: { actions: waitForCommit },
    },
  };
}

export const streamThreadMachine = setup({
  types: {} as { context: StreamThreadContext; input: StreamThreadInput; events: Ev },
  guards: streamThreadGuards,
}).createMachine({
  id: 'streamThread',
  context: ({ input }) => initialContext(input),
  initial: 'idle',
  // the rebalance listener, where the task has nothing to commit: it returns at once
  on: {
    crash: '.down',
    onPartitionsRevoked: { actions: answerNow },
    // the main consumer rejoins keeping its partitions (COOPERATIVE): no commit until the assignment
    onRebalanceStart: { actions: act((d) => rebalanceStarted(d)) },
    // the assignment (TaskManager.handleAssignment): tasks newly assigned are created and restored
    // once the thread is polling (running.polling), or at the next poll() answer (assignment.ts)
    onPartitionsAssigned: { actions: act((d, _now, ev, out) => takeAssignment(d, ev, out)) },
    // the producer's Callback: the collector keeps the exception for its next send() or flush()
    sendFailed: { actions: act((d, _now, ev) => onSendFailed(d, (ev as SendFailedCall).args.error)) },
  },
  states: {
    idle: { on: { boot: { target: 'starting', actions: act((d, now) => startProcess(d, now)) } } },
    // no task yet: straight on to poll() (the tasks come with the assignment)
    starting: { always: toRunning('started') },
    // the new tasks are initialised (StreamTask.initializeIfNeeded): under exactly_once_v2 the
    // producer's initTransactions() first, once per producer; then each store restored
    restoring: {
      initial: 'initializingTask',
      on: { reply: { guard: 'mainPoll', actions: act((d, _now, ev) => holdPoll(d, replyOf(ev))) } },
      states: {
        initializingTask: {
          always: [{ guard: 'awaitsInitTransactions', target: 'initializingTransactions' }, { target: 'readingEndOffsets' }],
        },
        initializingTransactions: {
          on: {
            reply: [
              retryOnTimeout,
              {
                guard: 'initialized',
                target: 'readingEndOffsets',
                actions: act((d, _now, _ev, out) => transactionsInitialized(d, out)),
              },
              {
                guard: 'initFailed',
                target: '#streamThread.shuttingDown',
                actions: act((d, _now, ev, out) => stop(d, out, `initTransactions failed: ${replyOf(ev).error}`)),
              },
            ],
          },
        },
        readingEndOffsets: {
          on: {
            reply: [
              ...restored('emptyChangelog'),
              {
                guard: 'endOffsetsAnswer',
                target: 'seekingToBeginning',
                actions: [
                  act((d, _now, ev) => applyRestoreReply(d, replyOf(ev))),
                  act((d, _now, _ev, out) => seekChangelogToBeginning(d, out)),
                ],
              },
            ],
          },
        },
        seekingToBeginning: {
          on: {
            reply: { guard: 'seekedToBeginning', target: 'readingChangelog', actions: act((d, _now, _ev, out) => pollChangelog(d, out)) },
          },
        },
        readingChangelog: {
          on: {
            reply: [
              ...restored('changelogReadToEnd'),
              {
                guard: 'changelogPolled',
                actions: [act((d, _now, ev) => applyRestoreReply(d, replyOf(ev))), act((d, _now, _ev, out) => pollChangelog(d, out))],
              },
            ],
          },
        },
      },
    },
    running: {
      initial: 'polling',
      on: { reply: updaterReplies },
      states: {
        // poll() is out and no transaction is open
        polling: {
          always: [
            commitForRevocation,
            // the assignment brought tasks this instance does not have, next to running ones: the
            // state updater restores them while the thread goes on (stateUpdater.ts)
            { guard: 'updaterTakes', actions: startUpdating },
            runHeldBatch,
            // … and no task runs: created, restored on the thread before they process
            {
              guard: 'newTasksPending',
              target: '#streamThread.restoring',
              actions: [act((d, _now, _ev, out) => announceNewTask(d, out)), act((d, _now, _ev, out) => restoreForNewTask(d, out))],
            },
          ],
          on: {
            reply: [
              { guard: 'mainPoll', target: 'processing', actions: [takeWaitingBatch, act((d, _now, _ev, out) => beginBatch(d, out))] },
            ],
            commitDue: { guard: 'commitDueWhilePolling', target: 'committingWhilePolling', actions: startCommitting },
            onPartitionsRevoked: revokedWhilePolling,
          },
        },
        // exactly_once_v2: poll() is out while the transaction stays open until commit.interval.ms
        pollingInTransaction: {
          always: [commitForRevocation, runHeldBatch],
          on: {
            reply: [
              // a new task neither aborts nor commits the transaction (TaskManager.checkStateUpdater):
              // the state updater restores it while the running tasks' batch goes on in the transaction
              {
                guard: 'gainsTaskNextToRunning',
                target: 'processing',
                actions: [startUpdating, takeWaitingBatch, act((d, _now, _ev, out) => runBatch(d, out))],
              },
              {
                guard: 'gainsTask',
                target: '#streamThread.restoring',
                actions: [...newTask, act((d, _now, _ev, out) => restoreForNewTask(d, out))],
              },
              { guard: 'mainPoll', target: 'processing', actions: [takeWaitingBatch, act((d, _now, _ev, out) => runBatch(d, out))] },
            ],
            commitDue: { guard: 'commitDueWhilePolling', target: 'committingWhilePolling', actions: startCommitting },
            onPartitionsRevoked: revokedWhilePolling,
          },
        },
        // the batch's steps, one per `continue`; under exactly_once_v2 inside the transaction
        processing: {
          on: {
            continue: [
              ...sendFailedAt('BeforeSend'),
              { guard: 'planDoneInTransaction', target: 'pollingInTransaction', actions: act((d, now, _ev, out) => runStep(d, now, out)) },
              { guard: 'planDone', target: 'polling', actions: act((d, now, _ev, out) => runStep(d, now, out)) },
              { guard: 'commitStepDue', target: 'committing', actions: startCommitting },
              { actions: act((d, now, _ev, out) => runStep(d, now, out)) },
            ],
            reply: [
              ...taskFailed(),
              { guard: 'beganTransaction', actions: act((d, _now, _ev, out) => runBatch(d, out)) },
              { guard: 'sent', actions: act((d, _now, _ev, out) => sent(d, out)) },
              holdPollWhileBusy,
            ],
            onPartitionsRevoked: revokedWhileBusy,
          },
        },
        // the plan's commit step
        committing: committingState({ target: 'committed', actions: [onCommitted, act((d, _now, _ev, out) => advance(d, out))] }, [
          holdPollWhileBusy,
        ]),
        // committed at the end of the batch: the next `continue` polls
        committed: {
          on: {
            continue: { target: 'polling', actions: act((d, now, _ev, out) => runStep(d, now, out)) },
            reply: holdPollWhileBusy,
            onPartitionsRevoked: revokedWhileBusy,
          },
        },
        // commit.interval.ms passed while poll() waited
        committingWhilePolling: committingState({ target: 'polling', actions: onCommitted }, [
          { guard: 'gainsTask', target: 'committingBeforeNewTask', actions: holdNewTask },
          // the batch must not go into the transaction (or offset commit) under way: it waits for it
          { guard: 'mainPoll', target: 'committingBeforeBatch', actions: takeWaitingBatch },
        ]),
        committingBeforeBatch: committingState({
          target: 'processing',
          actions: [onCommitted, act((d, _now, _ev, out) => beginBatch(d, out))],
        }),
        // a poll() answer with new tasks while a commit is under way: Kafka's stream thread commits
        // synchronously (TaskExecutor) and polls after it, so the assignment that poll() brings is
        // handled once the commit has ended — the model's poll() overlaps the commit, the task waits for it
        committingBeforeNewTask: committingState(
          {
            target: '#streamThread.restoring',
            actions: [
              onCommitted,
              act((d, _now, _ev, out) => announceNewTask(d, out)),
              act((d, _now, _ev, out) => restoreForNewTask(d, out)),
            ],
          },
          [],
          [
            // tasks run: the state updater restores the new one, the batch runs in a new transaction
            {
              guard: 'committedUpdaterTakes' as const,
              target: 'processing',
              actions: [
                onCommitted,
                startUpdating,
                act((d, _now, _ev, out) => takeHeldBatch(d, out)),
                act((d, _now, _ev, out) => beginBatch(d, out)),
              ],
            },
          ],
        ),
      },
    },
    // at_least_once, TaskCorruptedException: the main consumer goes back to the committed offsets,
    // then the store is restored (sendErrors.ts); a poll() answer from before the seek is dropped
    recovering: {
      on: {
        reply: [
          { guard: 'seekedToCommitted', target: 'restoring', actions: act((d, _now, _ev, out) => restoreAfterCorruption(d, out)) },
          { guard: 'mainPoll', actions: act((d) => dropPoll(d)) },
        ],
      },
    },
    migrating: {
      initial: 'aborting',
      on: { reply: { guard: 'mainPoll', actions: act((d) => dropPoll(d)) } },
      states: {
        aborting: {
          on: {
            reply: { guard: 'abortAnswered', target: 'closingProducer', actions: act((d, _now, _ev, out) => aborted(d, out)) },
            abortTimeout: { target: 'closingProducer', actions: act((d, _now, _ev, out) => onAbortTimeout(d, out)) },
          },
        },
        closingProducer: {
          on: { reply: { guard: 'producerClosed', target: 'resubscribing', actions: act((d, _now, _ev, out) => resubscribe(d, out)) } },
        },
        resubscribing: {
          on: {
            reply: {
              guard: 'resubscribed',
              target: '#streamThread.starting',
              actions: act((d, now) => startTask(d, now)),
            },
          },
        },
      },
    },
    // the thread dies (a StreamsException): StreamThread.completeShutdown (shutdown.ts) — the task
    // closed dirty (under exactly_once_v2 an open transaction aborted within max.block.ms), the
    // producer closed, the main consumer leaving the group and closed, the restore consumer closed
    shuttingDown: {
      initial: 'closingTasks',
      on: { reply: { guard: 'mainPoll', actions: act((d) => dropPoll(d)) } },
      states: {
        closingTasks: {
          always: [
            {
              guard: 'transactionInFlight',
              target: 'aborting',
              actions: act((d, _now, _ev, out) => closeTasksForShutdown(d, out, true)),
            },
            { target: 'closingProducer', actions: act((d, _now, _ev, out) => closeTasksForShutdown(d, out, false)) },
          ],
        },
        aborting: {
          on: {
            // an error is swallowed (TaskManager.executeAndMaybeSwallow): the shutdown goes on
            reply: { guard: 'abortAnswered', target: 'closingProducer', actions: act((d, _now, _ev, out) => aborted(d, out)) },
            abortTimeout: { target: 'closingProducer', actions: act((d, _now, _ev, out) => onAbortTimeout(d, out)) },
          },
        },
        closingProducer: {
          on: {
            reply: { guard: 'producerClosed', target: 'closingConsumer', actions: act((d, _now, _ev, out) => closeMainConsumer(d, out)) },
          },
        },
        closingConsumer: {
          on: {
            reply: {
              guard: 'consumerClosed',
              target: 'closingRestoreConsumer',
              actions: act((d, _now, _ev, out) => closeRestoreConsumer(d, out)),
            },
          },
        },
        closingRestoreConsumer: { on: { reply: { guard: 'restoreConsumerClosed', target: '#streamThread.stopped' } } },
      },
    },
    // DEAD: every client closed
    stopped: {},
    down: {
      on: { restart: { target: 'starting', actions: act((d, now) => startProcess(d, now)) } },
    },
  },
});
