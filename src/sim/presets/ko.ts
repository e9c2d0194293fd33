/**
 * The shipped scenarios' title, question and expected outcome in Korean, keyed by preset id. They
 * live here, not in the scenario files, because a share link encodes the scenario and must stay
 * short. Kafka's own names (config keys, RPCs, error codes, producerId, offset, event_id …) stay in
 * Latin script, as the seed articles write them; tests check that every one of them and every number
 * of the English text is here too.
 */

export interface PresetText {
  readonly title: string;
  readonly question: string;
  readonly expected: string;
}

export const PRESET_TEXT_KO: Readonly<Record<string, PresetText>> = {
  'opening-story': {
    title: '멱등성을 켰는데도 컨슈머는 주문을 두 번 받았다',
    question: 'enable.idempotence=true인데, 왜 컨슈머가 order-123(event_id evt-789)을 orders-0 offset 100과 101에서 두 번 받았을까요?',
    expected:
      'offset 100과 101에 키와 event_id(evt-789)가 같은 레코드가 두 개 있고, 둘 다 한 producerId에서 시퀀스 0과 1로 왔습니다. 애플리케이션이 send()를 두 번 호출한 것입니다. 브로커가 걸러 내는 것은 한 배치의 재시도이지, 반복해서 발행된 비즈니스 이벤트가 아닙니다. 판정은 evt-789를 로그, 전달, 처리에서 두 번으로 보여 줍니다.',
  },
  'lost-ack-idempotent': {
    title: '멱등성을 켠 채 확인 응답 유실: 브로커가 재시도를 알아본다',
    question:
      '프로듀서가 ProduceResponse를 받지 못해 같은 배치를 다시 보냈습니다. enable.idempotence=true라면 로그에 두 번째 사본이 생길까요?',
    expected:
      'orders-0 offset 100에 레코드 하나만 있습니다(lost-ack-no-idempotence처럼 이 파티션의 로그는 offset 100에서 시작합니다). 재시도는 같은 producerId, epoch, 시퀀스를 싣고 오므로 브로커는 아무것도 추가하지 않고 원래의 offset 100으로 응답합니다.',
  },
  'epoch-bump-duplicate': {
    title: '멱등성을 켰는데도 로그에 같은 send()가 두 번: epoch 증가가 배치를 다시 썼다',
    question:
      'order-service(enable.idempotence=true, acks=all)가 컴팩션 토픽 order-status에 씁니다. 첫 레코드에는 키가 없습니다(버그). 그 레코드가 아직 전송 중일 때 같은 연결로 order-123의 SHIPPED가 뒤따르고, order-123의 Produce에 대한 응답이 사라집니다. 멱등성이 켜져 있는데 로그에 order-123의 레코드가 두 번 들어갈 수 있을까요?',
    expected:
      '그렇습니다. 브로커는 키 없는 레코드(epoch 0, 시퀀스 0)를 INVALID_RECORD로 거부합니다. 컴팩션 토픽에는 키가 필요합니다. 바로 뒤따른 order-123(epoch 0, 시퀀스 1)은 offset 0에 추가합니다. 이 프로듀서의 상태가 아직 없으므로 첫 시퀀스는 무엇이든 받아들입니다. 거부 응답을 받은 프로듀서는 스스로 epoch를 1로 올리고, 아직 전송 중인 order-123의 배치를 epoch 1, 시퀀스 0으로 다시 씁니다. 그 응답은 끝내 오지 않고, request.timeout.ms(30초)가 지나면 epoch 1, 시퀀스 0으로 재시도되어 브로커가 offset 1에 다시 추가합니다. 중복 검사는 producerId, epoch, 시퀀스를 맞춰 보는데 epoch가 바뀌었기 때문입니다. 멱등성을 켠 채 로그에 생긴 중복이고, notifier는 evt-123-shipped를 두 번 읽습니다. 키 없는 레코드는 기록되지 않으며 그 send()는 INVALID_RECORD로 실패합니다.',
  },
  'producer-state-expired': {
    title: '멱등성도 잊는다: 재시도보다 짧은 producer.id.expiration.ms',
    question:
      'lost-ack-idempotent와 같은 확인 응답 유실이지만, 이 클러스터는 브로커 메모리를 아끼려고 유휴 프로듀서의 상태를 10초 뒤에 지웁니다(producer.id.expiration.ms를 하루에서 낮춤). 재시도는 30초 뒤에 옵니다. 그래도 브로커가 알아볼까요?',
    expected:
      '아닙니다. orders-service의 레코드는 orders-0 offset 0에 producerId 1000, epoch 0, 시퀀스 0으로 추가되고 ProduceResponse는 사라집니다. 15초에 broker-0의 만료 검사가 이 프로듀서가 열린 트랜잭션 없이 10초 넘게 쉬었음을 보고 상태를 지웁니다. request.timeout.ms(30초)가 지나 재시도가 도착하면 broker-0은 producerId 1000을 전혀 모르므로 어떤 시퀀스든 받아들여 같은 배치를 offset 1에 다시 추가합니다. 로그에 evt-789가 두 번 남고, billing은 두 번 받아 두 번 처리합니다. 브로커의 중복 검사는 producer.id.expiration.ms 동안만 프로듀서를 기억합니다. Kafka는 이 값을 delivery.timeout.ms(여기서는 120초)보다 작게 두지 말라고 권합니다.',
  },
  'transactional-id-expired': {
    title: 'transactional.id.expiration.ms: 쉬고 있던 프로듀서의 ID를 코디네이터가 잊는다',
    question:
      'orders-service가 evt-1을 커밋한 뒤 8초 동안 쉽니다. 이 클러스터는 transactional.id를 5초 뒤에 만료시키고(transactional.id.expiration.ms를 7일에서 낮춤) 1초마다 확인합니다. 다음 트랜잭션이 evt-2를 보냅니다. 커밋될까요?',
    expected:
      '아닙니다. evt-2는 유실됩니다. orders-service는 evt-1을 producerId 1000으로 orders-0 offset 0에 커밋하고, 코디네이터는 11 ms에 트랜잭션을 마칩니다(CompleteCommit, txnLastUpdateTimestamp 11). 6초에 코디네이터의 만료 작업이 orders-tx에 열린 트랜잭션이 없고 5초 넘게 갱신되지 않았음을 보고, __transaction_state에 툼스톤을 쓰고(offset 4) 잊습니다. 8초에 프로듀서는 여전히 producerId 1000, epoch 1을 들고 있습니다. broker-0이 evt-2를 추가하기 전에 코디네이터에게 orders-0을 트랜잭션에 추가해 달라고 요청하고(프로토콜 2), 코디네이터는 INVALID_PRODUCER_ID_MAPPING으로 답합니다. Produce가 이 오류로 실패하는데, Kafka 4.0에서는 치명적 오류입니다. commitTransaction()이 실패하고 evt-2는 끝내 기록되지 않으며, 새 프로듀서(InitProducerId로 받은 새 producerId)만 이어 갈 수 있습니다. 기본값 7일이라면 일주일 동안 쉰 서비스가 같은 일을 겪습니다.',
  },
  'lost-ack-no-idempotence': {
    title: '멱등성 없이 확인 응답 유실: 재시도가 두 번째 레코드가 된다',
    question: '같은 확인 응답 유실이지만 이번에는 enable.idempotence=false입니다. 재시도는 로그에 무엇을 남길까요?',
    expected:
      'orders-0 offset 100과 101에 키 order-123, event_id evt-789인 레코드가 두 개 있고, 둘 다 같은 send()에서 나왔습니다. 브로커에게는 재시도를 알아볼 producerId도 시퀀스도 없었습니다.',
  },
  'app-resend': {
    title: '애플리케이션이 같은 이벤트를 두 번 보낸다',
    question:
      '멱등성이 켜져 있고 실패도 없었지만, 애플리케이션이 evt-789에 대해 send()를 두 번 호출했습니다. 브로커가 두 번째 것을 버릴까요?',
    expected:
      '같은 producerId의 시퀀스 0과 1, evt-789 레코드 두 개가 남습니다. send()마다 새 시퀀스를 받으므로 브로커에게는 서로 다른 두 배치입니다. 둘이 같은 비즈니스 이벤트임을 알려 주는 것은 event_id뿐이고, 컨슈머는 evt-789를 두 번 받아 두 번 처리합니다.',
  },
  'producer-restart-new-pid': {
    title: '재시작한 프로듀서는 새 producerId를 받는다',
    question: '프로듀서가 재시작한 뒤 같은 이벤트를 다시 보냈습니다. 멱등성이 켜져 있는데 왜 중복이 생겼을까요?',
    expected:
      '서로 다른 두 producerId(1000과 1001)에서 온 evt-789 레코드가 두 개 있고, 둘 다 시퀀스 0입니다. transactional.id가 없으면 새 프로듀서 세션마다 새 producerId를 받고, 멱등성은 한 세션 안의 재시도만 막습니다. 컨슈머는 evt-789를 두 번 받아 두 번 처리합니다.',
  },
  'producer-close-timeout-zero': {
    title: 'close(Duration.ZERO)가 브로커가 기록한 레코드를 실패로 알린다',
    question:
      '서비스가 이벤트를 보내고 곧바로 producer.close(Duration.ZERO)로 종료합니다. 콜백이 전송 실패를 알렸으므로 서비스는 다음에 시작할 때 이벤트를 다시 보냅니다. 정말 기록되지 않았을까요?',
    expected:
      '기록됐습니다. close(Duration.ZERO)가 프로듀서를 강제로 닫을 때(Sender.forceClose) Produce 요청은 이미 나간 뒤였습니다. RecordAccumulator.abortIncompleteBatches는 이미 보낸 것까지 결과를 받지 못한 배치를 모두 KafkaException으로 실패시키지만, broker-0은 evt-42를 orders-0 offset 0에 추가하고 그 응답은 닫힌 연결에서 사라집니다. 재시작한 뒤의 재전송은 새 producerId로 오므로 멱등성이 알아보지 못합니다. 로그에 evt-42가 두 번 남고, billing은 두 번 처리합니다.',
  },
  'delivery-timeout-written': {
    title: '시간 초과로 실패한 send()는 이미 기록돼 있었다',
    question:
      'orders-service의 evt-7 send()가 delivery.timeout.ms가 지나 TimeoutException으로 실패합니다. Produce 요청에 대한 응답이 하나도 돌아오지 않았습니다. 멱등성은 켜져 있습니다. evt-7은 기록됐을까요? 서비스가 다시 보내면 어떻게 될까요?',
    expected:
      '기록됐습니다. 한 번입니다. broker-0은 첫 Produce로 evt-7을 orders-0 offset 0에 추가했지만 응답이 사라졌습니다. 프로듀서의 재시도는 같은 producerId, epoch, 시퀀스를 실어 왔으므로 broker-0은 이를 알아보고 원래 offset으로 응답했지만, 그 응답들도 사라졌습니다. 그러자 delivery.timeout.ms(여기서는 5000, 기본값은 120000)가 재시도가 진행 중인 배치를 TimeoutException으로 만료시켰고, 프로듀서는 epoch를 올렸습니다(만료된 배치의 시퀀스가 확정되지 않았기 때문입니다). billing은 evt-7을 한 번 읽고 한 번 처리합니다. send() 실패는 "기록되지 않음"이 아니라 "알 수 없음"입니다. 서비스가 evt-7을 다시 보냈다면 새 시퀀스를 받는 새 send()가 되어 두 번째 사본이 생기고(app-resend 참고), 그것은 event_id로만 알아볼 수 있습니다.',
  },
  'sequence-gap': {
    title: '시퀀스 공백: OUT_OF_ORDER_SEQUENCE_NUMBER, 그리고 새 epoch',
    question:
      '시퀀스 1과 2인 배치가 한 연결에서 함께 전송 중인데, 브로커가 앞의 배치를 거부합니다(compact 토픽에는 키가 필요합니다). 시퀀스 2는 어떻게 처리되고, 프로듀서는 이 공백을 어떻게 넘어갈까요?',
    expected:
      '시퀀스 1은 영구적으로 실패하므로(INVALID_RECORD: null 키) 아무것도 기록되지 않습니다. 시퀀스 2는 그 바로 뒤에 순서대로 도착합니다 — TCP에서는 배치가 다른 배치를 앞지를 수 없습니다 — 그리고 브로커는 이를 OUT_OF_ORDER_SEQUENCE_NUMBER로 거부합니다. 브로커가 기대하는 값은 1이고, 공백 뒤로는 기록하지 않습니다. 멱등 프로듀서는 시퀀스 1을 다시 쓸 수 없으므로 스스로 epoch를 올리고(KIP-360) 그 배치를 epoch 1, 시퀀스 0으로 다시 보냅니다. offset 0에는 evt-1(epoch 0, 시퀀스 0), offset 1에는 evt-3(epoch 1, 시퀀스 0)이 있고, evt-2는 애플리케이션에 실패로 보고됩니다. 애플리케이션이 다시 보내지 않으면 evt-2는 유실됩니다.',
  },
  'acks-1-leader-failover-loss': {
    title: 'acks=1: 리더 혼자 확인 응답한 레코드가 페일오버에서 사라진다',
    question:
      'orders에는 복제본이 세 개 있고 프로듀서는 acks=1을 쓰며 billing이 orders를 읽습니다. 리더 broker-0은 어떤 팔로워도 e2를 가져가기 전에 확인 응답을 보내고 죽습니다. broker-1이 리더로 선출됩니다. broker-0이 돌아오면 e2는 어떻게 될까요? billing은 e2를 읽을 수 있을까요?',
    expected:
      'e1은 모든 복제본에 있고 billing이 읽습니다. e2에 대해서는 broker-0 혼자 offset 1로 확인 응답을 보냅니다(팔로워의 가져오기가 느립니다). 그래서 하이 워터마크는 1에 머물고 billing은 e2를 읽을 수 없습니다. broker-0이 죽고 broker.session.timeout.ms가 지나면 컨트롤러가 broker-0을 펜싱하고 ISR에서 broker-1을 리더 epoch 1로 선출합니다. broker-1에는 e2가 없었습니다. broker-0은 돌아와서 broker-1을 따르고, 새 리더에서 epoch 0이 어디서 끝났는지 알게 되어 자기 로그에서 e2를 잘라 냅니다. 모든 복제본에는 e1만 남습니다. e2는 확인 응답을 받은 뒤 유실되었고, 어떤 컨슈머도 e2를 읽지 못했습니다. acks=all이었다면 프로듀서는 ISR을 기다렸을 것입니다.',
  },
  'rolling-restart-acks-1': {
    title: '롤링 재시작: acks=all은 모든 쓰기를 지키고, acks=1은 리더의 마지막 쓰기를 잃는다',
    question:
      'payments와 clicks에는 복제본이 세 개씩 있고 둘 다 broker-0이 리더입니다. payment-service는 acks=all과 멱등성(Kafka 4.x 기본값)으로, click-tracker는 acks=1로 씁니다. 운영자가 브로커를 하나씩 제어된 종료로 재시작합니다. 크래시는 없습니다. broker-0이 멈추기 직전 팔로워들은 1초 뒤처져 있습니다. 잃거나 두 번 기록되는 것이 있을까요?',
    expected:
      'pay-2는 한 번 기록되고 click-2는 유실됩니다. broker-0은 두 파티션의 offset 1에 pay-2와 click-2를 추가하고, click-2에는 바로 확인 응답을 보냅니다(acks=1). pay-2는 느린 팔로워를 기다립니다. 이어서 broker-0의 제어된 종료가 BrokerHeartbeat(wantShutDown)로 컨트롤러에게 리더 자리를 옮겨 달라고 요청합니다. broker-1이 offset 1이 없는 채로 두 파티션의 리더가 되고, broker-0은 모든 ISR에서 빠지고 Fetch를 멈춥니다. 기다리던 pay-2의 쓰기는 NOT_LEADER_OR_FOLLOWER로 끝나고, 멱등 프로듀서는 broker-1에 재시도해 offset 1에 기록합니다. broker-0은 깨끗하게 멈추고 2초 뒤 다시 시작합니다. broker-1을 따라가며 두 파티션의 offset 1을 잘라 냅니다. 하나는 재시도 사본이 로그에 남은 pay-2의 첫 사본이고, 다른 하나는 click-tracker에게 확인 응답이 갔지만 이제 어느 복제본에도 없는 click-2입니다. broker-1과 broker-2도 같은 방식으로 재시작하지만 잃는 것이 없습니다. 그때는 팔로워보다 앞선 리더가 없었기 때문입니다. 제어된 종료는 broker.session.timeout.ms를 기다리지 않고 바로 리더를 옮기지만, 옛 리더에게만 있던 것을 새 리더에게 줄 수는 없습니다. acks=1에서는 확인 응답을 받은 쓰기도 여전히 유실됩니다.',
  },
  'unclean-election-loses-committed': {
    title: 'unclean.leader.election.enable=true: ISR 밖 리더 때문에 커밋된 레코드가 사라진다',
    question:
      'orders에는 복제본이 두 개 있고(broker-0이 리더, broker-1이 팔로워) min.insync.replicas=1, unclean.leader.election.enable=true이며 프로듀서는 멱등성을 켠 acks=all입니다. broker-1이 죽어 ISR에서 빠지고, broker-0 혼자 ISR에 있는 동안 e2와 e3이 커밋됩니다. 이어서 broker-0도 죽고, broker-1이 먼저 돌아옵니다. e2와 e3은 어떻게 될까요?',
    expected:
      'e1은 두 복제본 모두에 있습니다. broker-1이 죽고 broker.session.timeout.ms가 지나면 컨트롤러가 broker-1을 펜싱하고 ISR은 [broker-0]으로 줄어듭니다. min.insync.replicas=1이므로 리더 혼자로 충분합니다. e2와 e3은 acks=all로 offset 1–2에서 확인 응답을 받고 broker-0의 하이 워터마크 3 아래에서 커밋되지만, broker-0에만 있습니다. broker-0이 죽어 펜싱되면 살아 있는 ISR 복제본이 없어 orders-0은 오프라인이 됩니다(리더 epoch 1). 그사이 보낸 e4는 죽은 broker-0에 연결하지 못하고(연결 시도가 거부되므로 e4는 나가지 않고 오류도 보고되지 않습니다), 메타데이터에 리더가 없으니(LEADER_NOT_AVAILABLE) 기다립니다. broker-1이 다시 등록하면 컨트롤러는 ISR 밖의 broker-1을 언클린 선출합니다. 리더 epoch 2, ISR [broker-1]입니다. broker-1에는 e2와 e3이 없었으므로 프로듀서의 다음 시퀀스는 OUT_OF_ORDER_SEQUENCE_NUMBER로 거부되고, 프로듀서가 epoch를 올린 뒤 e4는 e2가 있던 offset 1에 기록됩니다. broker-0은 돌아와 broker-1을 따르고, 새 리더에서 epoch 0이 offset 1에서 끝났다는 것을 알게 되어 e2와 e3을 잘라 냅니다. 커밋되고 확인 응답까지 받은 레코드가 유실되었습니다. 두 복제본에는 e1과 e4가 남습니다. unclean.leader.election.enable=false(기본값)였다면 orders-0은 broker-0이 돌아와 다시 리더가 될 때까지 오프라인이었고, e2와 e3은 남았을 것입니다.',
  },
  'transaction-state-under-replicated': {
    title: '__transaction_state 복제 부족: 커밋은 기다리고 LSO는 묶여 있다',
    question:
      '__transaction_state에는 복제본이 세 개 있고 transaction.state.log.min.isr=2이며, 그 리더 broker-0이 트랜잭션 코디네이터를 맡고 있습니다. 트랜잭션이 payments에 레코드 두 개를 쓴 뒤 broker-1과 broker-2가 죽습니다. 프로듀서가 커밋하면 무슨 일이 생기고, read_committed 컨슈머는 언제 레코드를 볼까요?',
    expected:
      'broker.session.timeout.ms가 지나면 컨트롤러가 broker-1과 broker-2를 펜싱하고 __transaction_state-0의 ISR은 [broker-0]으로 줄어듭니다. 코디네이터는 PrepareCommit을 쓰지 못합니다. acks=-1 쓰기가 NOT_ENOUGH_REPLICAS로 거부되고(동기화 복제본 하나, 최소 ISR 2), 코디네이터는 이를 COORDINATOR_NOT_AVAILABLE로 답합니다. 프로듀서는 코디네이터를 다시 찾고(FindCoordinator가 broker-0을 알려 줍니다) retry.backoff.ms마다 EndTxn을 다시 보냅니다. 그동안 트랜잭션은 열려 있어 payments의 LSO는 첫 번째 열린 레코드인 0에 머물고, read_committed 컨슈머는 아무것도 읽지 못합니다. broker-1이 22초에 돌아와 따라잡고 ISR에 다시 들어오면, 다음 EndTxn이 PrepareCommit을 복제본 두 개에 쓰고 마커가 뒤따르며, 컨슈머는 두 레코드를 한 번씩 읽습니다. 잃은 것은 없고 커밋이 기다렸을 뿐입니다.',
  },
  'min-insync-blocks-writes': {
    title: 'min.insync.replicas=2: 브로커 하나에만 남기느니 쓰기를 거부한다',
    question:
      'orders에는 복제본이 세 개 있고 min.insync.replicas=2이며 프로듀서는 acks=all입니다. billing은 read_uncommitted로 orders를 읽습니다. broker-2가 죽고, 나중에 broker-1도 죽습니다. 어떤 쓰기가 확인 응답을 받고, 리더 broker-0만 남았을 때 프로듀서는 무엇을 보며, billing은 무엇을 읽을까요?',
    expected:
      'broker-2가 펜싱되면 ISR은 [broker-0, broker-1]로 여전히 둘이므로 e2는 확인 응답을 받습니다. broker-1이 죽을 때 e3은 이미 broker-0의 로그에서 broker-1을 기다리고 있습니다. ISR이 [broker-0]으로 줄고 하이 워터마크는 2에 머무르며(Kafka 3.7+의 엄격한 최소 ISR 규칙), 그 Produce는 NOT_ENOUGH_REPLICAS_AFTER_APPEND가 아니라 REQUEST_TIMED_OUT으로 끝납니다. 이후 재시도는 모두 기록되기 전에 NOT_ENOUGH_REPLICAS로 거부되고, delivery.timeout.ms가 지나면 e3은 포기됩니다. 프로듀서의 send()는 TimeoutException으로 실패합니다. broker-0에는 e1, e2, e3이(e3은 offset 2로 HW 위), broker-1에는 e1과 e2가, broker-2에는 e1이 남습니다. billing은 e1과 e2를 받고 e3은 끝내 받지 못합니다. read_uncommitted인데도 offset 2부터의 Fetch는 매번 빈 응답으로 돌아옵니다(하이 워터마크 2). 그래서 판정의 Kafka 로그 계층은 e1과 e2를 한 번씩으로 세고 e3은 하이 워터마크 위에 있다고 따로 적습니다. 리더의 로그에는 있지만 커밋되지 않았으므로 어느 격리 수준의 컨슈머도 읽지 못합니다. 한 번도 아니고 유실도 아닙니다. billing의 전달과 처리도 e1과 e2를 한 번씩으로 셉니다. e3은 그 레코드가 없는 복제본이 리더가 되면(언클린 리더 선출) 잘려 나가고, broker-1이 돌아와 따라잡으면 커밋됩니다. 확인 응답을 받은 것은 하나도 유실되지 않습니다.',
  },
  'idempotence-survives-failover': {
    title: '멱등성은 리더 페일오버에도 살아남는다: 새 리더가 재시도를 알아본다',
    question:
      'orders에는 복제본이 세 개 있고 min.insync.replicas=2이며 프로듀서는 멱등 프로듀서입니다(acks=all, enable.idempotence=true: Kafka 4.x 기본값). 리더 broker-0이 e1을 추가하고 두 팔로워가 모두 복사했지만, broker-0은 응답하기 전에 죽습니다. 프로듀서는 같은 배치를 새 리더에 재시도합니다. e1이 두 번 기록될까요?',
    expected:
      '아닙니다. e1(producerId 1000, epoch 0, 시퀀스 0)은 모든 복제본의 offset 0에 리더 epoch 0으로 한 번 있습니다. broker-0은 팔로워의 다음 가져오기가 e1을 받았다고 알려 주기 전에 죽으므로 ProduceResponse를 보내지 못합니다. 프로듀서는 NETWORK_EXCEPTION을 받고, broker.session.timeout.ms가 지나 컨트롤러가 broker-0을 펜싱하고 ISR에서 broker-1을 리더 epoch 1로 선출할 때까지 broker-0에 다시 연결하려고 합니다. 시도는 매번 거부되고 재연결 backoff는 1초까지 두 배로 늘며, 재시도로 세지 않고 오류도 보고하지 않습니다. broker-1은 복제한 배치로 producer 1000의 상태를 다시 만들어 두었으므로, 재시도(같은 producerId, epoch, 시퀀스)는 중복입니다. 아무것도 추가되지 않고 원래의 offset 0이 오류 없이 응답됩니다. e2(시퀀스 1)는 리더 epoch 1에서 offset 1에 추가됩니다. broker-0은 돌아와 broker-1을 따르고 e2를 가져옵니다. 모든 복제본에 e1과 e2가 각각 한 번씩 남습니다.',
  },
  'hw-behind-leo-slow-follower': {
    title: '느린 팔로워가 하이 워터마크를 붙잡고, ISR이 그 팔로워를 뺀다',
    question:
      'orders에는 복제본이 세 개 있고 min.insync.replicas=2이며 프로듀서는 acks=all입니다. billing은 read_uncommitted로 읽습니다. e2가 기록되기 직전에 broker-2의 복제 링크가 느려집니다. broker-2가 뒤처진 동안 하이 워터마크는 어디에 있고, billing은 무엇을 보며, e2는 언제 확인 응답을 받을까요? (실행을 짧게 하려고 replica.lag.time.max.ms를 Kafka의 30000에서 2000으로 줄였습니다.)',
    expected:
      'e1은 세 복제본 모두에 들어가자 offset 0으로 확인 응답을 받습니다: HW 1. 4.5초부터 broker-2의 가져오기 요청과 그 응답이 2500 ms씩 더 걸립니다. e2는 broker-0이 offset 1에 추가하고 broker-1은 가져가지만 broker-2는 가져가지 못합니다. 리더의 로그 끝 offset은 2이지만, ISR [broker-0, broker-1, broker-2]에서 가장 낮은 로그 끝 offset인 HW는 1에 머무릅니다. billing(read_uncommitted)은 offset 0 위로는 아무것도 받지 못하고, acks=all Produce는 리더에서 HW가 올라가기를 기다립니다. broker-2가 마지막으로 따라잡은 때는 약 4초입니다. 7초의 ISR 점검(replica.lag.time.max.ms / 2마다, 여기서는 1000 ms)에서 2000 ms 넘게 뒤처졌으므로 리더는 AlterPartition으로 broker-2를 뺍니다. ISR은 [broker-0, broker-1]이고 여전히 min.insync.replicas=2입니다. HW가 2로 올라가고 e2는 offset 1로 확인 응답을 받으며 billing이 e2를 받습니다. 링크가 회복되면 broker-2가 e2를 가져와 따라잡고 ISR에 다시 들어갑니다(두 번째 AlterPartition). e3은 세 복제본 모두에 들어간 뒤 offset 2로 확인 응답을 받습니다. 아무것도 유실되거나 중복되지 않고, billing은 HW 이상을 읽지 않습니다.',
  },
  'acks-0-loss': {
    title: 'acks=0: 보내고 잊으면, 정말로 잊힌다',
    question: 'acks=0, retries=0인 상태에서 Produce 요청이 네트워크에서 유실됩니다. 프로듀서는 이를 알아챌까요?',
    expected:
      '아무것도 기록되지 않았는데도 프로듀서는 성공으로 보고합니다. acks=0이면 브로커가 응답하지 않으므로 요청이 나가는 순간 전송이 끝납니다. 멱등성도 꺼집니다(acks가 all이 아니므로). m-1은 유실됩니다. 확인 응답은 받았지만 로그 어디에도 없습니다.',
  },
  'compaction-is-not-dedup': {
    title: '로그 컴팩션은 최신 값을 남길 뿐, 중복 제거가 아니다',
    question: '컴팩션이 설정된 토픽에서 account-42에 값이 세 번 기록됩니다. 로그 클리너가 실행되기 전과 후에 컨슈머는 각각 무엇을 볼까요?',
    expected:
      '정리 전에 읽는 컨슈머는 account-42의 값 세 개를 모두 받습니다(offset 0, 1, 2). 로그 클리너가 실행된 뒤에 읽는 새 컨슈머는 offset 2만 받습니다. offset은 바뀌지 않으므로 남은 레코드도 여전히 offset 2에 있습니다.',
  },
  'commit-two-partitions': {
    title: '한 트랜잭션, 두 파티션, 두 마커',
    question:
      '한 트랜잭션이 서로 다른 두 브로커의 payments-0과 payments-1에 쓰고, payments-1로 가는 마커가 지연됩니다. 커밋 뒤 각 로그에는 무엇이 남고, read_committed 컨슈머는 각 레코드를 언제 볼까요?',
    expected:
      '각 파티션에는 offset 0에 레코드, offset 1에 COMMIT 마커가 있습니다(HW = LSO = 2). read_committed 컨슈머는 payments-0의 레코드를 그 마커가 기록되자마자 받는데, payments-1의 레코드보다 약 2초 빠릅니다. 트랜잭션은 원자적으로 커밋되지만, 여러 파티션에 걸친 가시성은 모든 마커가 기록된 뒤에야 완성됩니다.',
  },
  'abort-hidden-from-read-committed': {
    title: '취소된 트랜잭션: read_committed에는 숨겨지고 read_uncommitted에는 보인다',
    question: '프로듀서가 트랜잭션을 취소합니다. 레코드는 로그에 남아 있는데, 누가 이 레코드를 볼까요?',
    expected:
      'orders-0에는 offset 0에 evt-9, offset 1에 ABORT 마커가 있습니다. read_uncommitted 컨슈머는 레코드를 받아 처리하고, read_committed 컨슈머는 아무것도 받지 않지만 위치(position)는 2로 넘어갑니다. evt-9는 커밋된 로그에 들어가지 못했으므로 판정은 유실(애플리케이션이 취소한 트랜잭션에만 있음)로 셉니다. read_uncommitted 컨슈머가 커밋되지 않은 레코드를 처리했다는 것도 보여 줍니다.',
  },
  'open-transaction-pins-lso': {
    title: '열린 트랜잭션이 LSO(마지막 안정 offset)를 붙잡아 둔다',
    question:
      '한 트랜잭션이 8초 동안 열려 있는 사이 다른 프로듀서가 그 뒤에 일반 레코드를 씁니다. read_committed 컨슈머는 이 일반 레코드를 언제 볼까요?',
    expected:
      'LSO가 열린 트랜잭션의 첫 offset(0)에 머물러 있으므로, read_committed 컨슈머는 COMMIT 마커가 기록될 때까지 아무것도 받지 못합니다. offset 1과 2의 비트랜잭션 레코드조차 받지 못하다가, 마커가 기록되면 세 개를 모두 받습니다. read_uncommitted 컨슈머는 일반 레코드를 곧바로 봅니다. 대시보드에서 이 기다림은 컨슈머가 아니라 브로커에 나타납니다. broker-0을 선택하면 그동안 LastStableOffsetLag가 3인데, read_committed 컨슈머의 records-lag는 LSO부터 세므로 0입니다.',
  },
  'transaction-timeout': {
    title: 'transaction.timeout.ms: 코디네이터가 멈춘 트랜잭션을 취소한다',
    question:
      '프로듀서가 트랜잭션을 시작해 레코드를 쓴 뒤, transaction.timeout.ms=5000인 채로 12초 동안 멈춥니다. 그 트랜잭션은 어떻게 되고, 다음 send와 커밋은 어떻게 될까요?',
    expected:
      '5초가 지난 뒤 돌아오는 다음 점검(10초마다)에서 코디네이터는 epoch를 올려 펜싱하고(0 → 1) 트랜잭션을 취소합니다. 레코드 뒤에 epoch 1인 ABORT 마커가 붙습니다. 멈췄던 프로듀서의 다음 send(evt-2)는 INVALID_PRODUCER_EPOCH를 받고, 이어서 트랜잭션을 끝내려 하면 PRODUCER_FENCED를 받습니다(프로토콜 v1). read_committed 컨슈머는 이 레코드를 끝내 보지 못합니다. evt-1은 취소된 트랜잭션에만 있어 유실되고, evt-2도 거부되어 로그에 들어가지 못해 유실됩니다.',
  },
  'zombie-fencing': {
    title: '좀비 펜싱: 두 인스턴스, 하나의 transactional.id',
    question:
      '인스턴스 A가 트랜잭션 도중 멈추고, 인스턴스 B가 같은 transactional.id로 시작합니다. A의 트랜잭션은 어떻게 되고, 깨어난 A는 어떻게 될까요?',
    expected:
      'B의 initTransactions가 A를 펜싱합니다. 코디네이터는 epoch를 올리고 A의 열린 트랜잭션을 취소합니다(취소가 끝날 때까지는 CONCURRENT_TRANSACTIONS, 그 뒤 B가 epoch 2를 받습니다). B의 레코드는 커밋됩니다. 깨어난 A가 보낸 evt-2는 INVALID_PRODUCER_EPOCH를 받고, 트랜잭션을 끝내려 하면 PRODUCER_FENCED를 받아 A는 멈춥니다. read_committed 컨슈머는 B의 evt-1만 봅니다. A의 취소된 사본은 이 컨슈머에게 중복이 아닙니다. evt-2는 로그에 끝내 들어가지 못하고, 판정은 이를 유실로 표시합니다. 펜싱된 인스턴스만 보냈기 때문입니다(좀비가 끝내지 못한 일은 대체 인스턴스가 다시 해야 합니다).',
  },
  'same-payload-twice-in-one-transaction': {
    title: '한 트랜잭션 안에서 같은 페이로드를 두 번: 둘 다 커밋된다',
    question: '애플리케이션이 한 트랜잭션 안에서 같은 이벤트를 두 번 보냅니다. 트랜잭션이 이를 알아챌까요?',
    expected:
      'evt-789의 두 레코드가 모두 커밋되고(offset 0과 1, 그 뒤 offset 2에 COMMIT 마커) read_committed 컨슈머는 evt-789를 두 번 받아 두 번 처리합니다. 트랜잭션은 쓰기를 원자적으로 묶을 뿐, 내용은 검사하지 않습니다.',
  },
  'coordinator-failover-mid-commit': {
    title: 'PrepareCommit과 마커 사이에 코디네이터가 장애를 겪는다',
    question:
      '코디네이터가 PrepareCommit을 기록하고 프로듀서에 응답했지만, 마커가 하나도 도착하기 전에 중단됐습니다. 트랜잭션은 사라질까요?',
    expected:
      '아닙니다. 프로듀서의 커밋은 이미 반환됐습니다. 새 코디네이터가 __transaction_state를 다시 읽어 PrepareCommit을 찾고, 마커를 다시 보낸 뒤 CompleteCommit을 기록합니다. read_committed 컨슈머는 장애 조치(failover) 뒤 두 레코드를 모두 봅니다.',
  },
  'hanging-transaction': {
    title: '매달린 트랜잭션이 LSO를 묶어 둔다',
    question:
      '트랜잭션의 Produce 요청이 네트워크에서 지연되어, 그 트랜잭션이 취소된 뒤에야 도착합니다. 이 요청은 read_committed 컨슈머에 어떤 영향을 줄까요?',
    expected:
      '프로토콜 v1에서 transaction.partition.verification.enable=false이면 늦은 배치(evt-1)가 ABORT 마커 뒤에 기록되어, 코디네이터가 전혀 모르는 트랜잭션을 엽니다. LSO가 그 offset에 영영 머물러 read_committed 컨슈머는 멈춰 있습니다. 그 뒤의 일반 레코드 evt-click-1을 끝내 받지 못하고, read_uncommitted 컨슈머는 받습니다. 판정은 LSO를 붙잡은 것(producerId, epoch, 첫 offset, transactional.id)을 보여 줍니다. LSO 위치의 레코드를 고르면 kafka-transactions.sh find-hanging이 거기서 출력하는 내용을 볼 수 있습니다. 코디네이터가 그 트랜잭션에 파티션을 하나도 두지 않았으므로(프로듀서를 고르면 코디네이터의 상태가 보입니다) 매달린 트랜잭션 하나가 나옵니다. 판정은 evt-1을 유실로 셉니다. 전송은 실패했고(delivery.timeout.ms) 끝나지 않는 트랜잭션에만 남았기 때문입니다. 검증을 켜면(기본값) 리더가 먼저 코디네이터에 확인합니다. 클라이언트가 타임아웃된 배치 때문에 취소를 마치면서 epoch를 올렸으므로(프로토콜 v1, KIP-360) 늦은 배치는 거부됩니다(INVALID_PRODUCER_EPOCH). 프로토콜 v2에서는 마커가 올린 epoch가 같은 방식으로 그 배치를 펜싱합니다.',
  },
  'at-most-once-consumer-crash': {
    title: '최대 한 번(at-most-once): 커밋 후 처리 — 중단되면 나머지를 잃는다',
    question:
      '컨슈머가 poll한 배치를 처리하기 전에 그 위치(position)를 커밋하고, 첫 레코드를 처리한 뒤 중단됩니다. 나머지 두 레코드는 어떻게 될까요?',
    expected:
      'evt-2와 evt-3은 끝내 처리되지 않습니다. 커밋된 offset(3)이 이미 두 레코드를 지나 있어, 재시작한 컨슈머는 그 뒤부터 읽습니다. 두 번 처리되는 것은 없지만 이벤트 두 개가 유실됩니다.',
  },
  'at-least-once-consumer-crash': {
    title: '최소 한 번(at-least-once): 처리 후 커밋 — 중단되면 다시 처리한다',
    question: '컨슈머가 poll한 배치를 처리한 뒤 커밋하는데, 두 번째 레코드를 처리하고 커밋하기 전에 중단됩니다. 재시작하면 어떻게 될까요?',
    expected:
      '재시작한 컨슈머는 마지막으로 커밋된 offset부터 다시 읽습니다(커밋된 것이 없으므로 처음부터). 그래서 evt-1과 evt-2는 두 번, evt-3은 한 번 처리됩니다. 잃는 것은 없습니다.',
  },
  'ctp-without-transactions-crash': {
    title: '트랜잭션 없는 소비-변환-발행: 출력이 두 번 기록된다',
    question:
      '애플리케이션이 orders를 읽어 주문마다 결과를 order-results에 쓰고, flush한 뒤 입력 offset을 커밋합니다. 그런데 커밋 직전에 중단됩니다. order-results에는 무엇이 있을까요?',
    expected:
      '모든 결과(evt-1, evt-2, evt-3)가 order-results에 두 번씩 있고, 모두 커밋된 상태라 read_committed 컨슈머를 포함한 모든 컨슈머에게 보입니다. 출력과 입력 offset이 한 트랜잭션에 들어 있지 않았기 때문입니다. enricher와 read_committed인 auditor는 각 결과를 두 번씩 처리합니다.',
  },
  'ctp-exactly-once-crash': {
    title: '정확히 한 번 소비-변환-발행: 처리는 두 번, 커밋은 한 번',
    question:
      '트랜잭션 프로듀서와 sendOffsetsToTransaction을 쓰는 같은 파이프라인이 offset을 보낸 뒤, 커밋하기 전에 중단됩니다. read_committed 컨슈머는 결과마다 사본을 몇 개 볼까요?',
    expected:
      '커밋된 출력에는 결과마다 정확히 한 번씩만 나타납니다. 재시작한 인스턴스(같은 transactional.id)가 열린 트랜잭션을 펜싱하고 취소하며(order-results와 그룹의 __consumer_offsets 파티션에 ABORT 마커가 기록되고, 보류 중이던 offset은 버려집니다), 입력은 다시 처리됩니다. enricher는 evt-1, evt-2, evt-3을 두 번씩 처리합니다. read_committed인 auditor는 결과를 한 번씩 받고, read_uncommitted인 raw-reader는 취소된 사본도 받아 각각 두 번씩 받습니다.',
  },
  'commit-last-instead-of-next': {
    title: '함정: 다음 offset 대신 마지막으로 처리한 offset을 커밋하기',
    question: '컨슈머가 다음 offset(3) 대신 마지막으로 처리한 레코드의 offset(2)을 커밋합니다. 재시작하면 어떻게 될까요?',
    expected:
      '그룹의 커밋된 offset이 2이므로 재시작한 컨슈머는 offset 2를 다시 읽고, evt-3이 두 번 처리됩니다. 커밋하는 offset은 다음에 읽을 offset(마지막으로 처리한 offset + 1)이어야 합니다.',
  },
  'auto-commit-pitfall': {
    title: '자동 커밋은 최소 한 번(at-least-once): 중단되면 최대 5초 분량을 다시 처리한다',
    question:
      'enable.auto.commit=true는 auto.commit.interval.ms(5000)마다 poll()에서 얻은 위치(position)를 커밋합니다. 컨슈머가 마지막 자동 커밋 몇 초 뒤에 중단됩니다. 무엇이 두 번 처리될까요?',
    expected:
      '마지막 자동 커밋 이후 처리한 레코드(evt-13, evt-14, evt-15, evt-16, evt-17)는 모두 재시작 뒤 다시 처리됩니다. 자동 커밋이 주는 것은 최대 auto.commit.interval.ms 분량의 중복이 따르는 최소 한 번(at-least-once)이지, 결코 정확히 한 번(exactly-once)이 아닙니다.',
  },
  'db-sink-duplicate': {
    title: 'DB 싱크: Kafka에는 레코드 하나, DB에는 행 두 개',
    question:
      '컨슈머가 주문마다 DB에 INSERT한 뒤 커밋합니다. INSERT 후 커밋 전에 중단됩니다. evt-1의 행은 몇 개이고, Kafka에는 레코드가 몇 개 있을까요?',
    expected:
      'Kafka 로그에는 이벤트마다 한 번씩만 있지만, DB에는 evt-1의 행이 두 개 있습니다. 크래시 뒤 evt-1과 evt-2가 다시 전달되어 evt-1에 대해 평범한 INSERT가 한 번 더 실행됐기 때문입니다. 커밋 순서를 바꾸는 것만으로는 Kafka와 DB를 하나의 원자적 상태로 만들 수 없습니다.',
  },
  'db-sink-inbox': {
    title: 'inbox 테이블: 다시 전달된 레코드가 고유 제약 조건에 걸린다',
    question:
      '같은 중단이지만, 이번에는 컨슈머가 행을 쓰는 같은 DB 트랜잭션 안에서 고유 제약 조건이 있는 inbox 테이블에 (event_id, consumer)를 기록합니다. 레코드가 다시 전달되면 어떻게 될까요?',
    expected:
      '다시 전달된 evt-1(evt-2도 다시 전달됩니다)은 inbox의 고유 제약 조건을 위반하고, DB 트랜잭션이 롤백되어 행은 하나만 남습니다. evt-1은 두 번 처리되지만 한 번만 반영됩니다. inbox 충돌 카운터에 흡수된 중복이 표시됩니다.',
  },
  'db-sink-offsets-in-db': {
    title: '결과와 offset을 한 DB 트랜잭션에',
    question:
      '컨슈머가 결과와 다음 offset을 한 DB 트랜잭션으로 저장하고, 시작할 때 DB에 저장된 offset으로 seek합니다. 같은 중단이 일어나면 어떻게 될까요?',
    expected:
      '두 번 처리되는 것은 없습니다. DB의 offset이 행과 함께 움직였고, 재시작한 컨슈머는 Kafka에 커밋된 offset이 아니라 그 offset부터 다시 읽습니다(이 컨슈머는 Kafka에 커밋하지 않습니다). 크래시 전에 poll했지만 처리하지 못한 evt-2는 다시 전달되어 한 번 처리됩니다.',
  },
  'api-lost-response': {
    title: '결제 API 호출은 성공했는데 응답이 유실된다',
    question:
      '컨슈머가 주문마다 결제 API를 호출합니다. 결제는 이뤄졌지만 HTTP 응답이 오지 않아 컨슈머가 재시도합니다. evt-1은 몇 번 결제될까요?',
    expected:
      '두 번입니다. API는 첫 호출에서 evt-1을 결제했고, 멱등성 키 없이 보낸 재시도에서 또 결제했습니다. Kafka와 컨슈머의 offset으로는 이를 알 수 없습니다. 결제가 이뤄졌는지는 외부 시스템만 압니다.',
  },
  'api-idempotency-key': {
    title: '같은 응답 유실, 이번에는 멱등성 키와 함께',
    question: '컨슈머가 event_id를 Idempotency-Key로 보냅니다. 이번에는 재시도가 어떻게 될까요?',
    expected:
      'API가 키를 알아보고 원래의 결제 결과를 돌려주므로 evt-1은 한 번만 결제됩니다. 외부 시스템이 안정적인 키로 중복을 걸러 내므로 재시도는 무해합니다.',
  },
  'rebalance-zombie-fenced': {
    title: '리밸런스가 멈춘 exactly-once 컨슈머를 펜싱한다 (KIP-447)',
    question:
      'exactly-once 컨슈머 두 개가 한 그룹에 있습니다. 하나가 트랜잭션 도중 session.timeout.ms보다 오래 멈추자, 그룹이 리밸런스하고 다른 하나가 그 파티션을 가져갑니다. 멈췄던 컨슈머가 깨어나 커밋하려 하면 어떻게 될까요?',
    expected:
      'worker-a가 깨어났을 때 그룹은 이미 그 컨슈머 없이 리밸런스를 마쳤고, worker-b가 커밋된 offset부터 그 파티션을 처리했습니다. worker-a는 레코드 하나(evt-0-1)를 더 처리한 뒤 TxnOffsetCommit이 거부되고(UNKNOWN_MEMBER_ID — 그룹에서 제거됐기 때문입니다. 그룹에 남아 있지만 이전 generation인 멤버라면 ILLEGAL_GENERATION을 받습니다) CommitFailedException이 나므로 트랜잭션을 취소합니다. evt-0-0과 evt-0-1은 각각 두 번 처리됩니다 — 두 워커가 한 번씩 처리하고, worker-a의 처리는 취소하는 트랜잭션 안에 있습니다. 커밋된 출력에는 입력마다 정확히 한 번씩 들어 있습니다.',
  },
  'streams-eos-crash-restore': {
    title: 'Kafka Streams exactly_once_v2: 중단 뒤 상태 저장소가 커밋된 카운트로 복원된다',
    question:
      'Streams 앱이 processing.guarantee=exactly_once_v2로 페이지별 조회 수를 셉니다(상태 저장소 + changelog). 커밋은 1초마다입니다. 4번째 조회의 카운트를 send()한 직후, 트랜잭션이 커밋되기 전에 중단됩니다. 재시작 뒤 카운트는 얼마일까요?',
    expected:
      '열린 트랜잭션은 취소됩니다. 재시작한 인스턴스가 그룹에 다시 들어오기 전에(그룹은 중단된 멤버를 session.timeout.ms 동안 기다리고, 새 인스턴스의 initTransactions()는 태스크를 받은 뒤에야 호출됩니다) transaction.timeout.ms(exactly_once_v2에서 10000)가 지나 트랜잭션 코디네이터가 취소합니다. changelog와 view-counts에 들어간 view-2, view-3의 카운트는 read_committed에서 숨겨지고, view-4의 카운트는 아직 프로듀서 버퍼에 있어서(linger.ms=100) 로그에 닿지 못했습니다. 상태 저장소는 지워진 뒤 changelog를 read_committed로 읽어 커밋된 카운트까지 복원되고, 입력은 커밋된 offset부터 다시 처리되므로 4번째 조회는 한 번만 셉니다: page-a 3, page-b 2. 커밋된 출력에는 조회마다 카운트가 한 번씩 들어 있고, view-2, view-3, view-4의 처리는 두 번 실행됐습니다.',
  },
  'streams-alos-crash-duplicate': {
    title: 'Kafka Streams at_least_once: 같은 중단이 카운트를 부풀린다',
    question: '같은 앱, 같은 중단을 processing.guarantee=at_least_once로 실행합니다. 재시작 뒤 카운트는 얼마일까요?',
    expected:
      '레코드 캐시를 끈 상태(statestore.cache.max.bytes=0, 갱신이 곧바로 쓰입니다. Kafka 기본 캐시라면 첫 커밋까지 붙잡아 둡니다)에서 changelog와 출력 레코드는 트랜잭션 없이 기록됐지만, 입력 offset은 커밋되지 않았습니다(commit.interval.ms는 30초). 복원된 상태 저장소에는 이미 증가분이 반영돼 있는데 입력이 다시 처리되므로, 카운트가 부풀려지고(page-a가 3이 아니라 5) 출력에는 중복 갱신이 남습니다. view-1, view-2, view-3은 두 번 세어지고(view-4도 두 번 처리됩니다) dashboard는 이를 두 번 받습니다.',
  },
  'streams-eos-repartition': {
    title: 'Kafka Streams groupBy: 리파티션 토픽도 트랜잭션 안에 들어간다',
    question:
      'Streams 앱이 페이지별 조회 수를 세지만, 조회 이벤트는 사용자 키로 들어오므로 groupBy가 리파티션 토픽을 거쳐 키를 바꿉니다(processing.guarantee=exactly_once_v2). view-3의 키를 바꿔 쓴 직후, 트랜잭션이 커밋되기 전에 중단됩니다. 두 번 세어지는 조회가 있을까요?',
    expected:
      '중단된 트랜잭션은 취소됩니다. 리파티션 토픽에 쓴 view-2와 view-counts에 이미 쓴 view-1의 카운트는 read_committed에서 숨겨집니다. 재시작 뒤(이전 멤버의 session.timeout.ms가 지난 다음) 조회들은 다시 키가 바뀌고 다시 세어지며, 각각 한 번씩만 셉니다: page-a 3, page-b 2. view-2와 view-3의 처리(키 바꾸기)는 두 번 실행됐습니다. 리파티션 토픽에서 다시 읽은 view-1의 카운트도 두 번 실행됐지만, 판정은 애플리케이션이 입력 토픽으로 한 일을 세고 리파티션 토픽은 Streams 자신의 토픽입니다. 정확히 한 번은 커밋된 결과에 대한 것이지, 처리 실행 횟수에 대한 것이 아닙니다.',
  },
  'upstream-duplicate-event-id': {
    title: '상위 서비스가 같은 이벤트를 두 번 발행하면 Streams EOS도 두 번 센다',
    question:
      '상위 서비스가 주문 evt-42를 두 번 발행합니다(레코드 두 개, 같은 event_id). Streams는 exactly_once_v2로 실행 중입니다. 몇 번 셀까요?',
    expected:
      '두 번입니다. 정확히 한 번 처리(EOS)는 입력 레코드마다 한 번씩 반영하는데, 이것은 evt-42의 레코드 두 개입니다. 두 레코드가 같은 비즈니스 이벤트인지 알아보는 것은 다른 문제이고, 그 답은 EOS가 아니라 event_id와 멱등한 컨슈머가 줍니다.',
  },
  'outbox-cdc': {
    title: '트랜잭션 아웃박스(outbox) + CDC: DB와는 원자적, Kafka로는 최소 한 번',
    question:
      '주문 서비스가 주문과 outbox 행을 한 DB 트랜잭션으로 기록하고, CDC 릴레이가 outbox 행을 order-events로 발행합니다. 릴레이가 발행한 뒤 자기 위치를 기록하기 전에 중단됩니다. Kafka에는 무엇이 도착하고, 배송 서비스는 그것을 어떻게 처리할까요?',
    expected:
      'DB와 Kafka 사이에서 잃는 것은 없습니다. 모든 주문 행에 해당 이벤트가 있습니다. 하지만 재시작한 릴레이가 같은 행을 다시 발행하므로(새 프로듀서 세션이라 브로커는 알아볼 수 없습니다) order-events에는 evt-1과 evt-2가 같은 event_id로 두 번씩 들어 있습니다. 배송 서비스의 inbox는 이벤트마다 행을 하나만 남깁니다.',
  },
  'db-sink-upsert': {
    title: '기본 키 upsert: 최소 한 번 전달, 한 번 반영',
    question:
      '컨슈머가 주문마다 INSERT … ON CONFLICT (event_id) DO UPDATE로 쓰고 그 뒤에 커밋합니다. 쓰기 뒤, 커밋 전에 중단됩니다. 재전달은 테이블에 무엇을 남길까요?',
    expected:
      '중단 뒤 evt-1과 evt-2는 두 번 전달되고 evt-1은 두 번 처리되지만, orders-db에는 이벤트마다 행이 하나뿐입니다. evt-1의 두 번째 쓰기는 기본 키를 찾아 그 행을 제자리에서 갱신합니다. 최소 한 번 + 멱등한 쓰기가 흔히 권하는 기본 조합입니다. inbox 테이블 없이 안정적인 키만 있으면 됩니다.',
  },
  'api-lookup-before-retry': {
    title: '다시 호출하기 전에 결제를 조회한다',
    question:
      '결제 API가 evt-1을 결제했지만 응답이 유실되어, 컨슈머는 결제됐는지 알 수 없습니다. 이번에는 재시도 전에 GET /payments?event_id=evt-1로 묻습니다. evt-1은 몇 번 결제될까요?',
    expected:
      '한 번입니다. 조회가 응답을 잃은 그 결제를 찾으므로 컨슈머는 POST를 다시 보내지 않습니다. 멱등성 키가 없을 때는, 부수 효과를 유일하게 아는 외부 시스템에 물어보는 것이 재시도를 안전하게 만듭니다.',
  },
  'counter-set-vs-incr': {
    title: 'SET은 재전달을 견디고, INCR은 다시 센다',
    question:
      '두 컨슈머가 post-7의 좋아요 수를 키-값 저장소에 기록합니다. incr-counter는 좋아요마다 INCR post-7을, set-counter는 이벤트에 담긴 수로 SET post-7을 실행합니다. 둘 다 like-2를 쓴 뒤 커밋 전에 중단됩니다. 두 저장소에는 무엇이 남을까요?',
    expected:
      '두 컨슈머 모두 like-2를 두 번 받아 두 번 처리합니다(최소 한 번). set-store는 실제 수인 3으로 끝납니다. 두 번째 SET post-7 2는 아무것도 바꾸지 않았습니다. incr-store는 4로 끝납니다. like-2가 두 번 세어졌습니다. 절댓값을 쓰는 쓰기만 멱등합니다.',
  },
  'late-duplicate-after-expiry': {
    title: '처리한 ID를 잊은 뒤에 도착한 늦은 중복',
    question:
      '컨슈머는 처리한 event_id를 기억합니다. inbox 테이블과 결제 API의 멱등성 키(Idempotency-Key)입니다. 하지만 5분(retentionMs 300000) 동안만 기억합니다. 주문 서비스가 1분 뒤 evt-2를, 6분 뒤 evt-1을 다시 발행합니다. 어느 중복이 걸러질까요?',
    expected:
      '두 컨슈머 모두 evt-1과 evt-2를 두 번 받아 두 번 처리합니다. 1분 늦은 evt-2는 걸러집니다. inbox의 고유 제약 조건과 저장된 멱등성 키(Idempotency-Key)가 흡수합니다. 6분 늦은 evt-1은 걸러지지 않습니다. 그 inbox 행과 키는 300000 ms가 지나 삭제됐으므로 원장 행이 하나 더 생기고 다시 결제됩니다. evt-1은 ledger-db와 payment-api에서 두 번 반영됩니다. ID는 중복이 도착할 수 있는 기간 이상 기억해야 합니다.',
  },
  'retry-mints-new-event-id': {
    title: '비즈니스 재시도가 새 event_id를 만들면 inbox가 통과시킨다',
    question:
      '체크아웃 API의 클라이언트가 2초 만에 포기하고 체크아웃 요청을 다시 보냅니다. 핸들러는 order-123의 OrderCreated를 다시 만들고, event_id는 새로 만든 UUID.randomUUID()입니다. 컨슈머에는 (event_id, 컨슈머)에 inbox가 있습니다. 이 재시도를 걸러 낼까요?',
    expected:
      '아닙니다. orders에는 offset 0과 1에 같은 페이로드가 두 ID, evt-789와 036d7bee-289a-47fd-8b97-6fddbda20242로 들어 있습니다. inbox는 처음 보는 ID 두 개로 보고 둘 다 기록하므로 order-123은 두 번 청구됩니다. 판정의 모든 계층은 inbox처럼 event_id로 세므로 각각 한 번으로 보입니다. ID가 바뀐 바로 그 지점에서 중복이 보이지 않게 됩니다. event_id는 비즈니스 재시도에서도 유지해야 합니다(운영 체크리스트는 같은 페이로드가 두 ID로 온 것을 짚어 냅니다).',
  },
  'rekey-by-event-id': {
    title: 'event_id를 키로 쓰면 주문의 이벤트가 흩어지고 순서가 바뀐다',
    question:
      'order-1과 order-2의 같은 이벤트 세 개(seq 0, 1, 2)를 파티션 3개짜리 토픽 두 곳에 보냅니다. orders-by-order는 order_id를, orders-by-event는 (중복을 쉽게 찾으려고) event_id를 키로 씁니다. 각 컨슈머는 한 주문의 이벤트를 어떤 순서로 볼까요?',
    expected:
      'order-reader는 주문마다 순서대로 봅니다. 한 주문의 이벤트가 모두 한 파티션에 있기 때문입니다. event-reader는 그렇지 않습니다. event_id를 키로 쓰면 order-1의 이벤트가 파티션 0과 2에 흩어지고, seq 2(evt-102)가 seq 0과 1보다 먼저 도착합니다. 내레이션이 "순서 뒤바뀜"을 네 번 알립니다. 모든 이벤트는 여전히 한 번씩 전달됩니다. 키는 order_id로 두고 event_id는 헤더에 담으세요.',
  },
  'compaction-erases-events': {
    title: '컴팩션된 이벤트 토픽: 컴팩션이 실제 결제를 지운다',
    question:
      'payment-approved는 컴팩션 토픽이고 고객을 키로 씁니다. customer-42에는 승인된 결제가 세 건, pay-1, pay-2, pay-3 있습니다. 정산 서비스가 로그 클리너가 실행된 뒤에 시작해 가장 이른 offset부터 읽습니다. 어떤 결제를 정산할까요?',
    expected:
      'pay-3(그리고 customer-7의 pay-4)뿐입니다. 로그 클리너가 키마다 최신 레코드만 남겼으므로, 한 상태의 옛 버전이 아니라 실제 결제인 pay-1과 pay-2는 어떤 컨슈머도 받기 전에 유실됩니다. 컴팩션은 상태 토픽(계정 등급)에 맞습니다. 레코드 하나하나가 사실인 이벤트 토픽에는 cleanup.policy=delete가 필요합니다.',
  },
  'business-id-is-not-transactional-id': {
    title: 'transaction_id=payment-123은 transactional.id가 아니다',
    question:
      'payment-123의 모든 레코드에 transaction_id=payment-123 헤더가 있습니다. payments-a는 transactional.id payment-tx로 씁니다. 대체 인스턴스 payments-b가 같은 transactional.id로 시작해 payment-123을 다시 실행하고, refunds는 transactional.id refund-tx로 같은 비즈니스 트랜잭션에 씁니다. 브로커는 무엇을 중복 제거하고, 누구를 펜싱할까요?',
    expected:
      '아무것도 중복 제거하지 않고, payments-a만 펜싱합니다. 브로커는 transaction_id 헤더를 읽지 않으므로 모든 레코드를 추가합니다. payments-b의 InitProducerId가 transactional.id로 payments-a를 펜싱합니다. 열려 있던 트랜잭션(evt-2)은 취소되고 커밋은 PRODUCER_FENCED로 실패합니다. 하지만 payments-a가 이미 커밋한 evt-1을 payments-b가 다시 커밋하므로 ledger는 evt-1을 두 번 받아 두 번 처리합니다. 비즈니스 ID는 같지만 transactional.id가 다른 refunds는 펜싱되지 않습니다. transactional.id는 복구와 펜싱을 위한 프로듀서의 이름이지 비즈니스 ID가 아닙니다.',
  },
  'eos-auto-commit-rebalance': {
    title: '정확히 한 번 애플리케이션에서 enable.auto.commit=true',
    question:
      'settler-b는 5초 동안 열어 두는 트랜잭션(commitIntervalMs 5000)과 sendOffsetsToTransaction으로 결제를 처리하지만, 컨슈머는 enable.auto.commit=true 그대로입니다. 트랜잭션이 열려 있는 동안 settler-a가 그룹에 참여합니다. evt-1 … evt-5는 어떻게 될까요?',
    expected:
      '유실됩니다. 리밸런스는 열린 트랜잭션 안의 poll()에서 settler-b에 닿습니다. ConsumerCoordinator.onJoinPrepare가 먼저 소비한 위치를 자동 커밋하고(evt-1 … evt-5를 지난 offset 5) 그다음 파티션을 내놓습니다. settler-a는 offset 5부터 시작합니다. settler-b의 트랜잭션을 커밋할 때가 되면 그 poll()은 이미 리밸런스를 거쳤습니다. consumer.groupMetadata()는 generation 2를 가리키고 onPartitionsRevoked가 payments-0을 가져갔으므로, settler-b는 트랜잭션을 커밋하지 않고 취소하며 evt-1, evt-2, evt-3, evt-4, evt-5의 출력은 끝내 커밋되지 않습니다. enable.auto.commit=false였다면 그룹 offset은 0에 머물고 settler-a가 이들을 다시 처리했을 것입니다.',
  },
  'offset-reset-replays-output': {
    title: '운영자가 그룹을 되감는다: 정확히 한 번의 출력이 두 번 커밋된다',
    question:
      'settler는 트랜잭션 프로듀서와 sendOffsetsToTransaction으로 payments를 settlements로 바꾸는 정확히 한 번 파이프라인이고, evt-1 … evt-3을 이미 커밋했습니다. 배포 때문에 settler가 멈춰 있는 동안 운영자가 토픽을 다시 재생하려고 그룹 settler에 kafka-consumer-groups --reset-offsets --to-earliest를 실행하고, settler가 다시 시작합니다. read_committed인 ledger는 정산을 각각 몇 번 볼까요?',
    expected:
      '두 번입니다. 도구는 비활성 그룹만 리셋하므로 settler의 세션이 만료되고(45초) 그룹 settler가 Empty가 된 뒤에 실행되며, payments-0의 offset 0을 커밋합니다(generation −1인 OffsetCommit). 다시 참여한 settler는 커밋된 offset 0을 읽어 evt-1, evt-2, evt-3을 다시 처리하고, 각각 새 트랜잭션으로 커밋합니다. settlements에는 모두 커밋된 사본이 두 개씩 있고 ledger는 각각 두 번 받아 두 번 처리합니다. 레코드는 프로듀서가 한 번씩 썼고 트랜잭션도 한 번씩 커밋됐습니다. 정확히 한 번은 그룹의 커밋된 offset을 기준으로 성립하는데, 리셋이 그 offset을 되돌렸습니다. Kafka는 재처리와 새 작업을 구별하지 못합니다. 중복은 event_id만 알려 주므로, 재처리를 두 번 세면 안 되는 컨슈머에는 자체 멱등성(event_id를 키로 한 inbox)이 필요합니다.',
  },
  'streams-task-migration': {
    title: 'Kafka Streams: 태스크가 다른 인스턴스로 옮겨 간다',
    question:
      'page-counter의 두 인스턴스(exactly_once_v2)가 page-views-0의 태스크를 나눠 맡습니다. 태스크를 가진 counter-a가 view-4의 카운트를 send()한 직후, 트랜잭션을 연 채 50초 동안 멈춥니다. 태스크가 넘어오면 counter-b는 무엇을 하고, 깨어난 counter-a에는 무슨 일이 생길까요?',
    expected:
      '코디네이터는 transaction.timeout.ms(10000)가 지나 counter-a의 열린 트랜잭션(view-2와 view-3의 카운트. view-4의 카운트는 아직 프로듀서 버퍼에 있었습니다)을 취소합니다. session.timeout.ms(45000)가 지나면 그룹은 counter-a를 빼고 page-views-0을 counter-b에 줍니다. counter-b는 changelog에서 상태 저장소를 복원하고(커밋된 레코드 1개, page-a=1) 커밋된 offset 1부터 이어 갑니다. view-2, view-3, view-4는 두 번 처리되지만(먼저 코디네이터가 취소한 트랜잭션 안에서 counter-a가, 다음에 counter-b가) 한 번씩 세어지므로 카운트가 맞습니다: page-a 3, page-b 2. 인스턴스마다 transactional.id가 다르므로 counter-b가 counter-a를 펜싱하지는 않습니다. 펜싱은 타임아웃에 따른 취소가 counter-a의 epoch를 올리면서 이뤄졌고, 그룹도 counter-a를 뺐습니다. 깨어난 counter-a의 쓰기는 이전 epoch를 싣고 갑니다. 커밋은 먼저 view-4의 changelog 레코드와 출력 레코드를 flush하는데, 브로커가 이를 INVALID_PRODUCER_EPOCH로 거절하므로 offset은 트랜잭션에 들어가지 못합니다. 곧 TaskMigratedException이므로 counter-a는 태스크를 dirty 상태로 닫고 그룹에 다시 참여합니다.',
  },
  'throughput-at-least-once': {
    title: '처리량, 최소 한 번(at-least-once): 트랜잭션 없이 결과가 곧바로 보인다',
    question:
      'enricher가 orders를 읽어 주문마다 결과 하나를 order-results에 쓰고, flush한 뒤 commitSync를 호출합니다. 트랜잭션은 없습니다. 주문 여덟 건이 50 ms 간격으로 들어오고 장애는 없습니다. 커밋된 레코드 하나에 드는 비용은 얼마이고, read_committed인 auditor가 각 결과를 보기까지 얼마나 걸릴까요?',
    expected:
      '결과마다 한 번씩 나타나고 유실은 없습니다. 트랜잭션이 없으므로 결과는 추가되는 즉시 안정적입니다. auditor는 send() 뒤 약 2 ms 만에 결과를 보고, LSO 뒤에서 0 ms 기다립니다. 커밋된 레코드 하나에 쓰기 경로 요청이 약 2.1개 들고 트랜잭션 요청은 없습니다(AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn, WriteTxnMarkers 없음). 대가는 보장입니다. send와 커밋 사이에 중단되면 결과가 두 번 기록됩니다(ctp-without-transactions-crash와 비교해 보세요).',
  },
  'throughput-exactly-once': {
    title: '처리량, 정확히 한 번(exactly-once): 트랜잭션은 지연을 내주고 오버헤드를 줄인다',
    question:
      '같은 파이프라인을 트랜잭션으로 실행합니다. enricher는 트랜잭션 하나를 commitIntervalMs = 100 ms 동안 열어 두고(Kafka Streams의 commit.interval.ms처럼) offset을 트랜잭션에 보낸 뒤 커밋합니다. 커밋된 레코드 하나에 드는 비용은 얼마이고, read_committed인 auditor가 각 결과를 보기까지 얼마나 걸릴까요?',
    expected:
      '결과마다 한 번씩 나타나고 유실은 없습니다. order-results는 offset 11에서 끝납니다. 결과 여덟 개와 트랜잭션마다 하나씩인 COMMIT 마커 세 개입니다. read_committed 컨슈머는 트랜잭션의 마커가 기록되어야 결과를 봅니다. auditor는 LSO 뒤에서 최대 약 100 ms를 기다립니다(send() 뒤 p50 약 60 ms, 트랜잭션 없이는 2 ms). 커밋된 레코드 하나에 트랜잭션 요청이 약 1.1개, 쓰기 경로 요청이 약 2.4개 듭니다. 간격을 늘리면 트랜잭션이 더 적고 커져 레코드당 요청은 줄고 지연은 늘어납니다. 줄이면 그 반대입니다.',
  },
};
