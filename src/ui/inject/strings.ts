/**
 * Words of the failure-injection panel in English and Korean. Kafka's own names (RPCs, config keys,
 * states) stay as they are in both languages.
 */
import type { EditRefusal, EnvelopeStatus, SecondInstanceOutlook } from '../../sim';
import { josa, recordAddress } from '../../sim/views';
import type { Language } from '../../store/simStore';
import { useSim } from '../../store/useSim';

export interface InjectStrings {
  readonly title: string;
  readonly forkNote: string;
  readonly injected: (note: string, step: number) => string;
  /** The same confirmation once the reader has moved away from the step it was made at. */
  readonly injectedAt: (note: string, step: number) => string;
  readonly refused: (reason: string) => string;
  readonly ms: string;

  readonly inFlightHeading: string;
  readonly inFlightNone: string;
  readonly inFlightHint: string;
  readonly envelopeHeading: (id: number, rpc: string) => string;
  readonly envelopeRoute: (from: string, to: string) => string;
  readonly envelopeExplain: string;
  readonly drop: string;
  readonly dropHint: string;
  readonly delay: string;
  readonly delayBy: string;
  readonly delayHint: string;
  readonly duplicate: string;
  readonly duplicateHint: string;
  readonly reset: string;
  readonly resetHint: string;
  readonly notInFlight: Readonly<Record<Exclude<EnvelopeStatus, 'in-flight'>, string>>;

  readonly processHeading: string;
  readonly processPick: string;
  readonly processState: (id: string, state: 'up' | 'down' | 'paused') => string;
  readonly crash: string;
  readonly crashHint: string;
  readonly restartAfter: string;
  readonly restartDelay: string;
  readonly restart: string;
  readonly restartHint: string;
  readonly pause: string;
  readonly pauseFor: string;
  readonly pauseHint: string;
  readonly crashBroker: string;
  readonly crashBrokerHint: string;
  readonly restartBroker: string;
  readonly restartBrokerHint: string;
  readonly controlledShutdown: string;
  readonly controlledShutdownHint: string;
  readonly restartAfterStop: string;
  readonly restartAfterStopDelay: string;
  readonly slowReplication: string;
  readonly slowReplicationHint: (broker: string) => string;
  readonly slowDelay: string;
  readonly slowFor: string;
  readonly slowUntilEnd: string;
  readonly secondInstance: string;
  readonly secondInstanceHint: (txnId: string, outlook: SecondInstanceOutlook | null) => string;

  readonly clockHeading: string;
  readonly clockExplain: string;
  readonly advancePast: (key: string) => string;
  readonly advanceHint: (client: string, ms: number, why: string) => string;
  readonly noClock: string;

  readonly recordHeading: (topic: string, partition: number, offset: number) => string;
  readonly resend: string;
  readonly resendHint: (client: string, eventId: string) => string;
  readonly abortTxn: (startOffset: number) => string;
  readonly abortTxnHint: (producerId: number, epoch: number, startOffset: number) => string;
  readonly sendHeading: string;
  readonly sendHint: string;
  readonly topic: string;
  readonly key: string;
  readonly value: string;
  readonly eventId: string;
  readonly send: string;

  readonly cleanerHeading: string;
  readonly cleanerHint: string;
  readonly runCleaner: (topic: string) => string;
  readonly noCompacted: string;

  readonly resetHeading: string;
  readonly offsetResetHint: string;
  readonly resetGroup: string;
  readonly resetTopic: string;
  readonly resetTo: string;
  readonly resetTargets: { readonly earliest: string; readonly latest: string; readonly offset: string; readonly shift: string };
  readonly resetAmount: string;
  readonly resetRun: string;

  readonly faultsHeading: string;
  readonly faultsNone: string;
  readonly remove: string;

  readonly refusal: Readonly<Partial<Record<EditRefusal, string>>>;
}

