/**
 * A consuming application: the poll → process → commit loop (applicationLoop.ts), in one of the
 * processing modes the seed articles compare. After each poll() it lays out a plan of steps for the
 * batch (consumerAppPlan.ts), and runs them one kernel step at a time (consumerAppLoop.ts), passing a
 * named point after each (afterPoll, afterProcess, afterSideEffect, afterProduce, afterSendOffsets,
 * beforeCommit, afterCommit) where a crash can be injected. Its states: running.initializing
 * (initTransactions) → polling → processing → committing (commitSync, or sendOffsetsToTransaction and
 * commitTransaction) → polling …, and aborting (abortTransaction, then seekToCommitted); stopped when
 * fenced.
 *
 * - at-most-once: commit the positions, then process (a crash loses the rest of the batch);
 * - at-least-once: process, then commitSync (a crash reprocesses);
 * - auto-commit: process; poll() commits the previous positions every auto.commit.interval.ms;
 * - commit-last-processed: the pitfall — commits the last processed offset instead of the next;
 * - exactly-once: consume-transform-produce in a transaction with sendOffsetsToTransaction(next
 *   offsets, groupMetadata); after an abort, seek back to the committed offsets. One transaction per
 *   poll(), as Kafka's ExactlyOnceMessageProcessor does — or, with `commitIntervalMs`, one kept open
 *   across polls until that much time has passed (batching). A batched transaction sees poll() run
 *   inside it: an auto-commit there (enable.auto.commit=true, ConsumerCoordinator.onJoinPrepare on a
 *   rebalance) commits the positions of records whose transaction is still open. The application
 *   reads consumer.groupMetadata() as of its last poll(), records or none — a rebalance completes
 *   inside poll() (ConsumerCoordinator.onJoinComplete) — and when its commit falls due while it waits
 *   in poll() (a poll() that returned nothing) it reads the getter then. When either shows a new
 *   generation while the transaction is open, the partitions were revoked in between: the
 *   application's onPartitionsRevoked aborts the transaction so that the new owner processes those
 *   records again from the committed offsets;
 * - consume-produce-no-transactions: produce, flush, then commitSync (outputs can be written twice);
 * - offsets-in-sink: the result and the consumed offset in one database transaction; its rebalance
 *   listener (onPartitionsAssigned) reads the offsets stored in the database and seeks to them on
 *   every assignment, as Kafka's documentation of ConsumerRebalanceListener shows.
 */
import { setup } from 'xstate';
import { handle } from '../actors/out';
import { type ConsumerAppContext, type ConsumerAppInput, type Ev, initialConsumerAppContext } from './consumerAppContext';
import { consumerAppGuards } from './consumerAppGuards';
import { onContinue, onPartitionsAssigned, onReply, onTxnCommitDue, start } from './consumerAppLoop';
import { onDbTimeout, onHttpTimeout, onSinkDisconnected, onSinkResponse } from './consumerAppSinks';

export type { ConsumerAppContext, ConsumerAppEvent, ConsumerAppInput, PollAnswer, SinkRef } from './consumerAppContext';
export { consumerAppGuards } from './consumerAppGuards';
export { batchedPlan, type PlanStep, planFor } from './consumerAppPlan';

/** boot and restart: an exactly-once application initialises its transactions first. */
const starting = [
  { guard: 'transactional' as const, target: 'running.initializing', actions: start },
  { target: 'running', actions: start },
];

export const consumerAppMachine = setup({
  types: {} as { context: ConsumerAppContext; input: ConsumerAppInput; events: Ev },
  guards: consumerAppGuards,
}).createMachine({
  id: 'consumerApp',
  context: ({ input }) => initialConsumerAppContext(input),
  initial: 'idle',
  on: { crash: '.down' },
  states: {
    // not started yet (before its startAt): a crash or restart of its process changes nothing
    idle: { on: { boot: starting, crash: {}, restart: {} } },
    running: {
      initial: 'polling',
      on: {
        continue: { actions: onContinue },
        onPartitionsAssigned: { actions: onPartitionsAssigned },
        reply: [
          { guard: 'fatalReply', target: '#consumerApp.stopped', actions: onReply },
          { guard: 'abortsTransaction', target: '.aborting', actions: onReply },
          { guard: 'seekedToCommitted', target: '.polling', actions: onReply },
          { actions: onReply },
        ],
        DbTransactionResult: { actions: onSinkResponse },
        DbQueryResult: { actions: onSinkResponse },
        HttpResponse: { actions: onSinkResponse },
        httpTimeout: { actions: onHttpTimeout },
        dbTimeout: { actions: onDbTimeout },
        txnCommitDue: { actions: onTxnCommitDue },
        disconnected: { actions: onSinkDisconnected },
      },
      states: {
        // exactly-once: initTransactions() before the first poll()
        initializing: { on: { reply: { guard: 'initialized', target: 'polling', actions: onReply } } },
        // waiting in poll(): no steps planned
        polling: { always: { guard: 'planHasSteps', target: 'processing' } },
        // the batch's steps (process, side effect, produce, the transaction's begin)
        processing: {
          always: [
            { guard: 'planEmpty', target: 'polling' },
            { guard: 'atCommitStep', target: 'committing' },
          ],
        },
        // commitSync, or sendOffsetsToTransaction and commitTransaction
        committing: {
          always: [
            { guard: 'planEmpty', target: 'polling' },
            { guard: 'pastCommitStep', target: 'processing' },
          ],
        },
        // abortTransaction, then seekToCommitted: back to the committed offsets
        aborting: {},
      },
    },
    stopped: { on: { reply: {} } },
    down: {
      entry: handle((ctx: ConsumerAppContext) => ({
        ...ctx,
        batch: [],
        plan: [],
        step: 0,
        groupMetadata: null,
        httpAttempt: 0,
        sinkRequest: null,
        listenerQuery: null,
        pollOutstanding: false,
        heldPoll: null,
        txnOpen: false,
        txnGeneration: null,
      })),
      on: { restart: starting },
    },
  },
});
