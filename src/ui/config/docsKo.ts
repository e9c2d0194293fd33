/**
 * The config keys' documentation lines in Korean, by spec table and key: the same key can mean a
 * different thing to a producer and to a consumer (request.timeout.ms, retry.backoff.ms). A table is
 * named after its spec file in src/sim/config (producerConfig.ts → producer). Kafka's own names
 * (config keys, RPCs, producerId, epoch, values) and every number stay as in the English `doc`;
 * tests check that.
 */

export type ConfigTable = 'producer' | 'consumer' | 'cluster' | 'topic' | 'streams';

export const DOCS_KO: Readonly<Record<ConfigTable, Readonly<Record<string, string>>>> = {
  producer: {
    'enable.idempotence': '브로커가 producerId, epoch, 시퀀스 번호로 재시도된 배치의 중복을 걸러 냅니다.',
    acks: '리더가 응답하기 전에 배치를 받아 두어야 하는 복제본 수입니다. 0이면 응답을 아예 보내지 않습니다.',
    retries: '실패한 배치를 delivery.timeout.ms 안에서 몇 번까지 재시도할지 정합니다.',
    'max.in.flight.requests.per.connection':
      '브로커 연결 하나에서 확인 응답 없이 보내 둘 수 있는 Produce 요청 수입니다. 멱등성을 켜면 최대 5입니다.',
    'transactional.id':
      '트랜잭션을 위한 안정적인 식별자입니다. 이 값으로 InitProducerId를 보내면 epoch가 올라가고 이전 인스턴스는 펜싱됩니다. 비즈니스 ID가 아닙니다: transaction_id=payment-123 같은 헤더를 브로커는 읽지 않습니다.',
    'transaction.timeout.ms':
      '이 시간보다 오래 열려 있는 트랜잭션은 코디네이터가 취소합니다. 프로듀서는 어떤 값이든 받지만, 코디네이터는 0 이하이거나 클러스터의 transaction.max.timeout.ms(900000)보다 큰 값을 INVALID_TRANSACTION_TIMEOUT으로 거부하고 initTransactions()는 복구할 수 없게 실패합니다.',
    'delivery.timeout.ms': '전송 한 건의 성공이나 실패를 알리기까지 걸리는 시간의 상한이며, 재시도 시간도 포함합니다.',
    'request.timeout.ms': '클라이언트가 응답을 기다리다가 요청을 포기하고 재시도하기까지의 시간입니다.',
    'linger.ms': '레코드가 파티션별 배치로 묶이기를 기다리는 시간입니다.',
    'batch.size': '배치 하나의 최대 크기(바이트)입니다.',
    'max.request.size':
      'Produce 요청 하나의 최대 크기(바이트)입니다. 이 크기를 넘기게 되는 배치는 요청에 더 담지 않고(요청의 첫 배치는 항상 갑니다), 이보다 큰 레코드는 send()가 거부합니다(RecordTooLargeException).',
    'buffer.memory':
      '프로듀서가 아직 끝나지 않은 레코드를 담아 둘 수 있는 바이트 수입니다. 배치 하나가 batch.size만큼(더 큰 레코드는 그 크기만큼) 차지하고, 확인 응답을 받거나 실패하거나 만료될 때 돌려줍니다. 새 배치가 필요한 send()는 남은 공간이 없으면 max.block.ms의 남은 시간까지 기다린 뒤 BufferExhaustedException으로 실패하고, buffer.memory보다 큰 레코드는 거부됩니다(RecordTooLargeException).',
    'retry.backoff.ms': '첫 재시도 전에 기다리는 시간입니다. 시도할 때마다 두 배로 늘어납니다.',
    'retry.backoff.max.ms': '재시도 대기 시간(backoff)의 상한입니다.',
    'max.block.ms':
      'send()와 initTransactions(), sendOffsetsToTransaction(), commitTransaction(), abortTransaction()이 TimeoutException을 던지기 전까지 기다리는 시간입니다. 요청은 계속 진행되며, 같은 메서드를 다시 호출하면 그 결과를 기다립니다. send()는 토픽의 메타데이터(waitOnMetadata)를 기다린 다음 buffer.memory의 공간을 기다리며, 둘을 합쳐 이 한도 안에서 기다립니다.',
    'reconnect.backoff.ms':
      '연결이 닫히거나 거부된 브로커에 다시 연결하기 전에 기다리는 시간입니다. 연속으로 실패할 때마다 두 배로 늘어 reconnect.backoff.max.ms까지 가고, 연결이 되면 처음부터 다시 셉니다.',
    'reconnect.backoff.max.ms':
      '재연결 대기 시간(backoff)의 상한입니다. reconnect.backoff.ms만 정하고 이 값을 정하지 않으면 reconnect.backoff.ms와 같아져 대기 시간이 늘지 않습니다.',
    'metadata.max.age.ms': '리더가 바뀌지 않아도 클러스터 메타데이터를 새로 받기까지 허용하는 최대 나이입니다.',
  },
  consumer: {
    'group.id': '컨슈머 그룹입니다. 그룹이 없으면 컨슈머는 할당된 파티션을 읽기만 하고 커밋할 수 없습니다.',
    'group.instance.id':
      '컨슈머를 정적 멤버로 만듭니다(KIP-345). session.timeout.ms 안에 재시작하면 같은 id로 리밸런스 없이 다시 참여해 예전 파티션을 그대로 돌려받습니다. 하지만 커밋된 offset부터 읽으므로 처리하고 커밋하지 못한 레코드는 다시 처리됩니다. close()는 LeaveGroup을 보내지 않아 session.timeout.ms가 지날 때까지 멤버가 남습니다. 같은 id를 쓰는 컨슈머 둘이 살아 있으면 나중 것이 자리를 이어받고 먼저 것은 펜싱되어(FENCED_INSTANCE_ID) 실패합니다.',
    'isolation.level': 'read_committed는 LSO(Last Stable Offset)까지만 읽고, 취소된 트랜잭션의 레코드는 건너뜁니다.',
    'enable.auto.commit': 'poll()로 가져간 위치를 auto.commit.interval.ms마다 커밋합니다.',
    'auto.commit.interval.ms': 'poll()이 자동 커밋하는 주기입니다.',
    'auto.offset.reset':
      '그룹에 커밋된 offset이 없을 때(또는 위치가 로그 범위 밖일 때) 어디서부터 읽을지 정합니다. none이면 대신 poll()이 NoOffsetForPartitionException(OffsetOutOfRangeException)을 던집니다.',
    'session.timeout.ms':
      '이 시간 동안 하트비트를 보내지 않은 멤버는 그룹에서 빠지고, 그룹은 리밸런스합니다. 브로커는 6000–1800000(group.min.session.timeout.ms, group.max.session.timeout.ms)만 받습니다. 범위 밖이면 JoinGroup이 INVALID_SESSION_TIMEOUT으로 실패하고 poll()이 예외를 던집니다.',
    'heartbeat.interval.ms':
      '멤버가 그룹 코디네이터에 하트비트를 보내는 주기입니다. 하트비트가 실패하면(유실, 코디네이터를 쓸 수 없음) 다음 하트비트는 그 대신 retry.backoff.ms 뒤에 보내고, 이 대기 시간은 retry.backoff.max.ms까지 두 배씩 늘어납니다.',
    'max.poll.records': 'poll() 한 번이 돌려주는 레코드 수의 상한입니다.',
    'max.poll.interval.ms':
      'poll() 호출 사이에 허용되는 가장 긴 시간입니다. 이 시간 안에 다시 poll()하지 않은 멤버는 그룹을 떠납니다(다음 commitSync는 CommitFailedException을 던지고, 다음 poll()에서 다시 참여합니다). 리밸런스 타임아웃이기도 합니다. 그룹이 이 멤버의 재참여나 SyncGroup을 기다리는 시간이며, 재참여 전에 커밋하는 데 쓸 수 있는 시간입니다.',
    'fetch.max.wait.ms': '돌려줄 데이터가 없을 때 브로커가 fetch 요청을 붙잡아 두는 시간입니다.',
    'request.timeout.ms': '클라이언트가 응답을 기다리는 시간입니다.',
    'retry.backoff.ms': '실패한 요청을 재시도하기 전에 기다리는 시간입니다.',
    'retry.backoff.max.ms':
      '커밋, OffsetFetch, 실패한 하트비트를 재시도하기 전 대기 시간의 상한입니다. 대기 시간은 retry.backoff.ms에서 시작해 두 배씩 늘어납니다.',
    'reconnect.backoff.ms':
      '연결이 닫히거나 거부된 브로커에 다시 연결하기 전에 기다리는 시간입니다. 연속으로 실패할 때마다 두 배로 늘어 reconnect.backoff.max.ms까지 가고, 연결이 되면 처음부터 다시 셉니다.',
    'reconnect.backoff.max.ms':
      '재연결 대기 시간(backoff)의 상한입니다. reconnect.backoff.ms만 정하고 이 값을 정하지 않으면 reconnect.backoff.ms와 같아져 대기 시간이 늘지 않습니다.',
    'metadata.max.age.ms': '리더가 바뀌지 않아도 클러스터 메타데이터를 새로 받기까지 허용하는 최대 나이입니다.',
  },
  cluster: {
    brokers: '브로커 수입니다. 파티션 리더는 브로커에 라운드 로빈으로 배정됩니다.',
    'transaction.version':
      '트랜잭션 프로토콜입니다. 1(클라이언트가 AddPartitionsToTxn을 보냄) 또는 2(KIP-890: 브로커가 파티션을 추가하고, EndTxn마다 epoch가 올라감). Kafka 4.x의 기본값은 2입니다.',
    'transaction.partition.verification.enable':
      '파티션에 처음 트랜잭션 쓰기를 하기 전에, 리더가 그 파티션이 트랜잭션에 들어 있는지 코디네이터에게 확인합니다(KIP-890 파트 1).',
    'transaction.state.log.num.partitions': '__transaction_state의 파티션 수입니다.',
    'transaction.state.log.replication.factor':
      '__transaction_state 파티션마다 두는 복제본 수입니다. transactional.id의 트랜잭션 코디네이터는 그 파티션의 리더입니다.',
    'transaction.state.log.min.isr':
      '__transaction_state의 min.insync.replicas입니다. 코디네이터의 쓰기(acks=-1)에는 ISR(동기화된 복제본)이 이만큼 있어야 합니다.',
    'offsets.topic.num.partitions': '__consumer_offsets의 파티션 수입니다.',
    'offsets.topic.replication.factor':
      '__consumer_offsets 파티션마다 두는 복제본 수입니다. 그룹의 코디네이터는 그 파티션의 리더입니다. 이 토픽에는 따로 최소 ISR 설정이 없어 브로커의 min.insync.replicas가 적용됩니다.',
    'transaction.abort.timed.out.transaction.cleanup.interval.ms': '코디네이터가 transaction.timeout.ms를 넘긴 트랜잭션을 찾는 주기입니다.',
    'transaction.max.timeout.ms': '프로듀서가 요청할 수 있는 transaction.timeout.ms의 최댓값입니다.',
    'transactional.id.expiration.ms':
      '트랜잭션이 열려 있지 않은(Empty, CompleteCommit, CompleteAbort) transactional.id를 마지막 갱신 뒤 트랜잭션 코디네이터가 기억하는 시간입니다. 이 시간이 지나면 __transaction_state에 툼스톤을 쓰고 그 transactional.id를 잊습니다. 프로듀서의 다음 AddPartitionsToTxn, AddOffsetsToTxn, EndTxn 또는 검증을 거치는 Produce는 INVALID_PRODUCER_ID_MAPPING으로 거절됩니다. Kafka 4.x에서 이 오류는 치명적이므로 그 프로듀서는 닫는 수밖에 없고, 새 프로듀서가 InitProducerId를 보내면 새 producerId를 받습니다.',
    'transaction.remove.expired.transaction.cleanup.interval.ms':
      '코디네이터가 transactional.id.expiration.ms가 지난 transactional.id를 찾는 주기입니다.',
    'group.initial.rebalance.delay.ms': '새 그룹은 첫 리밸런스 전에 이 시간만큼 멤버가 더 들어오기를 기다립니다.',
    'producer.id.expiration.ms':
      '파티션이 쉬고 있는 프로듀서를 기억하는 시간입니다. 열린 트랜잭션이 없고 마지막 배치의 타임스탬프가 이만큼 오래된 프로듀서는 파티션의 프로듀서 상태에서 epoch, 시퀀스와 함께 지워집니다. 그 뒤에 도착한 재시도는 다시 기록됩니다. Kafka는 프로듀서의 delivery.timeout.ms보다 작게 두지 말라고 권합니다.',
    'producer.id.expiration.check.interval.ms': '각 파티션이 producer.id.expiration.ms가 지난 프로듀서를 찾는 주기입니다(Kafka 내부 설정).',
    'min.insync.replicas':
      'min.insync.replicas를 정하지 않은 토픽에 쓰이는 브로커 기본값입니다. acks=all은 ISR(동기화된 복제본)이 이만큼 있어야 합니다.',
    'replica.lag.time.max.ms': '이 시간 안에 리더를 따라잡지 못한 팔로워는 ISR에서 빠집니다(그 절반마다 검사).',
    'replica.fetch.wait.max.ms': '리더가 팔로워의 빈 Fetch를 붙잡아 두는 시간입니다. replica.lag.time.max.ms보다 길 수 없습니다.',
    'broker.heartbeat.interval.ms': '브로커가 KRaft 컨트롤러에 하트비트를 보내는 주기입니다.',
    'broker.session.timeout.ms': '컨트롤러는 이 시간 동안 소식이 없는 브로커를 펜싱하고 그 리더 자리를 옮깁니다.',
    'auto.leader.rebalance.enable':
      '파티션의 리더가 선호 복제본(복제본 목록의 첫 번째)이 아닌 동안 컨트롤러가 leader.imbalance.check.interval.seconds마다 점검하고, 선호 복제본이 ISR에 있고 펜싱되지 않았으며 종료 중이 아니면 리더 자리를 되돌립니다.',
    'leader.imbalance.check.interval.seconds':
      '리더가 선호 복제본을 떠난 뒤 컨트롤러가 되돌릴지 점검하기까지의 시간(초)입니다(auto.leader.rebalance.enable). 불균형한 파티션이 남아 있으면 이 간격마다 다시 점검합니다.',
  },
  topic: {
    'cleanup.policy': 'compact는 키마다 최신 값만 남깁니다(클리너가 실행된 뒤).',
    'segment.bytes': '세그먼트가 이 크기를 넘게 되면 닫히고 새 세그먼트가 시작됩니다. 활성 세그먼트는 정리되지 않습니다.',
    'segment.ms': '이 시간보다 오래된 세그먼트는 다음 레코드가 추가될 때 닫히고 새 세그먼트가 시작됩니다.',
    'delete.retention.ms': '로그를 정리할 때 tombstone(값이 null인 레코드)을 지우지 않고 남겨 두는 시간입니다.',
    'min.insync.replicas':
      'acks=all은 ISR(동기화된 복제본)이 min(이 값, 복제 계수)만큼 있어야 합니다. 그보다 적으면 HW(하이 워터마크)가 멈춥니다. 기본값은 브로커의 min.insync.replicas입니다.',
    'unclean.leader.election.enable':
      '살아 있는 ISR 복제본이 없을 때 뒤처진 복제본을 리더로 뽑습니다. 파티션은 돌아오지만 커밋된 레코드를 잃을 수 있습니다.',
  },
  streams: {
    'application.id': '컨슈머 그룹, 내부 토픽, transactional.id 접두사의 이름이 됩니다(기본값: 클라이언트 id).',
    'processing.guarantee':
      '기본값은 at_least_once입니다. 입력 offset, 상태 저장소 changelog, 출력을 하나의 트랜잭션으로 묶으려면 exactly_once_v2를 명시해야 합니다(브로커 2.5 이상, exactly_once와 exactly_once_beta는 4.0에서 제거됨).',
    'commit.interval.ms':
      '태스크가 커밋하는 주기입니다. exactly_once_v2에서는 100, 그 밖에는 30000입니다. 0이면 스레드 루프마다 커밋합니다.',
    'statestore.cache.max.bytes':
      '레코드 캐시입니다. EOS Lab은 캐시 없이(0) Streams를 실행하므로 count()의 갱신이 모두 곧바로 changelog와 출력에 쓰입니다. Kafka의 기본값은 10485760(10 MB)이며, 이때 갱신은 캐시에 머물렀다가 커밋마다 키당 하나씩 쓰입니다. 0만 받습니다.',
  },
};

