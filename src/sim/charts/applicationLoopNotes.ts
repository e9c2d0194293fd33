/** What the application loop's charts show, in words, for docs/architecture.md (charts/docs.ts). */

/** The consumer application's loop (application/applicationLoop.ts, consumerApp.machine.ts). */
export const APPLICATION_LOOP_NOTE = [
  'The application loop (`src/sim/application/applicationLoop.ts`), shared with the Kafka Streams thread: poll() →',
  'process the batch one kernel step per step (a crash can land between any two) → commit. After each poll() the',
  'application plans the batch by processing mode (`consumerAppPlan.ts`): at-most-once commits first, at-least-once',
  'and commit-last-processed after processing, consume-produce-no-transactions after flush(), exactly-once inside',
  'beginTransaction … sendOffsetsToTransaction(next offsets, groupMetadata) → commitTransaction (with',
  '`commitIntervalMs`, one transaction kept open across polls), auto-commit leaves it to poll(), offsets-in-sink',
  'to the database transaction. `polling`, `processing` and `committing` follow the plan (eventless transitions',
  'on where it stands); the guards `abortsTransaction` (a failed sendOffsetsToTransaction or commitTransaction, or',
  'a new generation while a batched transaction is open — in any poll() answer, records or none, or in',
  'consumer.groupMetadata(), which a commit that falls due while the application waits in poll() reads first) and',
  '`fatalReply` (initTransactions or abortTransaction failed, the producer fenced, a fatal consumer error) decide the rest.',
].join(' ');

/** The Kafka Streams thread's loop (streams/streamThread.machine.ts). */
export const STREAM_THREAD_NOTE = [
  'The same loop (`src/sim/application/applicationLoop.ts`) as the Streams thread runs it: `running.polling` →',
  '`processing` (the batch through the topology) → `committing` when the commit step finds commit.interval.ms',
  'passed → `committed` → `polling`. Under exactly_once_v2 the transaction begun for a batch stays open across',
  'polls (`pollingInTransaction`) until a commit: flush, sendOffsetsToTransaction, then commitTransaction',
  '(at_least_once: flush then commitSync). When commit.interval.ms passes while poll() waits the thread commits',
  '(`committingWhilePolling`), and a batch answered meanwhile waits for that commit (`committingBeforeBatch`).',
  "Tasks come from the assignment (`src/sim/streams/assignment.ts`): the main consumer's `onPartitionsAssigned`",
  'gives the thread its partitions, and one whose task the thread does not have — every one after a start — is',
  'created and its store restored before it processes: from `running.polling` at once (guard `newTasksPending`,',
  'the poll() still out), otherwise at the next poll() answer (guard `gainsTask`), or once the commit under way',
  'ends (`committingBeforeNewTask`), or when a restore ends. With no task running the thread restores in',
  '`restoring`; next to running ones the state updater restores them (`src/sim/streams/stateUpdater.ts`,',
  "`stateUpdaterTransitions.ts`: guard `updaterTakes`, the context's `updating`, the restore consumer's answers",
  'taken in every `running` sub-state) while the thread stays in `running`, processing and committing the',
  "running tasks; the new tasks' records are kept aside (`paused`) and run once restored (`heldBatchWaits`),",
  "inside the open transaction, with no commit. Only the new tasks' stores are restored; the running",
  "tasks keep theirs. A task's initialisation (`restoring.initializingTask`, as `StreamTask.initializeIfNeeded`) first calls",
  "initTransactions() under exactly_once_v2 when the thread's producer has not yet (`initializingTransactions`; once",
  'per producer, `transactionsInitialized`), so a thread that starts polls and joins its group before its first',
  'InitProducerId (`starting` is a transient state). A position that moves creates no task. A failed',
  'producer call is a TaskMigratedException (guard `taskMigrated` → `migrating`) or a StreamsException (→ `shuttingDown`:',
  'the task closed dirty, an open transaction aborted, the producer, the main consumer — leaving the group — and the',
  'restore consumer closed, then `stopped`).',
].join(' ');
