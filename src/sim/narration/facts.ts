/**
 * One clause per fact (or per group of facts of one kind): what an actor observed or did, in
 * Kafka's words, and — where the rest of the run tells — why it matters ("again", "the second
 * time", "a new producerId").
 */

import { keyOf } from '../protocol/topicPartition';
import { groupDigits } from '../text/groupDigits';
import type { Fact } from '../trace/facts';
import { staleJoin } from '../trace/staleJoin';
import { bufferPoolClause } from './bufferPool';
import { type NarrationContext, processingMode } from './context';
import { brokerStopped } from './controlledShutdown';
import { explainError } from './errors';
import { count, josa, type Language, list, ordinal, range, say } from './language';
import { poss } from './names';
import { translateDuring, translateNote, translateReason, translateRefusal } from './notes';
import { operatorAbort } from './operatorAbort';
import { forceClosedRecordsClause, forceClosedRequestsClause } from './producerClose';
import { heldRecordNote, poisonedNote } from './sendOutsideTransaction';
import { countUpTo, eventKey, type Occurrence, outcomeAt } from './traceIndex';
import { metadataTimeoutClause } from './waitOnMetadata';

type F<K extends Fact['kind']> = Extract<Fact, { kind: K }>;

/** The explanation of an error code the first time the sentence mentions it. */
function explainOnce(ctx: NarrationContext, error: string): string | null {
  if (ctx.explained.has(error)) return null;
  ctx.explained.add(error);
  return explainError(error, ctx.lang);
}

function offsetsText(offsets: readonly { topic: string; partition: number; offset: number }[]): string {
  return offsets.map((o) => `${keyOf(o)}=${o.offset}`).join(', ');
}

function append(ctx: NarrationContext, f: F<'append'>): string {
  const { lang, names } = ctx;
  const broker = names.actor(ctx.step.actor);
  const where = keyOf(f);
  if (f.control !== null) {
    const offsetsTopic = f.topic === '__consumer_offsets';
    const ids = `producerId ${f.producerId} epoch ${f.producerEpoch}`;
    if (f.control === 'COMMIT')
      return offsetsTopic
        ? say(
            lang,
            `${broker} wrote a COMMIT marker to ${where} for ${ids}: the transaction's offsets become the group's committed offsets`,
            `${josa(broker, '은/는')} ${where}에 ${ids}의 COMMIT 마커를 기록했습니다. 트랜잭션에 포함된 offset이 그룹의 커밋된 offset이 됩니다.`,
          )
        : say(
            lang,
            `${broker} wrote a COMMIT marker at ${where} offset ${f.baseOffset} for ${ids}: the transaction's records there are committed, and read_committed consumers may now read past them`,
            `${josa(broker, '은/는')} ${where} offset ${f.baseOffset}에 ${ids}의 COMMIT 마커를 기록했습니다. 이 파티션의 트랜잭션 레코드가 커밋되어 read_committed 컨슈머도 읽을 수 있습니다.`,
          );
    return offsetsTopic
      ? say(
          lang,
          `${broker} wrote an ABORT marker to ${where} for ${ids}: the transaction's pending offsets are dropped, so the group will read those records again`,
          `${josa(broker, '은/는')} ${where}에 ${ids}의 ABORT 마커를 기록했습니다. 보류 중이던 offset은 버려지고 그룹은 그 레코드를 다시 읽습니다.`,
        )
      : say(
          lang,
          `${broker} wrote an ABORT marker at ${where} offset ${f.baseOffset} for ${ids}: read_committed consumers will skip the transaction's records there, read_uncommitted ones see them anyway`,
          `${josa(broker, '은/는')} ${where} offset ${f.baseOffset}에 ${ids}의 ABORT 마커를 기록했습니다. read_committed 컨슈머는 이 트랜잭션의 레코드를 건너뛰지만 read_uncommitted 컨슈머에게는 그대로 보입니다.`,
        );
  }
  const n = f.lastOffset - f.baseOffset + 1;
  const events = f.eventIds.filter((e): e is string => e !== null);
  const idsEn =
    f.producerId < 0
      ? 'no producerId: idempotence is off, so the broker cannot tell a retry from a new record'
      : `producerId ${f.producerId}, epoch ${f.producerEpoch}, seq ${range(f.baseSequence, f.lastSequence)}${f.transactional ? ', transactional' : ''}`;
  const idsKo =
    f.producerId < 0
      ? 'producerId 없음: 멱등성이 꺼져 있어 브로커는 재시도와 새 레코드를 구별하지 못합니다'
      : `producerId ${f.producerId}, epoch ${f.producerEpoch}, seq ${range(f.baseSequence, f.lastSequence)}${f.transactional ? ', 트랜잭션' : ''}`;
  const evEn = events.length ? ` for ${list('en', [...new Set(events)])}` : '';
  const evKo = events.length ? `(${list('ko', [...new Set(events)])})` : '';
  let text = say(
    lang,
    `${broker} appended ${n === 1 ? 'a record' : `${n} records`}${evEn} to ${where} at ${f.baseOffset === f.lastOffset ? 'offset' : 'offsets'} ${range(f.baseOffset, f.lastOffset)} (${idsEn})`,
    `${josa(broker, '은/는')} ${where}의 offset ${range(f.baseOffset, f.lastOffset)}에 ${josa(`레코드 ${n}개${evKo}`, '을/를')} 추가했습니다(${idsKo}).`,
  );
  // the same send() written before: a producer retry the broker did not recognise
  const retried = f.origins
    .map((o, i) => {
      if (!o) return null;
      const first = ctx.index.appendsByOrigin.get(`${o.client}#${o.ref}`)?.[0];
      return first && first.step < ctx.step.i ? { first, offset: f.baseOffset + i } : null;
    })
    .filter((x) => x !== null);
  if (retried.length) {
    const first = retried[0]?.first;
    // an idempotent producer's retry under a bumped epoch: the broker's duplicate check looks within one epoch only
    const before = first
      ? ((ctx.trace.steps.at(first.step)?.facts ?? []) as Fact[]).find(
          (x): x is Extract<Fact, { kind: 'append' }> =>
            x.kind === 'append' &&
            x.topic === first.topic &&
            x.partition === first.partition &&
            x.baseOffset <= first.offset &&
            first.offset <= x.lastOffset,
        )
      : undefined;
    // a retry the new leader writes at the offset a deposed leader had written it at: the new leader
    // never had that copy (else it would have appended after it), and the old one is cut when its
    // broker follows the new leader — the log keeps this copy, once
    const previous = first ? ctx.trace.steps.at(first.step)?.actor : undefined;
    if (
      before &&
      first &&
      previous !== undefined &&
      previous !== ctx.step.actor &&
      before.leaderEpoch !== undefined &&
      f.leaderEpoch !== undefined &&
      before.leaderEpoch < f.leaderEpoch &&
      retried[0]?.offset === first.offset
    ) {
      const old = names.actor(previous);
      text += say(
        lang,
        `; it is a retry of the send() that ${old}, the previous leader, had written at offset ${first.offset} (leader epoch ${before.leaderEpoch}) before the leader changed: ${broker} never had that copy, so it writes the retry as new — ${old} cuts its own copy when it follows ${broker}, and the log keeps this one`,
        ` 리더가 바뀌기 전에 이전 리더 ${josa(old, '이/가')} offset ${first.offset}(리더 epoch ${before.leaderEpoch})에 기록했던 send()의 재시도입니다. ${josa(broker, '은/는')} 그 사본을 받은 적이 없어 재시도를 새로 기록합니다. ${josa(old, '은/는')} ${josa(broker, '을/를')} 따라갈 때 자기 사본을 잘라 내고, 로그에는 이 사본이 남습니다.`,
      );
      return text;
    }
    if (before && f.producerId >= 0 && before.producerId === f.producerId && before.producerEpoch !== f.producerEpoch) {
      text += say(
        lang,
        `; it is a retry of the same send() the broker already wrote at offset ${first?.offset} (epoch ${before.producerEpoch}, seq ${range(before.baseSequence, before.lastSequence)}), rewritten by the producer's epoch bump: the broker matches a retry by producerId, epoch and sequence, so it cannot see this copy — the log now holds it twice, with idempotence on`,
        ` 이미 offset ${first?.offset}에 기록된(epoch ${before.producerEpoch}, seq ${range(before.baseSequence, before.lastSequence)}) 같은 send()의 재시도를 프로듀서의 epoch 증가가 다시 쓴 것입니다. 브로커는 producerId, epoch, 시퀀스로 재시도를 알아보므로 이 사본을 알아보지 못합니다. 멱등성을 켠 채 로그에 두 번 남습니다.`,
      );
      return text;
    }
    // an idempotent producer's retry in the same epoch: the broker had forgotten the producer (producer.id.expiration.ms)
    const expiry =
      before && first && f.producerId >= 0 && before.producerId === f.producerId ? expiryBetween(ctx, f, first.step) : undefined;
    if (expiry) {
      text += say(
        lang,
        `; it is a retry of the same send() the broker already wrote at offset ${first?.offset}, with the same producerId, epoch and sequence — but ${expiry.broker}'s expiration check had dropped producerId ${f.producerId}'s state from ${where} at ${groupDigits(expiry.at)} ms (producer.id.expiration.ms ${groupDigits(expiry.expirationMs)} ms), and a producer the broker knows nothing of may start at any sequence: the log now holds it twice, with idempotence on`,
        ` 이미 offset ${first?.offset}에 같은 producerId, epoch, 시퀀스로 기록된 같은 send()의 재시도입니다. 그러나 ${josa(expiry.broker, '이/가')} ${groupDigits(expiry.at)} ms에 만료 검사로 ${where}에서 producerId ${f.producerId}의 상태를 지웠고(producer.id.expiration.ms ${groupDigits(expiry.expirationMs)} ms), 브로커가 모르는 프로듀서는 어떤 시퀀스로든 시작할 수 있습니다. 멱등성을 켠 채 로그에 두 번 남습니다.`,
      );
      return text;
    }
    text += say(
      lang,
      `; it is a retry of the same send() the broker already wrote at offset ${first?.offset} — the log now holds it twice`,
      ` 이미 offset ${first?.offset}에 기록된 같은 send()의 재시도이므로 로그에 두 번 남습니다.`,
    );
    return text;
  }
  // the same event_id from a different send(): a business duplicate only the event_id reveals
  const resent = f.origins
    .map((o, i) => {
      const ev = f.eventIds[i];
      if (!o || !ev) return null;
      const earlier = (ctx.index.appendsByEvent.get(ev) ?? []).find(
        (x) => x.step < ctx.step.i && x.topic === f.topic && x.origin !== `${o.client}#${o.ref}`,
      );
      return earlier ? { ev, earlier, client: o.client } : null;
    })
    .filter((x) => x !== null);
  const r = resent[0];
  if (r && !r.earlier.transactional && !f.transactional)
    text += say(
      lang,
      `; ${r.ev} is already at offset ${r.earlier.offset} from an earlier send(): to Kafka this is a new record with a new sequence number, and only the event_id shows it is the same event`,
      ` ${josa(r.ev, '은/는')} 이미 이전 send()로 offset ${r.earlier.offset}에 있습니다. Kafka에는 새 시퀀스를 받은 새 레코드이고, 같은 이벤트라는 사실은 event_id만 알려 줍니다.`,
    );
  else if (r) text += transactionalResend(ctx, f, r);
  else if (f.transactional)
    text += say(
      lang,
      '; read_committed consumers cannot see it until the transaction ends with a marker',
      ' 트랜잭션이 마커로 끝날 때까지 read_committed 컨슈머에게는 보이지 않습니다.',
    );
  return text;
}

