/**
 * The facts under a verdict row, in the reader's language: for a topic, what each notable copy is
 * (committed, aborted, open, gone from the log, by compaction or truncation; a retry, a second send(), a new session, another
 * writer) and which retries the broker recognised; for a stalled reader, what pins the LSO, in the
 * columns kafka-transactions.sh find-hanging prints; for a loss, its kind. Text only.
 */

import {
  COPY_CAUSE_NAMES,
  COPY_STATE_NAMES,
  groupDigits,
  keyOf,
  type Language,
  type LayerFinding,
  LOSS_KIND_NAMES,
  type Loss,
  recordAddress,
  type Stall,
  type TopicEvent,
} from '../../sim/views';

const MAX_EVENTS = 4;

const WORDS = {
  en: {
    broker: (n: number) => `the broker answered ${n === 1 ? 'a retry' : `${n} retries`} with the original offset`,
    pinned: 'Pinned by',
    hanging: 'hanging: the coordinator does not track it',
    open: 'open',
    markerAboveHw: (type: string) => `ended: its ${type} marker is above the HW`,
    aboveHw: 'above the HW, not committed yet',
    markerNotReplicated: 'its COMMIT marker is above the HW',
    since: 'since',
    blocked: (n: number) => `${n} ${n === 1 ? 'record' : 'records'} it cannot read`,
    more: (n: number) => `and ${n} more`,
  },
  ko: {
    broker: (n: number) => `브로커가 재시도 ${n}번에 원래 offset으로 응답함`,
    pinned: 'LSO를 붙잡은 트랜잭션',
    hanging: 'hanging: 코디네이터가 추적하지 않음',
    open: '열림',
    markerAboveHw: (type: string) => `끝남: ${type} 마커가 HW 위에 있음`,
    aboveHw: 'HW 위, 아직 커밋되지 않음',
    markerNotReplicated: 'COMMIT 마커가 HW 위에 있음',
    since: '시작',
    blocked: (n: number) => `읽지 못하는 레코드 ${n}개`,
    more: (n: number) => `외 ${n}개`,
  },
} as const;

function pick<T>(pair: readonly [T, T], language: Language): T {
  return language === 'ko' ? pair[1] : pair[0];
}

function Copies({ event, language }: { event: TopicEvent; language: Language }) {
  const w = WORDS[language];
  return (
    <li data-event={event.eventId}>
      <span className="mono">{event.eventId}</span>:{' '}
      {event.copies.map((c, i) => (
        <span
          key={`${c.partition}@${c.offset}`}
          className="copy"
          data-copy-state={c.state}
          data-copy-cause={c.cause}
          data-above-hw={c.aboveHighWatermark}
        >
          {i > 0 && ' · '}
          {/* a record without an event_id is named by its address: said once, not twice */}
          {recordAddress(c.topic, c.partition, c.offset) === event.eventId
            ? pick(COPY_STATE_NAMES[c.state], language)
            : `${recordAddress(c.topic, c.partition, c.offset)} ${pick(COPY_STATE_NAMES[c.state], language)}`}
          {c.cause !== 'first' && ` (${pick(COPY_CAUSE_NAMES[c.cause], language)}${c.writer ? `, ${c.writer}` : ''})`}
          {c.aboveHighWatermark && ` — ${c.aboveHighWatermark === 'log' ? w.aboveHw : w.markerNotReplicated}`}
        </span>
      ))}
      {event.deduplicated > 0 && <span className="copy" data-copy-state="deduplicated">{` · ${w.broker(event.deduplicated)}`}</span>}
    </li>
  );
}

function StallRow({ stall, language }: { stall: Stall; language: Language }) {
  const w = WORDS[language];
  return (
    <li className="stall" data-stall={keyOf(stall)}>
      {`${w.pinned}: ${keyOf(stall)} · producerId ${stall.producerId} · epoch ${stall.producerEpoch} · StartOffset ${stall.firstOffset}${stall.transactionalId ? ` · transactional.id ${stall.transactionalId}` : ''} · ${w.since} ${groupDigits(stall.sinceTime)} ms · ${w.blocked(stall.blocked)} · ${stall.marker ? w.markerAboveHw(stall.marker.type) : stall.hanging ? w.hanging : w.open}`}
    </li>
  );
}

function LossRow({ loss, language }: { loss: Loss; language: Language }) {
  return (
    <li data-loss-kind={loss.kind}>
      <span className="mono">{loss.eventId}</span>
      {` — ${loss.subject}: ${pick(LOSS_KIND_NAMES[loss.kind], language)}`}
    </li>
  );
}

export function FindingDetails({ finding, language }: { finding: LayerFinding; language: Language }) {
  const w = WORDS[language];
  const items: React.ReactNode[] = [];
  if (finding.layer === 'log' || finding.layer === 'output') {
    for (const e of finding.notable.slice(0, MAX_EVENTS)) items.push(<Copies key={`c-${e.eventId}`} event={e} language={language} />);
    if (finding.notable.length > MAX_EVENTS) items.push(<li key="more">{w.more(finding.notable.length - MAX_EVENTS)}</li>);
  }
  if (finding.layer === 'delivery' || finding.layer === 'processing')
    for (const s of finding.stalls) items.push(<StallRow key={`s-${keyOf(s)}`} stall={s} language={language} />);
  if (finding.layer === 'loss') {
    for (const l of finding.losses.slice(0, MAX_EVENTS * 2))
      items.push(<LossRow key={`l-${l.eventId}-${l.layer}-${l.subject}`} loss={l} language={language} />);
    if (finding.losses.length > MAX_EVENTS * 2) items.push(<li key="more">{w.more(finding.losses.length - MAX_EVENTS * 2)}</li>);
  }
  if (items.length === 0) return null;
  return <ul className="finding-details">{items}</ul>;
}
