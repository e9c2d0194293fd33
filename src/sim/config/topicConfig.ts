/** Topic-level configuration the partition log honours. */
import { type ConfigKey, type ConfigProblem, type ConfigValue, parseConfigValue, unknownKey } from './configSpec';

export const TOPIC_CONFIG: readonly ConfigKey[] = [
  {
    name: 'cleanup.policy',
    type: 'enum',
    default: 'delete',
    // LogConfig: define(CLEANUP_POLICY_CONFIG, LIST, "delete", ValidList.in("compact", "delete"), …)
    javaType: 'LIST',
    values: ['compact', 'delete'],
    choices: ['delete', 'compact', 'compact,delete'],
    doc: 'compact keeps the latest value per key (after the cleaner runs).',
    simulation: 'retention (delete) is not simulated',
  },
  {
    name: 'segment.bytes',
    type: 'int',
    default: 1073741824,
    min: 14,
    doc: 'A segment rolls when it would grow past this; the active segment is never cleaned.',
  },
  { name: 'segment.ms', type: 'long', default: 604800000, min: 1, doc: 'A segment older than this rolls on the next append.' },
  { name: 'delete.retention.ms', type: 'long', default: 86400000, min: 0, doc: 'How long a tombstone survives cleaning.' },
  {
    name: 'min.insync.replicas',
    type: 'int',
    default: 1,
    min: 1,
    doc: "acks=all needs at least min(this, replication factor) in-sync replicas; below it the high watermark stops. Defaults to the brokers' min.insync.replicas.",
  },
  {
    name: 'unclean.leader.election.enable',
    type: 'boolean',
    default: false,
    doc: 'With no live in-sync replica, elect an out-of-sync one: the partition comes back, committed records may be lost.',
  },
];

export interface TopicConfig {
  readonly 'cleanup.policy': 'delete' | 'compact' | 'compact,delete';
  readonly 'segment.bytes': number;
  readonly 'segment.ms': number;
  readonly 'delete.retention.ms': number;
  readonly 'min.insync.replicas': number;
  readonly 'unclean.leader.election.enable': boolean;
}

/** `brokerMinIsr`: the brokers' min.insync.replicas, the default of a topic that sets none (LogConfig). */
export function resolveTopicConfig(
  user: Readonly<Record<string, ConfigValue>>,
  brokerMinIsr = 1,
): { config: TopicConfig; errors: ConfigProblem[] } {
  const errors: ConfigProblem[] = [];
  const out: Record<string, ConfigValue> = {};
  for (const spec of TOPIC_CONFIG) {
    const given = Object.hasOwn(user, spec.name);
    const v = given ? (user[spec.name] as ConfigValue) : spec.name === 'min.insync.replicas' ? brokerMinIsr : spec.default;
    const parsed = given ? parseConfigValue(spec, v, 'properties') : ({ ok: true, value: v } as const);
    if (!parsed.ok) errors.push(parsed.problem);
    out[spec.name] = parsed.ok ? parsed.value : spec.default;
  }
  // cleanup.policy is Kafka's LIST: "delete,compact" and "compact, delete" name the same policy
  const policy = String(out['cleanup.policy']).split(',');
  if (policy.length === 1 && policy[0] === '') {
    errors.push({
      key: 'cleanup.policy',
      message:
        'An empty cleanup.policy (neither compact nor delete) is not something this simulator runs: write delete, compact or compact,delete. This is the simulator’s limit, not Kafka’s.',
      ko: '이 시뮬레이터는 빈 cleanup.policy(compact도 delete도 아님)를 실행하지 않습니다. delete, compact, compact,delete 가운데 하나를 쓰세요. 이 제한은 Kafka가 아니라 이 시뮬레이터의 것입니다.',
    });
    out['cleanup.policy'] = 'delete';
  } else out['cleanup.policy'] = policy.includes('compact') ? (policy.includes('delete') ? 'compact,delete' : 'compact') : 'delete';
  for (const key of Object.keys(user)) if (!TOPIC_CONFIG.some((k) => k.name === key)) errors.push(unknownKey(key, 'topic', '토픽'));
  return { config: out as unknown as TopicConfig, errors };
}
