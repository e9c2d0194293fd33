/**
 * The shipped scenarios' notes (on faults and script steps) in Korean, keyed by their English text:
 * a note appears in narration ("장애: …"), in the list of the scenario's faults and on the message
 * diagram, and a note a person wrote is shown as written. Kafka's names stay in Latin script.
 * A test checks that every note of every preset is here.
 */
export const NOTES_KO: Readonly<Record<string, string>> = {
  'settler is stopped for a deploy and starts again 50 s later': 'settler가 배포 때문에 멈추고 50초 뒤에 다시 시작합니다',
  'its session has expired: an operator rewinds group settler to the earliest offset':
    '세션이 만료됐습니다: 운영자가 그룹 settler를 가장 이른 offset으로 되감습니다',
  'the application sends the same event again (a business retry)': '애플리케이션이 같은 이벤트를 다시 보냅니다(비즈니스 재시도)',
  'the ack is lost on the way back': '확인 응답이 돌아오는 길에 사라집니다',
  "the answer to order-123's Produce is lost": 'order-123의 Produce에 대한 응답이 사라집니다',
  'a business-level retry: the application sends the event again': '비즈니스 수준의 재시도: 애플리케이션이 이벤트를 다시 보냅니다',
  'the service restarts and builds a new KafkaProducer': '서비스가 재시작하며 새 KafkaProducer를 만듭니다',
  'the service shuts down with producer.close(Duration.ZERO) and starts again':
    '서비스가 producer.close(Duration.ZERO)로 종료하고 다시 시작합니다',
  'flush() returns when the send() has its result: here TimeoutException':
    'flush()는 send()의 결과가 나오면 돌아옵니다: 여기서는 TimeoutException',
  "the answers to evt-7's Produce requests are lost": 'evt-7의 Produce 요청에 대한 응답들이 사라집니다',
  'its callback said the send failed, so after the restart it sends the event again':
    '콜백이 전송 실패를 알렸으므로 재시작한 뒤 이벤트를 다시 보냅니다',
  'after the restart it does not know the event was sent, so it sends it again':
    '재시작한 뒤에는 이벤트를 보냈다는 사실을 모르므로 다시 보냅니다',
  'a null key: a compacted topic refuses it (INVALID_RECORD)': 'null 키: 컴팩션 토픽은 이 레코드를 거부합니다(INVALID_RECORD)',
  "broker-1's fetches from the leader are slow": 'broker-1이 리더에서 가져오는 요청이 느립니다',
  "broker-2's fetches from the leader are slow": 'broker-2가 리더에서 가져오는 요청이 느립니다',
  'the rolling restart stops broker-0 with a controlled shutdown and starts it 2 s after it stopped':
    '롤링 재시작이 broker-0을 제어된 종료로 멈추고, 멈춘 뒤 2초 뒤에 다시 시작합니다',
  'then broker-1, the same way': '이어서 broker-1도 같은 방식으로',
  'then broker-2, the same way': '이어서 broker-2도 같은 방식으로',
  'the leader dies before any follower fetched e2': '어떤 팔로워도 e2를 가져가기 전에 리더가 죽습니다',
  'the follower dies and leaves the ISR': '팔로워가 죽어 ISR에서 빠집니다',
  'the leader dies with e2 and e3 committed on it alone': 'e2와 e3이 리더에만 커밋된 채로 리더가 죽습니다',
  'broker-1 fails and returns 20 s later': 'broker-1이 죽고 20초 뒤에 돌아옵니다',
  'broker-2 fails for good': 'broker-2가 죽고 돌아오지 않습니다',
  'the first follower dies: two replicas are still in sync': '첫 팔로워가 죽습니다: 동기화된 복제본이 아직 둘입니다',
  'the second follower dies: the leader is alone in the ISR': '두 번째 팔로워가 죽습니다: ISR에는 리더만 남습니다',
  'the leader dies after both followers copied e1, before it learned they had it: no ProduceResponse':
    '두 팔로워가 e1을 복사한 뒤, 리더가 그 사실을 알기 전에 죽습니다: ProduceResponse는 없습니다',
  "broker-2's replication link slows: each fetch and its answer take 2.5 s longer":
    'broker-2의 복제 링크가 느려집니다: 가져오기 요청과 그 응답이 각각 2.5초 더 걸립니다',
  'the request never reaches the broker': '요청이 브로커에 도착하지 않습니다',
  'a later write rolls a new segment, so the first one can be cleaned':
    '나중의 쓰기가 새 세그먼트를 열어 첫 세그먼트를 정리할 수 있게 됩니다',
  'the log cleaner compacts account-tier': '로그 클리너가 account-tier를 컴팩션합니다',
  'the marker to payments-1 (on broker-1) is held up for 2 s': 'payments-1(broker-1)로 가는 마커가 2초 동안 묶여 있습니다',
  'validation failed: the application aborts': '검증 실패: 애플리케이션이 트랜잭션을 취소합니다',
  'the job commits 8 seconds later': '작업이 8초 뒤에 커밋합니다',
  'after a 12 s stall (a long GC pause, a slow external call)': '12초 동안 멈춘 뒤(긴 GC 정지, 느린 외부 호출)',
  'instance A freezes for 3 s (a long GC pause)': '인스턴스 A가 3초 동안 멈춥니다(긴 GC 정지)',
  'the first markers never arrive: the coordinator is going down': '첫 마커들이 도착하지 않습니다. 코디네이터가 내려가는 중입니다',
  'the transaction coordinator crashes and fails over 1 s later': '트랜잭션 코디네이터가 중단되고 1초 뒤 다른 곳에서 이어받습니다',
  'the batch times out, so the commit fails and the application aborts':
    '배치의 제한 시간이 지나 커밋이 실패하고, 애플리케이션이 트랜잭션을 취소합니다',
  'the Produce is stuck in the network for 3 s': 'Produce 요청이 네트워크에서 3초 동안 묶여 있습니다',
  'billing crashes after processing offset 0': 'billing이 offset 0을 처리한 뒤 중단됩니다',
  'billing crashes after processing offset 1, before it commits': 'billing이 offset 1을 처리한 뒤, 커밋하기 전에 중단됩니다',
  'the enricher crashes after flushing its outputs, before commitSync': 'enricher가 출력을 flush()한 뒤, commitSync 전에 중단됩니다',
  'the enricher crashes after sendOffsetsToTransaction, before commitTransaction':
    'enricher가 sendOffsetsToTransaction 뒤, commitTransaction 전에 중단됩니다',
  'billing restarts after a successful commit': 'billing이 커밋에 성공한 뒤 재시작합니다',
  'billing crashes at 17.5 s, a few seconds after its last auto-commit': 'billing이 마지막 자동 커밋 몇 초 뒤인 17.5초에 중단됩니다',
  'billing crashes after the INSERT, before the commit': 'billing이 INSERT 뒤, 커밋 전에 중단됩니다',
  'billing crashes after the database transaction, before the commit': 'billing이 데이터베이스 트랜잭션 뒤, 커밋 전에 중단됩니다',
  'billing crashes right after the database transaction': 'billing이 데이터베이스 트랜잭션 직후 중단됩니다',
  'the response to the first payment call is lost': '첫 결제 호출의 응답이 사라집니다',
  'worker-a freezes for 15 s (a long GC pause) right after producing its first output':
    'worker-a가 첫 출력을 보낸 직후 15초 동안 멈춥니다(긴 GC 정지)',
  'the Streams instance crashes after writing the count for offset 3, before its transaction commits':
    'Streams 인스턴스가 offset 3의 개수를 쓴 뒤, 트랜잭션이 커밋되기 전에 중단됩니다',
  'the Streams instance crashes after writing the count for offset 3, before it commits':
    'Streams 인스턴스가 offset 3의 개수를 쓴 뒤, 커밋하기 전에 중단됩니다',
  'the Streams instance crashes right after re-keying view-3 into the repartition topic, before its transaction commits':
    'Streams 인스턴스가 view-3의 키를 바꿔 repartition 토픽에 쓴 직후, 트랜잭션이 커밋되기 전에 중단됩니다',
  'the upstream retries at the business level and publishes evt-42 again':
    '상위 시스템이 비즈니스 수준에서 재시도해 evt-42를 다시 발행합니다',
  'the CDC relay crashes after publishing, before it records its position': 'CDC 릴레이가 발행한 뒤, 위치를 기록하기 전에 중단됩니다',
  'incr-counter crashes after INCR for like-2, before its commit': 'incr-counter가 like-2의 INCR 뒤, 커밋하기 전에 중단됩니다',
  'set-counter crashes after SET for like-2, before its commit': 'set-counter가 like-2의 SET 뒤, 커밋하기 전에 중단됩니다',
  'a retry republishes evt-2 one minute later': '재시도가 1분 뒤 evt-2를 다시 발행합니다',
  'a reconciliation job republishes evt-1 six minutes later': '정합성 점검 작업이 6분 뒤 evt-1을 다시 발행합니다',
  'the checkout request is retried: the handler builds the event again with a new UUID':
    '체크아웃 요청이 재시도됩니다. 핸들러가 새 UUID로 이벤트를 다시 만듭니다',
  'payments-a is slow to commit its second transaction': 'payments-a가 두 번째 트랜잭션을 늦게 커밋합니다',
  'the log cleaner compacts payment-approved': '로그 클리너가 payment-approved를 컴팩션합니다',
  'counter-a freezes (a long GC pause) after writing the count for offset 3, before its transaction commits':
    'counter-a가 offset 3의 카운트를 쓴 뒤, 트랜잭션이 커밋되기 전에 멈춥니다(긴 GC 정지)',
};
