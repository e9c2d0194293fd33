/**
 * The stream thread's decisions, as XState guards of (context, event): which state an answer or a
 * timer leads to. Each reads the context before the transition's actions run.
 */
import { answers, failed, replyOf } from '../application/applicationLoop';
import { newTasks } from './assignment';
import { isTaskMigrated } from './migration';
import { commitIsDue } from './processing';
import { awaitsInitTransactions, restoreAfter, restoredToEnd } from './restore';
import { lostAtLeastOnce, lostInTransaction, lostWithoutWork, revokedWithWork } from './revocation';
import { pendingSendError, type SendErrorKind } from './sendErrors';
import { transactionInFlight } from './shutdown';
import { updaterTakesNewTasks } from './stateUpdater';
import { type Ev, eos, eventTime, type StreamThreadContext } from './streamThreadContext';
import { timedOutWithinTaskTimeout } from './taskTimeout';

type Args = { context: StreamThreadContext; event: Ev };

/** The producer calls whose failure fails the task (under exactly_once_v2; a send under at_least_once is only logged). */
const TASK_CALLS = new Set(['beginTransaction', 'send', 'sendOffsetsToTransaction', 'commitTransaction']);

/** The failed producer call that fails the task (`calls`: those whose failure does in this state), with its error. */
function producerFailure({ context, event }: Args, calls: ReadonlySet<string>): { error: string | null } | null {
  const r = replyOf(event);
  if (!r || r.ok || event.type !== 'reply' || event.from !== context.producer || !calls.has(r.call)) return null;
  if (r.call === 'send' && !eos(context)) return null;
  // under exactly_once_v2 the send's Callback (RecordCollectorImpl.recordSendError) saw a fencing or
  // sequence error first, and flush() — before any commit — throws it as a TaskMigratedException: a
  // refusal wrapping one (its cause) is met as that error
  if (eos(context) && r.cause && isTaskMigrated(r.cause) && !isTaskMigrated(r.error ?? null)) return { error: r.cause };
  return { error: r.error ?? null };
}

const migrated = (calls: ReadonlySet<string>) => (a: Args) => {
  const f = producerFailure(a, calls);
  return f !== null && isTaskMigrated(f.error);
};
const fatal = (calls: ReadonlySet<string>) => (a: Args) => {
  const f = producerFailure(a, calls);
  return f !== null && !isTaskMigrated(f.error);
};

const mainPoll = ({ context, event }: Args) => answers(event, 'poll', context.consumer);

/** The restore consumer's answer ends the restore: the changelog is read to its end offsets. */
function restoreEnds(call: 'endOffsets' | 'poll') {
  return ({ context, event }: Args) => {
    const r = replyOf(event);
    return r !== null && answers(event, call, context.restoreConsumer) && restoredToEnd(restoreAfter(context, r));
  };
}

/** at_least_once: the next step sends, and the collector holds a failed send of this kind (sendErrors.ts). */
const beforeSend =
  (kind: SendErrorKind) =>
  ({ context }: Args) =>
    SEND_STEPS.has(context.plan[context.step]?.kind ?? '') && pendingSendError(context) === kind;
/** at_least_once: flush() returned, and the collector holds a failed send of this kind. */
const atFlush =
  (kind: SendErrorKind) =>
  ({ context, event }: Args) =>
    answers(event, 'flush', context.producer) && pendingSendError(context) === kind;
const SEND_STEPS = new Set(['repartition', 'changelog', 'output']);

/**
 * The assignment has tasks this instance does not have yet (assignment.ts newTasks), and the state
 * updater restores none (a task assigned during its restore waits for its end: stateUpdater.ts).
 */
const newTasksPending = ({ context }: Args) => newTasks(context).length > 0 && context.updating.length === 0;
/** New tasks next to running ones: the state updater restores them while the thread goes on (stateUpdater.ts). */
const updaterTakes = ({ context }: Args) => updaterTakesNewTasks(context);
/** The restore consumer answers the state updater's restore (none of the thread's own runs meanwhile). */
const forUpdater = (guard: (a: Args) => boolean) => (a: Args) => a.context.updating.length > 0 && guard(a);
const held = ({ context }: Args) => context.heldBatch !== null;
/** The thread starts running (at a start, or a restore ended): new tasks, a held batch, or neither. */
const starting = (guard: (a: Args) => boolean) => ({
  NewTask: (a: Args) => guard(a) && newTasksPending(a),
  Held: (a: Args) => guard(a) && held(a),
});
const endOffsetsAnswer = ({ context, event }: Args) => answers(event, 'endOffsets', context.restoreConsumer);
const seekedToBeginning = ({ context, event }: Args) => answers(event, 'seekToBeginning', context.restoreConsumer);
const changelogPolled = ({ context, event }: Args) => answers(event, 'poll', context.restoreConsumer);
const commitDone = ({ context, event }: Args) =>
  (answers(event, 'commitTransaction', context.producer) && replyOf(event)?.ok === true) || answers(event, 'commitSync', context.consumer);
const initialized = ({ context, event }: Args) => answers(event, 'initTransactions', context.producer) && replyOf(event)?.ok === true;
/** A start: the thread runs whatever the guarantee (its tasks, and their transactions, come with the assignment). */
const started = () => true;

