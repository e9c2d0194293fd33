/**
 * Narration of a producer's close() with its transaction still open (producer.machine.ts
 * `abortOnClose`): the Sender aborts it on shutdown before the producer closes. And of close(Duration)
 * closing forcefully (producer/forceClose.ts): the note, the queued transactional requests failed by
 * TransactionManager.close(), the records failed by abortIncompleteBatches.
 */
import { FORCE_CLOSE_MESSAGE } from '../producer/forceClose';
import { josa, type Language, say } from './language';

const RECORDS_FAILED_EN = /^(\d+) records? still owed a result, sent or not, fails? with KafkaException "Producer is closed forcefully\."$/;

function forceCloseTailKo(tail: string): string {
  if (tail === '') return '';
  if (
    tail ===
    '; the open transaction is not aborted (no EndTxn): the coordinator aborts it after transaction.timeout.ms, or the next InitProducerId of this transactional.id does'
  )
    return ' 열린 트랜잭션은 중단하지 않습니다(EndTxn 없음). 코디네이터가 transaction.timeout.ms 뒤에 중단하거나, 같은 transactional.id의 다음 InitProducerId가 중단합니다.';
  const m = tail.match(/^; the EndTxn\((COMMIT|ABORT)\) begun is not waited for$/);
  return m ? ` 시작한 EndTxn(${m[1]})도 기다리지 않습니다.` : tail;
}

/** The forced close's note in Korean (forceClose.ts `forceCloseNote`). */
function forceCloseKo(m: RegExpMatchArray): string {
  const failed = m[3] as string;
  const records = failed.match(RECORDS_FAILED_EN);
  const what =
    failed === 'no record was still owed a result'
      ? '결과를 기다리는 레코드는 없었습니다.'
      : `결과를 아직 받지 못한 레코드 ${records?.[1]}개는 보냈든 안 보냈든 KafkaException으로 실패합니다.`;
  // Kafka's log line and exception message stay in the English text (Korean quotes no English prose)
  return `close(Duration.ofMillis(${m[1]})): 제한 시간 ${m[2]} ms 안에 대기 중인 요청을 끝내지 못해 프로듀서를 강제로 닫습니다(Sender.forceClose). Sender는 더 보내지 않고 응답도 기다리지 않습니다. ${what}${forceCloseTailKo((m[4] as string) ?? '')}`;
}

/** Korean for the producer's notes about close() aborting its transaction (notes.ts KO_RULES). */
export const PRODUCER_CLOSE_KO_RULES: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [
    /^close\(\): the transaction is still open, so the Sender aborts it on shutdown \("Aborting incomplete transaction due to shutdown": EndTxn\(ABORT\)\) and close\(\) returns once the abort is done$/,
    () =>
      'close(): 트랜잭션이 아직 열려 있으므로 Sender가 종료하면서 이를 중단합니다("Aborting incomplete transaction due to shutdown": EndTxn(ABORT)). close()는 중단이 끝난 뒤에 반환합니다',
  ],
  [
    /^close\(\): the transaction is still open, so the Sender aborts it on shutdown \("Aborting incomplete transaction due to shutdown"\); nothing was sent in it, so the abort completes without EndTxn$/,
    () =>
      'close(): 트랜잭션이 아직 열려 있으므로 Sender가 종료하면서 이를 중단합니다("Aborting incomplete transaction due to shutdown"). 트랜잭션에서 보낸 것이 없으므로 EndTxn 없이 중단이 끝납니다',
  ],
  [
    /^close\(Duration\.ofMillis\((\d+)\)\): "Proceeding to force close the producer since pending requests could not be completed within timeout (\d+) ms" — Sender\.forceClose: the Sender sends nothing more and waits for no answer; (no record was still owed a result|\d+ records? still owed a result, sent or not, fails? with KafkaException "Producer is closed forcefully\.")(.*)$/,
    forceCloseKo,
  ],
  [
    /^the abort is complete; the producer is closing, so the epoch bump \(InitProducerId\) queued after it is never sent$/,
    () => '중단이 끝났습니다. 프로듀서가 닫히는 중이므로 그 뒤에 대기하던 epoch 올리기(InitProducerId)는 보내지 않습니다',
  ],
];

/** TransactionManager.close()'s KafkaException for the queued transactional requests (forceClose.ts). */
export function forceClosedRequestsClause(lang: Language, who: string, error: string, during: string): string | null {
  const m = error === 'KafkaException' ? during.match(/^close: The producer closed forcefully \((.+) never sent\)$/) : null;
  if (!m) return null;
  return say(
    lang,
    `${who}'s TransactionManager.close() fails the transactional requests still queued (${m[1]}) with KafkaException ("The producer closed forcefully"): they are never sent`,
    `${who}의 TransactionManager.close()가 아직 대기 중인 트랜잭션 요청(${m[1]})을 KafkaException으로 실패시킵니다(프로듀서를 강제로 닫음). 이 요청들은 보내지 않습니다`,
  );
}

/** A record failed by a forced close (RecordAccumulator.abortIncompleteBatches), with its events. */
export function forceClosedRecordsClause(lang: Language, who: string, what: string, message: string | undefined): string | null {
  if (message !== FORCE_CLOSE_MESSAGE) return null;
  return say(
    lang,
    `${who}'s send() of ${what} failed with KafkaException ("${FORCE_CLOSE_MESSAGE}"): close(Duration)'s timeout ran out, and the forced close fails every batch still owed a result, those already sent included — a record whose Produce the leader appended is in the log all the same`,
    `${who}의 ${josa(`send()(${what})`, '이/가')} KafkaException으로 실패했습니다. close(Duration)의 제한 시간이 다 되어 강제로 닫으면 결과를 받지 못한 배치는 이미 보낸 것까지 모두 실패합니다. 리더가 Produce를 이미 덧붙였다면 레코드는 그래도 로그에 있습니다.`,
  );
}
