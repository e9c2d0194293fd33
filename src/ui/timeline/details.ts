/**
 * The details shown on hover and keyboard focus, as plain strings (rendered as text, never HTML):
 * for a record what kafka-dump-log.sh would print plus where it came from; for an envelope its RPC,
 * route, times, fate and a short payload summary. In English or Korean: kafka-dump-log's field
 * names (offset, key, producerId, sequence, CreateTime …) stay as Kafka prints them.
 */
import type { RecordRow } from '../../sim/views';
import type { EnvelopeState, MscEnvelope } from './mscModel';

export interface Details {
  readonly title: string;
  readonly lines: readonly (readonly [string, string])[];
  /** One sentence for screen readers. */
  readonly sentence: string;
}

export type DetailsLanguage = 'en' | 'ko';

const MAX_TEXT = 80;

export function clip(s: string, max = MAX_TEXT): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const WORDS = {
  en: {
    none: 'none',
    tombstone: 'null (tombstone)',
    controlRecord: (c: string) => `${c} control record`,
    controlBatch: '-1 (control batch)',
    noIdempotence: '-1 (no idempotence)',
    marker: (c: string) => `${c} marker (control record)`,
    notTransactional: 'none (not transactional)',
    outcome: { committed: 'committed', aborted: 'aborted', open: 'open' } as Record<string, string>,
    transaction: 'transaction',
    batch: 'batch',
    origin: 'origin',
    sendOf: (ref: number, client: string) => `send() #${ref} of ${client}`,
    notASend: 'not an application send (marker or internal write)',
    markerTitle: (c: string) => `${c} marker`,
    markerOf: (c: string, pid: number) => `${c} marker of producerId ${pid}`,
    fromSend: (ref: number, client: string) => `from send() #${ref} of ${client}`,
    transactionIs: (t: string) => `transaction: ${t}`,
    route: 'from → to',
    sent: 'sent',
    delivered: 'delivered',
    lost: 'lost',
    fate: 'fate',
    fault: 'fault',
    payload: 'payload',
    payloadComing: 'reading…',
    inReplyTo: 'in reply to',
    duplicateOf: 'duplicate of',
    traffic: 'traffic',
    backgroundTraffic: 'background (heartbeat or idle fetch)',
    atStep: (ms: number | string, step: number | string) => `${ms} ms (step ${step})`,
    dueAt: (ms: number) => `due at ${ms} ms`,
    states: {
      'in-flight': 'in flight',
      delivered: 'delivered',
      dropped: 'dropped by the network',
      lost: 'lost (its receiver was down or the connection was gone)',
    } as Record<EnvelopeState, string>,
    envelopeSentence: (e: MscEnvelope, state: string, fault: string | null) =>
      `${e.rpc} #${e.id} from ${e.from} to ${e.to}, sent at ${e.sentAt} ms, ${state}${fault ? `, fault: ${fault}` : ''}`,
    records: (n: number) => `${n} record${n === 1 ? '' : 's'}`,
    transactional: 'transactional',
  },
  ko: {
    none: '없음',
    tombstone: 'null (툼스톤)',
    controlRecord: (c: string) => `${c} 컨트롤 레코드`,
    controlBatch: '-1 (컨트롤 배치)',
    noIdempotence: '-1 (멱등성 없음)',
    marker: (c: string) => `${c} 마커 (컨트롤 레코드)`,
    notTransactional: '없음 (트랜잭션 아님)',
    outcome: { committed: '커밋됨', aborted: '취소됨', open: '열림' },
    transaction: '트랜잭션',
    batch: '배치',
    origin: '출처',
    sendOf: (ref: number, client: string) => `${client}의 send() #${ref}`,
    notASend: '애플리케이션의 send()가 아님 (마커나 내부 쓰기)',
    markerTitle: (c: string) => `${c} 마커`,
    markerOf: (c: string, pid: number) => `producerId ${pid}의 ${c} 마커`,
    fromSend: (ref: number, client: string) => `${client}의 send() #${ref}에서 옴`,
    transactionIs: (t: string) => `트랜잭션: ${t}`,
    route: '보낸 곳 → 받는 곳',
    sent: '보냄',
    delivered: '도착',
    lost: '유실',
    fate: '결과',
    fault: '장애',
    payload: '페이로드',
    payloadComing: '읽는 중…',
    inReplyTo: '응답 대상',
    duplicateOf: '복사 원본',
    traffic: '트래픽',
    backgroundTraffic: '백그라운드 (하트비트나 빈 fetch)',
    atStep: (ms: number | string, step: number | string) => `${ms} ms (단계 ${step})`,
    dueAt: (ms: number) => `${ms} ms에 도착 예정`,
    states: {
      'in-flight': '전송 중',
      delivered: '도착',
      dropped: '네트워크가 버림',
      lost: '유실 (받는 쪽이 중단됐거나 연결이 사라짐)',
    },
    envelopeSentence: (e: MscEnvelope, state: string, fault: string | null) =>
      `${e.rpc} #${e.id}: ${e.from} → ${e.to}, ${e.sentAt} ms에 보냄, ${state}${fault ? `, 장애: ${fault}` : ''}`,
    records: (n: number) => `레코드 ${n}개`,
    transactional: '트랜잭션',
  },
} as const;