export const streamThreadGuards = {
  corruptedBeforeSend: beforeSend('corrupted'),
  migratedBeforeSend: beforeSend('migrated'),
  fatalBeforeSend: beforeSend('fatal'),
  corruptedAtFlush: atFlush('corrupted'),
  migratedAtFlush: atFlush('migrated'),
  fatalAtFlush: atFlush('fatal'),
  seekedToCommitted: ({ context, event }: Args) => answers(event, 'seekToCommitted', context.consumer),
  started,
  startedNewTask: starting(started).NewTask,
  startedHeld: starting(started).Held,
  initialized,
  /** exactly_once_v2, the producer's transactions not initialised: a new task calls initTransactions() first. */
  awaitsInitTransactions: ({ context }: Args) => awaitsInitTransactions(context),
  initFailed: ({ context, event }: Args) => failed(event, 'initTransactions', context.producer),
  /** initTransactions, sendOffsetsToTransaction or commitTransaction timed out, the task timeout not passed: retried. */
  timedOutWithinTaskTimeout: ({ context, event }: Args) => timedOutWithinTaskTimeout(context, event),
  mainPoll,
  /** A poll() answer, with tasks newly assigned to this instance not created yet (assignment.ts). */
  gainsTask: (a: Args) => mainPoll(a) && newTasksPending(a),
  /** The assignment has tasks this instance does not have yet: they are created and restored. */
  newTasksPending,
  endOffsetsAnswer,
  seekedToBeginning,
  changelogPolled,
  updaterTakes,
  /** A poll() answer, with tasks newly assigned next to running ones: the state updater restores them. */
  gainsTaskNextToRunning: (a: Args) => mainPoll(a) && updaterTakes(a),
  /** The commit before a new task ended, and tasks run: the state updater restores the new one. */
  committedUpdaterTakes: (a: Args) => commitDone(a) && updaterTakes(a),
  /** A batch waits (a restored task's first records, or a poll() answer that came meanwhile): run before polling again. */
  heldBatchWaits: held,
  /** onPartitionsRevoked waits for a commit of the work done (revokedWhileBusy): the thread commits before it polls on. */
  revocationWaits: ({ context }: Args) => context.revocationPending && context.uncommitted > 0,
  updaterEndOffsets: forUpdater(endOffsetsAnswer),
  updaterSeeked: forUpdater(seekedToBeginning),
  updaterPolled: forUpdater(changelogPolled),
  updaterEmptyChangelog: forUpdater(restoreEnds('endOffsets')),
  updaterReadToEnd: forUpdater(restoreEnds('poll')),
  emptyChangelog: restoreEnds('endOffsets'),
  emptyChangelogNewTask: starting(restoreEnds('endOffsets')).NewTask,
  emptyChangelogHeld: starting(restoreEnds('endOffsets')).Held,
  changelogReadToEnd: restoreEnds('poll'),
  changelogReadToEndNewTask: starting(restoreEnds('poll')).NewTask,
  changelogReadToEndHeld: starting(restoreEnds('poll')).Held,
  /** The plan's commit step, with commit.interval.ms passed and work to commit. */
  commitStepDue: ({ context, event }: Args) =>
    context.plan[context.step]?.kind === 'commit' && commitIsDue(context, eventTime(context, event)),
  /** commit.interval.ms passed while poll() waited. */
  commitDueWhilePolling: ({ context, event }: Args) => context.plan.length === 0 && commitIsDue(context, eventTime(context, event)),
  planDone: ({ context }: Args) => context.plan[context.step] === undefined,
  planDoneInTransaction: ({ context }: Args) => context.plan[context.step] === undefined && eos(context),
  /** A producer call of the task failed with an error Streams turns into a TaskMigratedException. */
  taskMigrated: migrated(TASK_CALLS),
  /** … with any other error: a StreamsException. */
  streamsException: fatal(TASK_CALLS),
  beganTransaction: ({ context, event }: Args) => answers(event, 'beginTransaction', context.producer),
  sent: ({ context, event }: Args) => answers(event, 'send', context.producer),
  commitGoesOn: ({ context, event }: Args) =>
    (answers(event, 'sendOffsetsToTransaction', context.producer) && replyOf(event)?.ok === true) ||
    answers(event, 'flush', context.producer),
  /** at_least_once: commitSync failed with CommitFailedException — TaskExecutor makes it a TaskMigratedException. */
  commitSyncMigrated: ({ context, event }: Args) =>
    !eos(context) && failed(event, 'commitSync', context.consumer) && replyOf(event)?.error === 'CommitFailedException',
  /** at_least_once: commitSync failed with another KafkaException (not a TimeoutException) — a StreamsException: the thread dies. */
  commitSyncFatal: ({ context, event }: Args) =>
    !eos(context) &&
    failed(event, 'commitSync', context.consumer) &&
    !['CommitFailedException', 'TimeoutException'].includes(replyOf(event)?.error ?? ''),
  /** The commit is done: commitTransaction returned, or commitSync did (failed or not). */
  commitDone,
  abortAnswered: ({ context, event }: Args) => answers(event, 'abortTransaction', context.producer),
  producerClosed: ({ context, event }: Args) => answers(event, 'close', context.producer),
  consumerClosed: ({ context, event }: Args) => answers(event, 'close', context.consumer),
  restoreConsumerClosed: ({ context, event }: Args) => answers(event, 'close', context.restoreConsumer),
  /** exactly_once_v2, the thread dying with a transaction in flight: the dirty close aborts it (shutdown.ts). */
  transactionInFlight: ({ context }: Args) => transactionInFlight(context),
  resubscribed: ({ context, event }: Args) => answers(event, 'resubscribe', context.consumer),
  /** onPartitionsRevoked with uncommitted work: commit it first (revocation.ts). */
  revokedWithWork: ({ context, event }: Args) => revokedWithWork(context, event),
  /** onPartitionsLost with an exactly_once_v2 transaction open: close the task dirty. */
  lostInTransaction: ({ context, event }: Args) => lostInTransaction(context, event),
  lostWithoutWork: ({ context, event }: Args) => lostWithoutWork(context, event),
  /** onPartitionsLost under at_least_once: close the task dirty too. */
  lostAtLeastOnce: ({ context, event }: Args) => lostAtLeastOnce(context, event),
};
