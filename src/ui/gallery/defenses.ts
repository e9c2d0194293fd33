/**
 * The gallery's backbone: the seed article's table "문제 상황 → 적합한 방어선" (the problem → the
 * defense that fits), one row per problem, each with the scenarios that show the problem happen and
 * the defense hold. Rows end with the delivery semantics of a consumer, which the article explains
 * around the table. Preset ids are matched against PRESETS at run time: an id that is not shipped
 * yet shows as "coming", never as a broken link.
 */
import type { Language } from '../../store/simStore';

export type Localized = Readonly<Record<Language, string>>;

export interface DefenseScenario {
  readonly id: string;
  /** 'problem': watch it go wrong; 'defense': watch the defense hold; 'limit': where the defense stops. */
  readonly role: 'problem' | 'defense' | 'limit';
}

export interface DefenseRow {
  readonly key: string;
  readonly problem: Localized;
  readonly defense: Localized;
  /** The boundary inside which the defense makes something happen once. */
  readonly boundary: Localized;
  readonly scenarios: readonly DefenseScenario[];
  /** [your-data] problem → defense pairs the row opens as an A/B comparison (the same scenario, one setting apart). */
  readonly pairs?: readonly (readonly [problem: string, defense: string])[];
}

export const DEFENSE_ROWS: readonly DefenseRow[] = [
  {
    key: 'producer-retry',
    problem: {
      en: 'The producer got no acknowledgement and retried the same batch',
      ko: '프로듀서가 확인 응답을 받지 못해 같은 배치를 재시도',
    },
    defense: { en: 'Idempotent producer', ko: '멱등 프로듀서' },
    boundary: {
      en: 'One producer session: producerId + epoch + sequence, per partition',
      ko: '한 프로듀서 세션: 파티션별 producerId + epoch + 시퀀스',
    },
    pairs: [['lost-ack-no-idempotence', 'lost-ack-idempotent']],
    scenarios: [
      { id: 'lost-ack-no-idempotence', role: 'problem' },
      { id: 'lost-ack-idempotent', role: 'defense' },
      { id: 'sequence-gap', role: 'defense' },
      { id: 'acks-0-loss', role: 'limit' },
      { id: 'producer-restart-new-pid', role: 'limit' },
      { id: 'epoch-bump-duplicate', role: 'limit' },
      { id: 'producer-state-expired', role: 'limit' },
      { id: 'producer-close-timeout-zero', role: 'limit' },
      { id: 'delivery-timeout-written', role: 'limit' },
    ],
  },
  {
    key: 'partial-visibility',
    problem: {
      en: 'Writes to several Kafka topics or partitions become visible only in part',
      ko: '여러 Kafka 토픽 또는 파티션 쓰기가 일부만 보임',
    },
    defense: { en: 'Kafka transactions + read_committed', ko: 'Kafka 트랜잭션 + read_committed' },
    boundary: {
      en: 'Kafka writes of one transaction, as seen by read_committed consumers',
      ko: '한 트랜잭션의 Kafka 쓰기, read_committed 컨슈머가 보는 범위',
    },
    scenarios: [
      { id: 'commit-two-partitions', role: 'defense' },
      { id: 'abort-hidden-from-read-committed', role: 'defense' },
      { id: 'open-transaction-pins-lso', role: 'limit' },
      { id: 'transaction-timeout', role: 'defense' },
      { id: 'zombie-fencing', role: 'defense' },
      { id: 'coordinator-failover-mid-commit', role: 'defense' },
      { id: 'hanging-transaction', role: 'limit' },
      { id: 'transactional-id-expired', role: 'limit' },
      { id: 'same-payload-twice-in-one-transaction', role: 'limit' },
    ],
  },
  {
    key: 'read-process-write',
    problem: {
      en: 'The process stopped mid read-process-write and wrote its output again',
      ko: '읽기·처리·쓰기 중 프로세스가 중단되어 출력을 다시 작성',
    },
    defense: {
      en: 'Input offsets and output in the same Kafka transaction',
      ko: 'offset과 출력을 같은 Kafka 트랜잭션에 포함',
    },
    boundary: {
      en: 'Committed Kafka output and the consumer group offsets — not the number of times your code ran',
      ko: '커밋된 Kafka 출력과 컨슈머 그룹 offset — 처리 코드의 실행 횟수가 아님',
    },
    pairs: [
      ['ctp-without-transactions-crash', 'ctp-exactly-once-crash'],
      ['streams-alos-crash-duplicate', 'streams-eos-crash-restore'],
    ],
    scenarios: [
      { id: 'ctp-without-transactions-crash', role: 'problem' },
      { id: 'ctp-exactly-once-crash', role: 'defense' },
      { id: 'commit-last-instead-of-next', role: 'problem' },
      { id: 'rebalance-zombie-fenced', role: 'defense' },
      { id: 'eos-auto-commit-rebalance', role: 'problem' },
      { id: 'offset-reset-replays-output', role: 'problem' },
      { id: 'streams-alos-crash-duplicate', role: 'problem' },
      { id: 'streams-eos-crash-restore', role: 'defense' },
      { id: 'streams-eos-repartition', role: 'defense' },
      { id: 'streams-task-migration', role: 'defense' },
    ],
  },
  {
    key: 'business-duplicate',
    problem: {
      en: 'The application published the same business event twice',
      ko: '애플리케이션이 같은 비즈니스 이벤트를 두 번 발행',
    },
    defense: {
      en: 'A stable event_id and a producer-side publishing contract',
      ko: '안정적인 event_id, 프로듀서 측 발행 계약',
    },
    boundary: {
      en: 'Your application: Kafka sees two sends, however alike their payloads',
      ko: '애플리케이션: 페이로드가 같아도 Kafka에는 두 번의 send()',
    },
    scenarios: [
      { id: 'opening-story', role: 'problem' },
      { id: 'app-resend', role: 'problem' },
      { id: 'retry-mints-new-event-id', role: 'problem' },
      { id: 'upstream-duplicate-event-id', role: 'limit' },
      { id: 'business-id-is-not-transactional-id', role: 'limit' },
      { id: 'outbox-cdc', role: 'defense' },
    ],
  },
  {
    key: 'db-then-commit',
    problem: {
      en: 'The consumer updated the database, then failed to commit its offset',
      ko: '컨슈머가 DB를 반영한 뒤 offset 커밋에 실패',
    },
    defense: {
      en: 'An inbox, or the result and the position stored atomically in the database',
      ko: 'inbox 또는 DB 결과와 처리 위치의 원자적 저장',
    },
    boundary: {
      en: "The database's own transaction, not Kafka's",
      ko: 'Kafka가 아닌 DB 자체의 트랜잭션',
    },
    pairs: [
      ['db-sink-duplicate', 'db-sink-inbox'],
      ['db-sink-duplicate', 'db-sink-offsets-in-db'],
    ],
    scenarios: [
      { id: 'db-sink-duplicate', role: 'problem' },
      { id: 'db-sink-inbox', role: 'defense' },
      { id: 'db-sink-offsets-in-db', role: 'defense' },
    ],
  },
  {
    key: 'api-retry',
    problem: {
      en: 'A payment or notification API succeeded, but its response was lost and it was called again',
      ko: '결제·알림 API가 성공했지만 응답을 받지 못해 재호출',
    },
    defense: {
      en: 'An idempotency key for the external API, and looking up the result',
      ko: '외부 API 멱등성 키와 결과 조회',
    },
    boundary: {
      en: 'The external system: only it knows whether the side effect happened',
      ko: '외부 시스템: 부수 효과가 일어났는지는 그쪽만 안다',
    },
    pairs: [
      ['api-lost-response', 'api-idempotency-key'],
      ['api-lost-response', 'api-lookup-before-retry'],
    ],
    scenarios: [
      { id: 'api-lost-response', role: 'problem' },
      { id: 'api-idempotency-key', role: 'defense' },
      { id: 'api-lookup-before-retry', role: 'defense' },
    ],
  },
  {
    key: 'latest-state',
    problem: {
      en: 'Older states of the same key need not be kept for long',
      ko: '같은 키의 이전 상태를 장기 보관할 필요가 없음',
    },
    defense: { en: 'Log compaction', ko: '로그 컴팩션' },
    boundary: {
      en: 'The latest value per key, eventually — not de-duplication on write',
      ko: '결국 남는 키별 최신 값 — 쓰기 시점의 중복 제거가 아님',
    },
    scenarios: [
      { id: 'compaction-is-not-dedup', role: 'limit' },
      { id: 'compaction-erases-events', role: 'problem' },
    ],
  },
  {
    key: 'dedup-window',
    problem: {
      en: 'A duplicate arrives after the processed event_ids were forgotten',
      ko: '처리한 event_id를 잊은 뒤에 중복이 도착',
    },
    defense: {
      en: 'Remember processed ids (inbox rows, idempotency keys) at least as long as a duplicate can arrive',
      ko: '처리한 ID(inbox 행, 멱등성 키)를 중복이 도착할 수 있는 기간 이상 기억',
    },
    boundary: {
      en: "The retention of the inbox table or of the API's keys, per consumer",
      ko: '컨슈머별 inbox 테이블이나 API 키의 보존 기간',
    },
    scenarios: [{ id: 'late-duplicate-after-expiry', role: 'problem' }],
  },
  {
    key: 'ordering',
    problem: {
      en: "An order's events must be processed in order, and the key was changed to find duplicates",
      ko: '주문 이벤트는 순서대로 처리해야 하는데, 중복을 찾으려고 키를 바꿈',
    },
    defense: {
      en: 'Keep the key = order_id; carry event_id in a header',
      ko: '메시지 키는 order_id로 유지하고 event_id는 헤더에',
    },
    boundary: {
      en: 'One partition: order holds per key, never across partitions',
      ko: '한 파티션: 순서는 키 단위로만 유지되고 파티션을 넘어서는 유지되지 않음',
    },
    scenarios: [{ id: 'rekey-by-event-id', role: 'problem' }],
  },
  {
    key: 'idempotent-write',
    problem: {
      en: 'At least once redelivers a record, and its write runs again',
      ko: '최소 한 번 전달로 레코드가 다시 오고, 그 쓰기가 다시 실행됨',
    },
    defense: {
      en: 'An idempotent write: an upsert by primary key, SET key value instead of INCR key',
      ko: '멱등한 쓰기: 기본 키 기반 upsert, INCR key 대신 SET key value',
    },
    boundary: {
      en: 'The write itself: applied twice, it leaves the same state',
      ko: '쓰기 자체: 두 번 반영해도 같은 상태',
    },
    scenarios: [
      { id: 'db-sink-upsert', role: 'defense' },
      { id: 'counter-set-vs-incr', role: 'defense' },
    ],
  },
  {
    key: 'delivery-semantics',
    problem: {
      en: 'A consumer crashed between processing and committing (where the commit goes decides what happens)',
      ko: '컨슈머가 처리와 커밋 사이에서 중단 (커밋 위치가 결과를 정함)',
    },
    defense: {
      en: 'Choose the semantic on purpose: at most once, at least once + idempotent processing',
      ko: '의도적으로 선택하는 전달 보장: 최대 한 번, 최소 한 번 + 멱등 처리',
    },
    boundary: {
      en: 'The consumer group offset, committed before or after the work',
      ko: '작업 전 또는 후에 커밋하는 컨슈머 그룹 offset',
    },
    pairs: [['at-most-once-consumer-crash', 'at-least-once-consumer-crash']],
    scenarios: [
      { id: 'at-most-once-consumer-crash', role: 'problem' },
      { id: 'at-least-once-consumer-crash', role: 'problem' },
      { id: 'auto-commit-pitfall', role: 'problem' },
    ],
  },
  {
    key: 'replication',
    problem: {
      en: 'A broker died and took acknowledged records with it',
      ko: '브로커가 죽으면서 확인 응답을 받은 레코드를 함께 가져감',
    },
    defense: {
      en: 'Replication: acks=all + min.insync.replicas, clean leader election',
      ko: '복제: acks=all + min.insync.replicas, 깨끗한 리더 선출',
    },
    boundary: {
      en: 'Records below the high watermark, while the ISR holds min.insync.replicas members and elections stay clean',
      ko: '하이 워터마크 아래의 레코드, ISR이 min.insync.replicas 이상이고 선출이 깨끗한 동안',
    },
    pairs: [['acks-1-leader-failover-loss', 'min-insync-blocks-writes']],
    scenarios: [
      { id: 'acks-1-leader-failover-loss', role: 'problem' },
      { id: 'min-insync-blocks-writes', role: 'defense' },
      { id: 'idempotence-survives-failover', role: 'defense' },
      { id: 'hw-behind-leo-slow-follower', role: 'defense' },
      { id: 'unclean-election-loses-committed', role: 'problem' },
      { id: 'rolling-restart-acks-1', role: 'problem' },
      { id: 'transaction-state-under-replicated', role: 'limit' },
    ],
  },
];