/**
 * The same event_id appended again where one of the copies is transactional: an aborted earlier
 * copy leaves read_committed readers one; a committed one with the same transactional.id is a
 * business duplicate that transactional.id does not prevent (a second instance started after the
 * first committed re-sends the same events as new records).
 */
function transactionalResend(ctx: NarrationContext, f: F<'append'>, r: { ev: string; earlier: Occurrence; client: string }): string {
  const { lang } = ctx;
  const outcome = outcomeAt(ctx.index, r.earlier, ctx.step.i);
  if (outcome === 'ABORT')
    return say(
      lang,
      `; ${r.ev} is also at offset ${r.earlier.offset}, in a transaction that was aborted: read_committed readers will see only this copy`,
      ` ${josa(r.ev, '은/는')} offset ${r.earlier.offset}에도 있지만 그 트랜잭션은 취소됐습니다. read_committed 컨슈머는 이 사본만 보게 됩니다.`,
    );
  const earlierClient = r.earlier.origin?.split('#')[0] ?? null;
  const tid = f.producerId >= 0 ? ctx.index.transactionalIds.get(f.producerId) : undefined;
  const earlierTid = r.earlier.producerId >= 0 ? ctx.index.transactionalIds.get(r.earlier.producerId) : undefined;
  const state =
    outcome === 'COMMIT'
      ? say(lang, 'committed', '커밋된')
      : outcome === 'open'
        ? say(lang, 'in a transaction still open', '아직 열린 트랜잭션의')
        : say(lang, 'written outside a transaction', '트랜잭션 밖에서 기록된');
  if (tid !== undefined && tid === earlierTid && earlierClient !== null && earlierClient !== r.client)
    return say(
      lang,
      `; ${r.ev} is already at offset ${r.earlier.offset}, ${state}, written by ${earlierClient} with the same transactional.id ${tid}: to Kafka this is a new record with a new sequence — a business duplicate that transactional.id does not prevent`,
      ` ${josa(r.ev, '은/는')} 이미 offset ${r.earlier.offset}에 ${state} 사본으로 있습니다. 같은 transactional.id ${josa(tid, '을/를')} 쓰는 ${josa(earlierClient, '이/가')} 썼습니다. Kafka에는 새 시퀀스를 받은 새 레코드이며, transactional.id가 막지 못하는 비즈니스 중복입니다.`,
    );
  return say(
    lang,
    `; ${r.ev} is already at offset ${r.earlier.offset}, ${state}: to Kafka this is a new record with a new sequence number, and only the event_id shows it is the same event`,
    ` ${josa(r.ev, '은/는')} 이미 offset ${r.earlier.offset}에 ${state} 사본으로 있습니다. Kafka에는 새 시퀀스를 받은 새 레코드이고, 같은 이벤트라는 사실은 event_id만 알려 줍니다.`,
  );
}

function duplicate(ctx: NarrationContext, f: F<'duplicate'>): string {
  const broker = ctx.names.actor(ctx.step.actor);
  return say(
    ctx.lang,
    `${broker} appended nothing to ${keyOf(f)}: seq ${range(f.baseSequence, f.lastSequence)} of producerId ${f.producerId} epoch ${f.producerEpoch} is a duplicate; it answered with the original offset ${f.baseOffset}`,
    `${josa(broker, '은/는')} ${keyOf(f)}에 아무것도 추가하지 않았습니다. producerId ${f.producerId}, epoch ${f.producerEpoch}의 seq ${josa(range(f.baseSequence, f.lastSequence), '은/는')} 중복이므로 원래 offset ${josa(String(f.baseOffset), '으로/로')} 응답했습니다.`,
  );
}

/** The partition leader's own INVALID_TXN_STATE (UnifiedLog: a verified Produce whose guard no verification entry holds). */
const NOT_IN_ONGOING_TRANSACTION = 'Record was not part of an ongoing transaction';

function rejected(ctx: NarrationContext, f: F<'rejected'>): string {
  const broker = ctx.names.actor(ctx.step.actor);
  const why =
    f.error === 'INVALID_TXN_STATE' && f.reason === NOT_IN_ONGOING_TRANSACTION
      ? say(
          ctx.lang,
          `"${NOT_IN_ONGOING_TRANSACTION}": no transaction of this producer epoch is open on the partition, and no verification entry there holds the guard the request carries — a marker ended it, or the producer expiration check dropped it, before the verified Produce arrived`,
          `"${NOT_IN_ONGOING_TRANSACTION}". 이 파티션에는 이 프로듀서 epoch의 열린 트랜잭션이 없고, 요청이 가진 가드를 가진 검증 항목도 없습니다. 검증된 Produce가 오기 전에 마커가 검증을 끝냈거나 프로듀서 만료 검사가 항목을 지웠습니다`,
        )
      : explainError(f.error, ctx.lang);
  return say(
    ctx.lang,
    `${broker} rejected the batch for ${keyOf(f)} from producerId ${f.producerId} epoch ${f.producerEpoch} (seq ${f.baseSequence}) with ${f.error}${why ? `: ${why}` : ''}`,
    `${josa(broker, '은/는')} producerId ${f.producerId}, epoch ${f.producerEpoch}의 ${keyOf(f)} 배치(seq ${f.baseSequence})를 ${josa(f.error, '으로/로')} 거부했습니다${why ? `. ${why}.` : '.'}`,
  );
}

/** The exceptions a refused call throws (the producer's `during` is then `call: message`). */
const REFUSAL_EXCEPTIONS = new Set(['IllegalStateException', 'KafkaException', 'ProducerFencedException', 'InvalidProducerEpochException']);

/** The producer's calls bounded by max.block.ms (producer/maxBlock.ts). */
const BLOCKING_CALLS = new Set(['initTransactions', 'sendOffsetsToTransaction', 'commitTransaction', 'abortTransaction']);

/**
 * A blocking call gave up at max.block.ms: TransactionalRequestResult.await's TimeoutException. In
 * FATAL_ERROR (a sendOffsetsToTransaction() whose request waited behind the one that made the producer
 * fatal) the request is never sent: Sender.runOnce sends nothing there.
 */
function blockedCallTimedOut(lang: Language, who: string, call: string, message: string, fatal: boolean): string {
  if (fatal)
    return say(
      lang,
      `${poss(who, `${call}()`)} waited max.block.ms and threw TimeoutException ("${message}"): the producer is in FATAL_ERROR, so the request it waited for is never sent`,
      `${who}의 ${josa(`${call}()`, '이/가')} max.block.ms 동안 기다린 뒤 TimeoutException을 던졌습니다("${translateRefusal(message, 'ko')}"). 프로듀서가 FATAL_ERROR 상태라서 기다리던 요청은 끝내 보내지지 않습니다.`,
    );
  const retry =
    call === 'sendOffsetsToTransaction'
      ? say(lang, '', '')
      : say(
          lang,
          `; only ${call}() may be called now — it waits for that same result — any other transactional call throws IllegalStateException`,
          ` 이제 ${call}()만 호출할 수 있고(같은 결과를 기다립니다), 다른 트랜잭션 호출은 IllegalStateException을 던집니다.`,
        );
  return say(
    lang,
    `${poss(who, `${call}()`)} waited max.block.ms and threw TimeoutException ("${message}"): the request goes on without it${retry}`,
    `${who}의 ${josa(`${call}()`, '이/가')} max.block.ms 동안 기다린 뒤 TimeoutException을 던졌습니다("${translateRefusal(message, 'ko')}"). 요청은 그와 상관없이 계속됩니다.${retry}`,
  );
}

