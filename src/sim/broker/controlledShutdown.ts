/**
 * A broker's controlled shutdown (`controlled.shutdown.enable`, true by default): what an operator's
 * stop or a rolling restart does, where a crash does not (BrokerServer.shutdown,
 * BrokerLifecycleManager, ReplicaManager.beginControlledShutdown; the controller's side is
 * controller.machine.ts `onShutdownHeartbeat`).
 *
 * 1. The broker enters PENDING_CONTROLLED_SHUTDOWN and sends a BrokerHeartbeat at once with
 *    wantShutDown, and every heartbeat after it too.
 * 2. The controller moves its leaderships to other in-sync replicas (or takes the partition
 *    offline when none is left) and takes it out of every ISR; the broker, told it no longer leads,
 *    answers its waiting produces NOT_LEADER_OR_FOLLOWER, and stops fetching for the partitions it
 *    is no longer in sync for. Its clients find the new leaders through Metadata.
 * 3. The first answer that does not yet say shouldShutDown brings the next heartbeat 50 ms later
 *    (later ones at broker.heartbeat.interval.ms); the one that says shouldShutDown (it leads
 *    nothing now, and the controller fenced it) lets it stop.
 * 4. It stops cleanly: its logs closed with a producer-state snapshot at the log end and the clean
 *    shutdown file, so its next start recovers nothing (log/producerSnapshot.ts
 *    `reloadAfterCleanShutdown`). Its connections close as at any stop.
 * If the controller never grants it (its heartbeats lost), BrokerServer.shutdown stops anyway after
 * its timeout (5 minutes: KafkaBroker.shutdown()), logs "Timed out waiting for the controller to
 * approve controlled shutdown", and still closes its logs cleanly. Without replication the model
 * has no controller: nothing to move, and the broker stops cleanly at once.
 *
 * A broker restarted and not yet registered (its new incarnation refused
 * DUPLICATE_BROKER_REGISTRATION while the old one's session is valid) is not RUNNING:
 * BrokerLifecycleManager's BeginControlledShutdownEvent skips the controlled shutdown ("Skipping
 * controlled shutdown because we are in state …") and BrokerServer, still STARTING, does not run its
 * shutdown (`maybeChangeStatus(STARTED, SHUTTING_DOWN)` fails): the process ends with nothing moved
 * and its logs not closed. They were loaded (the model opens them at the restart; Kafka at the first
 * metadata publish, which does not wait for the registration) and the clean shutdown file deleted
 * then (LogManager.loadLogs); no LogManager.shutdown writes one again, so the next start recovers
 * them as after a crash.
 */
import type { Out } from '../actors/out';
import type { RpcEvent, TimerEvent } from '../kernel/effects';
import type { BrokerHeartbeatResponse } from '../protocol/replicationMessages';
import type { BrokerContext } from './broker.machine';
import { sendHeartbeat } from './replication';

/** KafkaBroker.shutdown(): BrokerServer.shutdown(Duration.ofMinutes(5)) — the wait for the controller's grant. */
export const CONTROLLED_SHUTDOWN_TIMEOUT_MS = 300_000;
/** BrokerLifecycleManager: after the first answer that is not yet a grant, the next heartbeat 50 ms later. */
export const FIRST_PENDING_HEARTBEAT_MS = 50;

/** The signal a scenario's `controlledShutdown` fault sends the broker. */
export interface ControlledShutdownEvent {
  readonly type: 'controlledShutdown';
  readonly now: number;
  /** The operator starts it again this long after it stopped (absent: it stays down). */
  readonly restartAfterMs?: number;
  /** The fault's label, which the restart's names. */
  readonly label: string;
}

/** BeginControlledShutdownEvent: PENDING_CONTROLLED_SHUTDOWN and a heartbeat now (a second request changes nothing). */
export function beginControlledShutdown(ctx: BrokerContext, ev: ControlledShutdownEvent, out: Out): BrokerContext {
  if (ctx.shutdown) return ctx;
  const next: BrokerContext = { ...ctx, shutdown: { restartAfterMs: ev.restartAfterMs ?? null, label: ev.label, answered: false } };
  if (!next.replication) return stopCleanly(next, out, 'unreplicated');
  if (next.replication.registering) return stopUnregistered(next, out);
  out.timer('controlledShutdownTimeout', 'controlledShutdownTimeout', CONTROLLED_SHUTDOWN_TIMEOUT_MS);
  return sendHeartbeat(next as BrokerContext & { replication: NonNullable<BrokerContext['replication']> }, out);
}

/**
 * The controller's answer to a heartbeat. One without an error registers a restarted incarnation
 * (the model's heartbeat is also the registration; it is unfenced in the same step: RUNNING). In a
 * controlled shutdown, a grant stops the broker; the first answer that is not one brings the next
 * heartbeat sooner.
 */
export function onHeartbeatAnswer(ctx0: BrokerContext, ev: RpcEvent<BrokerHeartbeatResponse>, out: Out): BrokerContext {
  const ctx = ctx0.replication?.registering && ev.payload.error === undefined ? registered(ctx0) : ctx0;
  if (!ctx.shutdown) return ctx;
  if (ev.payload.shouldShutDown) return stopCleanly(ctx, out, 'granted');
  if (ev.payload.error !== undefined || ctx.shutdown.answered) return ctx;
  out.timer('heartbeat', 'heartbeatDue', FIRST_PENDING_HEARTBEAT_MS, {}, true);
  return { ...ctx, shutdown: { ...ctx.shutdown, answered: true } };
}

/** The current incarnation is registered: no longer `registering`. */
function registered(ctx: BrokerContext): BrokerContext {
  if (!ctx.replication) return ctx;
  const { registering: _done, ...replication } = ctx.replication;
  return { ...ctx, replication };
}

/** BrokerServer.shutdown's wait ran out: it stops anyway, its logs still closed cleanly. */
export function onControlledShutdownTimeout(ctx: BrokerContext, _ev: TimerEvent, out: Out): BrokerContext {
  if (!ctx.shutdown) return ctx;
  return stopCleanly(ctx, out, 'timedOut');
}

/** Not RUNNING: no controlled shutdown and no shutdown of its components — the process ends, its logs not closed (the next start recovers them). */
function stopUnregistered(ctx: BrokerContext, out: Out): BrokerContext {
  return stop(ctx, out, 'notRegistered', false);
}

/** The broker stops: its logs closed cleanly (the next start recovers nothing), its process down after this step. */
function stopCleanly(ctx: BrokerContext, out: Out, reason: 'granted' | 'timedOut' | 'unreplicated'): BrokerContext {
  out.cancel('controlledShutdownTimeout');
  return stop(ctx, out, reason, true);
}

/** The process ends after this step (a `brokerStopped` fact says why), restarting when the fault asked; `clean`: its logs were closed. */
function stop(
  ctx: BrokerContext,
  out: Out,
  reason: 'granted' | 'timedOut' | 'unreplicated' | 'notRegistered',
  clean: boolean,
): BrokerContext {
  const restartAfterMs = ctx.shutdown?.restartAfterMs ?? null;
  out.fact({ kind: 'brokerStopped', broker: ctx.id, reason, restartAfterMs });
  out.exit(restartAfterMs, ctx.shutdown?.label ?? `controlled shutdown of ${ctx.id}`);
  // (set to undefined, not left out: XState's assign merges what a handler returns into the context)
  return { ...ctx, shutdown: undefined, cleanShutdown: clean ? true : undefined };
}
