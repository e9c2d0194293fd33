/**
 * Narration of a transactional producer's send() outside a transaction (producer/sendOutsideTransaction.ts):
 * send() throws, yet the record stays in the accumulator; and the Sender thread's poisoning when such a
 * record expires.
 */
import { josa, type Language, say } from './language';

const ADD_PARTITION = /^Cannot add partition (\S+) to transaction (?:before completing a call to initTransactions|while in state\s+(\w+))$/;
const PENDING_SEND = /^Cannot attempt operation `send` because the previous call to `\w+` timed out and must be retried$/;
const POISON = /Invalid transition attempted from state (\w+) to state ABORTABLE_ERROR$/;

/**
 * What follows maybeAddPartition's IllegalStateException for the record itself: KafkaProducer.doSend
 * appended it first. Null for any other refusal.
 */
export function heldRecordNote(reason: string, lang: Language): string | null {
  // throwIfPendingState("send") throws inside maybeAddPartition too, after the append
  if (PENDING_SEND.test(reason))
    return say(
      lang,
      "; the record stays in the producer's accumulator all the same (KafkaProducer.doSend appends it before maybeAddPartition's checks): its batch is held back until a transaction adds its partition, and expires after delivery.timeout.ms otherwise",
      ' 그래도 레코드는 프로듀서의 accumulator에 남습니다(KafkaProducer.doSend가 maybeAddPartition의 검사 전에 추가합니다). 그 배치는 어떤 트랜잭션이 파티션을 추가할 때까지 붙잡혀 있다가, 그런 트랜잭션이 없으면 delivery.timeout.ms 뒤에 만료됩니다.',
    );
  const m = reason.match(ADD_PARTITION);
  if (!m) return null;
  const tp = m[1] as string;
  if (m[2] === 'ABORTING_TRANSACTION')
    return say(
      lang,
      `; the record was appended to the producer's accumulator before that check all the same: the abort fails it with the records not yet sent unless its EndTxn is already out — then it stays, held back until a transaction adds ${tp}, and expires after delivery.timeout.ms otherwise`,
      ` 그래도 레코드는 그 검사 전에 이미 프로듀서의 accumulator에 들어갔습니다. EndTxn이 아직 나가지 않았다면 취소가 아직 보내지 않은 레코드와 함께 그것을 실패시키고, 이미 나갔다면 어떤 트랜잭션이 ${josa(tp, '을/를')} 추가할 때까지 붙잡혀 있다가 그런 트랜잭션이 없으면 delivery.timeout.ms 뒤에 만료됩니다.`,
    );
  return say(
    lang,
    `; the record stays in the producer's accumulator all the same (KafkaProducer.doSend appends it before that check): its batch for ${tp} is held back until a transaction adds ${tp} — then it goes out, and commits or aborts, with that transaction — and expires after delivery.timeout.ms otherwise`,
    ` 그래도 레코드는 프로듀서의 accumulator에 남습니다(KafkaProducer.doSend가 그 검사 전에 추가합니다). ${tp} 배치는 어떤 트랜잭션이 ${josa(tp, '을/를')} 추가할 때까지 보내지 않고 붙잡혀 있다가, 그때 그 트랜잭션과 함께 나가 함께 커밋되거나 취소됩니다. 그런 트랜잭션이 없으면 delivery.timeout.ms 뒤에 만료됩니다.`,
  );
}

/** A batch failed outside a transaction: the Sender thread's invalid transition to ABORTABLE_ERROR made the producer FATAL_ERROR. Null for any other error. */
export function poisonedNote(who: string, during: string, lang: Language): string | null {
  const m = during.match(POISON);
  if (!m) return null;
  const from = m[1] as string;
  return say(
    lang,
    `${who}'s producer failed a batch while no transaction was open: ${from} → ABORTABLE_ERROR is no valid transition, so its Sender thread put the producer in FATAL_ERROR with an IllegalStateException ("${during}") — every record left fails, every transactional call now throws, and the producer can only be closed`,
    `${who}의 프로듀서가 열린 트랜잭션이 없을 때 배치를 실패 처리했습니다. ${from} → ABORTABLE_ERROR는 허용되지 않는 전이이므로 Sender 스레드가 프로듀서를 IllegalStateException("${during}")과 함께 FATAL_ERROR로 만들었습니다. 남은 레코드는 모두 실패하고, 이제 모든 트랜잭션 호출이 예외를 던지며, 프로듀서는 닫는 수밖에 없습니다.`,
  );
}
