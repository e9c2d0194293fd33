/** Topic-level configuration the partition log honours. */
import { type ConfigKey, type ConfigProblem, type ConfigValue, checkConfigValue } from './configSpec';

export const TOPIC_CONFIG: readonly ConfigKey[] = [
  {
    name: 'cleanup.policy',
    type: 'enum',
    default: 'delete',
    values: ['delete', 'compact', 'compact,delete'],
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
    const problem = given ? checkConfigValue(spec, v) : null;
    if (problem) errors.push({ key: spec.name, message: problem });
    out[spec.name] = problem ? spec.default : v;
  }
  for (const key of Object.keys(user))
    if (!TOPIC_CONFIG.some((k) => k.name === key)) errors.push({ key, message: `${key} is not a topic config the simulator knows` });
  return { config: out as unknown as TopicConfig, errors };
}