export function headersText(headers: Readonly<Record<string, string>>, language: DetailsLanguage = 'en'): string {
  const entries = Object.entries(headers);
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(', ') : WORDS[language].none;
}

function outcomeText(r: RecordRow, language: DetailsLanguage): string {
  const w = WORDS[language];
  if (r.control) return w.marker(r.control);
  if (!r.transactional) return w.notTransactional;
  const o = r.txnOutcome ?? 'open';
  return (w.outcome as Record<string, string>)[o] ?? o;
}

export function recordDetails(laneKey: string, r: RecordRow, language: DetailsLanguage = 'en'): Details {
  const w = WORDS[language];
  const headers = headersText(r.headers, language);
  const eventId = r.headers.event_id;
  const lines: [string, string][] = [
    ['offset', String(r.offset)],
    ['key', r.key === null ? 'null' : clip(r.key)],
    ['value', r.control ? w.controlRecord(r.control) : r.value === null ? w.tombstone : clip(r.value)],
    ['headers', clip(headers, 160)],
    ['producerId', String(r.producerId)],
    ['producerEpoch', String(r.producerEpoch)],
    ['sequence', r.control ? w.controlBatch : r.sequence < 0 ? w.noIdempotence : String(r.sequence)],
    ...(r.control && r.coordinatorEpoch !== undefined ? [['coordinatorEpoch', String(r.coordinatorEpoch)] as [string, string]] : []),
    [w.transaction, outcomeText(r, language)],
    [w.batch, `baseOffset ${r.baseOffset}`],
    ['CreateTime', `${r.timestamp} ms`],
    [w.origin, r.origin ? w.sendOf(r.origin.ref, r.origin.client) : w.notASend],
  ];
  const title = r.control ? `${laneKey} @ ${r.offset} · ${w.markerTitle(r.control)}` : `${laneKey} @ ${r.offset}`;
  const sentence = [
    `${laneKey} offset ${r.offset}`,
    r.control ? w.markerOf(r.control, r.producerId) : `key ${r.key ?? 'null'}`,
    eventId !== undefined ? `event_id=${eventId}` : null,
    `producerId ${r.producerId} epoch ${r.producerEpoch} sequence ${r.sequence}`,
    w.transactionIs(outcomeText(r, language)),
    r.origin ? w.fromSend(r.origin.ref, r.origin.client) : null,
  ]
    .filter((x): x is string => x !== null)
    .join(', ');
  return { title, lines, sentence };
}

