/**
 * A state or an event of the trace, as a person reads it. The trace writes the model's statechart
 * paths (`live.READY`, `running.membership.STABLE|running.fetching.ASSIGNED.FETCH_IN_FLIGHT`) and the
 * model's own event names (`lingerExpired`); the page shows:
 *
 * - Kafka's own name where Kafka has one, without the model's compound prefix: the producer's
 *   TransactionManager.State (`live.READY` → READY, FATAL_ERROR), the consumer's MemberState
 *   (`running.membership.STABLE` → STABLE). Upper-case names are Kafka's (or written as Kafka's).
 * - plain words, in English and Korean, where the path or the event is the model's own
 *   (`running.fetching.ASSIGNED.FETCH_IN_FLIGHT` → "fetch in flight", `lingerExpired` → "linger.ms elapsed").
 *
 * The exact path stays with it (a tooltip in the actors panel, a second line in the details); the
 * statechart panel, which is about the chart, shows the paths themselves (stateText.ts). Nothing
 * here changes what the trace records.
 */
import type { Language } from '../store/simStore';

type Words = readonly [en: string, ko: string];

/** States that mean the same for every kind of actor (and a process's own: up, down, paused). */
const COMMON: Readonly<Record<string, Words>> = {
  down: ['down', '중단됨'],
  up: ['up', '실행 중'],
  paused: ['paused', '일시 정지됨'],
};

/** The model's own states, per kind of actor, by path. */
const MODEL_STATES: Readonly<Record<string, Readonly<Record<string, Words>>>> = {
  broker: { online: ['online', '온라인'] },
  controller: { active: ['active', '활성'] },
  'txn-coordinator': {
    serving: ['serving', '요청 처리 중'],
    active: ['serving', '요청 처리 중'],
    loading: ['loading __transaction_state', '__transaction_state 읽는 중'],
  },
  'group-coordinator': { serving: ['serving', '요청 처리 중'], active: ['serving', '요청 처리 중'] },
  database: {},
  'http-api': {},
  'producer-app': {
    idle: ['not started', '시작 전'],
    running: ['sending its events', '이벤트 보내는 중'],
    done: ['done: every event sent', '완료: 이벤트를 모두 보냄'],
    stopped: ['stopped by a fatal error', '치명적 오류로 멈춤'],
  },
  producer: {
    created: ['not started', '시작 전'],
    restarting: ['restarting', '다시 시작하는 중'],
  },
  'consumer-app': {
    idle: ['not started', '시작 전'],
    'running.initializing': ['initializing (initTransactions)', '초기화 중(initTransactions)'],
    'running.polling': ['polling', 'poll 중'],
    'running.processing': ['processing records', '레코드 처리 중'],
    'running.committing': ['committing', '커밋 중'],
    'running.aborting': ['aborting the transaction', '트랜잭션 중단 중'],
    stopped: ['stopped by a fatal error', '치명적 오류로 멈춤'],
  },
  consumer: {
    created: ['not started', '시작 전'],
    closing: ['closing', '닫는 중'],
    closed: ['closed', '닫힘'],
    'running.fetching.STOPPED': ['no partitions to fetch', '가져올 파티션 없음'],
    'running.fetching.ASSIGNED.INITIALIZING': ['finding start positions', '시작 위치 찾는 중'],
    'running.fetching.ASSIGNED.FETCH_IN_FLIGHT': ['fetch in flight', 'fetch 요청 중'],
    'running.fetching.ASSIGNED.AWAITING_METADATA': ['waiting for metadata', '메타데이터 기다리는 중'],
    'running.fetching.ASSIGNED.IDLE': ['no fetch in flight', 'fetch 대기 중'],
  },
  'streams-thread': {
    idle: ['not started', '시작 전'],
    starting: ['starting', '시작 중'],
    'restoring.initializingTask': ['initializing the task', '태스크 초기화 중'],
    'restoring.initializingTransactions': ['initializing transactions (initTransactions)', '트랜잭션 초기화 중(initTransactions)'],
    'restoring.readingEndOffsets': ['restoring: reading end offsets', '복원: 끝 offset 읽는 중'],
    'restoring.seekingToBeginning': ['restoring: seeking to the beginning', '복원: 처음으로 이동 중'],
    'restoring.readingChangelog': ['restoring: reading the changelog', '복원: changelog 읽는 중'],
    'running.polling': ['polling', 'poll 중'],
    'running.pollingInTransaction': ['polling, a transaction open', 'poll 중, 트랜잭션 열림'],
    'running.processing': ['processing records', '레코드 처리 중'],
    'running.committing': ['committing', '커밋 중'],
    'running.committed': ['committed', '커밋 완료'],
    'running.committingWhilePolling': ['committing while polling', 'poll 중에 커밋하는 중'],
    'running.committingBeforeBatch': ['committing before the next batch', '다음 배치 전에 커밋하는 중'],
    'running.committingBeforeNewTask': ['committing before a new task', '새 태스크 전에 커밋하는 중'],
    recovering: ['task corrupted: back to the committed offsets', '태스크 손상: 커밋된 offset으로 되돌리는 중'],
    'migrating.aborting': ['task moving: aborting', '태스크 이동: 중단하는 중'],
    'migrating.closingProducer': ['task moving: closing the producer', '태스크 이동: 프로듀서 닫는 중'],
    'migrating.resubscribing': ['task moving: subscribing again', '태스크 이동: 다시 구독하는 중'],
    'shuttingDown.closingTasks': ['shutting down: closing the task', '종료 중: 태스크 닫는 중'],
    'shuttingDown.aborting': ['shutting down: aborting', '종료 중: 트랜잭션 취소하는 중'],
    'shuttingDown.closingProducer': ['shutting down: closing the producer', '종료 중: 프로듀서 닫는 중'],
    'shuttingDown.closingConsumer': ['shutting down: closing the main consumer', '종료 중: 메인 컨슈머 닫는 중'],
    'shuttingDown.closingRestoreConsumer': ['shutting down: closing the restore consumer', '종료 중: 복원 컨슈머 닫는 중'],
    stopped: ['stopped', '멈춤'],
  },
  'outbox-relay': { idle: ['waiting', '대기 중'], relaying: ['relaying', '전달 중'] },
};

