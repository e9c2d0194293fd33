/**
 * Describes client configuration keys the way Kafka's ConfigDef does: name, type, default, a line of
 * documentation. The scenario validator and the UI's config editor both read these tables.
 */
export type ConfigType = 'boolean' | 'int' | 'long' | 'string' | 'enum' | 'nullable-string';

export interface ConfigKey {
  readonly name: string;
  readonly type: ConfigType;
  /** Kafka 4.x default; null for "no default" (e.g. transactional.id). */
  readonly default: string | number | boolean | null;
  readonly values?: readonly (string | number)[];
  readonly min?: number;
  readonly max?: number;
  readonly doc: string;
  /** How faithfully the simulator models this key, in a few words, when it simplifies. */
  readonly simulation?: string;
}

export type ConfigValue = string | number | boolean | null;

/** CommonClientConfigs.METADATA_MAX_AGE_CONFIG: the producer's and the consumer's alike. */
export const METADATA_MAX_AGE_MS: ConfigKey = {
  name: 'metadata.max.age.ms',
  type: 'long',
  default: 300000,
  min: 0,
  doc: 'How old the cluster metadata may get before it is refreshed even without a leader change.',
  simulation: 'refreshed only for topics whose metadata carries leader epochs (replicated ones)',
};

/** CommonClientConfigs.RECONNECT_BACKOFF_MS_CONFIG: the producer's and the consumer's alike. */
export const RECONNECT_BACKOFF_MS: ConfigKey = {
  name: 'reconnect.backoff.ms',
  type: 'long',
  default: 50,
  min: 0,
  doc: 'How long a client waits before it tries a broker again after its connection closed or was refused; doubles for each failure in a row, up to reconnect.backoff.max.ms, and starts over once a connection works.',
  simulation: 'no jitter; a connection attempt is the first request sent after the backoff',
};

/** CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG. */
export const RECONNECT_BACKOFF_MAX_MS: ConfigKey = {
  name: 'reconnect.backoff.max.ms',
  type: 'long',
  default: 1000,
  min: 0,
  doc: 'Upper bound on the reconnect backoff. When reconnect.backoff.ms is set and this is not, it takes reconnect.backoff.ms: the backoff stays constant.',
  simulation: 'no jitter',
};

/**
 * CommonClientConfigs.postProcessReconnectBackoffConfigs: reconnect.backoff.ms set without
 * reconnect.backoff.max.ms disables the exponential backoff — the maximum becomes reconnect.backoff.ms
 * ("Disabling exponential reconnect backoff because reconnect.backoff.ms is set, but
 * reconnect.backoff.max.ms is not."). Returns the maximum to use, and whether it was changed.
 */
export function reconnectBackoffMax(
  user: Readonly<Record<string, ConfigValue>>,
  backoffMs: number,
  maxMs: number,
): { readonly max: number; readonly disabled: boolean } {
  const disabled = Object.hasOwn(user, RECONNECT_BACKOFF_MS.name) && !Object.hasOwn(user, RECONNECT_BACKOFF_MAX_MS.name);
  return { max: disabled ? backoffMs : maxMs, disabled };
}

/** Kafka's WARN line for `reconnectBackoffMax`'s change. */
export const RECONNECT_BACKOFF_DISABLED =
  'WARN Disabling exponential reconnect backoff because reconnect.backoff.ms is set, but reconnect.backoff.max.ms is not.';

export interface ConfigProblem {
  /** The config key the problem is about. */
  readonly key: string;
  readonly message: string;
}

/**
 * The range a number of each type can hold when its key sets none: Kafka's INT is a 32-bit Java int;
 * its LONG is 64 bits, but a JavaScript number is exact only up to 2^53 − 1, so that is the bound here.
 */
export const TYPE_RANGE = {
  int: { min: -2147483648, max: 2147483647, why: "Kafka's INT is a 32-bit integer" },
  long: { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, why: 'the largest whole number the simulator holds exactly' },
} as const;

/** Checks one value against its key's type and range; returns a sentence or null. */
export function checkConfigValue(spec: ConfigKey, value: unknown): string | null {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : `${spec.name} must be true or false, not ${JSON.stringify(value)}`;
    case 'int':
    case 'long': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${spec.name} must be a whole number, not ${JSON.stringify(value)}`;
      const range = TYPE_RANGE[spec.type];
      const min = spec.min ?? range.min;
      const max = spec.max ?? range.max;
      if (value < min)
        return `${value} is too small for ${spec.name}; the smallest allowed value is ${min}${spec.min === undefined ? ` (${range.why})` : ''}`;
      if (value > max)
        return `${value} is too large for ${spec.name}; the largest allowed value is ${max}${spec.max === undefined ? ` (${range.why})` : ''}`;
      return null;
    }
    case 'enum':
      return spec.values?.includes(value as string | number)
        ? null
        : `${spec.name} must be one of ${spec.values?.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'string':
      return typeof value === 'string' && value.length > 0 ? null : `${spec.name} must be a non-empty string`;
    case 'nullable-string':
      return value === null || (typeof value === 'string' && value.length > 0) ? null : `${spec.name} must be a non-empty string or null`;
  }
}

export function defaultsOf(keys: readonly ConfigKey[]): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const k of keys) out[k.name] = k.default;
  return out;
}
