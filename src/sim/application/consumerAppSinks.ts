/**
 * The consumer application's calls to its sink — an HTTP API or a database — and what it does when
 * one is answered, times out or cannot reach the sink; and offsets-in-sink's rebalance listener,
 * which reads the offsets the database holds.
 */
import type { Out } from '../actors/out';
import type { RecordForApp } from '../protocol/messages';
import { recordAddress } from '../protocol/topicPartition';
import { advance as next, pointDetail } from './applicationLoop';
import { act, corr, type Draft, type SinkRef } from './consumerAppContext';

/** A request to the sink with the client's read timeout (without an answer in time it closes the connection); the step waits for its correlation id. */
function sendToSink(d: Draft, rpc: 'HttpRequest' | 'DbTransaction', payload: object, out: Out): void {
  const correlationId = corr(d);
  d.sinkRequest = correlationId;
  out.send((d.sink as SinkRef).id, rpc, { correlationId, ...payload }, { timeoutMs: d.httpTimeoutMs });
}

/** The HTTP call for a record (an idempotency key with it when the API takes one). */
export function sendHttp(d: Draft, r: RecordForApp, method: 'POST' | 'GET', out: Out): void {
  const eventId = r.headers.event_id ?? null;
  const idempotencyKey = d.sink?.mode === 'idempotency-key' ? (eventId ?? recordAddress(r.topic, r.partition, r.offset)) : null;
  sendToSink(d, 'HttpRequest', { method, app: d.client, eventId, idempotencyKey }, out);
}

/** The database write for a record; without an answer in time the application writes again. */
export function sendDbWrite(d: Draft, r: RecordForApp, out: Out): void {
  const { key, value, topic, partition, offset } = r;
  sendToSink(d, 'DbTransaction', { app: d.client, eventId: r.headers.event_id ?? null, key, value, topic, partition, offset }, out);
}

/** offsets-in-sink's ConsumerRebalanceListener.onPartitionsAssigned: read the offsets the database holds. */
export function queryStoredOffsets(d: Draft, out: Out): void {
  const sink = d.sink as SinkRef;
  const correlationId = corr(d);
  d.listenerQuery = correlationId;
  out.send(sink.id, 'DbQuery', { correlationId, table: 'consumer_offsets' }, { timeoutMs: d.httpTimeoutMs });
}

/** Answers from a sink (database or HTTP API). */
export const onSinkResponse = act((d, ev, out) => {
  if (ev.type !== 'DbQueryResult' && ev.type !== 'DbTransactionResult' && ev.type !== 'HttpResponse') return;
  const e = ev;
  if (e.type === 'DbQueryResult') {
    if (e.payload.correlationId !== d.listenerQuery) return;
    d.listenerQuery = null;
    // seek each assigned partition to the offset stored with its results
    const offsets = Object.fromEntries(Object.entries(e.payload.offsets ?? {}).filter(([name]) => d.assigned.includes(name)));
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `onPartitionsAssigned(${d.assigned.join(', ') || 'none'}): read its offsets from the database: ${
        Object.entries(offsets)
          .map(([k, o]) => `${k}=${o}`)
          .join(', ') || 'none yet'
      }`,
    });
    out.call(d.consumer, 'partitionsAssignedDone', { offsets });
    return;
  }
  // an answer to an attempt the application already gave up on changes nothing
  const answered = e.payload.correlationId;
  if (answered !== d.sinkRequest) return;
  d.sinkRequest = null;
  const s = d.plan[d.step];
  const r = s && 'i' in s ? d.batch[s.i] : undefined;
  if (e.type === 'HttpResponse') {
    if (s?.kind === 'sideEffect' && d.sink?.mode === 'lookup-before-retry' && d.httpAttempt > 1 && r && e.payload.status === 404) {
      // the look-up says the first call never arrived: now it is safe to call again
      d.httpAttempt = 1;
      sendHttp(d, r, 'POST', out);
      return;
    }
  }
  out.point('afterSideEffect', pointDetail(r));
  next(d, out);
});

/** The database did not answer (the write may or may not have happened): write again. */
function writeAgain(d: Draft, out: Out): void {
  const s = d.plan[d.step];
  const r = s && 'i' in s ? d.batch[s.i] : undefined;
  if (!r || !d.sink || s?.kind !== 'sideEffect') return;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `no answer from ${d.sink.id} for offset ${r.offset}: the write may or may not have happened, so it writes again`,
  });
  sendDbWrite(d, r, out);
}

/** The HTTP call got no answer: its outcome is unknown, so call again (or look up first). */
function callAgain(d: Draft, out: Out): void {
  const s = d.plan[d.step];
  const r = s && 'i' in s ? d.batch[s.i] : undefined;
  if (!r || !d.sink) return;
  d.httpAttempt += 1;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `no answer from ${d.sink.id} for ${r.headers.event_id ?? `offset ${r.offset}`}: the outcome is unknown, so it tries again`,
  });
  if (d.sink.mode === 'lookup-before-retry') sendHttp(d, r, 'GET', out);
  else sendHttp(d, r, 'POST', out);
}

/**
 * A call to the sink completed as a disconnect: it got no answer within its timeout (the client
 * closed the connection; the call may or may not have taken effect), or the sink was unreachable.
 * A timed-out call is made again at once; an unreachable sink is tried again shortly.
 */
export const onSinkDisconnected = act((d, ev, out) => {
  if (ev.type !== 'disconnected') return;
  const e = ev;
  if (e.rpc === 'DbQuery') {
    // onPartitionsAssigned's query got no answer: ask again (at once after a timeout, shortly when unreachable)
    if (e.payload.correlationId !== d.listenerQuery) return;
    if (e.timedOut) queryStoredOffsets(d, out);
    else out.timer('db', 'dbTimeout', 100);
    return;
  }
  const lost = e.payload.correlationId;
  if (lost !== d.sinkRequest) return;
  d.sinkRequest = null;
  const http = d.sink?.type === 'http-api';
  if (e.timedOut) {
    if (http) callAgain(d, out);
    else writeAgain(d, out);
  } else if (http) out.timer('http', 'httpTimeout', 100);
  else out.timer('db', 'dbTimeout', 100);
});

/** The retry after an unreachable database: onPartitionsAssigned's query, or the write. */
export const onDbTimeout = act((d, _ev, out) => {
  if (d.listenerQuery !== null) queryStoredOffsets(d, out);
  else writeAgain(d, out);
});
export const onHttpTimeout = act((d, _ev, out) => callAgain(d, out));