/** The model's own timer events, by name: what came due, in words (the config key that set it, where one did). */
const TIMER_EVENTS: Readonly<Record<string, Words>> = {
  abortTimeout: ['abort timed out', '중단 시간 초과'],
  accumulatorExpiry: ['batch expiry check (delivery.timeout.ms)', '배치 만료 점검(delivery.timeout.ms)'],
  autoCommitDue: ['auto-commit due (auto.commit.interval.ms)', '자동 커밋 시각(auto.commit.interval.ms)'],
  closeNow: ['close now', '지금 닫기'],
  closeTimeout: ['close(Duration) timed out: forced close', 'close(Duration) 제한 시간 초과: 강제로 닫기'],
  controlledShutdownTimeout: ['controlled shutdown not granted in time: stop anyway', '제어된 종료 허락을 기다리다 시간 초과: 그대로 멈춤'],
  commitDue: ['commit due (commit.interval.ms)', '커밋 시각(commit.interval.ms)'],
  commitDeadline: [
    'commit deadline (default.api.timeout.ms, or the close timeout)',
    '커밋 기한(default.api.timeout.ms 또는 close 제한 시간)',
  ],
  commitRetry: ['commit retry', '커밋 재시도'],
  completeRetry: ['completion retry', '완료 재시도'],
  continue: ['next step of the loop', '루프의 다음 단계'],
  coordinatorLookupRetry: ['coordinator lookup retry', '코디네이터 찾기 재시도'],
  dbTimeout: ['database call timed out', '데이터베이스 호출 시간 초과'],
  deliveryTimeout: ['delivery.timeout.ms expired', 'delivery.timeout.ms 만료'],
  fetchRetry: ['fetch retry', 'fetch 재시도'],
  fetchWaitExpired: ['fetch.max.wait.ms elapsed', 'fetch.max.wait.ms 경과'],
  heartbeatDue: ['heartbeat due (heartbeat.interval.ms)', '하트비트 시각(heartbeat.interval.ms)'],
  heartbeatSessionExpired: [
    "the member's session deadline (session.timeout.ms without a heartbeat answer)",
    '멤버의 세션 기한(하트비트 응답 없이 session.timeout.ms)',
  ],
  heartbeatThreadLookup: [
    'heartbeat thread looks for the coordinator (retry.backoff.ms)',
    '하트비트 스레드의 코디네이터 찾기(retry.backoff.ms)',
  ],
  httpTimeout: ['HTTP call timed out', 'HTTP 호출 시간 초과'],
  isrExpiration: ['ISR check (replica.lag.time.max.ms)', 'ISR 점검(replica.lag.time.max.ms)'],
  producerExpirationCheck: ['producer expiration check (producer.id.expiration.ms)', '프로듀서 만료 검사(producer.id.expiration.ms)'],
  joinPhaseCheck: ['join phase check', '조인 단계 점검'],
  lingerExpired: ['linger.ms elapsed', 'linger.ms 경과'],
  loaded: ['__transaction_state loaded', '__transaction_state 읽기 완료'],
  markerRetry: ['marker retry', '마커 재시도'],
  maybeBalancePartitionLeaders: [
    'leader imbalance check (leader.imbalance.check.interval.seconds)',
    '리더 불균형 점검(leader.imbalance.check.interval.seconds)',
  ],
  markersTimeout: ['markers timed out', '마커 시간 초과'],
  maxBlockExpired: ['blocking call deadline (max.block.ms)', '차단 호출 기한(max.block.ms)'],
  metadataUpdateDue: ['metadata refresh due', '메타데이터 갱신 시각'],
  offsetsLoaded: ['__consumer_offsets loaded', '__consumer_offsets 읽기 완료'],
  offsetsRetry: ['offsets retry', 'offset 재시도'],
  partitionLoaded: ['partition loaded', '파티션 읽기 완료'],
  pollOutbox: ['outbox poll due', 'outbox poll 시각'],
  pollPass: ['poll() loop pass (retry.backoff.ms, a reset awaited)', 'poll() 루프 한 바퀴(retry.backoff.ms, 리셋 대기 중)'],
  pollTimeoutExpired: ['poll timeout (max.poll.interval.ms)', 'poll 타임아웃(max.poll.interval.ms)'],
  produceTimeout: ['Produce wait timed out', 'Produce 대기 시간 초과'],
  reconnect: ['reconnect', '다시 연결'],
  reconnectBackoffExpired: ['reconnect.backoff.ms elapsed', 'reconnect.backoff.ms 경과'],
  recordPosition: ['record the read position', '읽은 위치 기록'],
  rejoinBackoff: ['rejoin backoff elapsed', '재참여 backoff 경과'],
  replicaFetchBackoff: ['replica fetch backoff elapsed', '복제 fetch backoff 경과'],
  replicaFetchExpired: ['replica fetch wait elapsed', '복제 fetch 대기 경과'],
  retryBackoffExpired: ['retry.backoff.ms elapsed', 'retry.backoff.ms 경과'],
  runNext: ['next line of the script', '스크립트의 다음 줄'],
  sessionExpired: [
    'session expired (a member: session.timeout.ms; a broker: broker.session.timeout.ms)',
    '세션 만료(멤버: session.timeout.ms, 브로커: broker.session.timeout.ms)',
  ],
  syncExpired: ['SyncGroup wait expired', 'SyncGroup 대기 만료'],
  txnCommitDue: ['transaction commit due', '트랜잭션 커밋 시각'],
  txnRetryBackoffExpired: ['transaction retry backoff elapsed', '트랜잭션 재시도 backoff 경과'],
  txnTimeoutCheck: ['transaction timeout check (transaction.timeout.ms)', '트랜잭션 타임아웃 점검(transaction.timeout.ms)'],
  txnIdExpirationCheck: [
    'transactional.id expiration run (transactional.id.expiration.ms)',
    'transactional.id 만료 검사(transactional.id.expiration.ms)',
  ],
  validationRetry: ['position validation retry (OffsetsForLeaderEpoch)', '위치 검증 재시도(OffsetsForLeaderEpoch)'],
  verificationRetry: [
    'verification asked again (add.partitions.to.txn.retry.backoff.ms)',
    '확인 재요청(add.partitions.to.txn.retry.backoff.ms)',
  ],
};