/** A consumer's group requests (and commitSync) whose fatal errors reach the application: the call that throws them. */
const CONSUMER_GROUP_CALLS: ReadonlyMap<string, string> = new Map([
  ['JoinGroup', 'poll'],
  ['SyncGroup', 'poll'],
  ['Heartbeat', 'poll'],
  ['commitSync', 'commitSync'],
]);

function clientError(ctx: NarrationContext, f: F<'clientError'>): string {
  const { lang } = ctx;
  const who = ctx.names.process(f.client);
  const poisoned = f.fatal ? poisonedNote(who, f.during, lang) : null;
  if (poisoned) return poisoned;
  const bufferPool = bufferPoolClause(lang, who, f.error, f.during);
  if (bufferPool) return bufferPool;
  const forced = forceClosedRequestsClause(lang, who, f.error, f.during);
  if (forced) return forced;
  const refused = f.during.match(/^(\w+): (.+)$/);
  const metadataTimeout =
    f.error === 'TimeoutException' && refused?.[1] === 'send' ? metadataTimeoutClause(lang, who, refused[2] as string) : null;
  if (metadataTimeout) return metadataTimeout;
  if (f.error === 'TimeoutException' && refused && BLOCKING_CALLS.has(refused[1] as string))
    return blockedCallTimedOut(lang, who, refused[1] as string, refused[2] as string, ctx.step.before === 'FATAL_ERROR');
  if (REFUSAL_EXCEPTIONS.has(f.error) && refused) {
    const reason = refused[2] as string;
    const held = refused[1] === 'send' ? (heldRecordNote(reason, lang) ?? '') : '';
    return say(
      lang,
      `${who}'s ${refused[1]}() was refused with ${f.error}: ${reason}${held}`,
      `${who}의 ${refused[1]}() 호출이 ${josa(f.error, '으로/로')} 거부됐습니다: ${translateRefusal(reason, 'ko')}${held ? `.${held}` : ''}`,
    );
  }
  // a leader's INVALID_TXN_STATE on a Produce is abortable (TransactionManager.maybeTransitionToErrorState), not the coordinator's fatal one
  const why =
    f.error === 'INVALID_TXN_STATE' && f.during.startsWith('Produce ') && !f.fatal
      ? say(
          lang,
          'the partition leader found no open transaction or verification for the batch; for the producer an abortable error — its transaction can only be aborted',
          '파티션 리더에 이 배치의 열린 트랜잭션도 검증도 없었습니다. 프로듀서에게는 취소 가능한 오류이므로 트랜잭션은 취소할 수밖에 없습니다',
        )
      : explainOnce(ctx, f.error);
  const during = translateDuring(f.during, lang);
  // a consumer's fatal group errors (INVALID_SESSION_TIMEOUT, FENCED_INSTANCE_ID) are thrown to its application
  const consumerCall = CONSUMER_GROUP_CALLS.get(f.during);
  const fatal = !f.fatal
    ? ''
    : consumerCall
      ? say(
          lang,
          ` — a fatal error: ${consumerCall}() throws it to the application`,
          ` 치명적 오류이므로 ${josa(`${consumerCall}()`, '이/가')} 애플리케이션에 예외를 던집니다.`,
        )
      : say(lang, ' — a fatal error: this producer can only be closed', ' 치명적 오류이므로 이 프로듀서는 닫는 수밖에 없습니다.');
  return say(
    lang,
    `${who} got ${f.error} during ${during}${why ? `: ${why}` : ''}${fatal}`,
    `${josa(who, '은/는')} ${during} 중에 ${josa(f.error, '을/를')} 받았습니다${why ? `. ${why}.` : '.'}${fatal}`,
  );
}

function producerId(ctx: NarrationContext, f: F<'producerId'>): string {
  const { lang } = ctx;
  const who = ctx.names.process(f.client);
  const history = ctx.index.producerIds.get(f.client) ?? [];
  const previous = [...history].reverse().find((h) => h.step < ctx.step.i);
  if (f.transactionalId !== null) {
    const fence =
      f.producerEpoch > 0
        ? say(
            lang,
            `: an older instance still using a lower epoch of this transactional.id is fenced on its next call`,
            ` 더 낮은 epoch를 쓰는 이전 인스턴스가 있다면 다음 호출에서 펜싱됩니다.`,
          )
        : '';
    return say(
      lang,
      `${who}'s producer got producerId ${f.producerId}, epoch ${f.producerEpoch} for transactional.id ${f.transactionalId}${fence}`,
      `${who} 프로듀서가 transactional.id ${f.transactionalId}의 producerId ${f.producerId}, epoch ${josa(String(f.producerEpoch), '을/를')} 받았습니다.${fence}`,
    );
  }
  if (previous && previous.producerId !== f.producerId)
    return say(
      lang,
      `${who}'s new producer got producerId ${f.producerId}, epoch ${f.producerEpoch} — not ${previous.producerId} as before: idempotence protects one producer session only, so the broker cannot match its batches to the old ones`,
      `${who}의 새 프로듀서가 producerId ${f.producerId}, epoch ${josa(String(f.producerEpoch), '을/를')} 받았습니다. 이전의 ${josa(String(previous.producerId), '이/가')} 아닙니다. 멱등성은 한 프로듀서 세션 안에서만 보호하므로 브로커는 이전 배치와 연결하지 못합니다.`,
    );
  if (previous && previous.producerEpoch !== f.producerEpoch)
    return say(
      lang,
      `${who}'s producer now uses producerId ${f.producerId}, epoch ${f.producerEpoch}`,
      `${who} 프로듀서가 이제 producerId ${f.producerId}, epoch ${josa(String(f.producerEpoch), '을/를')} 씁니다.`,
    );
  return say(
    lang,
    `${who}'s producer got producerId ${f.producerId}, epoch ${f.producerEpoch}: from now on the broker checks its sequence numbers per partition and drops a retried batch`,
    `${who} 프로듀서가 producerId ${f.producerId}, epoch ${josa(String(f.producerEpoch), '을/를')} 받았습니다. 이제 브로커가 파티션별 시퀀스 번호로 재시도된 배치를 걸러 냅니다.`,
  );
}

function sendResults(ctx: NarrationContext, fs: readonly F<'sendResult'>[]): string[] {
  const { lang } = ctx;
  const out: string[] = [];
  const ok = fs.filter((f) => f.error === null);
  const bad = fs.filter((f) => f.error !== null);
  if (ok.length) {
    const who = ctx.names.process((ok[0] as F<'sendResult'>).client);
    const partitions = [...new Set(ok.map((f) => keyOf(f)))];
    const where = partitions.join(', ');
    // each partition with its own offsets (a Streams commit writes the changelog and the output at once)
    const at = partitions.map((tp) => {
      const own = ok.filter((f) => keyOf(f) === tp).map((f) => f.offset as number);
      const [lo, hi] = [Math.min(...own), Math.max(...own)];
      return { en: `${tp} ${lo === hi ? 'offset' : 'offsets'} ${range(lo, hi)}`, ko: `${tp} offset ${range(lo, hi)}` };
    });
    const events = [...new Set(ok.map((f) => f.eventId).filter((e): e is string => e !== null))];
    const what = events.length
      ? list(lang, events)
      : say(lang, ok.length === 1 ? 'a record' : `${ok.length} records`, `레코드 ${ok.length}개`);
    const client = (ok[0] as F<'sendResult'>).client;
    const acks = (ctx.trace.resolved.producers[client] ?? ctx.trace.resolved.producers[`${client}.producer`])?.acks;
    if (String(acks) === '0') {
      out.push(
        say(
          lang,
          `${who}'s send() of ${what} counts as done at once: with acks=0 the producer waits for no answer, so it never learns whether ${where} got it`,
          `${who}의 send()(${what})는 바로 끝난 것으로 처리됩니다. acks=0이라 프로듀서는 응답을 기다리지 않으므로 ${where}에 도착했는지 알 수 없습니다.`,
        ),
      );
      return out;
    }
    out.push(
      say(
        lang,
        `${who}'s send() of ${what} is acknowledged: ${at.map((a) => a.en).join(', ')}`,
        `${who}의 ${josa(`send()(${what})`, '이/가')} 확인 응답을 받았습니다: ${at.map((a) => a.ko).join(', ')}.`,
      ),
    );
  }
  // grouped by error and message: a forced close's KafkaException is not a refused call's
  const errors = new Map<string, F<'sendResult'>[]>();
  for (const f of bad) {
    const k = `${f.error}|${f.message ?? ''}`;
    errors.set(k, [...(errors.get(k) ?? []), f]);
  }
  for (const list_ of errors.values()) {
    const first = list_[0] as F<'sendResult'>;
    const error = first.error as string;
    const who = ctx.names.process(first.client);
    const events = [...new Set(list_.map((f) => f.eventId).filter((e): e is string => e !== null))];
    const what = events.length
      ? list(lang, events)
      : say(lang, list_.length === 1 ? 'a record' : `${list_.length} records`, `레코드 ${list_.length}개`);
    const forced = forceClosedRecordsClause(lang, who, what, first.message);
    if (forced) {
      out.push(forced);
      continue;
    }
    const why = explainOnce(ctx, error);
    out.push(
      say(
        lang,
        `${who}'s send() of ${what} failed with ${error}${why ? `: ${why}` : ''}`,
        `${who}의 ${josa(`send()(${what})`, '이/가')} ${josa(error, '으로/로')} 실패했습니다${why ? `. ${why}.` : '.'}`,
      ),
    );
  }
  return out;
}

