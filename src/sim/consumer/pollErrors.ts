/**
 * Exceptions poll() throws (KafkaConsumer.poll propagates them to the application): a JoinGroup
 * refused for good (INVALID_SESSION_TIMEOUT, AbstractCoordinator.JoinGroupResponseHandler), and a
 * partition without a position when auto.offset.reset=none (NoOffsetForPartitionException from
 * SubscriptionState.resetInitializingPositions; OffsetOutOfRangeException from
 * FetchCollector.handleInitializeErrors). In Kafka the poll() that does the work throws; the model's
 * consumer does some of that work between polls, so an exception found while no poll() waits is
 * thrown by the next one. The poll() after a thrown exception tries again (joins, asks for the
 * committed offsets, or fetches the out-of-range position again), as Kafka's next poll() does.
 */
import type { Out } from '../actors/out';
import type { ClientException } from '../protocol/errors';
import { armPollTimer, type ConsumerContext, type Draft } from './consumerContext';
import type { EventOf } from './events';

/** poll() throws `exception`: now if the application waits in it, else at its next call. */
export function failPoll(d: Draft, out: Out, exception: ClientException): void {
  const waiting = d.pollWaiting;
  d.pollError = { exception, thrown: waiting !== null };
  if (waiting === null) return;
  out.call(waiting, 'reply', { call: 'poll', ok: false, error: exception });
  d.pollWaiting = null;
  armPollTimer(d, out);
}

/** An exception is waiting for poll(): thrown at the next call, or (thrown already) the call tries again. */
export function pollErrorPending(ctx: ConsumerContext): boolean {
  return ctx.pollError !== null;
}

/**
 * poll() with an exception pending: throws it if not thrown yet (true: answered), else clears it
 * and returns false — the caller then does what this poll() tries again.
 */
export function throwPending(d: Draft, call: EventOf<'poll'>, out: Out): boolean {
  const pending = d.pollError;
  if (pending && !pending.thrown) {
    out.call(call.from, 'reply', { call: 'poll', ok: false, error: pending.exception });
    d.pollError = { exception: pending.exception, thrown: true };
    armPollTimer(d, out);
    return true;
  }
  d.pollError = null;
  return false;
}