/** The model's own local calls (Kafka's client API calls — send, poll, commitTransaction … — keep their names). */
const CALL_EVENTS: Readonly<Record<string, Words>> = {
  reply: ['reply to the application', '애플리케이션에 응답'],
  partitionsAssignedDone: ['partition assignment handled', '파티션 할당 처리 완료'],
  partitionsRevokedDone: ['partition revocation handled', '파티션 회수 처리 완료'],
  onRebalanceStart: ['rebalance started (TaskManager.handleRebalanceStart)', '리밸런스 시작(TaskManager.handleRebalanceStart)'],
  appendTxnState: ['append to __transaction_state', '__transaction_state에 쓰기'],
  txnStateAppended: ['__transaction_state append done', '__transaction_state 쓰기 완료'],
  becomeCoordinator: ['become coordinator', '코디네이터가 됨'],
  partitionLeader: ['partition leader changed', '파티션 리더 바뀜'],
  verifyTxnOffsetCommit: ['verify a TxnOffsetCommit (AddPartitionsToTxnManager)', 'TxnOffsetCommit 검증(AddPartitionsToTxnManager)'],
  txnOffsetCommitVerified: ['TxnOffsetCommit verification answered', 'TxnOffsetCommit 검증 응답'],
  resubscribe: ['subscribe again', '다시 구독'],
  sendFailed: ["a send failed (the record's Callback)", '전송 실패(레코드의 Callback)'],
};

