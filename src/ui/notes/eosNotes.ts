/**
 * What the seed articles say that a run cannot show, said in a short notes panel: the versions
 * exactly once needs, that Kafka has no XA/2PC with a database (and what replaces it), compensation,
 * what EOS costs, and what a single-broker cluster must lower. Facts from Kafka's own docs and
 * source (see docs/reference/kafka-behaviour.md); Kafka's names stay in Latin script in Korean too.
 */
import type { Language } from '../../store/simStore';

type Localized = Readonly<Record<Language, string>>;

export type EosNoteId = 'versions' | 'no-xa' | 'compensation' | 'cost' | 'single-broker';

export interface EosNote {
  readonly id: EosNoteId;
  readonly title: Localized;
  readonly text: Localized;
}

export const EOS_NOTES: readonly EosNote[] = [
  {
    id: 'versions',
    title: { en: 'Which versions', ko: '필요한 버전' },
    text: {
      en: 'The idempotent producer and transactions arrived in Kafka 0.11 (KIP-98). exactly_once_v2 (KIP-447, first called exactly_once_beta in 2.6) needs brokers 2.5 or newer. enable.idempotence=true is the producer default since 3.0. Kafka 4.0 removed processing.guarantee=exactly_once and exactly_once_beta (only exactly_once_v2 remains) and defaults to transaction protocol v2 (KIP-890).',
      ko: '멱등 프로듀서와 트랜잭션은 Kafka 0.11(KIP-98)에서 들어왔습니다. exactly_once_v2(KIP-447, 2.6에서는 exactly_once_beta라는 이름)는 2.5 이상의 브로커가 필요합니다. enable.idempotence=true는 3.0부터 프로듀서 기본값입니다. Kafka 4.0은 processing.guarantee=exactly_once와 exactly_once_beta를 없앴고(exactly_once_v2만 남음), 트랜잭션 프로토콜 v2(KIP-890)를 기본으로 씁니다.',
    },
  },
  {
    id: 'no-xa',
    title: { en: 'No XA / two-phase commit with a database', ko: 'DB와의 XA/2단계 커밋은 없다' },
    text: {
      en: "A Kafka transaction covers Kafka writes and consumer offsets only: Kafka does not take part in XA or any two-phase commit with your database. What replaces it: the outbox (the database transaction writes the event too; CDC publishes it), the inbox (a unique event_id per consumer in the database's own transaction), or the offsets stored with the result in the sink.",
      ko: 'Kafka 트랜잭션이 묶는 것은 Kafka 쓰기와 컨슈머 offset뿐입니다. Kafka는 DB와 XA나 2단계 커밋(2PC)을 하지 않습니다. 그 자리를 대신하는 것: Outbox(DB 트랜잭션이 이벤트도 함께 쓰고 CDC가 발행), Inbox(DB 자체 트랜잭션 안에서 컨슈머별 고유 event_id), 또는 결과와 함께 sink에 저장하는 offset.',
    },
  },
  {
    id: 'compensation',
    title: { en: 'When a side effect cannot be undone', ko: '되돌릴 수 없는 부수 효과' },
    text: {
      en: 'An email sent or a payment charged cannot be rolled back by aborting a Kafka transaction. Decide in advance how to look the result up, when to retry, and which compensating action (a refund, a correction) undoes it in business terms.',
      ko: '보낸 이메일이나 승인된 결제는 Kafka 트랜잭션을 취소해도 되돌려지지 않습니다. 결과를 어떻게 조회할지, 언제 재시도할지, 업무 차원에서 무엇으로 보상할지(환불, 정정)를 미리 정하세요.',
    },
  },
  {
    id: 'cost',
    title: { en: 'What exactly once costs', ko: 'EOS의 비용' },
    text: {
      en: 'The cost is not a constant (one article quotes about 20%): every transaction adds AddPartitionsToTxn/AddOffsetsToTxn work, an EndTxn and one marker per partition, and read_committed readers wait for the LSO. Fewer, larger transactions — a longer commit.interval.ms in Kafka Streams (100 ms under exactly_once_v2), more records per transaction — cost less per record but hold the LSO longer and redo more after an abort.',
      ko: '비용은 상수가 아닙니다(한 글은 약 20%라고 합니다). 트랜잭션마다 AddPartitionsToTxn/AddOffsetsToTxn 작업, EndTxn 한 번, 파티션마다 마커 하나가 더해지고, read_committed 컨슈머는 LSO까지 기다립니다. 트랜잭션을 적고 크게 하면(Kafka Streams의 commit.interval.ms를 늘리면 — exactly_once_v2에서 기본 100 ms — 또는 트랜잭션당 레코드를 늘리면) 레코드당 비용은 줄지만 LSO가 더 오래 묶이고 취소 뒤 다시 할 일이 늘어납니다.',
    },
  },
  {
    id: 'single-broker',
    title: { en: 'A single-broker cluster', ko: '브로커 하나짜리 클러스터' },
    text: {
      en: 'Brokers default to transaction.state.log.replication.factor=3 and transaction.state.log.min.isr=2 (offsets.topic.replication.factor=3 too). On one broker __transaction_state cannot be created, FindCoordinator answers COORDINATOR_NOT_AVAILABLE and initTransactions() times out: lower them to 1 for a development cluster. This model keeps one replica of each internal topic unless a scenario sets transaction.state.log.replication.factor or offsets.topic.replication.factor (then each coordinator lives on the leader of its partition), so its one-broker default works without the change; in production use at least 3 brokers.',
      ko: '브로커 기본값은 transaction.state.log.replication.factor=3, transaction.state.log.min.isr=2입니다(offsets.topic.replication.factor=3도 마찬가지). 브로커가 하나면 __transaction_state를 만들 수 없어 FindCoordinator가 COORDINATOR_NOT_AVAILABLE로 답하고 initTransactions()가 시간 초과됩니다. 개발용 클러스터에서는 1로 낮추세요. 이 모델은 시나리오가 transaction.state.log.replication.factor나 offsets.topic.replication.factor를 정하지 않으면 내부 토픽마다 복제본 하나만 두므로(정하면 코디네이터는 그 파티션의 리더에 있습니다), 브로커 하나인 기본 설정이 바꾸지 않아도 동작합니다. 운영에서는 최소 3개 브로커를 쓰세요.',
    },
  },
];

/** The presets the cost note opens side by side: the same work, at-least-once and exactly-once. */
export const COST_PAIR = ['throughput-at-least-once', 'throughput-exactly-once'] as const;

export const NOTES_TEXT = {
  en: {
    summary: 'Notes: what a run cannot show',
    runCost: "The whole run's cost",
    comparePair: 'Compare at-least-once with exactly-once (A/B)',
  },
  ko: {
    summary: '노트: 실행으로 보여 줄 수 없는 것',
    runCost: '실행 전체의 비용 보기',
    comparePair: 'at-least-once와 exactly-once 나란히 비교(A/B)',
  },
} as const;
