/**
 * The broker's "PeriodicProducerExpirationCheck" (UnifiedLog: `scheduler.schedule(…,
 * producerIdExpirationCheckIntervalMs, producerIdExpirationCheckIntervalMs)`, from when the log was
 * opened), which drops every producer idle for `producer.id.expiration.ms`
 * (`log/producerExpiration.ts`).
 *
 * Kafka runs the check every `producer.id.expiration.check.interval.ms` (10 minutes) whatever the
 * logs hold; a run that finds nothing changes nothing. The model schedules, per log, only the run
 * that can find something: the first run at or after its earliest idle producer's deadline (one
 * timer per log, re-armed when a run has happened). So with Kafka's defaults (a day) no check falls
 * inside a run, and a scenario that lowers `producer.id.expiration.ms` sees each expiry as a step.
 */
import type { Out } from '../actors/out';
import type { TimerEvent } from '../kernel/effects';
import { earliestProducerExpiry, removeExpiredProducers } from '../log/producerExpiration';
import type { BrokerContext } from './broker.machine';
import { reloadProducerStates } from './producerStateReload';

/** `producer.id.expiration.ms` and `producer.id.expiration.check.interval.ms` (TransactionLogConfig). */
export interface ProducerExpirationSettings {
  readonly expirationMs: number;
  readonly checkIntervalMs: number;
}

/** Kafka 4.x's defaults: a day, checked every 10 minutes. */
export const DEFAULT_PRODUCER_EXPIRATION: ProducerExpirationSettings = { expirationMs: 86400000, checkIntervalMs: 600000 };

/** The first check run at or after `t`: runs are at `openedAt + k × interval`, k ≥ 1. */
export function checkRunAtOrAfter(openedAt: number, interval: number, t: number): number {
  return openedAt + Math.max(1, Math.ceil((t - openedAt) / interval)) * interval;
}

const timerKey = (key: string) => `producerExpiry:${key}`;

/** Arms the log's check for its earliest idle producer, unless an earlier (or the same) run is armed. */
function armCheck(ctx: BrokerContext, key: string, now: number, out: Out): BrokerContext {
  const log = ctx.partitions[key];
  if (!log) return ctx;
  const s = ctx.producerExpiration;
  const earliest = earliestProducerExpiry(log, s.expirationMs);
  if (earliest === null) return ctx;
  const run = checkRunAtOrAfter(ctx.logsOpenedAtMs, s.checkIntervalMs, Math.max(earliest, now));
  const armed = ctx.expiryChecks[key];
  if (armed !== undefined && armed <= run) return ctx;
  out.timer(timerKey(key), 'producerExpirationCheck', run - now, { key }, true);
  return { ...ctx, expiryChecks: { ...ctx.expiryChecks, [key]: run } };
}

/**
 * After a handler: every log whose producer state or verification entries it changed gets its check
 * armed (each is a new map exactly when a batch, a marker or a verification changed it, so unchanged
 * logs cost two comparisons).
 */
export function armChangedLogs(before: BrokerContext, after: BrokerContext, now: number, out: Out): BrokerContext {
  if (before.partitions === after.partitions) return after;
  let next = after;
  for (const key of Object.keys(after.partitions)) {
    const log = after.partitions[key];
    const was = before.partitions[key];
    if (log && (was?.producers !== log.producers || was?.verificationStates !== log.verificationStates))
      next = armCheck(next, key, now, out);
  }
  return next;
}

/** A restart opened the logs again: their producer state reloaded, the runs count from now, for every log that holds producers. */
export function reopenLogs(ctx: BrokerContext, now: number, out: Out): BrokerContext {
  // a clean shutdown's logs open without recovery (broker/controlledShutdown.ts)
  const clean = ctx.cleanShutdown === true;
  let next: BrokerContext = {
    ...reloadProducerStates(ctx, now, out, clean),
    logsOpenedAtMs: now,
    expiryChecks: {},
    // (set to undefined, not left out: XState's assign merges what a handler returns into the context)
    ...(clean ? { cleanShutdown: undefined } : {}),
  };
  for (const key of Object.keys(ctx.partitions)) next = armCheck(next, key, now, out);
  return next;
}

/** A check run: the log's expired producers go (a fact names them), and the next run is armed. */
export function onProducerExpirationCheck(ctx: BrokerContext, ev: TimerEvent<{ key: string }>, out: Out): BrokerContext {
  const key = ev.data.key;
  const { [key]: _, ...rest } = ctx.expiryChecks;
  let next: BrokerContext = { ...ctx, expiryChecks: rest };
  const log = next.partitions[key];
  if (!log) return next;
  const r = removeExpiredProducers(log, ev.now, ctx.producerExpiration.expirationMs);
  if (r.expired.length > 0 || r.verifications.length > 0) {
    out.fact({
      kind: 'producerStateExpired',
      broker: ctx.id,
      topic: log.topic,
      partition: log.partition,
      producers: r.expired,
      ...(r.verifications.length > 0 ? { verifications: r.verifications } : {}),
      expirationMs: ctx.producerExpiration.expirationMs,
    });
    next = { ...next, partitions: { ...next.partitions, [key]: r.log } };
  }
  return armCheck(next, key, ev.now, out);
}
