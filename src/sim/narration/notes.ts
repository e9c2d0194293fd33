/**
 * The engine's free-text notes (fact kind 'note', an error's `during`, a rebalance reason) are
 * English. Narration keeps them as they are in English and translates the known ones for Korean;
 * an unknown note is quoted as it is rather than dropped.
 */

import { FATAL_CAUSE_WORDS, type FatalCause } from '../producer/fatalReason';
import { BUFFER_POOL_KO_RULES } from './bufferPool';
import { CONSUMER_METADATA_KO_RULES } from './consumerMetadata';
import { count, josa, type Language } from './language';
import { PRODUCER_CLOSE_KO_RULES } from './producerClose';
import { WAIT_ON_METADATA_KO_RULES } from './waitOnMetadata';

/**
 * "X이 <error>(으)로 실패했습니다." for an error's name; "X이 실패했습니다: <sentence>." when the
 * error is a whole sentence in Korean (a fatal state's explanation), which the particle cannot follow.
 */
function failedWith(call: string, error: string): string {
  const ko = translateRefusal(error, 'ko');
  return /니다$/.test(ko) ? `${josa(call, '이/가')} 실패했습니다: ${ko}.` : `${josa(call, '이/가')} ${josa(ko, '으로/로')} 실패했습니다.`;
}

type Rule = readonly [RegExp, (m: RegExpMatchArray) => string];

/** A consumer's commits, as its notes name them. */
const COMMITS_KO: Readonly<Record<string, string>> = {
  'auto-commit': '자동 커밋',
  'commitSync()': 'commitSync()',
  "onJoinPrepare's commit": 'onJoinPrepare의 커밋',
  "close()'s commit": 'close()의 커밋',
};

