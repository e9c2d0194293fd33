/**
 * The first seed article's table of the four layers of "exactly once" (what each layer guarantees,
 * what it does not guarantee by itself) and its closing triad of who knows what — the legend of the
 * verdict panel. `rows` names the verdict rows (LayerFinding['layer']) where a layer shows.
 */
import type { LayerFinding } from '../../sim/views';
import type { Language } from '../../store/simStore';

type Localized = Readonly<Record<Language, string>>;

export interface EosLayer {
  readonly key: 'idempotent-producer' | 'transactions' | 'eos-processing' | 'application-idempotency';
  readonly name: Localized;
  readonly guarantees: Localized;
  readonly notAutomatic: Localized;
  readonly rows: readonly LayerFinding['layer'][];
}

export const EOS_LAYERS: readonly EosLayer[] = [
  {
    key: 'idempotent-producer',
    name: { en: 'Idempotent producer', ko: '멱등 프로듀서' },
    guarantees: {
      en: "A client retry does not write the same batch to the broker's log twice",
      ko: '클라이언트 재시도로 같은 배치가 브로커 로그에 중복 기록되는 것을 방지',
    },
    notAutomatic: {
      en: 'The application sending the same payload again',
      ko: '같은 페이로드를 애플리케이션이 다시 전송하는 상황',
    },
    rows: ['log'],
  },
  {
    key: 'transactions',
    name: { en: 'Kafka transactions', ko: 'Kafka 트랜잭션' },
    guarantees: {
      en: 'Writes to several Kafka partitions commit or abort together',
      ko: '여러 Kafka 파티션 쓰기를 원자적으로 커밋하거나 취소',
    },
    notAutomatic: {
      en: 'An ordinary database transaction or a call to an external API',
      ko: '일반 DB 트랜잭션이나 외부 API 호출',
    },
    rows: ['output', 'delivery'],
  },
  {
    key: 'eos-processing',
    name: { en: 'Exactly-once processing', ko: 'Exactly-once 처리' },
    guarantees: {
      en: 'Kafka input offsets and Kafka output applied in one transaction',
      ko: 'Kafka 입력 offset과 Kafka 출력을 한 트랜잭션으로 반영',
    },
    notAutomatic: {
      en: 'Business side effects outside Kafka',
      ko: 'Kafka 밖의 비즈니스 부수 효과',
    },
    rows: ['processing'],
  },
  {
    key: 'application-idempotency',
    name: { en: 'Application idempotency', ko: '애플리케이션 멱등성' },
    guarantees: {
      en: 'event_id identifies events already processed, so reprocessing is safe',
      ko: 'event_id로 이미 처리한 이벤트를 식별하고 안전하게 재처리',
    },
    notAutomatic: {
      en: 'Storing the processed ids, or making the side effect idempotent — you build those',
      ko: '중복 이력 저장소나 멱등한 부수 효과 구현',
    },
    rows: ['sink'],
  },
];

/** Who knows what, as the article closes: each party can only de-duplicate by what it knows. */
export const EOS_TRIAD: readonly { readonly key: 'broker' | 'application' | 'external'; readonly text: Localized }[] = [
  {
    key: 'broker',
    text: { en: 'The broker knows the producerId and the sequence.', ko: 'Kafka 브로커는 producerId와 시퀀스를 안다.' },
  },
  {
    key: 'application',
    text: {
      en: "The application knows the event's business id (event_id).",
      ko: '애플리케이션은 이벤트의 비즈니스 식별자(event_id)를 안다.',
    },
  },
  {
    key: 'external',
    text: { en: 'The external system knows the result of the side effect.', ko: '외부 시스템은 실제 부수 효과의 결과를 안다.' },
  },
];

export const LEGEND_TEXT = {
  en: {
    summary: 'Legend: the four layers of exactly once',
    layer: 'Layer',
    guarantees: 'What this layer guarantees',
    notAutomatic: 'What it does not guarantee by itself',
    rows: 'Verdict rows',
    triad: 'Who knows what',
  },
  ko: {
    summary: '범례: 정확히 한 번의 네 계층',
    layer: '계층',
    guarantees: '이 계층에서 얻는 보장',
    notAutomatic: '자동으로 보장하지 않는 것',
    rows: '판정 행',
    triad: '누가 무엇을 아는가',
  },
} as const;
