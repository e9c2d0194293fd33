/** Kafka Streams configuration the simulator models (StreamsConfig, Kafka 4.x defaults). */
import { type ConfigKey, type ConfigProblem, type ConfigValue, parseConfigValue, unknownKey } from './configSpec';

export const STREAMS_CONFIG: readonly ConfigKey[] = [
  {
    name: 'application.id',
    type: 'nullable-string',
    default: null,
    doc: 'Names the consumer group, the internal topics and the transactional.id prefix (default: the client id).',
  },
  {
    name: 'processing.guarantee',
    type: 'enum',
    default: 'at_least_once',
    values: ['at_least_once', 'exactly_once_v2'],
    doc: 'at_least_once is the default: exactly_once_v2 must be set to put input offsets, state-store changelog and output in one transaction (brokers 2.5 or newer; exactly_once and exactly_once_beta were removed in 4.0).',
  },
  {
    name: 'commit.interval.ms',
    type: 'long',
    default: null,
    min: 0,
    doc: 'How often the task commits: 100 under exactly_once_v2, 30000 otherwise; 0 commits on every loop of the thread.',
  },
  {
    name: 'statestore.cache.max.bytes',
    type: 'long',
    default: 0,
    min: 0,
    doc: "The record cache: EOS Lab runs Streams without it (0), so every count() update is written to the changelog and the output at once. Kafka's default is 10485760 (10 MB): updates then wait in the cache and are written once per key at each commit. Only 0 is accepted.",
  },
];

/** The record cache is not modelled (docs/reference/kafka-behaviour.md §8): only 0 is accepted, with the reason. */
const CACHE_NOT_MODELLED =
  "EOS Lab does not model the record cache: statestore.cache.max.bytes must be 0 (every update written at once). Kafka's default, 10485760, holds count() updates until each commit and writes one per key.";

export interface StreamsConfig {
  readonly 'application.id': string;
  readonly 'processing.guarantee': 'at_least_once' | 'exactly_once_v2';
  readonly 'commit.interval.ms': number;
  readonly 'statestore.cache.max.bytes': number;
}

/** group.instance.id as a Streams client would pass it to its consumers (StreamsConfig's prefixes). */
const STATIC_MEMBERSHIP_KEYS = ['group.instance.id', 'consumer.group.instance.id', 'main.consumer.group.instance.id'];

/** Static membership (KIP-345) is modelled for plain consumers; a Streams client's main consumer joins as a dynamic member. */
export const STATIC_MEMBERSHIP_NOT_MODELLED =
  'group.instance.id (static membership) is modelled for plain consumers only: the simulator’s Kafka Streams clients join their group as dynamic members';
const STATIC_MEMBERSHIP_NOT_MODELLED_KO =
  '정적 멤버십(group.instance.id)은 일반 컨슈머에만 구현되어 있습니다. 이 시뮬레이터의 Kafka Streams 클라이언트는 동적 멤버로 그룹에 참여합니다.';
const CACHE_NOT_MODELLED_KO =
  '이 시뮬레이터는 레코드 캐시를 구현하지 않으므로 statestore.cache.max.bytes는 0이어야 합니다(모든 갱신을 바로 씀). Kafka의 기본값 10485760은 count() 갱신을 커밋 때까지 모았다가 키마다 하나씩 씁니다.';

export function resolveStreamsConfig(
  clientId: string,
  user: Readonly<Record<string, ConfigValue>>,
): { config: StreamsConfig; errors: ConfigProblem[] } {
  const errors: ConfigProblem[] = [];
  const get = (name: string): ConfigValue => {
    const spec = STREAMS_CONFIG.find((k) => k.name === name) as ConfigKey;
    if (!Object.hasOwn(user, name)) return spec.default;
    const parsed = parseConfigValue(spec, user[name]);
    // StreamsConfig takes any statestore.cache.max.bytes ≥ 0 (atLeast(0)); the simulator runs only 0
    const problem: ConfigProblem | null = !parsed.ok
      ? parsed.problem
      : name === 'statestore.cache.max.bytes' && parsed.value !== 0
        ? { key: name, message: CACHE_NOT_MODELLED, ko: CACHE_NOT_MODELLED_KO }
        : null;
    if (problem) errors.push(problem);
    return problem || !parsed.ok ? spec.default : parsed.value;
  };
  for (const key of Object.keys(user))
    if (STATIC_MEMBERSHIP_KEYS.includes(key))
      errors.push({ key, message: STATIC_MEMBERSHIP_NOT_MODELLED, ko: STATIC_MEMBERSHIP_NOT_MODELLED_KO });
    else if (!STREAMS_CONFIG.some((k) => k.name === key)) errors.push(unknownKey(key, 'Streams', 'Streams'));
  const guarantee = get('processing.guarantee') as StreamsConfig['processing.guarantee'];
  const interval = get('commit.interval.ms') as number | null;
  // any value but 0 is refused (CACHE_NOT_MODELLED) and falls back to the default, 0
  const cache = get('statestore.cache.max.bytes') as number;
  return {
    config: {
      'application.id': (get('application.id') as string | null) ?? clientId,
      'processing.guarantee': guarantee,
      'commit.interval.ms': interval ?? (guarantee === 'exactly_once_v2' ? 100 : 30000),
      'statestore.cache.max.bytes': cache,
    },
    errors,
  };
}