/**
 * The actor behind a fact's consumer name: `c1` is `c1.consumer`, and a Streams instance's restore
 * consumer `st0-restore` is `st0.restore` ("st0's restore consumer", not "st0-restore's consumer").
 */
function consumerActor(ctx: NarrationContext, consumer: string): string {
  const restore = consumer.endsWith('-restore') ? `${consumer.slice(0, -'-restore'.length)}.restore` : null;
  return restore !== null && ctx.step.actor === restore ? restore : `${consumer}.consumer`;
}

function delivered(ctx: NarrationContext, fs: readonly F<'delivered'>[]): string[] {
  const { lang } = ctx;
  const byConsumer = new Map<string, F<'delivered'>[]>();
  for (const f of fs) byConsumer.set(f.consumer, [...(byConsumer.get(f.consumer) ?? []), f]);
  const out: string[] = [];
  for (const [consumer, recs] of byConsumer) {
    const first = recs[0] as F<'delivered'>;
    const who = ctx.names.actor(consumerActor(ctx, consumer));
    const parts = [...new Set(recs.map((r) => keyOf(r)))];
    const counts = new Map<string, number>();
    for (const r of recs) if (r.headers.event_id) counts.set(r.headers.event_id, (counts.get(r.headers.event_id) ?? 0) + 1);
    const events = [...counts].map(([e, n]) => (n > 1 ? `${e} ×${n}` : e));
    // events this consumer received before (or twice in this batch)
    const again = [
      ...new Set(
        recs
          .map((r) => eventKey(r.headers.event_id, r.topic, r.partition, r.offset))
          .filter((k) => countUpTo(ctx.index.delivered.get(`${consumer}|${k}`), ctx.step.i) > 1)
          .filter((k) => !k.includes('@')),
      ),
    ];
    const evEn = events.length ? ` (${list('en', events)})` : '';
    const evKo = events.length ? `(${list('ko', events)})` : '';
    // each partition with its own offsets: one range over several partitions' offsets names records that are not there
    const where = parts.map((tp) => {
      const own = recs.filter((r) => keyOf(r) === tp).map((r) => r.offset);
      const [lo, hi] = [Math.min(...own), Math.max(...own)];
      return { en: `${tp} at ${lo === hi ? 'offset' : 'offsets'} ${range(lo, hi)}`, ko: `${tp}의 offset ${range(lo, hi)}` };
    });
    let text = say(
      lang,
      `${who} fetched ${recs.length === 1 ? 'a record' : `${recs.length} records`}${evEn} from ${list(
        'en',
        where.map((w) => w.en),
        where.length,
      )} with ${first.isolationLevel} for its application's poll()`,
      `${josa(who, '은/는')} ${josa(first.isolationLevel, '으로/로')} ${where.map((w) => w.ko).join(', ')} ${josa(`레코드 ${recs.length}개${evKo}`, '을/를')} 가져와 애플리케이션의 poll()에 넘겼습니다.`,
    );
    if (again.length)
      text += say(
        lang,
        `; ${list('en', again)} reached this consumer more than once`,
        ` ${josa(list('ko', again), '은/는')} 이 컨슈머에 두 번 이상 도착했습니다.`,
      );
    out.push(text);
  }
  return out;
}

function skipped(ctx: NarrationContext, fs: readonly F<'skipped'>[]): string[] {
  const { lang } = ctx;
  const byConsumer = new Map<string, F<'skipped'>[]>();
  for (const f of fs) byConsumer.set(f.consumer, [...(byConsumer.get(f.consumer) ?? []), f]);
  return [...byConsumer].map(([consumer, list_]) => {
    const who = ctx.names.actor(consumerActor(ctx, consumer));
    // in offset order, batches of one partition passed over for one reason in a row make one clause,
    // their offsets joined into runs ("offsets 0–4 (records of an aborted transaction)")
    const groups: { tp: string; reason: F<'skipped'>['reason']; spans: [number, number][] }[] = [];
    for (const f of list_) {
      const prev = groups[groups.length - 1];
      const g = prev && prev.tp === keyOf(f) && prev.reason === f.reason ? prev : { tp: keyOf(f), reason: f.reason, spans: [] };
      if (g !== prev) groups.push(g);
      const last = g.spans[g.spans.length - 1];
      if (last && f.baseOffset === last[1] + 1) last[1] = f.lastOffset;
      else g.spans.push([f.baseOffset, f.lastOffset]);
    }
    const what = groups.map((g) => {
      const single = g.spans.length === 1 && g.spans[0]?.[0] === g.spans[0]?.[1];
      const why =
        g.reason === 'aborted'
          ? say(lang, 'records of an aborted transaction', '취소된 트랜잭션의 레코드')
          : say(lang, single ? 'a transaction marker' : 'transaction markers', '트랜잭션 마커');
      const offsets = list(
        lang,
        g.spans.map(([a, b]) => range(a, b)),
      );
      return `${g.tp} ${single || lang === 'ko' ? 'offset' : 'offsets'} ${offsets} (${why})`;
    });
    const one = list_.length === 1 && list_[0]?.baseOffset === list_[0]?.lastOffset;
    return say(
      lang,
      `${who} skipped ${list('en', what)}; its position still moves past ${one ? 'it' : 'them'}`,
      `${josa(who, '은/는')} ${josa(list('ko', what), '을/를')} 건너뛰었습니다. 그래도 위치(position)는 그 뒤로 이동합니다.`,
    );
  });
}

function processed(ctx: NarrationContext, f: F<'processed'>): string {
  const { lang } = ctx;
  const who = ctx.names.actor(`${f.app}.app`);
  const key = eventKey(f.eventId, f.topic, f.partition, f.offset);
  const n = countUpTo(ctx.index.processed.get(`${f.app}|${key}`), ctx.step.i);
  const what = `${keyOf(f)} offset ${f.offset}${f.eventId ? ` (${f.eventId})` : ''}`;
  let text = say(lang, `${who} processed ${what}`, `${josa(who, '이/가')} ${josa(what, '을/를')} 처리했습니다.`);
  if (n > 1 && f.eventId)
    text += say(
      lang,
      ` — the ${ordinal('en', n)} time it processes ${f.eventId}`,
      ` ${josa(f.eventId, '을/를')} ${ordinal('ko', n)} 처리한 것입니다.`,
    );
  else if (n > 1) text += say(lang, ` — the ${ordinal('en', n)} time`, ` ${ordinal('ko', n)} 처리입니다.`);
  return text;
}

function sideEffect(ctx: NarrationContext, f: F<'sideEffect'>): string {
  const { lang } = ctx;
  const sink = ctx.names.process(f.sink);
  const ev = f.eventId ?? say(lang, 'a record without event_id', 'event_id 없는 레코드');
  const n = f.eventId ? countUpTo(ctx.index.applied.get(`${f.sink}|${f.eventId}`), ctx.step.i) : 1;
  switch (f.effect) {
    case 'insert row':
      return say(
        lang,
        `${sink} inserted a row for ${ev} (for ${f.app})${n > 1 ? ` — the ${ordinal('en', n)} row for the same event: the database cannot tell it was a replay` : ''}`,
        `${josa(sink, '이/가')} ${f.app}의 요청으로 ${ev}의 행을 INSERT했습니다.${n > 1 ? ` 같은 이벤트의 ${ordinal('ko', n)} 행입니다. 데이터베이스는 재처리인지 알 수 없습니다.` : ''}`,
      );
    case 'upsert (row existed)':
      return say(
        lang,
        `${sink} found the row for ${ev} and updated it in place: still one row`,
        `${josa(sink, '은/는')} ${ev}의 행이 이미 있어 제자리에서 갱신했습니다. 여전히 한 행입니다.`,
      );
    case 'inbox conflict':
      return say(
        lang,
        `${sink}'s inbox already holds (${ev}, ${f.app}): the unique constraint rolls the transaction back and nothing is written`,
        `${sink}의 inbox에 (${ev}, ${f.app})가 이미 있어 고유 제약 조건 때문에 트랜잭션이 롤백되고 아무것도 기록되지 않습니다.`,
      );
    case 'offset already stored':
      return say(
        lang,
        `${sink} already stores a later offset than ${ev}'s (for ${f.app}): that transaction was applied before, so nothing is written`,
        `${josa(sink, '은/는')} ${f.app}에 대해 ${ev}보다 뒤의 offset을 이미 저장하고 있습니다. 이미 적용된 트랜잭션이므로 아무것도 기록하지 않습니다.`,
      );
    case 'idempotent replay':
      return say(
        lang,
        `${sink} recognised the Idempotency-Key of ${ev} and returned the earlier result: nothing charged again`,
        `${josa(sink, '은/는')} ${ev}의 멱등성 키를 알아보고 이전 결과를 돌려줬습니다. 다시 결제하지 않았습니다.`,
      );
    case 'payment charged':
      return say(
        lang,
        `${sink} charged a payment for ${ev}${n > 1 ? ` — the ${ordinal('en', n)} charge for the same event` : ''}`,
        `${josa(sink, '이/가')} ${ev}에 대해 결제했습니다.${n > 1 ? ` 같은 이벤트에 대한 ${ordinal('ko', n)} 결제입니다.` : ''}`,
      );
    case 'SET':
    case 'SET (same value)':
      return say(
        lang,
        `${sink} ran ${f.note} for ${ev} (for ${f.app})${f.applied ? '' : ': the key already held that value — SET writes an absolute value, so the replay changes nothing'}`,
        `${josa(sink, '이/가')} ${f.app}의 요청으로 ${ev}에 대해 ${josa(f.note, '을/를')} 실행했습니다.${f.applied ? '' : ' 키가 이미 그 값이었습니다. SET은 절댓값을 쓰므로 다시 실행해도 바뀌는 것이 없습니다.'}`,
      );
    case 'INCR':
      return say(
        lang,
        `${sink} ran ${f.note} for ${ev} (for ${f.app})${n > 1 ? ` — the ${ordinal('en', n)} increment for the same event: INCR cannot tell a replay` : ''}`,
        `${josa(sink, '이/가')} ${f.app}의 요청으로 ${ev}에 대해 ${josa(f.note, '을/를')} 실행했습니다.${n > 1 ? ` 같은 이벤트에 대한 ${ordinal('ko', n)} 증가입니다. INCR은 재처리인지 알 수 없습니다.` : ''}`,
      );
    default:
      return say(
        lang,
        `${sink}: ${f.effect} for ${ev}${f.applied ? '' : ' (changed nothing)'}`,
        `${sink}: ${ev}에 대해 ${f.effect}${f.applied ? '' : '(변경 없음)'}.`,
      );
  }
}

