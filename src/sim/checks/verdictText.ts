/**
 * The verdict's sentences, in English and Korean, made from the same structured findings (so both
 * state the same numbers and event ids): what each copy in a topic is, what a reader received or
 * where it is stalled and what pins the LSO, what an application processed, what took effect outside
 * Kafka, and each loss with its kind and cause. Plus the names of layers, statuses, loss kinds and
 * copy states, for tables.
 */
import { count, eachOnce, josa, type Language, list, say, times } from '../narration/language';
import { keyOf, recordAddress } from '../protocol/topicPartition';
import { groupDigits } from '../text/groupDigits';
import type {
  AboveHighWatermark,
  Copy,
  CopyState,
  DeliveryFinding,
  LayerFinding,
  Loss,
  LossFinding,
  LossKind,
  ProcessingFinding,
  SinkFinding,
  Stall,
  Status,
  StoreCheck,
  StoreKey,
  TopicEvent,
  TopicFinding,
  VerdictView,
  WrittenThoughFailed,
} from './verdictTypes';

const EFFECTIVE = new Set<CopyState>(['committed', 'plain']);

function ids(lang: Language, items: readonly string[]): string {
  return list(lang, [...new Set(items)], 3);
}

function ms(n: number): string {
  return `${groupDigits(n)} ms`;
}

/** "a and b" / "a와 b". */
function both(lang: Language, items: readonly string[]): string {
  if (lang === 'en') return list('en', items, 4);
  if (items.length === 2) return `${josa(items[0] as string, '과/와')} ${items[1]}`;
  return list('ko', items, 4);
}