const say = (w: Words, language: Language) => (language === 'ko' ? w[1] : w[0]);
const KAFKA_NAME = /^[A-Z][A-Z0-9_]*$/;

/** One path (one region's, for a parallel state) in words or Kafka's name; the path itself when neither is known. */
export function statePathWords(kind: string, path: string, language: Language): string {
  const w = MODEL_STATES[kind]?.[path] ?? COMMON[path];
  if (w) return say(w, language);
  // Kafka's name (TransactionManager.State, MemberState), without the model's prefix
  const last = path.slice(path.lastIndexOf('.') + 1);
  if (KAFKA_NAME.test(last)) return last;
  return path;
}

/** A state as the trace writes it → what the page shows: each region's words or name, joined by " · ". */
export function shownState(kind: string, state: string, language: Language): string {
  return state
    .split('|')
    .map((p) => statePathWords(kind, p, language))
    .join(' · ');
}

/** Before and after, told by the regions that changed when both are in the same parallel state. */
export function shownTransition(kind: string, before: string, after: string, language: Language): { before: string; after: string } {
  const b = before.split('|');
  const a = after.split('|');
  if (b.length > 1 && b.length === a.length) {
    const changed = b.flatMap((p, i) => (p === a[i] ? [] : [i]));
    if (changed.length > 0 && changed.length < b.length) {
      const pick = (parts: readonly string[]) => changed.map((i) => statePathWords(kind, parts[i] ?? '', language)).join(' · ');
      return { before: pick(b), after: pick(a) };
    }
  }
  return { before: shownState(kind, before, language), after: shownState(kind, after, language) };
}

/** A step's event (its label) in words, or null when the label is a name to show as it is (an RPC, a Kafka API call). */
export function eventWords(stepKind: string, label: string, language: Language): string | null {
  const w = stepKind === 'timer' ? TIMER_EVENTS[label] : stepKind === 'call' ? CALL_EVENTS[label] : undefined;
  return w ? say(w, language) : null;
}

/** Every model state path and timer event this module names (tests check each machine's are here). */
export const NAMED = { states: MODEL_STATES, common: COMMON, timers: TIMER_EVENTS, calls: CALL_EVENTS } as const;