const KO_RULES: readonly Rule[] = [
  ...WAIT_ON_METADATA_KO_RULES,
  ...BUFFER_POOL_KO_RULES,
  ...PRODUCER_CLOSE_KO_RULES,
  ...CONSUMER_METADATA_KO_RULES,
  [
    /^an operator ran kafka-consumer-groups --reset-offsets (.+) on group (\S+) \((\S+)\); it printed "(.+)" and reset nothing$/,
    (m) =>
      `운영자가 그룹 ${m[2]}(${m[3]})에 kafka-consumer-groups --reset-offsets ${josa(m[1] as string, '을/를')} 실행했지만 "${m[4]}"라고 출력하고 아무것도 리셋하지 않았습니다`,
  ],
  [
    /^an operator ran kafka-consumer-groups --reset-offsets (.+) on group (\S+) \((\S+)\): it now starts at (.+)$/,
    (m) =>
      `운영자가 그룹 ${m[2]}(${m[3]})에 kafka-consumer-groups --reset-offsets ${josa(m[1] as string, '을/를')} 실행했습니다. 이제 ${m[4]}부터 읽습니다`,
  ],
  [
    /^truncation detected for partition (\S+) at offset (\d+): leader epoch (\d+) ends at offset (\d+) on the leader, so the consumer resets its offset to the first offset known to diverge, (\d+)$/,
    (m) =>
      `파티션 ${m[1]}의 offset ${m[2]}에서 로그 잘림(truncation)을 감지했습니다. 리더에서 ${josa(`리더 epoch ${m[3]}`, '은/는')} offset ${m[4]}에서 끝나므로, 컨슈머는 로그가 갈라지는 첫 offset인 ${josa(m[5] as string, '으로/로')} 위치를 되돌립니다`,
  ],
  [
    /^truncation detected for partition (\S+) at offset (\d+): the leader has no leader epoch (\d+) or earlier, so the consumer resets its offset by auto\.offset\.reset$/,
    (m) =>
      `파티션 ${m[1]}의 offset ${m[2]}에서 로그 잘림(truncation)을 감지했습니다. 리더에 리더 epoch ${m[3]} 이하가 없으므로 컨슈머는 auto.offset.reset에 따라 위치를 다시 정합니다`,
  ],
  [
    /^its (auto-commit|commitSync\(\)|onJoinPrepare's commit|close\(\)'s commit) waited behind the commit in flight; when its turn came the consumer was undergoing a rebalance \(its JoinGroup or SyncGroup in flight\), so it fails with RebalanceInProgressException without a request$/,
    (m) =>
      `${josa(COMMITS_KO[m[1] as string] ?? (m[1] as string), '은/는')} 진행 중인 커밋 뒤에서 기다렸습니다. 차례가 왔을 때 컨슈머는 리밸런스 중(JoinGroup 또는 SyncGroup 진행 중)이었으므로 요청을 보내지 않고 RebalanceInProgressException으로 실패합니다`,
  ],
  [
    /^its (auto-commit|commitSync\(\)|onJoinPrepare's commit|close\(\)'s commit) waited behind the commit in flight; when its turn came the consumer was no longer part of an active group, so it fails with CommitFailedException without a request$/,
    (m) =>
      `${josa(COMMITS_KO[m[1] as string] ?? (m[1] as string), '은/는')} 진행 중인 커밋 뒤에서 기다렸습니다. 차례가 왔을 때 컨슈머는 더 이상 활성 그룹의 멤버가 아니었으므로 요청을 보내지 않고 CommitFailedException으로 실패합니다`,
  ],
  [/^group (\S+) is rebalancing: (.+)$/, (m) => `${josa(`그룹 ${m[1]}`, '이/가')} 리밸런스를 시작합니다: ${reasonKo(m[2] as string)}`],
  [/^group (\S+): (.+); it is removed$/, (m) => `그룹 ${m[1]}: ${reasonKo(m[2] as string)}. 그룹에서 제거됩니다`],
  [
    /^group (\S+) could not complete its rebalance because no member rejoined; static member\(s\) (.+) stay until they rejoin or their session expires$/,
    (m) =>
      `그룹 ${josa(m[1] as string, '은/는')} 다시 참여한 멤버가 없어 리밸런스를 끝내지 못했습니다. 정적 멤버 ${josa(m[2] as string, '은/는')} 다시 참여하거나 세션이 만료될 때까지 그룹에 남습니다`,
  ],
  [
    /^the application sends event (\S+) again: a new send\(\), so a new sequence number$/,
    (m) => `애플리케이션이 이벤트 ${josa(m[1] as string, '을/를')} 다시 보냅니다. 새 send() 호출이므로 새 시퀀스 번호를 받습니다`,
  ],
  [/^the application closes its producer and creates a new one$/, () => '애플리케이션이 프로듀서를 닫고 새로 만듭니다'],
  [
    /^the application closes its producer with close\(Duration\.ofMillis\((\d+)\)\) and creates a new one$/,
    (m) => `애플리케이션이 close(Duration.ofMillis(${m[1]}))로 프로듀서를 닫고 새로 만듭니다`,
  ],
  [
    /^commitTransaction failed \((.+)\); the application aborts the transaction$/,
    (m) => `commitTransaction이 실패해(${translateRefusal(m[1] as string, 'ko')}) 애플리케이션이 트랜잭션을 취소합니다`,
  ],
  [
    /^(commitTransaction|abortTransaction) failed with (.+): this instance's producer can only be closed, and it (?:stops|closes)$/,
    (m) => `${failedWith(m[1] as string, m[2] as string)} 이 인스턴스의 프로듀서는 닫을 수밖에 없으므로 인스턴스가 멈춥니다`,
  ],
  [
    /^(commitTransaction|abortTransaction) failed with (.+): this instance (?:was|is) fenced and (?:stops|closes)$/,
    (m) => `${failedWith(m[1] as string, m[2] as string)} 이 인스턴스는 펜싱되어 멈춥니다`,
  ],
  [
    /^(\w+)\(\) threw TimeoutException; the application calls \1\(\) again, as KafkaProducer's javadoc says it safely may$/,
    (m) =>
      `${josa(`${m[1]}()`, '이/가')} TimeoutException을 던졌습니다. KafkaProducer 문서가 안전하다고 하는 대로 애플리케이션은 ${josa(`${m[1]}()`, '을/를')} 다시 호출합니다`,
  ],
  [/^sendOffsetsToTransaction failed \((.+)\): aborting$/, (m) => `sendOffsetsToTransaction이 실패해(${m[1]}) 트랜잭션을 취소합니다`],
  [/^poll\(\) threw (\S+): the application stops$/, (m) => `poll()이 ${josa(m[1] as string, '을/를')} 던졌습니다. 애플리케이션이 멈춥니다`],
  [
    /^commitSync\(\) threw (\S+): another instance joined with this group\.instance\.id, and the application stops$/,
    (m) =>
      `commitSync()가 ${josa(m[1] as string, '을/를')} 던졌습니다. 같은 group.instance.id로 다른 인스턴스가 참여했으므로 애플리케이션이 멈춥니다`,
  ],
  [
    /^commitSync failed \((.+)\): the records will be delivered again$/,
    (m) => `commitSync가 실패했습니다(${m[1]}). 이 레코드들은 다시 전달됩니다`,
  ],
  [
    /^poll\(\) was not called for max\.poll\.interval\.ms \((\d+) ms\): the consumer leaves the group \(consumer poll timeout has expired\)$/,
    (m) =>
      `poll()이 max.poll.interval.ms(${m[1]} ms) 동안 호출되지 않았습니다. 컨슈머가 그룹을 떠납니다(consumer poll timeout has expired)`,
  ],
  [
    /^poll\(\) was not called for max\.poll\.interval\.ms \((\d+) ms\): a static member sends no LeaveGroup — it drops its generation and member id and rejoins with its group\.instance\.id at its next poll\(\); the group keeps it, and its partitions, until session\.timeout\.ms \(consumer poll timeout has expired\)$/,
    (m) =>
      `poll()이 max.poll.interval.ms(${m[1]} ms) 동안 호출되지 않았습니다. 정적 멤버는 LeaveGroup을 보내지 않습니다. 세대와 멤버 ID를 버리고 다음 poll()에서 group.instance.id로 다시 참여하며, 그룹은 session.timeout.ms까지 이 멤버와 그 파티션을 유지합니다(consumer poll timeout has expired)`,
  ],
  [
    /^poll\(\) was not called for max\.poll\.interval\.ms \((\d+) ms\): the group coordinator is unknown, so no LeaveGroup is sent — it drops its generation and member id and rejoins at its next poll\(\); the group drops it at session\.timeout\.ms \(consumer poll timeout has expired\)$/,
    (m) =>
      `poll()이 max.poll.interval.ms(${m[1]} ms) 동안 호출되지 않았습니다. 그룹 코디네이터를 알 수 없으므로 LeaveGroup을 보내지 않습니다. 세대와 멤버 ID를 버리고 다음 poll()에서 다시 참여하며, 그룹은 session.timeout.ms가 지나면 이 멤버를 제거합니다(consumer poll timeout has expired)`,
  ],
  [
    /^no Heartbeat answered for session\.timeout\.ms \((\d+) ms\): the heartbeat thread marks the group coordinator unknown and closes its connection to it \(session timed out without receiving a heartbeat response\)$/,
    (m) =>
      `session.timeout.ms(${m[1]} ms) 동안 응답받은 하트비트가 없습니다. 하트비트 스레드가 그룹 코디네이터를 알 수 없음으로 표시하고 그 연결을 닫습니다`,
  ],
  [/^initTransactions failed: (.+)$/, (m) => `initTransactions가 실패했습니다: ${m[1]}`],
  [
    /^abortTransaction failed with (.+): this instance is fenced$/,
    (m) => `abortTransaction이 ${josa(m[1] as string, '으로/로')} 실패했습니다. 이 인스턴스는 펜싱됐습니다`,
  ],
  [
    /^found (\d+) new outbox row\(s\) from id (\d+); publishing to (\S+)$/,
    (m) => `outbox에서 id ${m[2]}부터 새 행 ${m[1]}개를 찾아 ${josa(m[3] as string, '으로/로')} 발행합니다`,
  ],
  [
    /^state store restored from (\S+)( \(read_committed\))?: (\d+) changelog record\(s\), (\d+) key\(s\)$/,
    (m) => `${m[1]}${m[2] ? '(read_committed)' : ''}에서 상태 저장소를 복원했습니다: changelog 레코드 ${m[3]}개, 키 ${m[4]}개`,
  ],
  [
    /^skipping record due to null key or value: (topic=\[.+\] partition=\[\d+\] offset=\[\d+\]) — count\(\) drops it \(dropped-records metric \+1\)$/,
    (m) => `key나 value가 null인 레코드를 건너뜁니다: ${m[1]}. count()는 이 레코드를 버립니다(dropped-records 지표 +1)`,
  ],
  [
    /^groupBy selected a null key for (topic=\[.+\] partition=\[\d+\] offset=\[\d+\]): the repartition topic's filter drops the record, so it is never counted$/,
    (m) => `groupBy가 ${m[1]}에 null key를 골랐습니다. repartition 토픽 앞의 필터가 이 레코드를 버리므로 개수에 들어가지 않습니다`,
  ],
  [
    /^TaskMigratedException \((\S+) failed with (.+)\): the task is closed dirty — its transaction aborted, its store wiped — the producer is re-created and the thread rejoins the group$/,
    (m) =>
      `TaskMigratedException(${josa(m[1] as string, '이/가')} ${josa(translateRefusal(m[2] as string, 'ko'), '으로/로')} 실패): 태스크를 dirty 상태로 닫고(트랜잭션 취소, 저장소 삭제) 프로듀서를 새로 만든 뒤 스레드가 그룹에 다시 참여합니다`,
  ],
  [
    /^onPartitionsLost \(this member's generation is gone\): its task is closed dirty — (\d+) record\(s\) processed since the last commit dropped, to be processed again from the committed offsets — and created again, its store restored from the changelog$/,
    (m) =>
      `onPartitionsLost(이 멤버의 generation이 사라졌습니다): 태스크를 dirty 상태로 닫습니다. 마지막 커밋 뒤에 처리한 레코드 ${m[1]}개는 버리고 커밋된 offset부터 다시 처리합니다. 태스크를 다시 만들고 저장소를 changelog에서 복원합니다`,
  ],
  [
    /^onPartitionsLost \(this member's generation is gone\): its task is closed dirty — nothing uncommitted — and created again, its store restored from the changelog$/,
    () =>
      'onPartitionsLost(이 멤버의 generation이 사라졌습니다): 태스크를 dirty 상태로 닫습니다. 커밋하지 않은 작업은 없습니다. 태스크를 다시 만들고 저장소를 changelog에서 복원합니다',
  ],
  [
    /^the stream thread shuts down: its task is closed dirty, then its producer, its main consumer \(leaving the group\) and its restore consumer are closed$/,
    () => '스트림 스레드가 종료됩니다. 태스크를 dirty 상태로 닫은 뒤 프로듀서, 메인 컨슈머(그룹을 떠남), 복원 컨슈머를 차례로 닫습니다',
  ],
  [
    /^the stream thread shuts down: its task is closed dirty — its open transaction aborted — then its producer, its main consumer \(leaving the group\) and its restore consumer are closed$/,
    () =>
      '스트림 스레드가 종료됩니다. 태스크를 dirty 상태로 닫고(열린 트랜잭션 취소) 프로듀서, 메인 컨슈머(그룹을 떠남), 복원 컨슈머를 차례로 닫습니다',
  ],
  [
    /^(\S+) failed with (.+): StreamsException, the stream thread dies$/,
    (m) => `${failedWith(m[1] as string, m[2] as string)} StreamsException으로 스트림 스레드가 종료됩니다`,
  ],
  [
    /^(\w+)\(\) timed out \(TimeoutException\): the task retries it until task\.timeout\.ms=(\d+) has passed since the first timeout, at (\d+) ms$/,
    (m) =>
      `${josa(`${m[1]}()`, '이/가')} 시간 초과되었습니다(TimeoutException). 태스크는 첫 시간 초과에서 ${josa(`task.timeout.ms=${m[2]}`, '이/가')} 지나는 ${m[3]} ms까지 같은 호출을 다시 합니다`,
  ],
  [
    /^abortTransaction\(\) did not return within max\.block\.ms=(\d+): the TimeoutException is swallowed and the coordinator aborts the transaction after transaction\.timeout\.ms$/,
    (m) =>
      `abortTransaction()이 max.block.ms=${m[1]} 안에 끝나지 않았습니다. TimeoutException은 무시되고 코디네이터가 transaction.timeout.ms 뒤에 트랜잭션을 취소합니다`,
  ],
  [
    /^read its offsets from the database: (.+)$/,
    (m) => `데이터베이스에 저장된 offset을 읽었습니다: ${m[1] === 'none yet' ? '아직 없음' : m[1]}`,
  ],
  [
    /^onPartitionsAssigned\((.*)\): read its offsets from the database: (.+)$/,
    (m) =>
      `onPartitionsAssigned(${m[1]}): 데이터베이스에 저장된 offset을 읽어 그 위치로 이동합니다: ${m[2] === 'none yet' ? '아직 없음' : m[2]}`,
  ],
  [
    /^TxnOffsetCommit of producerId (\d+) \(epoch (\d+)\) for group (\S+) not written: transaction verification answered (\S+)( \(the offsets partition is not in an ongoing transaction\))?$/,
    (m) =>
      `그룹 ${m[3]}에 대한 producerId ${m[1]}(epoch ${m[2]})의 TxnOffsetCommit을 쓰지 않았습니다. 트랜잭션 확인 결과가 ${m[4]}입니다${m[5] ? '(offset 파티션이 진행 중인 트랜잭션에 들어 있지 않음)' : ''}`,
  ],
  [
    /^no answer from (\S+) for (.+): the outcome is unknown, so it tries again$/,
    (m) => `${m[1]}에서 ${m[2]}에 대한 응답이 없습니다. 결과를 알 수 없으니 다시 시도합니다`,
  ],
  [
    /^bumped its own epoch to (\d+) after a batch failed or could not be confirmed; (.+?) restarts? at sequence 0(?:; batches in flight rewritten: (.+))?$/,
    (m) =>
      `배치가 실패했거나 확인되지 않아 스스로 epoch를 ${josa(m[1] as string, '으로/로')} 올렸습니다. ${m[2]}의 시퀀스는 0부터 다시 시작합니다${m[3] ? `. 다시 쓴 전송 중 배치: ${m[3].replace(/sequence/g, '시퀀스')}` : ''}`,
  ],
  [
    /^transaction of (\S+) has been open (\d+) ms, more than transaction\.timeout\.ms=(\d+): fencing epoch (\d+) and aborting$/,
    (m) =>
      `${m[1]}의 트랜잭션이 ${m[2]} ms 동안 열려 있어 transaction.timeout.ms=${josa(m[3] as string, '을/를')} 넘었습니다. epoch ${josa(m[4] as string, '을/를')} 펜싱하고 취소합니다`,
  ],
  [
    /^the application's business retry builds event (\S+) again with a new event_id (\S+): the same payload, an id nobody has seen$/,
    (m) =>
      `애플리케이션의 비즈니스 재시도가 이벤트 ${josa(m[1] as string, '을/를')} 새 event_id ${josa(m[2] as string, '으로/로')} 다시 만듭니다. 페이로드는 같지만 아무도 본 적 없는 ID입니다`,
  ],
  [
    /^the inbox row \((\S+), (\S+)\) written at (\d+) ms was deleted after the inbox retention of (\d+) ms: the duplicate is not recognised$/,
    (m) => `${m[3]} ms에 쓴 inbox 행 (${m[1]}, ${m[2]})는 inbox 보존 기간 ${m[4]} ms가 지나 삭제됐습니다. 이 중복은 알아볼 수 없습니다`,
  ],
  [
    /^Idempotency-Key (\S+) was stored at (\d+) ms and expired after (\d+) ms: the API no longer recognises it$/,
    (m) =>
      `멱등성 키 ${josa(m[1] as string, '은/는')} ${m[2]} ms에 저장됐고 ${m[3]} ms가 지나 만료됐습니다. API는 더 이상 이 키를 알아보지 못합니다`,
  ],
  [
    /^out of order: (\S+) (\S+) seq (\d+) \((.+), (\S+)\) arrived after seq (\d+)$/,
    (m) => `순서 뒤바뀜: ${m[1]} ${m[2]}의 seq ${m[3]}(${m[4]}, ${m[5]})이 seq ${m[6]}보다 늦게 도착했습니다`,
  ],
  [
    /^onPartitionsRevoked: generation (\d+) ended while the transaction was open; the application aborts it so that the new owner processes its records from the committed offsets$/,
    (m) =>
      `onPartitionsRevoked: 트랜잭션이 열려 있는 동안 ${josa(`generation ${m[1]}`, '이/가')} 끝났습니다. 애플리케이션은 새 소유자가 커밋된 offset부터 그 레코드를 처리하도록 트랜잭션을 취소합니다`,
  ],
  [
    /^tasks? for (.+) newly assigned to this instance: (?:it is|they are) created and (?:its store|their stores) restored from the changelog before (?:it processes|they process)$/,
    (m) => `${m[1]}의 태스크가 이 인스턴스에 새로 할당됐습니다. 태스크를 만들고, 처리하기 전에 changelog에서 상태 저장소를 복원합니다`,
  ],
  [
    /^the new assignment no longer has (.+): onJoinComplete revokes (?:it|them) \(onPartitionsRevoked\) before taking the assignment, and asks for a follow-up rebalance$/,
    (m) =>
      `새 할당에 ${josa(m[1] as string, '이/가')} 없습니다. onJoinComplete가 할당을 받기 전에 이를 회수하고(onPartitionsRevoked) 후속 리밸런스를 요청합니다`,
  ],
  [
    /^tasks? for (.+) newly assigned to this instance: the state updater restores (?:its store|their stores) from the changelog while the running tasks go on processing and committing; (.+) paused until then$/,
    (m) =>
      `${m[1]}의 태스크가 이 인스턴스에 새로 할당됐습니다. 상태 업데이터가 changelog에서 상태 저장소를 복원하는 동안 실행 중인 태스크는 계속 처리하고 커밋합니다. 그때까지 ${josa(m[2] as string, '은/는')} 일시 정지됩니다`,
  ],
  [
    /^tasks? for (.+) restored: (?:it joins|they join) the running tasks with no commit \((.+) resumed\)(, (?:its|their) records going into the open transaction)?$/,
    (m) =>
      `${m[1]}의 태스크를 복원했습니다. 커밋 없이 실행 중인 태스크에 합류합니다(${m[2]} 재개)${m[3] ? '. 그 레코드는 열려 있는 트랜잭션에 들어갑니다' : ''}`,
  ],
  [
    /^loaded (\d+) transactional id\(s\) from (\S+) \(coordinator epoch (\d+)\)$/,
    (m) => `${m[2]}에서 transactional.id ${m[1]}개를 다시 읽었습니다(코디네이터 epoch ${m[3]})`,
  ],
  [
    /^loaded (\d+) transactional id\(s\) from its replica of (\S+) \(coordinator epoch (\d+)\)$/,
    (m) => `자기 ${m[2]} 복제본에서 transactional.id ${m[1]}개를 읽었습니다(코디네이터 epoch ${m[3]})`,
  ],
  [
    /^writing (\S+) of (\S+) to (\S+) failed: (.+) → (\S+)$/,
    (m) => `${m[2]}의 ${josa(m[1] as string, '을/를')} ${m[3]}에 쓰지 못했습니다: ${writeFailureKo(m[4] as string)} → ${m[5]}`,
  ],
  [
    /^write to (__consumer_offsets-\d+) timed out waiting for the high watermark → (\S+); .+$/,
    (m) =>
      `${m[1]}에 쓴 기록이 HW(하이 워터마크)를 기다리다 시간이 다 되었습니다 → ${m[2]}. 클라이언트는 실패했다는 답을 받지만, 레코드는 이 브로커의 로그에 남고 이 코디네이터는 쓴 내용을 그대로 가집니다(지금 다른 브로커가 그 파티션의 리더라면 파티션을 내려놓을 때까지).`,
  ],
  [
    /^write to (__consumer_offsets-\d+) failed: (.+) → (\S+); the groups stay as they were$/,
    (m) => `${m[1]}에 쓰지 못했습니다: ${writeFailureKo(m[2] as string)} → ${m[3]}. 그룹은 그대로입니다.`,
  ],
];

/** Why a coordinator's successful write is answered with an error (updateCacheCallback), in Korean. */
function writeFailureKo(why: string): string {
  if (why === 'the coordinator epoch changed') return '코디네이터 epoch가 바뀌었습니다';
  if (why === 'the partition is loading again') return '파티션을 다시 읽어 들이는 중입니다';
  return why;
}

function reasonKo(reason: string): string {
  let m = reason.match(/^(\S+) joined$/);
  if (m) return `${josa(m[1] as string, '이/가')} 참여했습니다`;
  m = reason.match(/^(\S+) rejoined$/);
  if (m) return `${josa(m[1] as string, '이/가')} 다시 참여했습니다`;
  m = reason.match(/^(\S+) left the group$/);
  if (m) return `${josa(m[1] as string, '이/가')} 그룹을 떠났습니다`;
  m = reason.match(/^member (\S+) sent no heartbeat for session\.timeout\.ms=(\d+)$/);
  if (m) return `멤버 ${josa(m[1] as string, '이/가')} session.timeout.ms=${m[2]} 동안 하트비트를 보내지 않았습니다`;
  m = reason.match(/^new member (\S+) waited in JoinGroup longer than the new-member join timeout \((\d+) ms\)$/);
  if (m) return `새 멤버 ${josa(m[1] as string, '이/가')} 새 멤버 참여 제한 시간(${m[2]} ms)보다 오래 JoinGroup에서 기다렸습니다`;
  m = reason.match(/^(.+) sent no SyncGroup within the rebalance timeout$/);
  if (m) return `${josa(m[1] as string, '이/가')} 리밸런스 제한 시간 안에 SyncGroup을 보내지 않았습니다`;
  m = reason.match(/^static member (\S+) \(group\.instance\.id (\S+)\) replaced (\S+)$/);
  if (m) return `group.instance.id ${m[2]}의 정적 멤버 ${josa(m[1] as string, '이/가')} ${josa(m[3] as string, '을/를')} 대체했습니다`;
  if (reason === 'join phase complete') return '참여 단계가 끝났습니다';
  return reason;
}

/** A note or reason in the requested language (unknown Korean ones are kept in English). */
/** The actors' "2 key(s)" as English counts ("2 keys", "1 key"). */
function englishCounts(text: string): string {
  return text.replace(/\b(\d+) ((?:[a-z]+ )*?[a-z]+)\(s\)/g, (_, n: string, noun: string) => count(Number(n), noun));
}

export function translateNote(text: string, language: Language): string {
  if (language === 'en') return englishCounts(text);
  for (const [re, f] of KO_RULES) {
    const m = text.match(re);
    if (m) return f(m);
  }
  // a refused call's reason shown on its own (the actor details' "why fatal")
  return translateRefusal(text, language);
}

export function translateReason(reason: string, language: Language): string {
  return language === 'en' ? reason : reasonKo(reason);
}

/** A client error's `during` ("Produce to orders-0", "connection to broker-0", an RPC name …). */
export function translateDuring(during: string, language: Language): string {
  if (language === 'en') return during;
  let m = during.match(/^Produce to (\S+)$/);
  if (m) return `${josa(m[1] as string, '으로/로')}의 Produce`;
  m = during.match(/^connection to (\S+)$/);
  if (m) return `${josa(m[1] as string, '과/와')}의 연결`;
  // Sender.sendProducerData: "Expiring N record(s) for tp:X ms has passed since batch creation"
  m = during.match(/^Expiring (\d+) record\(s\) for (\S+?):(\d+) ms has passed since batch creation$/);
  if (m) return `배치를 만든 뒤 ${m[3]} ms가 지나(delivery.timeout.ms) ${m[2]}의 레코드 ${m[1]}개를 만료시키는`;
  m = during.match(/^delivery\.timeout\.ms passed for (\d+) record\(s\) of (\S+)$/);
  if (m) return `${m[2]}의 레코드 ${m[1]}개에 대해 delivery.timeout.ms가 지남`;
  if (during === 'auto-commit') return '자동 커밋';
  if (during === 'Transaction offset Commit failed due to consumer group metadata mismatch')
    return '컨슈머 그룹 메타데이터가 맞지 않아 트랜잭션 offset 커밋 실패';
  return during;
}

const REFUSALS_KO: readonly (readonly [RegExp, string])[] = [
  [
    /^Producer with transactionalId '(.*)' and (ProducerIdAndEpoch\(.*\)) has been fenced by another producer with the same transactionalId$/,
    "transactionalId '$1'의 프로듀서($2)는 같은 transactionalId를 쓰는 다른 프로듀서에게 펜싱됐습니다",
  ],
  [
    /^Producer with transactionalId '(.*)' and (ProducerIdAndEpoch\(.*\)) attempted to produce with an old epoch$/,
    "transactionalId '$1'의 프로듀서($2)가 이전 epoch로 쓰려고 했습니다",
  ],
  [
    /^Cannot add partition (\S+) to transaction before completing a call to initTransactions$/,
    'initTransactions를 마치기 전에는 트랜잭션에 파티션을 추가할 수 없습니다($1)',
  ],
  [/^Cannot add partition (\S+) to transaction while in state\s+(\w+)$/, '$2 상태에서는 트랜잭션에 파티션을 추가할 수 없습니다($1)'],
  [
    /^Producer with transactionalId '(.*)' and (ProducerIdAndEpoch\(.*\)) cannot execute transactional method because of previous invalid state transition attempt$/,
    "transactionalId '$1'의 프로듀서($2)는 앞서 허용되지 않는 상태 전이를 시도했으므로 트랜잭션 메서드를 실행할 수 없습니다",
  ],
  [
    /^Cannot attempt operation `(\w+)` because the previous call to `(\w+)` timed out and must be retried$/,
    '앞선 `$2` 호출이 시간 초과됐으므로 그 호출을 다시 해야 합니다. `$1`은 시도할 수 없습니다',
  ],
  [/^Timeout expired after (\d+)ms while awaiting (.+)$/, '$2 응답 대기 중 $1ms 제한 시간 초과'],
  [
    /^Cannot use transactional methods without enabling transactions by setting the transactional\.id configuration property$/,
    'transactional.id 설정으로 트랜잭션을 켜지 않으면 트랜잭션 메서드를 쓸 수 없습니다',
  ],
  [
    /^(?:TransactionalId \S+: )?Invalid transition attempted from state (\w+) to state (\w+)$/,
    '$1 상태에서 $2 상태로의 전이는 허용되지 않습니다',
  ],
  [
    /^Cannot commit: the transaction hit an abortable error; call abortTransaction$/,
    '트랜잭션에 취소 가능한 오류가 있어 커밋할 수 없습니다. abortTransaction을 호출해야 합니다',
  ],
  [/^Cannot (send|send offsets): the transaction hit an abortable error.*$/, '트랜잭션에 취소 가능한 오류가 있어 보낼 수 없습니다'],
];

/** A refused call's reason (the Java client's message) in Korean, when it is a known one. */
/** Each fatal cause's words in fatalReason (producer/fatalReason.ts), in Korean. */
export const FATAL_CAUSE_KO: Readonly<Record<FatalCause, string>> = {
  PRODUCER_FENCED: '펜싱됨',
  INVALID_PRODUCER_EPOCH: '펜싱됨',
  ProducerFencedException: '펜싱됨',
  INVALID_PRODUCER_ID_MAPPING: 'INVALID_PRODUCER_ID_MAPPING: transactional.id가 만료되어 코디네이터가 이 producerId를 더 이상 모름',
  INVALID_TXN_STATE:
    'INVALID_TXN_STATE: 트랜잭션 코디네이터가 이미 이 트랜잭션을 다른 방식으로 끝냈기 때문에, 지금 가진 트랜잭션 상태로는 요청을 받을 수 없음',
  INVALID_TRANSACTION_TIMEOUT: 'INVALID_TRANSACTION_TIMEOUT: transaction.timeout.ms가 브로커의 transaction.max.timeout.ms보다 큼',
  IllegalStateException: 'IllegalStateException: Sender 스레드에서 허용되지 않는 상태 전이가 일어남',
};

const FATAL_REASON = /^The producer is in a fatal error state \((.+)\) and must be closed$/;

/** fatalReason's sentence in Korean: a known cause in its words, any other error by its name. */
function fatalReasonKo(words: string): string {
  const known = Object.entries(FATAL_CAUSE_WORDS).find(([, en]) => en === words)?.[0];
  const ko = known ? FATAL_CAUSE_KO[known as FatalCause] : words === 'unknown error' ? '알 수 없는 오류' : words;
  return `프로듀서가 치명적 오류 상태(${ko})이므로 닫아야 합니다`;
}

/** TransactionManager.maybeFailWithError's KafkaException, with the model's words of its cause in parentheses. */
const ERROR_STATE = /^Cannot execute transactional method because we are in an error state \((.+)\)$/;

export function translateRefusal(reason: string, language: Language): string {
  if (language === 'en') return reason;
  const errorState = reason.match(ERROR_STATE);
  if (errorState) return `오류 상태이므로 트랜잭션 메서드를 실행할 수 없습니다(${translateRefusal(errorState[1] as string, language)})`;
  const fatal = reason.match(FATAL_REASON);
  if (fatal) return fatalReasonKo(fatal[1] as string);
  for (const [re, ko] of REFUSALS_KO) if (re.test(reason)) return reason.replace(re, ko);
  return reason;
}
