/**
 * What each Kafka error code and client exception means, in one clause, for narration. The codes
 * themselves stay as Kafka spells them.
 */
import type { Language } from './language';

const EXPLAIN: Record<string, readonly [en: string, ko: string]> = {
  OFFSET_OUT_OF_RANGE: ['the requested offset is not in the log', '요청한 offset이 로그에 없습니다'],
  UNKNOWN_TOPIC_OR_PARTITION: ['the broker does not lead that partition', '브로커가 그 파티션의 리더가 아닙니다'],
  LEADER_NOT_AVAILABLE: ['the partition has no leader right now', '지금은 파티션 리더가 없습니다'],
  NOT_LEADER_OR_FOLLOWER: ['the broker is no longer the leader', '브로커가 더 이상 리더가 아닙니다'],
  REQUEST_TIMED_OUT: [
    'no answer came within request.timeout.ms, so the client cannot know whether the request took effect',
    'request.timeout.ms 안에 응답이 없어 요청이 반영됐는지 클라이언트는 알 수 없습니다',
  ],
  NETWORK_EXCEPTION: [
    'the connection broke before an answer came, so the outcome is unknown',
    '응답 전에 연결이 끊겨 결과를 알 수 없습니다',
  ],
  COORDINATOR_LOAD_IN_PROGRESS: ['the coordinator is still loading its state log', '코디네이터가 아직 상태 로그를 읽는 중입니다'],
  COORDINATOR_NOT_AVAILABLE: ['the coordinator is not available', '코디네이터를 사용할 수 없습니다'],
  NOT_COORDINATOR: ['this is not the coordinator', '이 브로커는 코디네이터가 아닙니다'],
  NOT_ENOUGH_REPLICAS: ['too few in-sync replicas', 'ISR이 부족합니다'],
  ILLEGAL_GENERATION: [
    'the member belongs to an older generation of the group: its partitions were reassigned',
    '이 멤버는 그룹의 이전 generation에 속해 있어 파티션이 이미 재할당됐습니다',
  ],
  GROUP_ID_NOT_FOUND: [
    'the coordinator does not know this group (it has no record of it), so a commit with a generation has nothing to check it against',
    '코디네이터가 이 그룹을 알지 못해(기록이 없음) generation이 담긴 커밋을 확인할 대상이 없습니다',
  ],
  UNKNOWN_MEMBER_ID: ['the group no longer knows this member', '그룹이 더 이상 이 멤버를 알지 못합니다'],
  MEMBER_ID_REQUIRED: ['the coordinator hands out a member id first', '코디네이터가 먼저 멤버 id를 발급합니다'],
  INVALID_SESSION_TIMEOUT: [
    'session.timeout.ms is outside the broker’s group.min.session.timeout.ms (6000) – group.max.session.timeout.ms (1800000): the member is not let into the group',
    'session.timeout.ms가 브로커의 group.min.session.timeout.ms(6000)–group.max.session.timeout.ms(1800000) 범위 밖이라 멤버가 그룹에 들어가지 못합니다',
  ],
  REBALANCE_IN_PROGRESS: ['the group is rebalancing: the member must rejoin', '그룹이 리밸런스 중이라 다시 참여해야 합니다'],
  OUT_OF_ORDER_SEQUENCE_NUMBER: [
    'the batch does not continue the sequence the broker expects (a gap)',
    '브로커가 기대한 다음 시퀀스가 아닙니다(시퀀스 틈)',
  ],
  DUPLICATE_SEQUENCE_NUMBER: ['the batch was already written', '이미 기록된 배치입니다'],
  INVALID_PRODUCER_EPOCH: [
    'a newer epoch of this producerId exists: this producer is a zombie',
    '이 producerId에 더 새로운 epoch가 있어 이 프로듀서는 좀비입니다',
  ],
  INVALID_TXN_STATE: [
    'the request does not fit the transaction state the coordinator holds',
    '코디네이터가 가진 트랜잭션 상태와 맞지 않는 요청입니다',
  ],
  INVALID_PRODUCER_ID_MAPPING: [
    'the transaction coordinator does not hold this producerId for the transactional.id — the id expired (transactional.id.expiration.ms) or another producerId holds it now',
    '트랜잭션 코디네이터가 아는 이 transactional.id의 producerId는 이 값이 아닙니다. transactional.id가 만료됐거나(transactional.id.expiration.ms) 이제 다른 producerId가 묶여 있습니다',
  ],
  INVALID_TRANSACTION_TIMEOUT: [
    'transaction.timeout.ms is larger than transaction.max.timeout.ms',
    'transaction.timeout.ms가 transaction.max.timeout.ms보다 큽니다',
  ],
  CONCURRENT_TRANSACTIONS: [
    'the previous transaction of this transactional.id is still completing; the client retries',
    '이 transactional.id의 이전 트랜잭션이 아직 마무리되는 중이라 클라이언트가 다시 시도합니다',
  ],
  ProducerFencedException: [
    'another producer with the same transactional.id fenced this one: it can only be closed',
    '같은 transactional.id를 쓰는 다른 프로듀서가 이 프로듀서를 펜싱해 이제 닫는 수밖에 없습니다',
  ],
  InvalidProducerEpochException: [
    'a Produce of this transaction was refused for an old epoch (the coordinator had aborted it and bumped the epoch): the transaction must be aborted',
    '이 트랜잭션의 Produce가 이전 epoch라서 거부됐습니다(코디네이터가 트랜잭션을 취소하고 epoch를 올림). 트랜잭션을 취소해야 합니다',
  ],
  TRANSACTION_COORDINATOR_FENCED: ['a newer coordinator took over', '더 새로운 코디네이터가 이어받았습니다'],
  UNKNOWN_PRODUCER_ID: ['the broker no longer has state for this producerId', '브로커에 이 producerId의 상태가 없습니다'],
  FENCED_INSTANCE_ID: [
    'a JoinGroup with the same group.instance.id and no member id took this member’s place — another instance’s, or a late request of its own',
    '멤버 id 없이 같은 group.instance.id로 온 JoinGroup이 이 멤버의 자리를 이어받았습니다(다른 인스턴스의 요청이거나, 늦게 도착한 자기 요청입니다)',
  ],
  UNSTABLE_OFFSET_COMMIT: [
    'offsets of an open transaction are pending for this group, so the committed offset is not known yet',
    '열린 트랜잭션의 offset이 보류 중이라 아직 커밋된 offset을 알 수 없습니다',
  ],
  INVALID_RECORD: ['the broker refused the record', '브로커가 레코드를 거부했습니다'],
  PRODUCER_FENCED: [
    'a newer instance with the same transactional.id has a higher epoch: this producer is fenced',
    '같은 transactional.id를 쓰는 더 새로운 인스턴스가 더 높은 epoch를 가져 이 프로듀서는 펜싱됐습니다',
  ],
  TRANSACTION_ABORTABLE: ['the transaction must be aborted', '트랜잭션을 취소해야 합니다'],
  TimeoutException: [
    'the client’s timeout passed first (delivery.timeout.ms for a send, default.api.timeout.ms for commitSync, max.block.ms for initTransactions, sendOffsetsToTransaction, commitTransaction and abortTransaction)',
    '클라이언트의 제한 시간이 먼저 지났습니다(send는 delivery.timeout.ms, commitSync는 default.api.timeout.ms, initTransactions·sendOffsetsToTransaction·commitTransaction·abortTransaction은 max.block.ms)',
  ],
  CommitFailedException: [
    'the commit cannot complete: the group moved on to a new generation',
    '그룹이 새 generation으로 넘어가 커밋할 수 없습니다',
  ],
  RebalanceInProgressException: [
    'the group is rebalancing: the consumer rejoins in its next poll() and the commit can be tried again then',
    '그룹이 리밸런스 중입니다. 컨슈머는 다음 poll()에서 다시 참여하며, 커밋은 그 뒤에 다시 시도할 수 있습니다',
  ],
  ConfigException: ['the configuration is not valid', '설정이 올바르지 않습니다'],
  KafkaException: ['the client refused the call', '클라이언트가 호출을 거부했습니다'],
  TransactionAbortedException: ['the transaction was aborted, so this record is discarded', '트랜잭션이 취소되어 이 레코드는 버려집니다'],
  RecordTooLargeException: [
    'the record is larger than max.request.size (or buffer.memory), so the producer refused it before it reached a batch: it was never sent',
    '레코드가 max.request.size(또는 buffer.memory)보다 커서 프로듀서가 배치에 넣기 전에 거부했습니다. 전송되지 않았습니다',
  ],
  BufferExhaustedException: [
    'send() found no room in buffer.memory within what was left of max.block.ms, so the record never reached a batch: it was never sent',
    'send()가 max.block.ms의 남은 시간 안에 buffer.memory에서 자리를 얻지 못해 레코드가 배치에 들어가지 못했습니다. 전송되지 않았습니다',
  ],
  IllegalArgumentException: [
    'send() threw: a new batch of batch.size is larger than buffer.memory, so BufferPool.allocate refuses it at once; the record was never sent',
    'send()가 예외를 던졌습니다. batch.size 크기의 새 배치가 buffer.memory보다 커서 BufferPool.allocate가 바로 거부합니다. 레코드는 전송되지 않았습니다',
  ],
  InvalidSessionTimeoutException: [
    'poll() throws: the group coordinator refused the session timeout (INVALID_SESSION_TIMEOUT), so the consumer never joins its group',
    'poll()이 예외를 던집니다. 그룹 코디네이터가 세션 타임아웃을 거부했으므로(INVALID_SESSION_TIMEOUT) 컨슈머는 그룹에 들어가지 못합니다',
  ],
  FencedInstanceIdException: [
    'the group coordinator fenced this consumer’s group.instance.id: another instance joined with the same id and took its place and its partitions, so this one fails for good (it does not rejoin)',
    '그룹 코디네이터가 이 컨슈머의 group.instance.id를 펜싱했습니다. 같은 id로 다른 인스턴스가 참여해 자리와 파티션을 이어받았으므로 이 인스턴스는 복구할 수 없게 실패합니다(다시 참여하지 않습니다)',
  ],
  NoOffsetForPartitionException: [
    'poll() throws: the group has no committed offset for the partition and auto.offset.reset=none gives no place to start',
    'poll()이 예외를 던집니다. 그룹에 이 파티션의 커밋된 offset이 없고 auto.offset.reset=none이라 시작할 위치가 없습니다',
  ],
  OffsetOutOfRangeException: [
    'poll() throws: the position is no longer (or not yet) in the log and auto.offset.reset=none forbids a reset; the position stays where it is, so every later poll() fetches it again and throws again until the application seeks',
    'poll()이 예외를 던집니다. 위치가 로그 범위 밖인데 auto.offset.reset=none이라 위치를 다시 잡지 않습니다. 위치는 그대로 남으므로 애플리케이션이 seek하기 전까지 이후의 poll()마다 같은 위치를 다시 가져오고 다시 예외를 던집니다',
  ],
  LogTruncationException: [
    'poll() throws: after a leader change the new leader’s log ends the position’s leader epoch below the position (the records consumed there were truncated away) and auto.offset.reset=none forbids a reset',
    'poll()이 예외를 던집니다. 리더가 바뀐 뒤 새 리더의 로그에서 위치의 리더 epoch가 위치보다 앞에서 끝나는데(읽은 레코드가 잘려 나감) auto.offset.reset=none이라 위치를 다시 잡지 않습니다',
  ],
  IllegalStateException: ['the call is not allowed in the client’s current state', '클라이언트의 현재 상태에서는 허용되지 않는 호출입니다'],
};

/** One clause explaining an error code, or null if there is nothing to add. */
export function explainError(error: string, language: Language): string | null {
  const e = EXPLAIN[error];
  if (!e) return null;
  return language === 'ko' ? e[1] : e[0];
}