/** [your-data] pairs outside the table, opened as A/B from the gallery's other scenarios: what a guarantee costs. */
export const OTHER_PAIRS: readonly (readonly [string, string])[] = [['throughput-at-least-once', 'throughput-exactly-once']];

export const GALLERY_TEXT = {
  en: {
    title: 'Scenarios: the problem → the defense that fits',
    intro:
      'No single feature fixes every row: exactly once always holds inside a boundary. Pick the problem you have; each scenario replays in the simulator.',
    problem: 'Problem',
    defense: 'Defense that fits',
    boundary: 'Once, inside',
    role: { problem: 'watch it go wrong', defense: 'the defense holds', limit: 'where it stops' },
    question: 'Question',
    expected: 'Expected verdict',
    open: 'Open',
    coming: 'coming',
    comingHint: 'This scenario is not in this build yet.',
    others: 'More scenarios',
    index: 'The problems in this gallery',
    scenarioCount: (n: number) => (n === 1 ? '1 scenario' : `${n} scenarios`),
    current: 'open now',
    shortLink: (fragment: string) => `Link to this scenario by its name (${fragment}): it follows the scenario as EOS Lab changes it`,
  },
  ko: {
    title: '시나리오: 문제 상황 → 적합한 방어선',
    intro:
      '한 가지 기능으로 모든 행을 해결할 수는 없습니다. 정확히 한 번은 언제나 어떤 경계 안에서만 성립합니다. 겪고 있는 문제를 고르면 각 시나리오가 시뮬레이터에서 재생됩니다.',
    problem: '문제 상황',
    defense: '적합한 방어선',
    boundary: '한 번이 보장되는 경계',
    role: { problem: '문제가 생기는 모습', defense: '방어선이 지키는 모습', limit: '방어선의 한계' },
    question: '질문',
    expected: '예상 판정',
    open: '열기',
    coming: '준비 중',
    comingHint: '이 빌드에는 아직 없는 시나리오입니다.',
    others: '그 밖의 시나리오',
    index: '이 갤러리의 문제 상황',
    scenarioCount: (n: number) => `시나리오 ${n}개`,
    current: '지금 열림',
    shortLink: (fragment: string) => `이 시나리오를 이름으로 여는 링크(${fragment}): EOS Lab이 시나리오를 바꾸면 그 변경을 따라갑니다`,
  },
} as const;