const TXN_MEANING: Record<string, readonly [string, string]> = {
  Ongoing: [
    'its first partition was added, and transaction.timeout.ms starts counting',
    '첫 파티션이 추가되어 transaction.timeout.ms가 흐르기 시작합니다',
  ],
  PrepareCommit: [
    'the commit is decided and written to __transaction_state; the COMMIT markers follow',
    '커밋이 결정되어 __transaction_state에 기록됐고, 이제 COMMIT 마커를 씁니다',
  ],
  PrepareAbort: [
    'the abort is decided and written to __transaction_state; the ABORT markers follow',
    '취소가 결정되어 __transaction_state에 기록됐고, 이제 ABORT 마커를 씁니다',
  ],
  CompleteCommit: ['every partition of the transaction has its COMMIT marker', '트랜잭션의 모든 파티션에 COMMIT 마커가 기록됐습니다'],
  CompleteAbort: ['every partition of the transaction has its ABORT marker', '트랜잭션의 모든 파티션에 ABORT 마커가 기록됐습니다'],
  PrepareEpochFence: [
    'a newer instance arrived while the transaction was open: the old epoch is fenced and the transaction will be aborted',
    '트랜잭션이 열린 상태에서 새 인스턴스가 와서 이전 epoch를 펜싱하고 트랜잭션을 취소합니다',
  ],
  Dead: ['the transactional.id expired', 'transactional.id가 만료됐습니다'],
};

/**
 * The coordinator fences an open transaction's epoch for two reasons: a newer instance's
 * InitProducerId, or transaction.timeout.ms running out (TransactionCoordinator.abortTimedOutTransactions
 * → prepareFenceProducerEpoch). The timeout's note in the same step says which.
 */
const TIMEOUT_FENCE: readonly [string, string] = [
  'the transaction outlived transaction.timeout.ms: the coordinator bumps the epoch itself, so the producer is fenced, and the transaction will be aborted',
  '트랜잭션이 transaction.timeout.ms를 넘겨 코디네이터가 직접 epoch를 올립니다. 프로듀서는 펜싱되고 트랜잭션은 취소됩니다',
];

function timedOut(ctx: NarrationContext, transactionalId: string): boolean {
  return (ctx.step.facts as readonly Fact[]).some(
    (x) => x.kind === 'note' && x.text.startsWith(`transaction of ${transactionalId} has been open `),
  );
}

/**
 * InitProducerId from Empty or a completed transaction: the epoch goes up, but no transaction was
 * open, so nothing is aborted — and an older instance is fenced only if it calls again with its old
 * epoch (read from the rest of the run: whether it does).
 */
function epochBumped(ctx: NarrationContext, f: F<'txnState'>): string {
  const { lang } = ctx;
  const coord = ctx.names.process('txn-coordinator');
  const id = f.transactionalId;
  const old = f.producerEpoch - 1;
  const caller = ctx.envelope?.from ? ctx.envelope.from.replace(/\.producer$/, '') : null;
  const others = Object.entries(ctx.trace.resolved.producers)
    .filter(([client, c]) => client !== caller && c['transactional.id'] === id)
    .map(([client]) => client);
  const head = say(
    lang,
    `${coord} bumped transactional.id ${id} to epoch ${f.producerEpoch} (producerId ${f.producerId}); no transaction was open, so nothing is aborted`,
    `${josa(coord, '이/가')} transactional.id ${id}의 epoch를 ${josa(String(f.producerEpoch), '으로/로')} 올렸습니다(producerId ${f.producerId}). 열린 트랜잭션이 없었으므로 취소되는 것은 없습니다.`,
  );
  if (others.length === 0)
    return `${head}${say(lang, `: an instance still using epoch ${old} would be fenced on its next call`, ` epoch ${josa(String(old), '을/를')} 쓰는 인스턴스가 있다면 다음 호출에서 펜싱됩니다.`)}`;
  const fencedLater = others.filter((o) => (ctx.index.fencedAt.get(o) ?? []).some((st) => st > ctx.step.i));
  const idle = others.filter((o) => !fencedLater.includes(o));
  const parts: string[] = [];
  if (fencedLater.length)
    parts.push(
      say(
        lang,
        `${list('en', fencedLater)}, still on an older epoch, ${fencedLater.length === 1 ? 'is' : 'are'} fenced on ${fencedLater.length === 1 ? 'its' : 'their'} next call`,
        ` 더 낮은 epoch를 쓰는 ${josa(list('ko', fencedLater), '은/는')} 다음 호출에서 펜싱됩니다.`,
      ),
    );
  if (idle.length)
    parts.push(
      say(
        lang,
        `${list('en', idle)} makes no further call with ${idle.length === 1 ? 'its' : 'their'} old epoch, so nothing is fenced — and whatever this instance sends again is a new record: a business duplicate that transactional.id does not prevent`,
        ` ${josa(list('ko', idle), '은/는')} 이전 epoch로 더 호출하지 않으므로 펜싱되는 것은 없습니다. 이 인스턴스가 다시 보내는 것은 새 레코드이며, transactional.id가 막지 못하는 비즈니스 중복입니다.`,
      ),
    );
  return lang === 'ko' ? `${head}${parts.join('')}` : `${head}: ${parts.join('; ')}`;
}

function txnState(ctx: NarrationContext, f: F<'txnState'>): string {
  const { lang } = ctx;
  const coord = ctx.names.process('txn-coordinator');
  const id = f.transactionalId;
  if (f.to === 'Empty' && f.from === '(new)')
    return say(
      lang,
      `${coord} registered transactional.id ${id} with producerId ${f.producerId}, epoch ${f.producerEpoch}`,
      `${josa(coord, '이/가')} transactional.id ${josa(id, '을/를')} producerId ${f.producerId}, epoch ${josa(String(f.producerEpoch), '으로/로')} 등록했습니다.`,
    );
  if (f.to === 'Empty') return epochBumped(ctx, f);
  if (f.to === 'Dead') return transactionalIdExpired(ctx, f);
  const meaning = f.to === 'PrepareEpochFence' && timedOut(ctx, id) ? TIMEOUT_FENCE : TXN_MEANING[f.to];
  return say(
    lang,
    `${coord} moved ${id} (producerId ${f.producerId}, epoch ${f.producerEpoch}) from ${f.from} to ${f.to}${meaning ? `: ${meaning[0]}` : ''}`,
    `${josa(coord, '이/가')} ${id}(producerId ${f.producerId}, epoch ${f.producerEpoch})의 상태를 ${f.from}에서 ${josa(f.to, '으로/로')} 바꿨습니다${meaning ? `. ${meaning[1]}.` : '.'}`,
  );
}

