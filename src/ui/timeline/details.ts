/**
 * The details shown on hover and keyboard focus, as plain strings (rendered as text, never HTML):
 * for a record what kafka-dump-log.sh would print plus where it came from; for an envelope its RPC,
 * route, times, fate and a short payload summary.
 */
import type { EnvelopeRecord } from '../../sim/kernel/envelope';
import type { RecordRow } from '../../sim/trace/logView';
import type { EnvelopeState } from './mscModel';

export interface Details {
  readonly title: string;
  readonly lines: readonly (readonly [string, string])[];
  /** One sentence for screen readers. */
  readonly sentence: string;
}

const MAX_TEXT = 80;

export function clip(s: string, max = MAX_TEXT): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function headersText(headers: Readonly<Record<string, string>>): string {
  const entries = Object.entries(headers);
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(', ') : 'none';
}

function outcomeText(r: RecordRow): string {
  if (r.control) return `${r.control} marker (control record)`;
  if (!r.transactional) return 'none (not transactional)';
  return r.txnOutcome ?? 'open';
}

export function recordDetails(laneKey: string, r: RecordRow): Details {
  const headers = headersText(r.headers);
  const eventId = r.headers.event_id;
  const lines: [string, string][] = [
    ['offset', String(r.offset)],
    ['key', r.key === null ? 'null' : clip(r.key)],
    ['value', r.control ? `${r.control} control record` : r.value === null ? 'null (tombstone)' : clip(r.value)],
    ['headers', clip(headers, 160)],
    ['producerId', String(r.producerId)],
    ['producerEpoch', String(r.producerEpoch)],
    ['sequence', r.control ? '-1 (control batch)' : r.sequence < 0 ? '-1 (no idempotence)' : String(r.sequence)],
    ['transaction', outcomeText(r)],
    ['batch', `baseOffset ${r.baseOffset}`],
    ['CreateTime', `${r.timestamp} ms`],
    ['origin', r.origin ? `send() #${r.origin.ref} of ${r.origin.client}` : 'not an application send (marker or internal write)'],
  ];
  const title = r.control ? `${laneKey} @ ${r.offset} · ${r.control} marker` : `${laneKey} @ ${r.offset}`;
  const sentence = [
    `${laneKey} offset ${r.offset}`,
    r.control ? `${r.control} marker of producerId ${r.producerId}` : `key ${r.key ?? 'null'}`,
    eventId !== undefined ? `event_id=${eventId}` : null,
    `producerId ${r.producerId} epoch ${r.producerEpoch} sequence ${r.sequence}`,
    `transaction: ${outcomeText(r)}`,
    r.origin ? `from send() #${r.origin.ref} of ${r.origin.client}` : null,
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

/** A short text for an RPC payload: its scalar fields, a batch's header, and the size of lists. */
export function payloadSummary(payload: Readonly<Record<string, unknown>>, max = 200): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(payload)) {
    if (k === 'correlationId') continue;
    const s = scalar(v);
    if (s !== null) parts.push(`${k}=${s}`);
    else if (Array.isArray(v)) parts.push(`${k}=[${v.length}]`);
    else if (k === 'batch' && v && typeof v === 'object') {
      const b = v as Record<string, unknown>;
      const recs = Array.isArray(b.records) ? b.records.length : 0;
      parts.push(
        `batch(producerId=${scalar(b.producerId)}, epoch=${scalar(b.producerEpoch)}, baseSequence=${scalar(b.baseSequence)}, ${recs} record${recs === 1 ? '' : 's'}${b.isTransactional ? ', transactional' : ''})`,
      );
    } else if (v && typeof v === 'object') parts.push(`${k}={…}`);
  }
  return clip(parts.join(' '), max);
}

const STATE_WORDS: Record<EnvelopeState, string> = {
  'in-flight': 'in flight',
  delivered: 'delivered',
  dropped: 'dropped by the network',
  lost: 'lost (its receiver was down or the connection was gone)',
};

export function envelopeDetails(e: EnvelopeRecord, state: EnvelopeState): Details {
  const delivered =
    state === 'delivered' || state === 'lost'
      ? `${e.deliverAt ?? '?'} ms (step ${e.deliveredStep ?? '?'})`
      : state === 'in-flight' && e.deliverAt !== null
        ? `due at ${e.deliverAt} ms`
        : '—';
  const lines: [string, string][] = [
    ['rpc', e.rpc],
    ['from → to', `${e.from} → ${e.to}`],
    ['sent', `${e.sentAt} ms (step ${e.sentStep})`],
    [state === 'lost' ? 'lost' : 'delivered', delivered],
    ['fate', STATE_WORDS[state]],
    ['fault', e.fault ?? 'none'],
    ['payload', payloadSummary(e.payload)],
  ];
  if (e.inReplyTo !== null) lines.push(['in reply to', `#${e.inReplyTo}`]);
  if (e.duplicateOf !== null) lines.push(['duplicate of', `#${e.duplicateOf}`]);
  if (e.background) lines.push(['traffic', 'background (heartbeat or idle fetch)']);
  const sentence = `${e.rpc} #${e.id} from ${e.from} to ${e.to}, sent at ${e.sentAt} ms, ${STATE_WORDS[state]}${e.fault ? `, fault: ${e.fault}` : ''}`;
  return { title: `${e.rpc} #${e.id}`, lines, sentence };
}
