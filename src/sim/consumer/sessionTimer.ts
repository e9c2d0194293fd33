/**
 * The consumer's side of session.timeout.ms: its heartbeat thread's session timer
 * (Heartbeat.sessionTimer, AbstractCoordinator.HeartbeatThread.run). The coordinator expires a
 * member it has not heard from for session.timeout.ms; the member, for its part, gives up on a
 * coordinator it has not heard from for as long: `heartbeat.sessionTimeoutExpired(now)` →
 * markCoordinatorUnknown("session timed out without receiving a heartbeat response") — the
 * coordinator forgotten and its connection closed (`client.disconnectAsync`), so every group request
 * in flight on it (a stalled OffsetFetch, unanswered Heartbeats, a commit) fails with a disconnect
 * and is retried on a new connection; the thread then looks the coordinator up again.
 *
 * The timer starts when the heartbeat thread is enabled (the JoinGroup answer: HeartbeatThread.enable
 * resets all of Heartbeat's timers) and again at each heartbeat answered without error or with
 * REBALANCE_IN_PROGRESS (receiveHeartbeat) and each FindCoordinator that finds the coordinator
 * (resetSessionTimeout). The thread checks it each time it wakes, before it would send a heartbeat,
 * and only while the coordinator is known (an unknown one is looked up instead) and the member has
 * joined (hasNotJoinedGroup: UNJOINED and PREPARING_REBALANCE do not heartbeat).
 */
import type { Out } from '../actors/out';
import { type Draft, groupCoordinatorOnLeader, knownCoordinator, outOfGeneration } from './consumerContext';

/** The timer for the session deadline, then for the heartbeat thread's first wake-up at or after it. */
export const SESSION_TIMER = 'session';

/** The heartbeat thread goes round its loop now without waiting: its retry.backoff.ms wake-ups count from here. */
export function heartbeatThreadWakes(d: Draft, now: number): void {
  d.heartbeatWokeAt = now;
}

/** Until the heartbeat thread's next wake-up (0: it is awake now): it waits retry.backoff.ms at a time from heartbeatWokeAt. */
function untilWakeUp(d: Draft, now: number): number {
  const backoff = d.config['retry.backoff.ms'];
  if (backoff <= 0 || now < d.heartbeatWokeAt) return 0;
  return (backoff - ((now - d.heartbeatWokeAt) % backoff)) % backoff;
}

/** Heartbeat.resetSessionTimeout: the session deadline is session.timeout.ms from now. */
export function resetSessionTimeout(d: Draft, now: number, out: Out): void {
  d.sessionDeadline = now + d.config['session.timeout.ms'];
  out.timer(SESSION_TIMER, 'heartbeatSessionExpired', d.config['session.timeout.ms'], {}, true);
}

/** The heartbeat thread is disabled (a rejoin, a reset generation, close()): no heartbeats, no session timer. */
export function stopHeartbeatThread(out: Out): void {
  out.cancel('heartbeat');
  out.cancel(SESSION_TIMER);
}

/** HeartbeatThread.run's check, at a wake-up at `now`: the session has expired with the coordinator known. */
export function sessionExpired(d: Draft, now: number): boolean {
  return !outOfGeneration(d) && now >= d.sessionDeadline && knownCoordinator(d) !== null;
}

/**
 * markCoordinatorUnknown(false, "session timed out without receiving a heartbeat response"): the
 * coordinator is forgotten and its connection closed — what was in flight on it completes as a
 * disconnect. A coordinator that lives on a `__consumer_offsets` leader is then looked up by the
 * heartbeat thread (consumerContext.ts `action` arms its wake-ups), and found, resets the timer
 * (groupLookup.ts); the model's stand-alone coordinator needs no lookup (the model sends no
 * FindCoordinator for it), so it is found again at once and the timer starts again here.
 */
export function giveUpOnCoordinator(d: Draft, now: number, out: Out): void {
  const coordinator = knownCoordinator(d);
  if (coordinator === null) return;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `no Heartbeat answered for session.timeout.ms (${d.config['session.timeout.ms']} ms): the heartbeat thread marks the group coordinator unknown and closes its connection to it (session timed out without receiving a heartbeat response)`,
  });
  out.closeConnection(coordinator);
  // markCoordinatorUnknown: the loop goes round again at once
  heartbeatThreadWakes(d, now);
  if (groupCoordinatorOnLeader(d.meta)) d.groupCoordinator = null;
  else resetSessionTimeout(d, now, out);
}

/**
 * The session timer fired. HeartbeatThread.run checks `heartbeat.sessionTimeoutExpired(now)` only when it
 * wakes — every retry.backoff.ms (`wait(retryBackoffMs)`), or at once when notified — so a deadline that
 * falls between two wake-ups is seen at the next one: the timer is set again for it. Fired late (the
 * process was paused past the deadline: its wait ended long ago), the thread sees it now.
 */
export function onHeartbeatSessionExpired(d: Draft, now: number, out: Out): void {
  if (!sessionExpired(d, now)) return;
  const wait = untilWakeUp(d, now);
  if (now === d.sessionDeadline && wait > 0) {
    out.timer(SESSION_TIMER, 'heartbeatSessionExpired', wait, {}, true);
    return;
  }
  giveUpOnCoordinator(d, now, out);
}