/** The coordinator's transactionalId-expiration run removed an idle transactional.id (TransactionStateManager.removeExpiredTransactionalIds). */
function transactionalIdExpired(ctx: NarrationContext, f: F<'txnState'>): string {
  const { lang } = ctx;
  const coord = ctx.names.process('txn-coordinator');
  const id = f.transactionalId;
  const ms = groupDigits(ctx.trace.resolved.cluster['transactional.id.expiration.ms']);
  return say(
    lang,
    `${coord} expired transactional.id ${id} (producerId ${f.producerId}, epoch ${f.producerEpoch}): it was ${f.from}, with no transaction open, and its last update was at least transactional.id.expiration.ms (${ms} ms) ago, so the expiration run wrote a tombstone for it to __transaction_state and forgot it. Its producer still holds producerId ${f.producerId}: its next AddPartitionsToTxn, AddOffsetsToTxn or EndTxn — or, under protocol 2, the leader’s check of its next transactional Produce — is refused INVALID_PRODUCER_ID_MAPPING, which a Kafka 4.x producer treats as fatal; a new producer’s InitProducerId gets a new producer id`,
    `${josa(coord, '이/가')} transactional.id ${josa(id, '을/를')} 만료시켰습니다(producerId ${f.producerId}, epoch ${f.producerEpoch}). ${f.from} 상태로 열린 트랜잭션이 없었고 마지막 갱신 뒤 transactional.id.expiration.ms(${ms} ms) 이상 지났기 때문에, 만료 검사가 __transaction_state에 이 transactional.id의 툼스톤을 쓰고 잊었습니다. 프로듀서는 아직 producerId ${josa(String(f.producerId), '을/를')} 들고 있습니다. 다음 AddPartitionsToTxn, AddOffsetsToTxn, EndTxn은, 프로토콜 2에서는 다음 트랜잭션 Produce를 리더가 확인하는 요청도, INVALID_PRODUCER_ID_MAPPING으로 거절됩니다. Kafka 4.x 프로듀서에게 이 오류는 복구할 수 없는 오류입니다. 새 프로듀서가 InitProducerId를 보내면 새 producerId를 받습니다.`,
  );
}

function offsetsCommitted(ctx: NarrationContext, f: F<'offsetsCommitted'>): string {
  const { lang } = ctx;
  const coord = ctx.names.process('group-coordinator');
  const offsets = offsetsText(f.offsets);
  let text = f.transactional
    ? say(
        lang,
        `${coord} made group ${f.groupId}'s offsets ${offsets} committed as the transaction committed: the group resumes there after a restart`,
        `트랜잭션이 커밋되어 ${josa(coord, '이/가')} 그룹 ${f.groupId}의 offset ${josa(offsets, '을/를')} 커밋된 offset으로 확정했습니다. 재시작하면 여기서부터 읽습니다.`,
      )
    : say(
        lang,
        `${coord} stored group ${f.groupId}'s committed offsets ${offsets} (generation ${f.generationId}): after a restart the group resumes there`,
        `${josa(coord, '이/가')} 그룹 ${f.groupId}의 커밋된 offset ${josa(offsets, '을/를')} 저장했습니다(generation ${f.generationId}). 재시작하면 여기서부터 읽습니다.`,
      );
  const pitfall = ctx.trace.scenario.clients.some(
    (c) =>
      c.type === 'consumer' &&
      ctx.trace.resolved.consumers[c.id]?.['group.id'] === f.groupId &&
      processingMode(ctx, c.id) === 'commit-last-processed',
  );
  if (pitfall)
    text += say(
      lang,
      ' — but that is the last processed offset, not the next one, so that record will be read again',
      ' 하지만 이 값은 다음에 읽을 위치가 아니라 마지막으로 처리한 offset이므로 그 레코드를 다시 읽게 됩니다.',
    );
  return text;
}

function rebalance(ctx: NarrationContext, f: F<'rebalance'>): string {
  const { lang } = ctx;
  const members = f.members.length ? list(lang, f.members) : say(lang, 'no members', '멤버 없음');
  // a member removed in this step (classicGroup removeMember's note) already said why: the reason is not said twice
  const told = (ctx.step.facts as readonly Fact[]).some(
    (x) => x.kind === 'note' && x.text === `group ${f.groupId}: ${f.reason}; it is removed`,
  );
  const why = (language: Language) => (told ? '' : ` (${translateReason(f.reason, language)})`);
  return say(
    lang,
    `group ${f.groupId} rebalanced to generation ${f.generationId} with ${members}${why('en')}`,
    `그룹 ${josa(f.groupId, '이/가')} generation ${josa(String(f.generationId), '으로/로')} 리밸런스했습니다. 멤버: ${members}${why('ko')}.`,
  );
}

/**
 * When the JoinGroup that replaces a static member is one its own client had given up on — sent, then
 * a request timeout (REQUEST_TIMED_OUT) before it arrived — the coordinator cannot tell it from a
 * restarted instance, and the member it fences is that client's live one. The sentence's opening, or
 * '' when the join is not such a request.
 */
function staleJoinClause(ctx: NarrationContext, oldMemberId: string): string {
  const env = ctx.envelope;
  const stale = staleJoin(ctx.trace, env, ctx.step.i);
  if (!env || !stale) return '';
  const { client } = stale;
  const t = stale.gaveUp.t;
  return say(
    ctx.lang,
    `. This JoinGroup is ${client}'s own, sent at ${env.sentAt} ms and given up at ${t} ms (its request timeout): delayed in the network, it arrived after ${client} had joined again, and the coordinator cannot tell it from a restarted instance — so the member fenced, ${oldMemberId}, is ${client}'s live one`,
    `. 이 JoinGroup은 ${client} 자신이 ${env.sentAt} ms에 보내고 ${t} ms에 포기한 요청입니다(요청 타임아웃). 네트워크에서 늦어져 ${josa(client, '이/가')} 다시 참여한 뒤에 도착했고, 코디네이터는 이를 재시작한 인스턴스와 구별하지 못합니다. 그래서 펜싱되는 ${josa(oldMemberId, '은/는')} ${client}의 살아 있는 멤버입니다`,
  );
}

/**
 * A static member replaced (GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin): the
 * lesson of a Stable group — no rebalance, the old assignment back — and that the restarted
 * instance still starts from the committed offsets.
 */
function staticMemberReplaced(ctx: NarrationContext, f: F<'staticMemberReplaced'>): string {
  const { lang } = ctx;
  const replaced = say(
    lang,
    `group ${f.groupId}: a member with group.instance.id ${f.groupInstanceId} joined without a member id, so ${f.newMemberId} takes the place of ${f.oldMemberId} — its partitions and, if it led, the leadership; ${f.oldMemberId} is fenced from now on (FENCED_INSTANCE_ID)`,
    `그룹 ${f.groupId}: group.instance.id가 ${f.groupInstanceId}인 멤버가 멤버 id 없이 참여했으므로 ${josa(f.newMemberId, '이/가')} ${f.oldMemberId}의 자리(파티션, 리더였다면 리더 자리까지)를 이어받습니다. 이제부터 ${josa(f.oldMemberId, '은/는')} 펜싱됩니다(FENCED_INSTANCE_ID)`,
  );
  const head = replaced + staleJoinClause(ctx, f.oldMemberId);
  if (f.state === 'Stable')
    return (
      head +
      say(
        lang,
        `. The group is Stable, so there is no rebalance: generation ${f.generationId} stays and no other member notices. The joining instance gets the old assignment as it was — but it starts reading from the committed offsets, so whatever the old member processed and had not committed is read again`,
        `. 그룹이 Stable이므로 리밸런스가 없습니다. generation ${josa(String(f.generationId), '은/는')} 그대로이고 다른 멤버는 알아채지 못합니다. 참여한 인스턴스는 예전 할당을 그대로 받지만 커밋된 offset부터 읽기 시작하므로, 예전 멤버가 처리하고 커밋하지 못한 레코드는 다시 읽힙니다.`,
      )
    );
  if (f.state === 'CompletingRebalance')
    return (
      head +
      say(
        lang,
        '. The group was completing a rebalance (the leader may already have assigned the old member id), so it rebalances again',
        '. 그룹이 리밸런스를 마무리하는 중이었으므로(리더가 이미 예전 멤버 id에 할당했을 수 있습니다) 다시 리밸런스합니다.',
      )
    );
  return (
    head +
    say(
      lang,
      '. The group is rebalancing already: the new member id joins that rebalance',
      '. 그룹이 이미 리밸런스 중이므로 새 멤버 id가 그 리밸런스에 참여합니다.',
    )
  );
}

function cleaned(ctx: NarrationContext, f: F<'cleaned'>): string {
  const markers = f.markers ?? 0;
  const aborted = f.aborted ?? 0;
  const tombstones = f.tombstones ?? 0;
  // what went besides older values of a key: each its own clause, only when there is any
  const superseded = f.removed - aborted - tombstones;
  const also = (n: number, one: string, many: string) => (n > 0 ? `, so ${n === 1 ? `is 1 ${one}` : `are ${groupDigits(n)} ${many}`}` : '');
  const alsoKo = (n: number, what: string, when = '') => (n > 0 ? `고, ${what} ${groupDigits(n)}개도 ${when}사라졌` : '');
  return say(
    ctx.lang,
    `the log cleaner compacted ${keyOf(f)} up to offset ${f.cleanedUpTo}: ${count(superseded, 'older record')} with a newer value for the same key are gone${also(aborted, 'record of an aborted transaction (never readable)', 'records of aborted transactions (never readable)')}${also(tombstones, 'tombstone past delete.retention.ms', 'tombstones past delete.retention.ms')}${also(markers, 'transaction marker whose transaction left no record (after delete.retention.ms)', 'transaction markers whose transaction left no record (after delete.retention.ms)')}, and no offset changed`,
    `로그 클리너가 ${josa(keyOf(f), '을/를')} offset ${f.cleanedUpTo}까지 컴팩션했습니다. 같은 키의 더 새 값이 있는 이전 레코드 ${groupDigits(superseded)}개가 사라졌${alsoKo(aborted, '취소된 트랜잭션의 레코드(읽을 수 없던 것)')}${alsoKo(tombstones, 'delete.retention.ms가 지난 툼스톤')}${alsoKo(markers, '레코드가 하나도 남지 않은 트랜잭션의 마커', '(delete.retention.ms가 지나) ')}고 offset은 바뀌지 않았습니다.`,
  );
}