function scalar(v: unknown): string | null {
  if (v === null) return 'null';
  if (typeof v === 'string') return clip(v, 40);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function batchText(b: Record<string, unknown>, language: DetailsLanguage): string {
  const w = WORDS[language];
  const recs = Array.isArray(b.records) ? b.records.length : 0;
  return `batch(producerId=${scalar(b.producerId)}, epoch=${scalar(b.producerEpoch)}, baseSequence=${scalar(b.baseSequence)}, ${w.records(recs)}${b.isTransactional ? `, ${w.transactional}` : ''})`;
}

/** A partition of a Produce request (its batch) or of a ProduceResponse (its result). */
function isProducePartition(x: unknown): x is Record<string, unknown> {
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return typeof o.topic === 'string' && typeof o.partition === 'number' && (o.batch !== undefined || o.baseOffset !== undefined);
}

function producePartitionText(o: Record<string, unknown>, language: DetailsLanguage): string {
  const tp = `${o.topic as string}-${o.partition as number}`;
  if (o.batch && typeof o.batch === 'object') return `${tp} ${batchText(o.batch as Record<string, unknown>, language)}`;
  return o.error === 'NONE' ? `${tp} baseOffset=${scalar(o.baseOffset)}` : `${tp} ${scalar(o.error)}`;
}

/** A partition of a consumer's Fetch (its fetch offset) or of a FetchResponse (its high watermark, or error). */
function isFetchPartition(x: unknown): x is Record<string, unknown> {
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return typeof o.topic === 'string' && typeof o.partition === 'number' && (o.fetchOffset !== undefined || o.highWatermark !== undefined);
}

function fetchPartitionText(o: Record<string, unknown>): string {
  const tp = `${o.topic as string}-${o.partition as number}`;
  if (o.fetchOffset !== undefined) return `${tp} fetchOffset=${scalar(o.fetchOffset)}`;
  if (o.error !== 'NONE') return `${tp} ${scalar(o.error)}`;
  return `${tp} batches=${Array.isArray(o.batches) ? o.batches.length : 0} highWatermark=${scalar(o.highWatermark)}`;
}

/** A short text for an RPC payload: its scalar fields, a batch's header, each partition of a Produce or a Fetch, and the size of other lists. */
export function payloadSummary(payload: Readonly<Record<string, unknown>>, max = 200, language: DetailsLanguage = 'en'): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(payload)) {
    if (k === 'correlationId') continue;
    const s = scalar(v);
    if (s !== null) parts.push(`${k}=${s}`);
    else if (Array.isArray(v) && v.length > 0 && v.every(isProducePartition))
      parts.push(`${k}=[${v.map((x) => producePartitionText(x, language)).join(', ')}]`);
    else if (Array.isArray(v) && v.length > 0 && v.every(isFetchPartition)) parts.push(`${k}=[${v.map(fetchPartitionText).join(', ')}]`);
    else if (Array.isArray(v)) parts.push(`${k}=[${v.length}]`);
    else if (k === 'batch' && v && typeof v === 'object') parts.push(batchText(v as Record<string, unknown>, language));
    else if (v && typeof v === 'object') parts.push(`${k}={…}`);
  }
  return clip(parts.join(' '), max);
}

/**
 * `faultText` gives an envelope's fault label in the reader's language (the narration module
 * translates them; the identity shows the engine's English label). `payload` is the envelope's, read
 * through the diagram's `EnvelopePayloads`; null while it is still on its way (the embed asks the
 * engine's worker for it).
 */
export function envelopeDetails(
  e: MscEnvelope,
  state: EnvelopeState,
  language: DetailsLanguage,
  faultText: (label: string) => string,
  payload: Readonly<Record<string, unknown>> | null,
): Details {
  const w = WORDS[language];
  const fault = e.fault === null ? null : faultText(e.fault);
  const delivered =
    state === 'delivered' || state === 'lost'
      ? w.atStep(e.deliverAt ?? '?', e.deliveredStep ?? '?')
      : state === 'in-flight' && e.deliverAt !== null
        ? w.dueAt(e.deliverAt)
        : '—';
  const lines: [string, string][] = [
    ['RPC', e.rpc],
    [w.route, `${e.from} → ${e.to}`],
    [w.sent, w.atStep(e.sentAt, e.sentStep)],
    [state === 'lost' ? w.lost : w.delivered, delivered],
    [w.fate, w.states[state]],
    [w.fault, fault ?? w.none],
    [w.payload, payload === null ? w.payloadComing : payloadSummary(payload, 200, language)],
  ];
  if (e.inReplyTo !== null) lines.push([w.inReplyTo, `#${e.inReplyTo}`]);
  if (e.duplicateOf !== null) lines.push([w.duplicateOf, `#${e.duplicateOf}`]);
  if (e.background) lines.push([w.traffic, w.backgroundTraffic]);
  return { title: `${e.rpc} #${e.id}`, lines, sentence: w.envelopeSentence(e, w.states[state], fault) };
}