const en: InjectStrings = {
  title: 'Inject a failure',
  forkNote:
    'Every injection is written into the scenario at the current step, and the run is computed again from the start: up to this step nothing changes, from here on it forks. A share link reproduces it.',
  injected: (note, step) => `Injected: ${note}. The run forked; you are still at step ${step}.`,
  injectedAt: (note, step) => `Injected at step ${step}: ${note}. The run forked there.`,
  refused: (reason) => `Not applied: ${reason}`,
  ms: 'ms',

  inFlightHeading: 'Envelopes in flight now',
  inFlightNone: 'No envelope is in flight at this step. Step forward until a request or response is on its way.',
  inFlightHint: 'Pick an envelope to drop, delay or duplicate it, or to reset the connection it travels on.',
  envelopeHeading: (id, rpc) => `Envelope #${id}: ${rpc}`,
  envelopeRoute: (from, to) => `from ${from} to ${to}`,
  envelopeExplain: 'The fault is recorded by what the envelope is: the n-th envelope of this RPC between these two processes.',
  drop: 'Drop',
  dropHint:
    'The network loses it and its connection stalls: nothing sent on it afterwards arrives, until the client gives up after its request timeout, closes the connection and retries every request that was on it. For a ProduceResponse this is the lost ack.',
  delay: 'Delay',
  delayBy: 'Delay by',
  delayHint: 'It arrives later, and everything sent after it on the same connection waits behind it: TCP keeps order.',
  duplicate: 'Duplicate',
  duplicateHint:
    'It is handled twice, the copy right after the original. TCP never duplicates: this stands for the same bytes replayed (a proxy, or a client resending on the same connection).',
  reset: 'Reset the connection',
  resetHint:
    'The connection it travels on breaks now (a TCP reset), for both sides at once: it and whatever else is on its way are lost, and every request waiting on the connection fails with NETWORK_EXCEPTION and is retried on a new one.',
  notInFlight: {
    'not-sent-yet': 'This envelope has not been sent yet at this step: step forward until it is in flight.',
    delivered:
      'This envelope was already delivered: only an envelope in flight can be dropped, delayed or duplicated. Step back to when it was on its way.',
    dropped: 'This envelope was already dropped.',
    lost: 'This envelope was lost: its receiver was down, or its connection stalled, was closed or reset.',
    unknown: 'There is no such envelope in this run.',
  },

  processHeading: 'A process',
  processPick: 'Process',
  processState: (id, state) => `${id} is ${state === 'up' ? 'running' : state}.`,
  crash: 'Crash',
  crashHint: 'The process dies: everything in memory is gone; its in-flight requests get no answer.',
  restartAfter: 'then restart it',
  restartDelay: 'after',
  restart: 'Restart',
  restartHint: 'Crash if running, then start again: the application resumes from its last completed unit of work.',
  pause: 'Pause, then resume',
  pauseFor: 'Pause for',
  pauseHint: 'A stop-the-world pause (a long GC): nothing is lost, everything it should have done waits.',
  crashBroker: 'Crash broker',
  crashBrokerHint:
    'The broker dies: the partitions it leads have no leader until the controller fences it (broker.session.timeout.ms) and elects a new leader from the ISR, or until it restarts if it is their only replica; its followers stop fetching.',
  restartBroker: 'Restart broker',
  restartBrokerHint:
    'Crash the broker if it is running, then start it again: it registers with the controller anew, truncates each follower log to the current leader epoch and catches up before it rejoins the ISR.',
  controlledShutdown: 'Controlled shutdown',
  controlledShutdownHint:
    'Stop the broker as an operator or a rolling restart does: it asks the controller (BrokerHeartbeat, wantShutDown) to move its leaderships to other in-sync replicas first, leaves every ISR, then stops cleanly; its clients are told NOT_LEADER_OR_FOLLOWER and move to the new leaders. What only it had (acks=1) is still lost.',
  restartAfterStop: 'restart after it stopped',
  restartAfterStopDelay: 'start again after',
  slowReplication: 'Slow replication link',
  slowReplicationHint: (broker) =>
    `Every replica fetch of ${broker} (a follower) answers late by the delay: it falls behind the leader, the high watermark waits for it, and it leaves the ISR once it lags longer than replica.lag.time.max.ms.`,
  slowDelay: 'Delay each fetch by',
  slowFor: 'for',
  slowUntilEnd: 'until the end of the run',
  secondInstance: 'Start a second instance with the same transactional.id',
  secondInstanceHint: (txnId, outlook) => {
    const copy = `A copy of this application (same config and script, transactional.id=${txnId}) starts now and its initTransactions() bumps the epoch.`;
    if (outlook === 'aborts-open')
      return `${copy} A transaction of ${txnId} is open now: the coordinator aborts it, and the first instance is fenced on its next call (PRODUCER_FENCED, or INVALID_PRODUCER_EPOCH / INVALID_TXN_STATE, depending on the call and the protocol) and stops — the zombie case.`;
    if (outlook === 'fences-next-call')
      return `${copy} No transaction is open now, so nothing is aborted; the first instance still has work to do and is fenced when it next calls with its old epoch. The copy sends the script's events again as new records.`;
    if (outlook === 'duplicates')
      return `${copy} No transaction is open and the first instance has finished: nothing is aborted and nothing is fenced. The copy sends the same events again as new records — a business duplicate that transactional.id does not prevent.`;
    return `${copy} If a transaction of ${txnId} is open, it is aborted and the first instance fenced; if not, the copy sends the same events again as new records.`;
  },

  clockHeading: 'The clock',
  clockExplain:
    'The simulator advances time for one client by pausing it: the rest of the cluster lives on while the client is silent for longer than its timeout.',
  advancePast: (key) => `Advance past ${key}`,
  advanceHint: (client, ms, why) => `Pauses ${client} for ${ms} ms (${why}).`,
  noClock:
    'This process has no client timeout to advance past (transaction.timeout.ms needs a transactional producer, session.timeout.ms a consumer in a group).',

  recordHeading: (topic, partition, offset) => `Record ${recordAddress(topic, partition, offset)}`,
  resend: 'Resend the same event',
  resendHint: (client, eventId) =>
    `${client}'s application calls send() again with event_id=${eventId}: a new send, so a new sequence number — idempotence does not catch it.`,
  abortTxn: (startOffset) => `Abort its transaction as an operator (kafka-transactions.sh abort --start-offset ${startOffset})`,
  abortTxnHint: (producerId, epoch, startOffset) =>
    `For hanging transactions only: the partition's leader writes an ABORT marker for producerId ${producerId} (epoch ${epoch}), whose open transaction starts at offset ${startOffset} — the transaction coordinator is not told, so if it still has this transaction open, its commit later breaks atomicity.`,
  sendHeading: 'Send a new record',
  sendHint: 'The application sends one more record now (inside a transaction of its own if it is transactional).',
  topic: 'Topic',
  key: 'Key',
  value: 'Value',
  eventId: 'event_id header (optional)',
  send: 'Send',

  cleanerHeading: 'The log cleaner',
  cleanerHint: 'Compaction keeps the latest value per key below the active segment and the LSO.',
  runCleaner: (topic) => `Run the log cleaner on ${topic} now`,
  noCompacted: 'No topic of this scenario has cleanup.policy=compact.',

  resetHeading: 'Reset a group’s offsets (an operator)',
  offsetResetHint:
    'kafka-consumer-groups.sh --reset-offsets --execute: the tool resets only an inactive group (Empty) — with a member still in it, it refuses. Crash the group’s consumers and let session.timeout.ms pass first. The consumers start from the new offsets when they join again.',
  resetGroup: 'Group',
  resetTopic: 'Topic',
  resetTo: 'Reset',
  resetTargets: { earliest: '--to-earliest', latest: '--to-latest', offset: '--to-offset', shift: '--shift-by' },
  resetAmount: 'Offset or shift',
  resetRun: 'Run kafka-consumer-groups --reset-offsets now',

  faultsHeading: 'Faults in this scenario',
  faultsNone: 'None yet.',
  remove: 'Remove',

  refusal: {},
};