/** The expiration check that dropped the append's producer from its partition after step `since`, if one did. */
function expiryBetween(
  ctx: NarrationContext,
  f: F<'append'>,
  since: number,
): { broker: string; at: number; expirationMs: number } | undefined {
  for (let i = ctx.step.i - 1; i > since; i--) {
    const step = ctx.trace.steps.at(i);
    for (const x of (step?.facts ?? []) as Fact[])
      if (
        (x.kind === 'producerStateExpired' || x.kind === 'producerStateLoaded') &&
        x.topic === f.topic &&
        x.partition === f.partition &&
        (x.kind === 'producerStateExpired' ? x.producers : x.dropped).some((p) => p.producerId === f.producerId)
      )
        return { broker: x.broker, at: step?.t ?? 0, expirationMs: x.expirationMs };
  }
  return undefined;
}

/** A broker's producer expiration check: which producers it forgot on which partition, and what that costs. */
function producerStateExpired(ctx: NarrationContext, f: F<'producerStateExpired'>): string {
  const { lang } = ctx;
  const parts: string[] = [];
  const ms = groupDigits(f.expirationMs);
  if (f.producers.length > 0) {
    const names = f.producers.map((p) => `producerId ${p.producerId} (epoch ${p.producerEpoch})`);
    const last = Math.max(...f.producers.map((p) => p.lastTimestamp));
    const one = f.producers.length === 1;
    parts.push(
      say(
        lang,
        `${f.broker}'s producer expiration check dropped ${list(lang, names)} from ${keyOf(f)}: no transaction of ${one ? 'it' : 'theirs'} is open there and ${one ? 'its last batch' : 'their last batches'} (timestamp ${groupDigits(last)} ms) ${one ? 'is' : 'are'} at least producer.id.expiration.ms (${ms} ms) old. ${one ? 'Its' : 'Their'} epoch and sequences are forgotten there: a retry of a batch already in this log would be appended again`,
        `${josa(f.broker, '이/가')} 프로듀서 만료 검사에서 ${keyOf(f)}의 ${josa(list(lang, names), '을/를')} 지웠습니다. 그 파티션에 열린 트랜잭션이 없고 마지막 배치(타임스탬프 ${groupDigits(last)} ms)가 producer.id.expiration.ms(${ms} ms) 이상 지났기 때문입니다. epoch와 시퀀스를 잊었으므로 이 로그에 이미 있는 배치를 재시도하면 다시 기록됩니다`,
      ),
    );
  }
  const verifications = f.verifications ?? [];
  if (verifications.length > 0) {
    const names = verifications.map(
      (v) =>
        `producerId ${v.producerId} (epoch ${v.producerEpoch}, ${say(lang, `since ${groupDigits(v.createdAt)} ms`, `${groupDigits(v.createdAt)} ms부터`)})`,
    );
    const one = verifications.length === 1;
    const whoEn = f.producers.length > 0 ? 'The same run' : `${f.broker}'s producer expiration check`;
    const whoKo = f.producers.length > 0 ? '같은 검사에서' : `${josa(f.broker, '이/가')} 프로듀서 만료 검사에서`;
    parts.push(
      say(
        lang,
        `${whoEn} dropped the transaction verification ${one ? 'entry' : 'entries'} of ${list(lang, names)} on ${keyOf(f)}, created at least producer.id.expiration.ms (${ms} ms) ago and never ended by a transactional write: a verified Produce that still carried ${one ? 'its' : 'their'} guard would be refused INVALID_TXN_STATE`,
        `${whoKo} ${keyOf(f)}의 ${list(lang, names)} 트랜잭션 검증 항목을 지웠습니다. 만든 지 producer.id.expiration.ms(${ms} ms) 이상 지났고 트랜잭션 쓰기로 끝나지 않았기 때문입니다. 그 가드를 가진 검증된 Produce가 뒤늦게 오면 INVALID_TXN_STATE로 거절됩니다`,
      ),
    );
  }
  return parts.join('. ');
}

/** A restarted broker's reload of a partition's producer state, where it differs from what the broker held. */
function producerStateLoaded(ctx: NarrationContext, f: F<'producerStateLoaded'>): string {
  const { lang } = ctx;
  const ms = groupDigits(f.expirationMs);
  const ids = (ps: readonly { producerId: number }[]) =>
    list(
      lang,
      ps.map((p) => `producerId ${p.producerId}`),
    );
  const from =
    f.snapshotOffset === null
      ? say(
          lang,
          `no snapshot, so it replayed ${keyOf(f)} from offset ${f.replayedFrom}`,
          `스냅샷이 없어 ${josa(keyOf(f), '을/를')} offset ${f.replayedFrom}부터 다시 읽었습니다`,
        )
      : say(
          lang,
          `the snapshot at offset ${f.snapshotOffset}, then the batches after it`,
          `offset ${f.snapshotOffset}의 스냅샷을 읽고 그 뒤의 배치를 다시 읽었습니다`,
        );
  const parts = [
    f.cause === 'cleanRestart'
      ? say(
          lang,
          `${f.broker} started again after a clean shutdown: it recovered nothing and loaded the producer state of ${keyOf(f)} from the snapshot it wrote at the log end when it stopped (offset ${f.snapshotOffset ?? f.replayedFrom}), which keeps one batch per producer and leaves out the producers idle for producer.id.expiration.ms`,
          `${josa(f.broker, '은/는')} 깨끗한 종료 뒤 다시 시작해 복구 없이, 멈출 때 로그 끝(offset ${f.snapshotOffset ?? f.replayedFrom})에 쓴 스냅샷에서 ${keyOf(f)}의 프로듀서 상태를 읽었습니다. 스냅샷은 프로듀서마다 배치 하나만 담고, producer.id.expiration.ms 이상 쉰 프로듀서는 빠집니다`,
        )
      : f.cause === 'restart'
        ? say(
            lang,
            `${f.broker} restarted and rebuilt the producer state of ${keyOf(f)} from its log (${from}), wrote it to a snapshot at the log end and loaded that snapshot, which keeps one batch per producer and leaves out the producers idle for producer.id.expiration.ms`,
            `${josa(f.broker, '은/는')} 재시작하며 ${keyOf(f)}의 프로듀서 상태를 로그에서 다시 만들었습니다(${from}). 이를 로그 끝의 스냅샷에 쓰고 그 스냅샷을 읽었으므로, 프로듀서마다 배치 하나만 남고 producer.id.expiration.ms 이상 쉰 프로듀서는 빠집니다`,
          )
        : say(
            lang,
            `${f.broker} truncated ${keyOf(f)} and rebuilt its producer state (${from}), which holds less than a replay of the whole log would`,
            `${josa(f.broker, '은/는')} ${josa(keyOf(f), '을/를')} 잘라 낸 뒤 프로듀서 상태를 다시 만들었습니다(${from}). 로그 전체를 다시 읽었을 때보다 적게 담습니다`,
          ),
  ];
  if (f.dropped.length > 0)
    parts.push(
      say(
        lang,
        `It left out ${ids(f.dropped)}: idle for at least producer.id.expiration.ms (${ms} ms)${f.cause !== 'truncation' ? `, ${f.dropped.length === 1 ? 'it was' : 'they were'} still held before the restart, since no expiration check had run yet` : ''}. A retry of a batch already in this log would now be appended again`,
        `${josa(ids(f.dropped), '은/는')} producer.id.expiration.ms(${ms} ms) 이상 쉬었으므로 빼고 읽었습니다${f.cause !== 'truncation' ? '. 재시작 전에는 만료 검사가 아직 돌지 않아 남아 있던 상태입니다' : ''}. 이 로그에 이미 있는 배치를 재시도하면 이제 다시 기록됩니다`,
      ),
    );
  if (f.restored.length > 0)
    parts.push(
      say(
        lang,
        `${ids(f.restored)}, dropped by an expiration check before, ${f.restored.length === 1 ? 'is' : 'are'} back: the replay applies every batch after the snapshot without the expiration filter. The next check drops ${f.restored.length === 1 ? 'it' : 'them'} again`,
        `전에 만료 검사로 지워졌던 ${josa(ids(f.restored), '이/가')} 돌아왔습니다. 스냅샷 뒤의 배치는 만료 여부를 보지 않고 모두 다시 적용되기 때문입니다. 다음 검사에서 다시 지워집니다`,
      ),
    );
  if (f.lastBatchOnly.length > 0)
    parts.push(
      say(
        lang,
        `${ids(f.lastBatchOnly)} kept only ${f.lastBatchOnly.length === 1 ? 'its' : 'their'} last batch: a snapshot holds one batch per producer, not five, so a retry of an earlier batch is refused OUT_OF_ORDER_SEQUENCE_NUMBER instead of answered as a duplicate`,
        `${josa(ids(f.lastBatchOnly), '은/는')} 마지막 배치만 남았습니다. 스냅샷은 프로듀서마다 배치 다섯 개가 아니라 하나만 담기 때문에, 그보다 앞선 배치의 재시도는 중복으로 인정되지 않고 OUT_OF_ORDER_SEQUENCE_NUMBER로 거절됩니다`,
      ),
    );
  return parts.join('. ');
}