/**
 * The simulator's notes on a key (the spec's `simulation` field) in Korean, by the English note:
 * the same note can stand under several keys.
 */
export const SIMULATION_NOTES_KO: Readonly<Record<string, string>> = {
  'a topic has one replica per partition unless it sets replicationFactor':
    '토픽이 replicationFactor를 정하지 않으면 파티션마다 복제본 하나',
  'Kafka defaults to 50': 'Kafka 기본값은 50',
  'unset: one replica and a fixed coordinator process; set: replicated over the brokers, the coordinator on the leader':
    '정하지 않으면 복제본 하나와 고정된 코디네이터 프로세스, 정하면 브로커들에 복제되고 코디네이터는 리더에 있음',
  'used only when transaction.state.log.replication.factor is set': 'transaction.state.log.replication.factor를 정했을 때만 쓰임',
  'send() blocks only in waitOnMetadata and for buffer.memory': 'send()는 waitOnMetadata와 buffer.memory에서만 멈춤',
  'records and batches are sized as for batch.size, without the batch header; a send() arriving while another waits for memory queues behind it':
    '레코드와 배치 크기는 batch.size와 같은 방식으로 세고 배치 헤더는 뺌. 다른 send()가 메모리를 기다리는 동안 온 send()는 그 뒤에 줄을 섬',
  'with replication.factor 1, 1 and all behave alike': 'replication.factor가 1이면 1과 all이 같게 동작',
  'records and batches are sized as for batch.size, without the request and batch headers':
    '레코드와 배치 크기는 batch.size와 같은 방식으로 세고 요청·배치 헤더는 뺌',
  'records are sized by key, value and header lengths plus 20 bytes': '레코드 크기는 키, 값, 헤더 길이에 20바이트를 더해 계산',
  'no jitter': 'jitter 없음',
  'plain consumers only; a Kafka Streams client refuses it': '일반 컨슈머에서만 동작. Kafka Streams 클라이언트는 이 설정을 거부함',
  'no jitter; a connection attempt is the first request sent after the backoff':
    'jitter 없음. 연결 시도는 backoff가 지난 뒤 보내는 첫 요청',
  'timed from when poll() returns; the member leaves at the expiry, not at the heartbeat thread’s next wake-up':
    'poll()이 돌아온 때부터 잼. 멤버는 하트비트 스레드가 다음에 깨어날 때가 아니라 만료되는 즉시 그룹을 떠남',
  'retention (delete) is not simulated': '보존 기간에 따른 삭제(delete)는 시뮬레이션하지 않음',
  'refreshed only for topics whose metadata carries leader epochs (replicated ones)':
    '메타데이터에 리더 epoch가 있는 토픽(복제되는 토픽)만 새로 받음',
};