const ko: InjectStrings = {
  title: '장애 주입',
  forkNote:
    '주입한 장애는 현재 단계 시점에 시나리오에 기록되고, 실행은 처음부터 다시 계산됩니다. 이 단계까지는 그대로이고, 여기서부터 갈라집니다. 공유 링크로 똑같이 재현됩니다.',
  injected: (note, step) => `주입함: ${note}. 실행이 갈라졌고, 지금도 단계 ${step}에 있습니다.`,
  injectedAt: (note, step) => `단계 ${step}에서 주입함: ${note}. 실행이 그 단계에서 갈라졌습니다.`,
  refused: (reason) => `적용하지 못함: ${reason}`,
  ms: 'ms',

  inFlightHeading: '지금 전송 중인 메시지',
  inFlightNone: '이 단계에는 전송 중인 메시지가 없습니다. 요청이나 응답이 오가는 단계까지 앞으로 이동하세요.',
  inFlightHint: '메시지를 골라 버리거나, 늦추거나, 복제하거나, 그 메시지가 지나는 연결을 끊으세요.',
  envelopeHeading: (id, rpc) => `메시지 #${id}: ${rpc}`,
  envelopeRoute: (from, to) => `${from} → ${to}`,
  envelopeExplain: '장애는 메시지의 정체로 기록됩니다: 이 두 프로세스 사이에서 이 RPC의 n번째 메시지.',
  drop: '버리기',
  dropHint:
    '네트워크가 메시지를 잃어버리고 그 연결은 멈춥니다. 이후 그 연결로 보낸 것은 도착하지 않다가, 클라이언트가 요청 타임아웃 뒤 연결을 닫고 그 위에 있던 요청을 모두 다시 보냅니다. ProduceResponse라면 확인 응답이 사라진 것입니다.',
  delay: '늦추기',
  delayBy: '지연 시간',
  delayHint: '늦게 도착하고, 같은 연결에서 뒤에 보낸 것은 모두 그 뒤에서 기다립니다. TCP는 순서를 지킵니다.',
  duplicate: '복제',
  duplicateHint:
    '두 번 처리됩니다. 복사본은 원본 바로 뒤에 도착합니다. TCP는 복제하지 않으므로, 이는 같은 바이트를 다시 보내는 경우(프록시, 또는 같은 연결로 다시 보내는 클라이언트)를 나타냅니다.',
  reset: '연결 끊기',
  resetHint:
    '이 메시지가 지나는 연결이 지금 끊어집니다(TCP reset). 양쪽이 동시에 알게 되고, 이 메시지와 그 연결로 오가던 것은 모두 사라지며, 연결에서 응답을 기다리던 요청은 모두 NETWORK_EXCEPTION으로 실패해 새 연결로 다시 보내집니다.',
  notInFlight: {
    'not-sent-yet': '이 메시지는 이 단계에서 아직 보내지지 않았습니다. 전송 중이 될 때까지 앞으로 이동하세요.',
    delivered: '이 메시지는 이미 전달되었습니다. 전송 중인 메시지만 버리거나 늦추거나 복제할 수 있습니다. 전송 중이던 단계로 돌아가세요.',
    dropped: '이 메시지는 이미 버려졌습니다.',
    lost: '이 메시지는 유실되었습니다: 받는 쪽이 중단되어 있었거나, 연결이 멈췄거나 닫혔거나 끊어졌습니다.',
    unknown: '이 실행에는 그런 메시지가 없습니다.',
  },

  processHeading: '프로세스',
  processPick: '프로세스',
  processState: (id, state) => `${id}: ${state === 'up' ? '실행 중' : state === 'down' ? '중단됨' : '일시 정지'}.`,
  crash: '크래시',
  crashHint: '프로세스가 죽습니다. 메모리의 모든 것이 사라지고, 보낸 요청은 응답을 받지 못합니다.',
  restartAfter: '이후 재시작',
  restartDelay: '재시작까지',
  restart: '재시작',
  restartHint: '실행 중이면 크래시 후 다시 시작합니다. 애플리케이션은 마지막으로 완료한 작업 단위부터 다시 합니다.',
  pause: '일시 정지 후 재개',
  pauseFor: '정지 시간',
  pauseHint: '모든 처리가 멈추는 정지(긴 GC)처럼: 잃는 것은 없고, 해야 할 일이 모두 기다립니다.',
  crashBroker: '브로커 크래시',
  crashBrokerHint:
    '브로커가 죽습니다. 이 브로커가 리더인 파티션은 컨트롤러가 펜싱(broker.session.timeout.ms)하고 ISR에서 새 리더를 뽑을 때까지, 복제본이 하나뿐이면 재시작할 때까지 리더가 없습니다. 이 브로커의 팔로워 복제는 멈춥니다.',
  restartBroker: '브로커 재시작',
  restartBrokerHint:
    '실행 중이면 크래시한 뒤 다시 시작합니다. 컨트롤러에 새로 등록하고, 팔로워 로그를 현재 leaderEpoch에 맞춰 자른(truncate) 뒤 따라잡아야 ISR에 다시 들어갑니다.',
  controlledShutdown: '제어된 종료',
  controlledShutdownHint:
    '운영자의 종료나 롤링 재시작처럼 브로커를 멈춥니다. 먼저 컨트롤러에게(BrokerHeartbeat, wantShutDown) 자신이 리더인 파티션을 다른 동기화된 복제본으로 옮겨 달라고 하고, 모든 ISR에서 빠진 뒤 깨끗하게 멈춥니다. 클라이언트는 NOT_LEADER_OR_FOLLOWER를 받고 새 리더로 옮겨 갑니다. 이 브로커에만 있던 것(acks=1)은 그래도 사라집니다.',
  restartAfterStop: '멈춘 뒤 재시작',
  restartAfterStopDelay: '다시 시작까지',
  slowReplication: '복제 링크 느리게',
  slowReplicationHint: (broker) =>
    `${broker}(팔로워)의 복제 fetch 응답이 지연 시간만큼 늦어집니다. 리더보다 뒤처지고, 하이 워터마크는 이 복제본을 기다리며, replica.lag.time.max.ms보다 오래 뒤처지면 ISR에서 빠집니다.`,
  slowDelay: 'fetch마다 지연',
  slowFor: '기간',
  slowUntilEnd: '실행이 끝날 때까지',
  secondInstance: '같은 transactional.id로 두 번째 인스턴스 시작',
  secondInstanceHint: (txnId, outlook) => {
    const copy = `이 애플리케이션의 복사본(같은 설정과 스크립트, transactional.id=${txnId})이 지금 시작하고, initTransactions()가 epoch를 올립니다.`;
    if (outlook === 'aborts-open')
      return `${copy} 지금 ${txnId}의 트랜잭션이 열려 있으므로 코디네이터가 취소하고, 첫 인스턴스는 다음 호출에서 펜싱되어 멈춥니다(호출과 프로토콜에 따라 PRODUCER_FENCED, INVALID_PRODUCER_EPOCH 또는 INVALID_TXN_STATE) — 좀비 상황.`;
    if (outlook === 'fences-next-call')
      return `${copy} 지금 열린 트랜잭션이 없어 취소되는 것은 없습니다. 첫 인스턴스는 아직 할 일이 남아 있어 이전 epoch로 다음에 호출할 때 펜싱됩니다. 복사본은 스크립트의 이벤트를 새 레코드로 다시 보냅니다.`;
    if (outlook === 'duplicates')
      return `${copy} 열린 트랜잭션이 없고 첫 인스턴스는 이미 끝났습니다. 취소되는 것도 펜싱되는 것도 없습니다. 복사본은 같은 이벤트를 새 레코드로 다시 보냅니다 — transactional.id가 막지 못하는 비즈니스 중복입니다.`;
    return `${copy} ${txnId}의 트랜잭션이 열려 있으면 취소되고 첫 인스턴스가 펜싱됩니다. 열려 있지 않으면 복사본이 같은 이벤트를 새 레코드로 다시 보냅니다.`;
  },

  clockHeading: '시계',
  clockExplain:
    '시뮬레이터는 한 클라이언트를 일시 정지시켜 시간을 흘려보냅니다. 클라이언트가 타임아웃보다 오래 침묵하는 동안 클러스터의 나머지는 계속 움직입니다.',
  advancePast: (key) => `${key} 이후로 시간 넘기기`,
  advanceHint: (client, ms, why) => `${josa(client, '을/를')} ${ms} ms 동안 일시 정지합니다 (${why}).`,
  noClock:
    '이 프로세스에는 넘길 클라이언트 타임아웃이 없습니다 (transaction.timeout.ms는 트랜잭션 프로듀서, session.timeout.ms는 그룹에 속한 컨슈머가 필요합니다).',

  recordHeading: (topic, partition, offset) => `레코드 ${recordAddress(topic, partition, offset)}`,
  resend: '같은 이벤트 다시 보내기',
  resendHint: (client, eventId) =>
    `${client} 애플리케이션이 ${josa(`event_id=${eventId}`, '으로/로')} send()를 다시 호출합니다. 새 send이므로 새 시퀀스 번호 — 멱등성은 이것을 잡지 못합니다.`,
  abortTxn: (startOffset) => `운영자로서 이 트랜잭션 중단하기 (kafka-transactions.sh abort --start-offset ${startOffset})`,
  abortTxnHint: (producerId, epoch, startOffset) =>
    `행잉 트랜잭션에만 쓰세요. 파티션 리더가 offset ${startOffset}에서 시작한 producerId ${producerId}(epoch ${epoch})의 열린 트랜잭션에 ABORT 마커를 기록합니다. 트랜잭션 코디네이터는 이를 모르므로, 코디네이터가 아직 열어 둔 트랜잭션이라면 나중의 커밋이 원자성을 깨뜨립니다.`,
  sendHeading: '새 레코드 보내기',
  sendHint: '애플리케이션이 지금 레코드 하나를 더 보냅니다 (트랜잭션 프로듀서라면 자체 트랜잭션 안에서).',
  topic: '토픽',
  key: '키',
  value: '값',
  eventId: 'event_id 헤더 (선택)',
  send: '보내기',

  cleanerHeading: '로그 클리너',
  cleanerHint: '컴팩션은 활성 세그먼트와 LSO 아래에서 키마다 마지막 값만 남깁니다.',
  runCleaner: (topic) => `지금 ${topic}에 로그 클리너 실행`,
  noCompacted: '이 시나리오에는 cleanup.policy=compact인 토픽이 없습니다.',

  resetHeading: '그룹 offset 리셋 (운영자)',
  offsetResetHint:
    'kafka-consumer-groups.sh --reset-offsets --execute: 도구는 비활성(Empty) 그룹만 리셋하며, 멤버가 남아 있으면 거부합니다. 먼저 그룹의 컨슈머를 중단시키고 session.timeout.ms가 지나게 하세요. 컨슈머는 다시 참여할 때 새 offset부터 읽습니다.',
  resetGroup: '그룹',
  resetTopic: '토픽',
  resetTo: '리셋',
  resetTargets: { earliest: '--to-earliest', latest: '--to-latest', offset: '--to-offset', shift: '--shift-by' },
  resetAmount: 'offset 또는 이동량',
  resetRun: '지금 kafka-consumer-groups --reset-offsets 실행',

  faultsHeading: '이 시나리오의 장애',
  faultsNone: '아직 없습니다.',
  remove: '제거',

  refusal: {
    'process-down': '프로세스가 중단된 상태입니다.',
    'process-paused': '프로세스가 이미 일시 정지되어 있습니다.',
    'not-a-producer': '스크립트가 있는 프로듀서 애플리케이션만 두 번 시작할 수 있습니다.',
    'not-transactional': 'transactional.id가 없습니다: 두 번째 인스턴스는 자기 producerId를 받을 뿐입니다.',
    'app-stopped': '애플리케이션이 멈췄습니다 (펜싱됨).',
    'no-event-id': '이 레코드에는 event_id 헤더가 없어 다시 보낼 이벤트가 없습니다.',
    'not-scripted': '이 레코드를 쓴 클라이언트는 스크립트가 있는 프로듀서 애플리케이션이 아닙니다.',
    'control-record': '이 offset은 트랜잭션 마커이지 이벤트가 아닙니다.',
    'not-compacted': 'cleanup.policy=delete인 토픽입니다: 로그 클리너는 compact 토픽만 정리합니다.',
    'bad-number': '1 이상 86400000 이하의 정수(ms)를 입력하세요.',
  },
};

export const INJECT_STRINGS: Readonly<Record<Language, InjectStrings>> = { en, ko };

export function useInjectStrings(): InjectStrings {
  return INJECT_STRINGS[useSim((s) => s.language)];
}

/** The refusal in the reader's language (the engine's English sentence where the page has no words of its own). */
export function refusalText(t: InjectStrings, code: EditRefusal, reason: string): string {
  const local = t.refusal[code];
  // the page's own words when it has them; the engine's English sentence only when it has none
  return t.refused(local ?? reason);
}

/**
 * An edit's note without the "(injected at step N)" it ends with in the scenario (Korean "(단계 N에서
 * 주입)"): the confirmation names the step itself, and said twice it read "Injected at step 13: drop …
 * (injected at step 13)".
 */
export function withoutInjectedStep(note: string): string {
  return note.replace(/ \((?:injected at step \d+|단계 \d+에서 주입)\)$/, '');
}