/** A follower's truncation: "1 record at offset 1 is gone", "2 records at offsets 1–2 are gone". */
function truncated(ctx: NarrationContext, f: F<'truncated'>): string {
  const n = f.toOffset - f.fromOffset;
  const at = range(f.fromOffset, f.toOffset - 1);
  return say(
    ctx.lang,
    `${f.broker} truncated its copy of ${keyOf(f)} to offset ${f.fromOffset} to follow leader epoch ${f.leaderEpoch}: ${count(n, 'record')} at ${n === 1 ? `offset ${at} is` : `offsets ${at} are`} gone from it`,
    `${josa(f.broker, '이/가')} 리더 epoch ${josa(String(f.leaderEpoch), '을/를')} 따르려고 ${keyOf(f)} 사본을 offset ${f.fromOffset}까지 잘라냈습니다. offset ${at}의 레코드 ${groupDigits(n)}개가 사라졌습니다.`,
  );
}

function leaderChange(ctx: NarrationContext, f: F<'leaderChange'>): string {
  if (f.leader === null)
    return say(
      ctx.lang,
      `the controller finds no in-sync replica to lead ${keyOf(f)}: it is offline (leader epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')})`,
      `컨트롤러가 ${josa(keyOf(f), '을/를')} 이끌 ISR 복제본을 찾지 못했습니다. 파티션은 오프라인입니다(리더 epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')}).`,
    );
  if (f.election === 'unclean')
    return say(
      ctx.lang,
      `the controller makes ${f.leader} leader of ${keyOf(f)} by an unclean election: no in-sync replica is alive and unclean.leader.election.enable=true, so a replica from outside the ISR leads, and records it lacks are lost, committed ones too (leader epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')})`,
      `컨트롤러가 언클린 선출로 ${josa(f.leader, '을/를')} ${keyOf(f)}의 리더로 정했습니다. 살아 있는 ISR 복제본이 없고 unclean.leader.election.enable=true여서 ISR 밖 복제본이 리더가 되며, 이 복제본에 없는 레코드는 커밋된 것까지 사라집니다(리더 epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')}).`,
    );
  if (f.election === 'preferred')
    return say(
      ctx.lang,
      `the controller makes ${f.leader} leader of ${keyOf(f)} again by a preferred election: ${f.leader} is its preferred replica (the first of its replicas), in the ISR and active (leader epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')})`,
      `컨트롤러가 선호 리더 선출로 ${josa(f.leader, '을/를')} 다시 ${keyOf(f)}의 리더로 정했습니다. ${josa(f.leader, '은/는')} 이 파티션의 선호 복제본(복제본 목록의 첫 번째)이고 ISR에 있으며 활성 상태입니다(리더 epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')}).`,
    );
  const how = { en: 'an election from the ISR', ko: 'ISR에서의 선출' };
  return say(
    ctx.lang,
    `the controller makes ${f.leader} leader of ${keyOf(f)} by ${how.en} (leader epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')})`,
    `컨트롤러가 ${josa(how.ko, '으로/로')} ${josa(f.leader, '을/를')} ${keyOf(f)}의 리더로 정했습니다(리더 epoch ${f.leaderEpoch}, ISR ${f.isr.join(', ')}).`,
  );
}

/** Durations an engine note writes bare ("open 67994 ms") grouped by thousands, as every time on screen. */
function groupedDurations(text: string): string {
  return text.replace(/(?<![\w.=-])(\d{4,}) ms\b/g, (_, n: string) => `${groupDigits(Number(n))} ms`);
}

function note(ctx: NarrationContext, f: F<'note'>): string {
  const who = ctx.names.actor(f.actor);
  const text = groupedDurations(translateNote(f.text, ctx.lang));
  if (ctx.lang === 'en') {
    // notes that name their own subject read as they are
    if (/^the application /.test(text)) return text.replace(/^the application /, `${who} `);
    if (/^(group|transaction) /.test(text)) return text.replace(/^group (\S+) is rebalancing: /, 'group $1 starts rebalancing: ');
  } else if (/^(애플리케이션이|그룹 )/.test(text)) return text.replace(/^애플리케이션이 /, `${josa(who, '이/가')} `);
  return `${who}: ${text}`;
}

function config(ctx: NarrationContext, f: F<'config'>): string {
  return `${ctx.names.process(f.client)}: ${f.message}`;
}

/** Clauses for a step's facts, grouped by kind in the order they first appear. */
export function factClauses(ctx: NarrationContext, facts: readonly Fact[]): string[] {
  const order: Fact['kind'][] = [];
  const byKind = new Map<Fact['kind'], Fact[]>();
  for (const f of facts) {
    if (!byKind.has(f.kind)) order.push(f.kind);
    byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  }
  const out: string[] = [];
  for (const kind of order) {
    const fs = byKind.get(kind) ?? [];
    switch (kind) {
      case 'sendResult':
        out.push(...sendResults(ctx, fs as F<'sendResult'>[]));
        break;
      case 'delivered':
        out.push(...delivered(ctx, fs as F<'delivered'>[]));
        break;
      case 'skipped':
        out.push(...skipped(ctx, fs as F<'skipped'>[]));
        break;
      case 'append':
        out.push(...appends(ctx, fs as F<'append'>[]));
        break;
      default:
        for (const f of fs) out.push(oneFact(ctx, f));
    }
  }
  return out;
}

/**
 * A step's appends: one clause each, except the markers of one transaction a broker wrote to several
 * partitions of its data topics in one step (one WriteTxnMarkers), told once with every partition.
 */
function appends(ctx: NarrationContext, fs: readonly F<'append'>[]): string[] {
  const isDataMarker = (f: F<'append'>) => f.control !== null && f.topic !== '__consumer_offsets';
  const sameTransaction = (a: F<'append'>, b: F<'append'>) =>
    a.control === b.control && a.producerId === b.producerId && a.producerEpoch === b.producerEpoch;
  const out: string[] = [];
  const told = new Set<F<'append'>>();
  for (const f of fs) {
    if (told.has(f)) continue;
    const group = isDataMarker(f) ? fs.filter((g) => isDataMarker(g) && sameTransaction(f, g)) : [f];
    for (const g of group) told.add(g);
    out.push(group.length > 1 ? markers(ctx, group) : append(ctx, f));
  }
  return out;
}

/** COMMIT or ABORT markers of one transaction at several partitions, in one clause. */
function markers(ctx: NarrationContext, fs: readonly F<'append'>[]): string {
  const { lang, names } = ctx;
  const first = fs[0] as F<'append'>;
  const broker = names.actor(ctx.step.actor);
  const ids = `producerId ${first.producerId} epoch ${first.producerEpoch}`;
  const at = list(
    lang,
    fs.map((f) => `${keyOf(f)} offset ${f.baseOffset}`),
    fs.length,
  );
  if (first.control === 'COMMIT')
    return say(
      lang,
      `${broker} wrote COMMIT markers for ${ids} at ${at}: the transaction's records there are committed, and read_committed consumers may now read past them`,
      `${josa(broker, '은/는')} ${at}에 ${ids}의 COMMIT 마커를 기록했습니다. 이 파티션들의 트랜잭션 레코드가 커밋되어 read_committed 컨슈머도 읽을 수 있습니다.`,
    );
  return say(
    lang,
    `${broker} wrote ABORT markers for ${ids} at ${at}: read_committed consumers will skip the transaction's records there, read_uncommitted ones see them anyway`,
    `${josa(broker, '은/는')} ${at}에 ${ids}의 ABORT 마커를 기록했습니다. read_committed 컨슈머는 이 트랜잭션의 레코드를 건너뛰지만 read_uncommitted 컨슈머에게는 그대로 보입니다.`,
  );
}

function oneFact(ctx: NarrationContext, f: Fact): string {
  switch (f.kind) {
    case 'append':
      return append(ctx, f);
    case 'duplicate':
      return duplicate(ctx, f);
    case 'rejected':
      return rejected(ctx, f);
    case 'clientError':
      return clientError(ctx, f);
    case 'config':
      return config(ctx, f);
    case 'producerId':
      return producerId(ctx, f);
    case 'sendResult':
      return sendResults(ctx, [f]).join('; ');
    case 'delivered':
      return delivered(ctx, [f]).join('; ');
    case 'skipped':
      return skipped(ctx, [f]).join('; ');
    case 'processed':
      return processed(ctx, f);
    case 'sideEffect':
      return sideEffect(ctx, f);
    case 'txnState':
      return txnState(ctx, f);
    case 'offsetsCommitted':
      return offsetsCommitted(ctx, f);
    case 'rebalance':
      return rebalance(ctx, f);
    case 'staticMemberReplaced':
      return staticMemberReplaced(ctx, f);
    case 'cleaned':
      return cleaned(ctx, f);
    case 'note':
      return note(ctx, f);
    case 'truncated':
      return truncated(ctx, f);
    case 'producerStateExpired':
      return producerStateExpired(ctx, f);
    case 'producerStateLoaded':
      return producerStateLoaded(ctx, f);
    case 'leaderChange':
      return leaderChange(ctx, f);
    case 'brokerStopped':
      return brokerStopped(ctx, f);
    case 'operatorAbort':
      return operatorAbort(ctx, f);
  }
}