function end(lang: Language, s: string): string {
  const t = s.trim();
  if (lang === 'ko') return /[.!?]$/.test(t) ? t : `${t}.`;
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

// ------------------------------------------------------------------ losses

/** Why `l` was lost; `n` events share the clause (English says "them" for several). */
function lossClause(lang: Language, l: Loss, n = 1): string {
  const a = l.actor ?? '';
  const several = n > 1;
  switch (l.kind) {
    case 'acked-then-lost':
      if (l.cause === 'unclean-election')
        return say(
          lang,
          `acknowledged to ${a}, then lost from the log at offset ${l.offset} by an unclean leader election (an out-of-sync replica without it became leader)`,
          `${a}에게 확인 응답이 갔지만 언클린 리더 선출로 offset ${l.offset}부터 로그에서 사라졌습니다(그 레코드가 없는 ISR 밖 복제본이 리더가 됐습니다)`,
        );
      if (l.cause === 'truncated')
        return say(
          lang,
          `acknowledged to ${a}, then lost from the log at offset ${l.offset} when the leader changed: the new leader never had it, and the old leader truncates its copy when it follows the new one`,
          `${a}에게 확인 응답이 갔지만 리더가 바뀌면서 offset ${l.offset}부터 로그에서 사라졌습니다. 새 리더에는 그 레코드가 없었고, 이전 리더는 새 리더를 따라갈 때 자기 사본을 잘라 냅니다`,
        );
      return say(lang, `acknowledged to ${a}, yet nowhere in the log`, `${a}에게 확인 응답이 갔지만 로그 어디에도 없습니다`);
    case 'not-acked':
      if (l.cause === 'TimeoutException')
        return say(
          lang,
          `sent by ${a}, never acknowledged: delivery.timeout.ms expired`,
          `${josa(a, '이/가')} 보냈지만 확인 응답을 받지 못했습니다. delivery.timeout.ms가 지났습니다`,
        );
      if (l.cause === 'closed-forcefully')
        return say(
          lang,
          `sent by ${a}, failed with KafkaException ("Producer is closed forcefully."): close(Duration)'s timeout ran out before an answer came, and ${a}'s producer was closed forcefully`,
          `${josa(a, '이/가')} 보냈지만 KafkaException으로 실패했습니다. 응답이 오기 전에 close(Duration)의 제한 시간이 다 되어 ${a}의 프로듀서가 강제로 닫혔습니다`,
        );
      // Kafka 4.0 (KAFKA-18019): fatal for the producer, though nothing fenced it
      if (l.cause === 'INVALID_PRODUCER_ID_MAPPING')
        return say(
          lang,
          `sent by ${a}, failed with INVALID_PRODUCER_ID_MAPPING: the transaction coordinator no longer knew ${a}'s producer id (its transactional.id had expired) — a fatal error for the producer, not a fence`,
          `${josa(a, '이/가')} 보냈지만 INVALID_PRODUCER_ID_MAPPING으로 실패했습니다. 트랜잭션 코디네이터가 ${a}의 producerId를 더 이상 몰랐습니다(transactional.id 만료). 펜싱이 아니라 프로듀서의 치명적 오류입니다`,
        );
      if (/FENCED|EPOCH/.test(l.cause))
        return say(
          lang,
          `refused with ${l.cause}: ${a}'s producer had been fenced`,
          `${josa(l.cause, '으로/로')} 거부됐습니다. ${a}의 프로듀서는 이미 펜싱됐습니다`,
        );
      return say(lang, `sent by ${a}, failed with ${l.cause}`, `${josa(a, '이/가')} 보냈지만 ${josa(l.cause, '으로/로')} 실패했습니다`);
    case 'never-sent':
      if (l.cause === 'fenced')
        return say(
          lang,
          `never sent: ${a} was fenced and stopped first`,
          `보내지 못했습니다. ${josa(a, '이/가')} 먼저 펜싱되어 멈췄습니다`,
        );
      if (l.cause === 'fatal')
        return say(
          lang,
          `never sent: ${a} stopped on a fatal error first`,
          `보내지 못했습니다. ${josa(a, '이/가')} 먼저 치명적 오류로 멈췄습니다`,
        );
      if (l.cause === 'down') return say(lang, `never sent: ${a} is down`, `보내지 못했습니다. ${josa(a, '이/가')} 중단된 상태입니다`);
      if (l.cause === 'TimeoutException')
        return say(
          lang,
          `never sent: ${a}'s send() waited max.block.ms for the topic's metadata and threw TimeoutException`,
          `보내지 못했습니다. ${a}의 send()가 토픽 메타데이터를 max.block.ms 동안 기다리다 TimeoutException을 던졌습니다`,
        );
      if (l.cause === 'BufferExhaustedException')
        return say(
          lang,
          `never sent: ${a}'s send() waited max.block.ms for room in buffer.memory and failed with BufferExhaustedException`,
          `보내지 못했습니다. ${a}의 send()가 buffer.memory에 자리가 나기를 max.block.ms 동안 기다린 뒤 BufferExhaustedException으로 실패했습니다`,
        );
      if (l.cause === 'RecordTooLargeException')
        return say(
          lang,
          `never sent: ${a}'s send() refused the record as larger than max.request.size or buffer.memory (RecordTooLargeException)`,
          `보내지 못했습니다. ${a}의 send()가 레코드를 max.request.size나 buffer.memory보다 크다며 거부했습니다(RecordTooLargeException)`,
        );
      if (l.cause === 'IllegalArgumentException')
        return say(
          lang,
          `never sent: ${a}'s send() threw IllegalArgumentException — its batch would be larger than buffer.memory`,
          `보내지 못했습니다. ${a}의 send()가 IllegalArgumentException을 던졌습니다. 배치가 buffer.memory보다 큽니다`,
        );
      if (l.cause !== 'ended')
        return say(
          lang,
          `never sent: ${a}'s send() failed with ${l.cause} before the record reached the producer's buffer`,
          `보내지 못했습니다. 레코드가 프로듀서 버퍼에 들어가기 전에 ${a}의 send()가 ${josa(l.cause, '으로/로')} 실패했습니다`,
        );
      return say(lang, `never sent by ${a} before the run ended`, `실행이 끝날 때까지 ${josa(a, '이/가')} 보내지 않았습니다`);
    case 'aborted-only':
      if (l.cause === 'timeout')
        return say(
          lang,
          several
            ? 'only in aborted transactions: the coordinator aborted them after transaction.timeout.ms'
            : 'only in an aborted transaction: the coordinator aborted it after transaction.timeout.ms',
          '취소된 트랜잭션에만 있습니다. transaction.timeout.ms가 지나 코디네이터가 취소했습니다',
        );
      if (l.cause === 'fenced')
        return say(
          lang,
          several
            ? 'only in aborted transactions: a newer instance with the same transactional.id fenced the producer and aborted them'
            : 'only in an aborted transaction: a newer instance with the same transactional.id fenced it and aborted it',
          '취소된 트랜잭션에만 있습니다. 같은 transactional.id의 새 인스턴스가 펜싱하고 취소했습니다',
        );
      if (l.cause === 'operator-split')
        return say(
          lang,
          `only in an aborted transaction: an operator aborted it on this partition (kafka-transactions.sh abort) while its coordinator still had it open, and the coordinator then committed it — its records on the other partitions are committed: atomicity broken`,
          '취소된 트랜잭션에만 있습니다. 코디네이터가 아직 열어 둔 트랜잭션을 운영자가 이 파티션에서 취소했고(kafka-transactions.sh abort), 코디네이터는 그 뒤 트랜잭션을 커밋했습니다. 다른 파티션의 레코드는 커밋되어 원자성이 깨졌습니다',
        );
      if (l.cause === 'operator')
        return say(
          lang,
          several
            ? 'only in aborted transactions: an operator aborted them (kafka-transactions.sh abort)'
            : 'only in an aborted transaction: an operator aborted it (kafka-transactions.sh abort)',
          '취소된 트랜잭션에만 있습니다. 운영자가 kafka-transactions.sh abort로 취소했습니다',
        );
      return say(
        lang,
        several ? `only in aborted transactions (${a} aborted them)` : `only in an aborted transaction (${a} aborted it)`,
        `취소된 트랜잭션에만 있습니다(${josa(a, '이/가')} 취소했습니다)`,
      );
    case 'open-only':
      if (l.cause === 'hanging')
        return say(
          lang,
          `only in a hanging transaction (offset ${l.offset}): written after its transaction had ended, so nothing will commit or abort it`,
          `끝나지 않는 트랜잭션(offset ${l.offset})에만 있습니다. 트랜잭션이 끝난 뒤에 기록되어 아무것도 커밋하거나 취소하지 않습니다`,
        );
      return say(lang, `only in a transaction still open (offset ${l.offset})`, `아직 열린 트랜잭션(offset ${l.offset})에만 있습니다`);
    case 'compacted':
      return say(
        lang,
        `removed by compaction before any reader received ${several ? 'them' : 'it'}`,
        '어떤 컨슈머도 받기 전에 컴팩션으로 지워졌습니다',
      );
    case 'not-published':
      return l.cause === 'down'
        ? say(
            lang,
            `in the outbox table, never published: ${a} is down`,
            `outbox 테이블에 있지만 발행되지 않았습니다. ${josa(a, '이/가')} 중단된 상태입니다`,
          )
        : say(lang, `in the outbox table, never published by ${a}`, `outbox 테이블에 있지만 ${josa(a, '이/가')} 발행하지 않았습니다`);
    case 'not-written':
      return say(lang, `processed by ${a}, but never written`, `${josa(a, '이/가')} 처리했지만 기록되지 않았습니다`);
    case 'not-processed':
      if (l.cause === 'committed-past')
        return say(
          lang,
          `never processed: group ${a} had committed offset ${l.offset} before processing`,
          `처리되지 않았습니다. 그룹 ${josa(a, '이/가')} 처리하기 전에 offset ${josa(String(l.offset), '을/를')} 커밋했습니다`,
        );
      if (l.cause === 'stopped')
        return say(lang, `never processed: ${l.subject} stopped`, `처리되지 않았습니다. ${josa(l.subject, '이/가')} 멈췄습니다`);
      if (l.cause === 'down')
        return say(lang, `never processed: ${l.subject} is down`, `처리되지 않았습니다. ${josa(l.subject, '이/가')} 중단된 상태입니다`);
      return say(lang, 'never processed by the end of the run', '실행이 끝날 때까지 처리되지 않았습니다');
    case 'not-applied':
      return l.cause === 'no-call'
        ? say(
            lang,
            `never took effect: processed by ${a}, but the write or call never happened`,
            `반영되지 않았습니다. ${josa(a, '이/가')} 처리했지만 쓰기나 호출은 일어나지 않았습니다`,
          )
        : say(lang, `never took effect: not processed by ${a}`, `반영되지 않았습니다. ${josa(a, '이/가')} 처리하지 않았습니다`);
  }
}

/** Losses grouped by what happened to them: "evt-1, evt-2 <why>". */
function lossGroups(lang: Language, losses: readonly Loss[], where: boolean): string[] {
  // events whose losses read the same (same place, same clause) share one sentence: the offset
  // matters only where the clause names it (an open transaction's first offset, a committed offset)
  const groups = new Map<string, Loss[]>();
  for (const l of losses) {
    const k = `${l.layer}|${l.subject}|${lossClause('en', l)}`;
    groups.set(k, [...(groups.get(k) ?? []), l]);
  }
  return [...groups.values()].map((g) => {
    const first = g[0] as Loss;
    const eventIds = [...new Set(g.map((l) => l.eventId))];
    const subject = ids(lang, eventIds);
    const place = where ? placeOf(lang, first) : '';
    const clause = lossClause(lang, first, eventIds.length);
    return lang === 'ko' ? `${place}${josa(subject, '은/는')} ${clause}` : `${subject}${place} ${clause}`;
  });
}

/** The losses as one clause: "a; b" in English, sentences in Korean. */
function lossList(lang: Language, losses: readonly Loss[]): string {
  const groups = lossGroups(lang, losses, false);
  return lang === 'ko' ? groups.map((g) => end('ko', g)).join(' ') : groups.join('; ');
}

function placeOf(lang: Language, l: Loss): string {
  switch (l.layer) {
    case 'log':
    case 'output':
      return say(lang, ` (${l.subject})`, `${l.subject}의 `);
    case 'processing':
      return say(lang, ` (processing in ${l.subject})`, `${l.subject}의 처리에서 `);
    case 'sink':
      return say(lang, ` (at ${l.subject})`, `${l.subject}에서 `);
  }
}

// ------------------------------------------------------------------ topics

/** The committed or plain copies a reader may count: not those not committed yet (above the HW, or their marker). */
function effective(e: TopicEvent): Copy[] {
  return e.copies.filter((c) => EFFECTIVE.has(c.state) && c.aboveHighWatermark === undefined);
}

function dupCause(lang: Language, f: TopicFinding, e: TopicEvent): string {
  const eff = effective(e);
  const extra = eff.slice(1);
  const cause = extra.find((c) => c.cause !== 'first')?.cause ?? 'resend';
  const writers = [...new Set(eff.map((c) => c.writer).filter((w): w is string => w !== null))];
  const w = writers[0] ?? '?';
  const kind = f.writerKinds[w] ?? 'producer';
  // an application that writes one output per input record: as many inputs, as many outputs
  if (kind === 'app' && cause !== 'retry' && e.inputCopies >= eff.length)
    return say(
      lang,
      `its input holds the same event ${times('en', e.inputCopies)} (separate records), and ${w} processed each record once: exactly-once processing applies records, it does not recognise business events`,
      `입력에 같은 이벤트가 ${times('ko', e.inputCopies)}(서로 다른 레코드로) 있고 ${josa(w, '은/는')} 레코드마다 한 번씩 처리했습니다. exactly-once 처리는 레코드를 한 번씩 반영할 뿐 같은 비즈니스 이벤트를 알아보지 않습니다`,
    );
  switch (cause) {
    case 'retry': {
      // an idempotent producer's retry under a bumped epoch (TransactionManager.bumpIdempotentProducerEpoch
      // rewrote the batch: TxnPartitionEntry.startSequencesAtBeginning): same producerId, another epoch
      const epochs = [...new Set(eff.map((c) => c.producerEpoch))];
      const pids = new Set(eff.map((c) => c.producerId));
      if (pids.size === 1 && (eff[0] as Copy).producerId >= 0 && epochs.length > 1) {
        const span = `${Math.min(...epochs)} → ${Math.max(...epochs)}`;
        return say(
          lang,
          `the same send() written again by a producer retry under a new epoch: idempotence was on, but a batch of the partition failed, so the producer bumped its epoch (${span}) and rewrote this batch's sequence; the broker's duplicate check (producerId, epoch, sequence) cannot match copies across epochs`,
          `프로듀서 재시도가 새 epoch로 같은 send()를 다시 기록했습니다. 멱등성은 켜져 있었지만 같은 파티션의 배치 하나가 실패해 프로듀서가 epoch를 올리고(${span}) 이 배치의 시퀀스를 다시 매겼습니다. 브로커의 중복 검사(producerId, epoch, 시퀀스)는 epoch가 다른 사본을 맞춰 보지 못합니다`,
        );
      }
      // an idempotent producer's retry in the same epoch: the broker had forgotten the producer in between
      const expired = e.producerExpired;
      if (expired) {
        const pid = (eff[0] as Copy).producerId;
        const ms = groupDigits(expired.expirationMs);
        return say(
          lang,
          `the same send() written again by a producer retry: idempotence was on, but ${expired.broker} had dropped producerId ${pid}'s state before the retry arrived (producer.id.expiration.ms ${ms} ms, shorter than the producer's retries), so its duplicate check (producerId, epoch, sequence) had nothing to match it with`,
          `프로듀서 재시도가 같은 send()를 다시 기록했습니다. 멱등성은 켜져 있었지만 재시도가 도착하기 전에 ${josa(expired.broker, '이/가')} producerId ${pid}의 상태를 지웠습니다(producer.id.expiration.ms ${ms} ms가 프로듀서의 재시도보다 짧음). 그래서 중복 검사(producerId, epoch, 시퀀스)가 맞춰 볼 것이 없었습니다`,
        );
      }
      return say(
        lang,
        'the same send() written again by a producer retry: without idempotence nothing recognised it',
        '프로듀서 재시도가 같은 send()를 다시 기록했습니다. 멱등성이 없어 아무것도 알아보지 못했습니다',
      );
    }
    case 'new-session':
      if (kind === 'relay')
        return say(
          lang,
          `${w} published again after it restarted, from a new producer session: the relay is at-least-once and idempotence covers one session only, so only the event_id shows the duplicate`,
          `${josa(w, '이/가')} 재시작한 뒤 새 프로듀서 세션에서 다시 발행했습니다. 릴레이는 at-least-once이고 멱등성은 한 세션 안에서만 보호합니다. 같은 이벤트임은 event_id만 알려 줍니다`,
        );
      if (kind === 'app')
        return say(
          lang,
          `${w} wrote again after processing the same input again, from a new producer session`,
          `${josa(w, '이/가')} 입력을 다시 처리하면서 새 프로듀서 세션에서 다시 썼습니다`,
        );
      return say(
        lang,
        `${w} sent again from a new producer session: idempotence covers one session only, so this is a business duplicate that only the event_id shows`,
        `${josa(w, '이/가')} 새 프로듀서 세션에서 다시 보냈습니다. 멱등성은 한 세션 안에서만 보호하므로 event_id만 알려 주는 비즈니스 중복입니다`,
      );
    case 'other-writer': {
      const tids = [...new Set(eff.map((c) => c.transactionalId))];
      if (tids.length === 1 && tids[0])
        return say(
          lang,
          `written by ${both('en', writers)}, both with transactional.id ${tids[0]}: a business duplicate that transactional.id does not prevent`,
          `${josa(both('ko', writers), '이/가')} 같은 transactional.id ${josa(String(tids[0]), '으로/로')} 썼습니다. transactional.id가 막지 못하는 비즈니스 중복입니다`,
        );
      return say(
        lang,
        `written by ${both('en', writers)}: a business duplicate that only the event_id shows`,
        `${josa(both('ko', writers), '이/가')} 썼습니다. event_id만 알려 주는 비즈니스 중복입니다`,
      );
    }
    default:
      if (kind === 'app')
        return say(
          lang,
          `${w} wrote ${times('en', eff.length)}: it processed the same input again`,
          `${josa(w, '이/가')} 같은 입력을 다시 처리해 ${times('ko', eff.length)} 썼습니다`,
        );
      return say(
        lang,
        `${eff.length} separate send() calls by ${w}: a business duplicate that only the event_id shows`,
        `${josa(w, '이/가')} send()를 ${eff.length}번 따로 호출했습니다. event_id만 알려 주는 비즈니스 중복입니다`,
      );
  }
}

/** What a send() of records above the HW was told: "its send() by p failed (X)" / "p의 send()는 실패했습니다(X)". */
function toldClause(lang: Language, a: AboveHighWatermark, several: boolean): string | null {
  if (a.writer === null) return null;
  const its = several ? 'their send() calls' : 'its send()';
  const w = a.writer;
  if (a.told === null)
    return say(lang, `${its} by ${w} ${several ? 'have' : 'has'} no answer yet`, `${w}의 send()는 아직 응답을 받지 못했습니다`);
  if (a.told === 'acknowledged')
    return say(lang, `${its} by ${w} ${several ? 'were' : 'was'} acknowledged`, `${w}의 send()는 확인 응답을 받았습니다`);
  return say(lang, `${its} by ${w} failed (${a.told})`, `${w}의 send()는 실패했습니다(${a.told})`);
}

/** "orders-0@2, HW 2"; several in one partition: "orders-0@2 and orders-0@3, HW 2". */
function addressesWithHw(lang: Language, items: readonly AboveHighWatermark[], offsetOf: (a: AboveHighWatermark) => number): string {
  const byPartition = new Map<string, AboveHighWatermark[]>();
  for (const a of items) byPartition.set(keyOf(a), [...(byPartition.get(keyOf(a)) ?? []), a]);
  return [...byPartition.values()]
    .map(
      (p) =>
        `${ids(lang, [...new Set(p.map((a) => recordAddress(a.topic, a.partition, offsetOf(a))))])}, HW ${(p[0] as AboveHighWatermark).highWatermark}`,
    )
    .join('; ');
}

/**
 * One group of events not committed yet (same reason, same writer and answer):
 * - at or above the HW: "e3 in the leader's log above the high watermark (orders-0@2, HW 2) — not
 *   committed, no reader sees it; its send() by p failed (TimeoutException)"; a second copy of an
 *   event committed once: "a second copy of e2 … — not committed, no reader sees it; a duplicate once
 *   the HW passes it";
 * - below it, in a committed transaction whose COMMIT marker is not: "e1 and e2 (payments-0@0 and
 *   payments-0@1) in a committed transaction whose COMMIT marker is above the high watermark
 *   (payments-0@2, HW 2) — read_committed readers see them only once the followers copy it".
 */
function aboveGroupText(lang: Language, g: readonly AboveHighWatermark[]): string {
  const a0 = g[0] as AboveHighWatermark;
  const several = g.length > 1;
  const who = ids(
    lang,
    g.map((a) => a.eventId),
  );
  if (a0.reason === 'marker') {
    const records = ids(
      lang,
      g.map((a) => recordAddress(a.topic, a.partition, a.offset)),
    );
    const markers = addressesWithHw(lang, g, (a) => a.markerOffset ?? a.offset);
    const subject = a0.secondCopy ? say(lang, `a second copy of ${who}`, `${who}의 두 번째 사본`) : who;
    if (lang === 'ko')
      return `${subject}(${records})${josa(subject, '은/는').slice(subject.length)} 커밋된 트랜잭션에 있지만, 그 COMMIT 마커가 하이 워터마크 위에 있습니다(${markers}). 팔로워가 마커를 복제해야 read_committed 컨슈머가 읽습니다.${a0.secondCopy ? ' 그때 중복이 됩니다.' : ''}`;
    return `${subject} (${records}) in a committed transaction whose COMMIT marker is above the high watermark (${markers}) — read_committed readers see ${several ? 'them' : 'it'} only once the followers copy the marker${a0.secondCopy ? ', and then it is a duplicate' : ''}`;
  }
  const where = addressesWithHw(lang, g, (a) => a.offset);
  const told = toldClause(lang, a0, several);
  if (a0.secondCopy) {
    if (lang === 'ko')
      return `${who}의 두 번째 사본이 리더의 로그에서 하이 워터마크 위에 있습니다(${where}). 커밋되지 않아 어떤 컨슈머도 읽지 못하지만, HW가 지나가면 중복이 됩니다.${told ? ` ${end('ko', told)}` : ''}`;
    return `a second copy of ${who} in the leader's log above the high watermark (${where}) — not committed, no reader sees ${several ? 'them' : 'it'}; a duplicate once the HW passes ${several ? 'them' : 'it'}${told ? `; ${told}` : ''}`;
  }
  if (lang === 'ko')
    return `${josa(who, '은/는')} 리더의 로그에서 하이 워터마크 위에 있습니다(${where}). 커밋되지 않아 어떤 컨슈머도 읽지 못합니다.${told ? ` ${end('ko', told)}` : ''}`;
  return `${who} in the leader's log above the high watermark (${where}) — not committed, no reader sees ${several ? 'them' : 'it'}${told ? `; ${told}` : ''}`;
}

/** The events not committed yet, one clause per reason, kind of copy, and answer their send()s got. */
function aboveText(lang: Language, above: readonly AboveHighWatermark[]): string[] {
  const groups = new Map<string, AboveHighWatermark[]>();
  for (const a of above) {
    // a transaction's records were all acknowledged: what matters is the marker, not the answer
    const k = a.reason === 'marker' ? `marker|${a.secondCopy}` : `log|${a.secondCopy}|${a.writer}|${a.told}`;
    groups.set(k, [...(groups.get(k) ?? []), a]);
  }
  return [...groups.values()].map((g) => aboveGroupText(lang, g));
}

/**
 * What a failed send() was told, as the application read it: the error, or a forced close's exception
 * and message (in Korean its meaning: Korean quotes no English prose).
 */
function failureName(lang: Language, w: WrittenThoughFailed): string {
  if (!w.closedForcefully) return w.error;
  return say(lang, `${w.error}: Producer is closed forcefully.`, `${w.error}, 프로듀서 강제 종료`);
}

/**
 * The events committed although the send() that wrote them was told it failed, one clause per writer
 * and answer: "e1 (orders-0@0) written although its send() by p was told it failed (REQUEST_TIMED_OUT):
 * a failed send() does not mean the broker wrote nothing".
 */
function writtenThoughFailedText(lang: Language, items: readonly WrittenThoughFailed[]): string[] {
  const groups = new Map<string, WrittenThoughFailed[]>();
  for (const w of items) {
    const k = `${w.writer}|${failureName('en', w)}`;
    groups.set(k, [...(groups.get(k) ?? []), w]);
  }
  return [...groups.values()].map((g) => {
    const w0 = g[0] as WrittenThoughFailed;
    const several = g.length > 1;
    const who = ids(
      lang,
      g.map((w) => w.eventId),
    );
    const where = ids(
      lang,
      g.map((w) => recordAddress(w.topic, w.partition, w.offset)),
    );
    const error = failureName(lang, w0);
    if (lang === 'ko')
      return `${who}(${where})${josa(who, '은/는').slice(who.length)} 기록됐지만, 그것을 쓴 ${w0.writer}의 send()는 실패했다고 통보받았습니다(${error}). send()가 실패했다고 해서 브로커가 아무것도 기록하지 않은 것은 아닙니다.`;
    return `${who} (${where}) written although ${several ? 'the send() calls' : 'the send()'} by ${w0.writer} that wrote ${several ? 'them were' : 'it was'} told ${several ? 'they' : 'it'} failed (${error}): a failed send() does not mean the broker wrote nothing`;
  });
}

function topicText(lang: Language, f: TopicFinding): string {
  const label = say(lang, f.layer === 'log' ? 'Kafka log' : 'Committed output', f.layer === 'log' ? 'Kafka 로그' : '커밋된 출력');
  const parts: string[] = [];
  const lost = new Set(f.losses.map((l) => l.eventId));
  const aboveHw = f.aboveHighWatermark ?? [];
  const above = new Set(aboveHw.map((a) => a.eventId));
  const twice = f.notable.filter((e) => effective(e).length > 1 && !above.has(e.eventId));
  // events held once: one committed or plain copy, or one copy later removed by compaction (a copy
  // cut by truncation is not one: the cut clause below tells it, and a retry that wrote the event
  // again on the new leader is its one copy)
  const once = (e: TopicEvent) =>
    e.copies.filter((c) => EFFECTIVE.has(c.state) || (c.state === 'removed' && c.removedBy !== 'truncation')).length === 1;
  const notOnce = new Set(f.notable.filter((e) => !once(e)).map((e) => e.eventId));
  const onceCount =
    f.events -
    notOnce.size -
    f.notable.filter((e) => once(e) && lost.has(e.eventId)).length -
    [...above].filter((id) => !notOnce.has(id)).length;
  if (f.losses.length) parts.push(say(lang, `lost: ${lossList('en', f.losses)}`, `유실: ${lossList('ko', f.losses)}`));
  if (twice.length) {
    const groups = new Map<string, TopicEvent[]>();
    for (const e of twice) {
      const k = `${effective(e).length}|${dupCause('en', f, e)}`;
      groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    for (const g of groups.values()) {
      const e = g[0] as TopicEvent;
      const n = effective(e).length;
      const who = ids(
        lang,
        g.map((x) => x.eventId),
      );
      parts.push(
        say(
          lang,
          `${who} ${times('en', n)} — ${dupCause('en', f, e)}`,
          `${josa(who, '이/가')} ${times('ko', n)} 있습니다. ${dupCause('ko', f, e)}`,
        ),
      );
    }
  }
  if (above.size) parts.push(...aboveText(lang, aboveHw));
  if (!f.losses.length && !twice.length && !above.size) {
    if (f.status === 'not-applicable' && f.events === 0) parts.push(say(lang, 'nothing written', '기록된 것이 없습니다'));
    else if (onceCount > 0) parts.push(eachOnce(lang, onceCount, 'once', '있습니다'));
  } else if (onceCount > 0)
    parts.push(say(lang, `${count(onceCount, 'other event')} once`, `다른 이벤트 ${groupDigits(onceCount)}개는 한 번씩 있습니다`));
  if (f.writtenThoughFailed?.length) parts.push(...writtenThoughFailedText(lang, f.writtenThoughFailed));
  // what the other copies are
  const abortedOf = f.notable.filter((e) => !lost.has(e.eventId) && e.copies.some((c) => c.state === 'aborted'));
  if (abortedOf.length) {
    const n = abortedOf.reduce((k, e) => k + e.copies.filter((c) => c.state === 'aborted').length, 0);
    const who = ids(
      lang,
      abortedOf.map((e) => e.eventId),
    );
    parts.push(
      say(
        lang,
        `${n} aborted cop${n === 1 ? 'y' : 'ies'} (${who}) that read_committed readers never see, read_uncommitted ones do`,
        `취소된 사본 ${n}개(${who})는 read_committed 컨슈머에게는 보이지 않고 read_uncommitted 컨슈머에게는 보입니다.`,
      ),
    );
  }
  const openOf = f.notable.filter((e) => !lost.has(e.eventId) && e.copies.some((c) => c.state === 'open'));
  if (openOf.length) {
    const who = ids(
      lang,
      openOf.map((e) => e.eventId),
    );
    parts.push(
      say(
        lang,
        `${who} in a transaction still open (read_committed readers wait for its marker)`,
        `${josa(who, '은/는')} 아직 열린 트랜잭션에 있습니다(read_committed 컨슈머는 마커를 기다립니다).`,
      ),
    );
  }
  const removed = (by: 'compaction' | 'truncation') =>
    f.notable
      .filter((e) => !lost.has(e.eventId))
      .flatMap((e) => e.copies.filter((c) => c.state === 'removed' && (c.removedBy === 'truncation') === (by === 'truncation')))
      .map((c) => recordAddress(c.topic, c.partition, c.offset));
  const cut = removed('truncation');
  if (cut.length)
    parts.push(
      say(
        lang,
        `${ids('en', cut)} cut from the log by truncation after a leader change (a replica's records the new leader did not have)`,
        `${josa(ids('ko', cut), '은/는')} 리더가 바뀐 뒤 복제본이 잘라 내어 로그에서 사라졌습니다(새 리더에게 없던 복제본의 레코드).`,
      ),
    );
  const offsets = removed('compaction');
  if (offsets.length) {
    parts.push(
      say(
        lang,
        `${ids('en', offsets)} removed by compaction later, after a reader had received ${offsets.length === 1 ? 'it' : 'them'} (offsets never change: the survivors keep theirs)`,
        `${josa(ids('ko', offsets), '은/는')} 컨슈머가 받은 뒤 컴팩션으로 지워졌습니다(offset은 바뀌지 않아 남은 레코드는 제 offset을 유지합니다).`,
      ),
    );
  }
  const deduped = f.notable.filter((e) => e.deduplicated > 0);
  if (deduped.length) {
    const n = deduped.reduce((k, e) => k + e.deduplicated, 0);
    const who = ids(
      lang,
      deduped.map((e) => e.eventId),
    );
    parts.push(
      say(
        lang,
        `the broker recognised ${n === 1 ? 'a retry' : `${n} retries`} of ${who} (same producerId, epoch and sequence) and answered with the original offset: ${n === 1 ? 'that retry wrote' : 'those retries wrote'} nothing`,
        `브로커는 ${who}의 재시도 ${n}번을 알아보고(같은 producerId, epoch, 시퀀스) 원래 offset으로 응답했습니다. 그 재시도로는 아무것도 기록되지 않았습니다.`,
      ),
    );
  }
  const body = lang === 'ko' ? parts.map((p) => end('ko', p)).join(' ') : parts.join('; ');
  return end(lang, `${label} ${f.subject}: ${body}`);
}

// ------------------------------------------------------------------ readers

function stallText(lang: Language, s: Stall): string {
  const tp = keyOf(s);
  const who = `producerId ${s.producerId}, epoch ${s.producerEpoch}${s.transactionalId ? ` (transactional.id ${s.transactionalId})` : ''}`;
  const blocked = ids(lang, s.blockedEventIds);
  const state = s.coordinatorState ?? say(lang, 'none', '없음');
  if (s.marker) {
    const marker = recordAddress(s.topic, s.partition, s.marker.offset);
    if (lang === 'ko')
      return `${tp}에서 ${ms(s.sinceTime)}부터 멈춰 있습니다. LSO ${s.lastStableOffset} 뒤의 레코드 ${s.blocked}개(${blocked})를 읽지 못합니다. LSO를 붙잡은 것은 ${who}의 offset ${s.firstOffset}부터 시작한 트랜잭션입니다. 트랜잭션은 끝났지만 ${s.marker.type} 마커(${marker})가 하이 워터마크(HW ${s.highWatermark}) 위에 있습니다. 팔로워가 마커를 복제하면 LSO가 움직입니다`;
    return `stalled on ${tp} since ${ms(s.sinceTime)}: it cannot read ${count(s.blocked, 'record')} (${blocked}) past the LSO ${s.lastStableOffset}, pinned by the transaction of ${who} starting at offset ${s.firstOffset} — the transaction has ended, but its ${s.marker.type} marker (${marker}) is above the high watermark (HW ${s.highWatermark}); the LSO moves once the followers copy it`;
  }
  if (lang === 'ko')
    return `${tp}에서 ${ms(s.sinceTime)}부터 멈춰 있습니다. LSO ${s.lastStableOffset} 뒤의 레코드 ${s.blocked}개(${blocked})를 읽지 못합니다. LSO를 붙잡은 것은 ${who}의 offset ${s.firstOffset}부터 시작한 트랜잭션입니다. ${
      s.hanging
        ? `코디네이터가 더는 추적하지 않으므로(상태 ${state}) 끝나지 않는 hanging 트랜잭션입니다. kafka-transactions.sh find-hanging이 찾아내고 kafka-transactions.sh abort로 끝낼 수 있습니다`
        : `열린 트랜잭션입니다(코디네이터 상태 ${state}). 커밋, 취소 또는 transaction.timeout.ms로 끝납니다`
    }`;
  return `stalled on ${tp} since ${ms(s.sinceTime)}: it cannot read ${count(s.blocked, 'record')} (${blocked}) past the LSO ${s.lastStableOffset}, pinned by the transaction of ${who} starting at offset ${s.firstOffset} — ${
    s.hanging
      ? `a hanging transaction: the coordinator no longer tracks it (state ${state}), so nothing will end it; kafka-transactions.sh find-hanging lists it and kafka-transactions.sh abort ends it`
      : `an open transaction (coordinator state ${state}); it ends with its commit, its abort or transaction.timeout.ms`
  }`;
}

function deliveryText(lang: Language, f: DeliveryFinding): string {
  const label = say(lang, `Delivery to ${f.subject} (${f.isolationLevel})`, `${f.subject} (${f.isolationLevel})로의 전달`);
  const parts: string[] = [];
  for (const s of f.stalls) parts.push(stallText(lang, s));
  if (f.repeated.length) {
    const groups = new Map<string, typeof f.repeated>();
    for (const e of f.repeated) {
      const same = new Set(e.offsets).size === 1;
      const hidden = e.states.some((s) => s === 'aborted' || s === 'open');
      const k = `${e.offsets.length}|${same}|${hidden}`;
      groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    for (const g of groups.values()) {
      const e = g[0] as (typeof f.repeated)[number];
      const same = new Set(e.offsets).size === 1;
      const hidden = e.states.some((s) => s === 'aborted' || s === 'open');
      const who = ids(
        lang,
        g.map((x) => x.eventId),
      );
      const why = same
        ? say(lang, 'redelivered: the same offset again', '다시 전달됨: 같은 offset')
        : hidden
          ? say(
              lang,
              `${new Set(e.offsets).size} copies in the log, one from an aborted or open transaction`,
              `로그의 사본 ${new Set(e.offsets).size}개, 그중 하나는 취소되거나 열린 트랜잭션의 것`,
            )
          : say(lang, `${new Set(e.offsets).size} copies in the log`, `로그의 사본 ${new Set(e.offsets).size}개`);
      parts.push(
        say(
          lang,
          `${who} received ${times('en', e.offsets.length)} (${why})`,
          `${josa(who, '이/가')} ${times('ko', e.offsets.length)} 전달됐습니다(${why}).`,
        ),
      );
    }
  }
  if (!f.stalls.length && !f.repeated.length) {
    if (f.received === 0) parts.push(say(lang, 'nothing received', '받은 것이 없습니다'));
    else parts.push(eachOnce(lang, f.events, 'received once', '전달됐습니다'));
  }
  if (f.uncommittedCopies > 0)
    parts.push(
      say(
        lang,
        `${f.uncommittedCopies} of the records it received ${f.uncommittedCopies === 1 ? 'is' : 'are'} from aborted or open transactions (read_uncommitted returns them)`,
        `받은 레코드 중 ${f.uncommittedCopies}개는 취소되거나 열린 트랜잭션의 것입니다(read_uncommitted는 이것도 돌려줍니다).`,
      ),
    );
  const body = lang === 'ko' ? parts.map((p) => end('ko', p)).join(' ') : parts.join('; ');
  return end(lang, `${label}: ${body}`);
}

function processingText(lang: Language, f: ProcessingFinding): string {
  const label = say(lang, `Processing in ${f.subject}`, `${f.subject}의 처리`);
  const parts: string[] = [];
  if (f.stalls.length) {
    const blocked = ids(
      lang,
      f.stalls.flatMap((s) => s.blockedEventIds),
    );
    const where = f.stalls.map(keyOf).join(', ');
    parts.push(
      say(
        lang,
        `stalled: ${blocked} not processed — its consumer cannot read past the LSO of ${where}`,
        `멈춰 있습니다. 컨슈머가 ${where}의 LSO를 넘어 읽지 못해 ${josa(blocked, '을/를')} 처리하지 못했습니다`,
      ),
    );
  }
  if (f.losses.length) parts.push(say(lang, `lost: ${lossList('en', f.losses)}`, `유실: ${lossList('ko', f.losses)}`));
  // "view-2 processed twice, also by counter-a": the events another instance of its group processed too,
  // apart from those only this instance processed again
  const byOthers = new Map<string, ProcessingFinding['repeated'][number][]>();
  for (const r of f.repeated) {
    const k = (r.others ?? []).join('|');
    byOthers.set(k, [...(byOthers.get(k) ?? []), r]);
  }
  for (const [k, rs] of [...byOthers].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))) {
    const n = Math.max(...rs.map((r) => r.times));
    const who = ids(
      lang,
      rs.map((r) => r.eventId),
    );
    const others = k === '' ? '' : list(lang, k.split('|'));
    parts.push(
      others
        ? say(
            lang,
            `${who} processed ${times('en', n)}, also by ${others}`,
            `${josa(who, '이/가')} ${others}에서도 처리되어 모두 ${times('ko', n)} 처리됐습니다`,
          )
        : say(lang, `${who} processed ${times('en', n)}`, `${josa(who, '이/가')} ${times('ko', n)} 처리됐습니다`),
    );
  }
  if (!parts.length)
    parts.push(
      f.events === 0 ? say(lang, 'nothing processed', '처리한 것이 없습니다') : eachOnce(lang, f.events, 'processed once', '처리됐습니다'),
    );
  if (f.store) parts.push(storeText(lang, f.store));
  const body = lang === 'ko' ? parts.map((p) => end('ko', p)).join(' ') : parts.join('; ');
  return end(lang, `${label}: ${body}`);
}

/** A key, with its task when more than one task counts it (each task has its own store): "k in task 0_2". */
function keyIn(lang: Language, k: StoreKey): string {
  if (!k.task) return k.key;
  return lang === 'ko' ? `태스크 ${k.task}의 ${k.key}` : `${k.key} in task ${k.task}`;
}

/**
 * A Streams count's store against its events: "its count store has page-a 5 for 3 events and
 * page-b 3 for 2 — events counted again"; or "its count store counts each event once (page-a 3, page-b 2)".
 */
function storeText(lang: Language, st: StoreCheck): string {
  const against = (k: StoreKey, first: boolean) =>
    lang === 'ko'
      ? `${keyIn(lang, k)} ${k.count}(이벤트 ${k.events}개)`
      : `${keyIn(lang, k)} ${k.count} for ${first ? count(k.events, 'event') : k.events}`;
  // "its count store has page-a 5 for 3 events and page-b 3 for 2 — <why>"
  const has = (keys: readonly StoreKey[], en: string, ko: string) => {
    const shown = list(
      lang,
      keys.map((k, i) => against(k, i === 0)),
      3,
    );
    return say(lang, `its count store has ${shown} — ${en}`, `카운트 스토어의 값이 ${shown}입니다. ${ko}`);
  };
  const recounted = st.inflated.filter((k) => k.count > k.records);
  if (recounted.length)
    return has(
      recounted,
      'records counted again: the restored store already held their increments',
      '복원된 스토어에 이미 더해진 레코드를 다시 셌습니다',
    );
  if (st.inflated.length)
    return has(
      st.inflated,
      'it counts records, and its input holds the same event more than once',
      '레코드를 세는데 입력에 같은 이벤트가 두 번 이상 있습니다',
    );
  if (st.short.length) return has(st.short, 'counts lost', '센 값이 사라졌습니다');
  // before the end a count may still be behind its events (short is judged at the end only): it
  // said "counts each event once (page-a 1 and page-b 0)" of 4 events, right after a crash
  const behind = st.keys.filter((k) => k.count < k.events);
  if (behind.length)
    return has(
      behind,
      'not all counted yet: the store is read as a restore reads its changelog, where their increments are not yet written or not yet committed',
      '스토어는 복원처럼 changelog에서 읽는데, 그 증가분은 아직 기록되지 않았거나 커밋되지 않았습니다',
    );
  const shown = list(
    lang,
    st.keys.map((k) => `${keyIn(lang, k)} ${k.count}`),
    3,
  );
  return say(lang, `its count store counts each event once (${shown})`, `카운트 스토어는 각 이벤트를 한 번씩 셉니다(${shown})`);
}

function sinkText(lang: Language, f: SinkFinding): string {
  const parts: string[] = [];
  if (f.losses.length) parts.push(say(lang, `lost: ${lossList('en', f.losses)}`, `유실: ${lossList('ko', f.losses)}`));
  if (f.repeated.length) {
    const n = Math.max(...f.repeated.map((r) => r.times));
    const who = ids(
      lang,
      f.repeated.map((r) => r.eventId),
    );
    parts.push(say(lang, `took effect ${times('en', n)} for ${who}`, `${who}에 대해 ${times('ko', n)} 반영됐습니다`));
  } else if (f.events > 0)
    parts.push(
      f.losses.length
        ? say(lang, `every other event took effect once`, '나머지 이벤트는 한 번씩 반영됐습니다')
        : eachOnce(lang, f.events, 'took effect once', '반영됐습니다'),
    );
  if (!parts.length) parts.push(say(lang, 'nothing took effect', '반영된 것이 없습니다'));
  if (f.skipped)
    parts.push(
      say(lang, `${count(f.skipped, 'repeated attempt')} changed nothing`, `반복된 시도 ${f.skipped}번은 아무것도 바꾸지 않았습니다`),
    );
  const body = lang === 'ko' ? parts.map((p) => end('ko', p)).join(' ') : parts.join('; ');
  return end(lang, `${f.subject}: ${body}`);
}

/**
 * The loss layer's sentence. `aboveHw`: the topics' events above the high watermark — not lost, but
 * not committed either (no reader sees them), which "Lost: nothing" alone would hide.
 */
function lossText(lang: Language, f: LossFinding, aboveHw: readonly AboveHighWatermark[]): string {
  if (f.status === 'not-applicable')
    return say(lang, 'Lost: nothing to judge yet — no event has been sent.', '유실: 아직 판단할 것이 없습니다. 보낸 이벤트가 없습니다.');
  if (!f.losses.length) {
    // only an event with no committed copy may still be cut by a leader change
    const above = [...new Set(aboveHw.filter((a) => a.reason === 'log' && !a.secondCopy).map((a) => a.eventId))];
    if (!above.length) return say(lang, 'Lost: nothing.', '유실: 없습니다.');
    const who = ids(lang, above);
    return say(
      lang,
      `Lost: nothing — ${who} ${above.length > 1 ? 'are' : 'is'} in the leader's log above the high watermark, not committed.`,
      `유실: 없습니다. 다만 ${josa(who, '은/는')} 리더의 로그에서 하이 워터마크 위에 있어 커밋되지 않았습니다.`,
    );
  }
  const parts = lossGroups(lang, f.losses, true);
  return lang === 'ko' ? `유실: ${parts.map((p) => end('ko', p)).join(' ')}` : `Lost: ${parts.join('; ')}.`;
}

/** The events the verdict's topic findings name above the high watermark (what the loss layer adds). */
export function aboveHighWatermarkOf(layers: readonly Omit<LayerFinding, 'sentence'>[]): AboveHighWatermark[] {
  return layers.flatMap((l) => (l.layer === 'log' || l.layer === 'output' ? ((l as TopicFinding).aboveHighWatermark ?? []) : []));
}

/**
 * A finding's sentence in `language`. `aboveHw` (the loss layer only): the events above the high
 * watermark in the verdict's topic findings (aboveHighWatermarkOf).
 */
export function findingText(f: LayerFinding, language: Language, aboveHw: readonly AboveHighWatermark[] = []): string {
  switch (f.layer) {
    case 'log':
    case 'output':
      return topicText(language, f);
    case 'delivery':
      return deliveryText(language, f);
    case 'processing':
      return processingText(language, f);
    case 'sink':
      return sinkText(language, f);
    case 'loss':
      return lossText(language, f, aboveHw);
  }
}

export interface VerdictTextOptions {
  /** Kept for callers of the first version: the isolation level is now part of the finding. */
  readonly isolation?: Readonly<Record<string, string>>;
}

/** A layer finding's sentence in `language` (English: the engine's sentence itself). */
export function findingSentence(f: LayerFinding, verdict: VerdictView, language: Language, _options: VerdictTextOptions = {}): string {
  return language === 'en' ? f.sentence : findingText(f, language, f.layer === 'loss' ? aboveHighWatermarkOf(verdict.layers) : []);
}

/** Names of the layers and statuses, for tables. */
export const LAYER_NAMES: Readonly<Record<LayerFinding['layer'], readonly [en: string, ko: string]>> = {
  log: ['Kafka log', 'Kafka 로그'],
  output: ['Committed output', '커밋된 출력'],
  delivery: ['Delivery', '전달'],
  processing: ['Processing', '처리'],
  sink: ['Outside Kafka', 'Kafka 밖'],
  loss: ['Losses', '유실'],
};

export const STATUS_NAMES: Readonly<Record<Status, readonly [en: string, ko: string]>> = {
  once: ['once', '한 번'],
  'more-than-once': ['more than once', '두 번 이상'],
  lost: ['lost', '유실'],
  stalled: ['stalled', '멈춤'],
  'above-hw': ['above the HW', 'HW 위'],
  'not-applicable': ['not applicable', '해당 없음'],
};

/**
 * The status word a person reads for a finding: the loss layer's "once" — nothing lost — reads
 * "none" ("once" there read as "lost once"). The verdict's data and the CLI keep the status id.
 */
export function statusNameOf(layer: string, status: Status): readonly [en: string, ko: string] {
  return layer === 'loss' && status === 'once' ? ['none', '없음'] : STATUS_NAMES[status];
}

/**
 * For a "more than once" finding, the most times its sentence names for one event (copies in the
 * topic, records received, times processed or applied): what the badge shows as "×N", so the two
 * never disagree. Null for any other status.
 */
export function mostTimes(f: LayerFinding): number | null {
  if (f.status !== 'more-than-once') return null;
  const counts: number[] =
    f.layer === 'log' || f.layer === 'output'
      ? f.notable.filter((e) => !f.aboveHighWatermark?.some((a) => a.eventId === e.eventId)).map((e) => effective(e).length)
      : f.layer === 'delivery'
        ? f.repeated.map((e) => e.offsets.length)
        : f.layer === 'processing' || f.layer === 'sink'
          ? f.repeated.map((e) => e.times)
          : [];
  const most = Math.max(0, ...counts);
  return most > 1 ? most : null;
}

export const LOSS_KIND_NAMES: Readonly<Record<LossKind, readonly [en: string, ko: string]>> = {
  'acked-then-lost': ['acknowledged, then lost', '확인 응답 후 유실'],
  'not-acked': ['sent, never acknowledged', '보냈지만 확인 응답 없음'],
  'never-sent': ['never sent', '보내지 못함'],
  'aborted-only': ['only in aborted transactions', '취소된 트랜잭션에만 있음'],
  'open-only': ['only in a transaction that never ended', '끝나지 않은 트랜잭션에만 있음'],
  compacted: ['removed by compaction unread', '읽히기 전에 컴팩션으로 지워짐'],
  'not-published': ['never published by the relay', '릴레이가 발행하지 않음'],
  'not-written': ['processed, never written', '처리했지만 기록되지 않음'],
  'not-processed': ['never processed', '처리되지 않음'],
  'not-applied': ['never took effect', '반영되지 않음'],
};

export const COPY_STATE_NAMES: Readonly<Record<CopyState, readonly [en: string, ko: string]>> = {
  committed: ['committed', '커밋됨'],
  plain: ['outside a transaction', '트랜잭션 밖'],
  aborted: ['aborted', '취소됨'],
  open: ['open', '열림'],
  // gone from the log: cleaned by compaction or truncated by a leader change (the finding's cause says which)
  removed: ['no longer in the log', '로그에서 사라짐'],
};

export const COPY_CAUSE_NAMES: Readonly<Record<Copy['cause'], readonly [en: string, ko: string]>> = {
  first: ['first copy', '첫 사본'],
  retry: ['producer retry written again', '프로듀서 재시도가 다시 기록됨'],
  resend: ['a second send()', '두 번째 send()'],
  'new-session': ['a new producer session', '새 프로듀서 세션'],
  'other-writer': ['another writer', '다른 작성자'],
};
