/**
 * Describes client configuration keys the way Kafka's ConfigDef does: name, type, default, a line of
 * documentation. The scenario validator and the UI's config editor both read these tables.
 */
import { josa } from '../narration/language';

export type ConfigType = 'boolean' | 'int' | 'long' | 'string' | 'enum' | 'nullable-string';

export interface ConfigKey {
  readonly name: string;
  readonly type: ConfigType;
  /** Kafka 4.x default; null for "no default" (e.g. transactional.id). */
  readonly default: string | number | boolean | null;
  /**
   * Kafka's own check, as its ConfigDef defines the key: `values` is `ValidString.in(…)` (or, with
   * javaType LIST, `ValidList.in(…)`) in Kafka's order; `min`/`max` are `Range.atLeast`/`Range.between`.
   * A key that Kafka defines without a validator sets none of them.
   */
  readonly values?: readonly (string | number)[];
  readonly min?: number;
  readonly max?: number;
  /** ConfigDef.NonEmptyString: Kafka refuses "" ("String must be non-empty"). */
  readonly nonEmpty?: boolean;
  /** What the editor offers when it differs from `values` (cleanup.policy: delete, compact, compact,delete). */
  readonly choices?: readonly (string | number)[];
  /** ConfigDef.Type when `type` does not say it: SHORT (a replication factor), LIST (cleanup.policy). */
  readonly javaType?: 'SHORT' | 'LIST';
  /** Not a key of Kafka's ConfigDef (the simulator's own setting, or a feature such as transaction.version): every message is the simulator's. */
  readonly simulatorOnly?: boolean;
  /** The simulator's own bounds, inside Kafka's: what it runs, not what Kafka checks. */
  readonly limit?: { readonly min?: number; readonly max?: number; readonly unit?: string; readonly unitKo?: string };
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
  /** In English: Kafka's own exception text where Kafka checks it, else the simulator's sentence. */
  readonly message: string;
  /** In Korean: a sentence saying what is wrong; with `quote`, Kafka's English text is shown after it. */
  readonly ko?: string;
  /** Kafka's own text (as its log shows it), quoted untranslated after `ko`. */
  readonly quote?: string;
}

/** A ConfigProblem that quotes a Kafka exception: the English is the exception's text, the Korean says what is wrong and quotes it. */
export function kafkaProblem(key: string, text: string, ko: string): ConfigProblem {
  return { key, message: text, ko, quote: text };
}

/**
 * How a scenario's JSON value reaches Kafka — this mapping is the simulator's, Kafka reads Java objects:
 * - 'map': a client's config, as a Java program would pass a Map<String, Object> read with Jackson:
 *   a string is a java.lang.String, true/false a java.lang.Boolean, a whole number a java.lang.Integer
 *   (or java.lang.Long outside 32 bits), any other number a java.lang.Double, a list a
 *   java.util.ArrayList and an object a java.util.LinkedHashMap.
 * - 'properties': a broker's or a topic's setting, which Kafka reads as text (server.properties,
 *   kafka-configs --add-config): a number or true/false is its text, then parsed as Kafka parses text.
 */
export type ConfigSource = 'map' | 'properties';

type JavaType = 'BOOLEAN' | 'INT' | 'LONG' | 'SHORT' | 'STRING' | 'LIST';

function javaTypeOf(spec: ConfigKey): JavaType {
  if (spec.javaType) return spec.javaType;
  switch (spec.type) {
    case 'boolean':
      return 'BOOLEAN';
    case 'int':
      return 'INT';
    case 'long':
      return 'LONG';
    default:
      return 'STRING';
  }
}

const INT_RANGE = [-2147483648, 2147483647] as const;
const SHORT_RANGE = [-32768, 32767] as const;

/** Java's String.trim: strips the characters up to U+0020 at both ends (not other Unicode spaces, as JavaScript's trim does). */
function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

/** Java's Double.toString for a JavaScript number that is not whole (1.5 → "1.5", 1e-7 → "1.0E-7"). */
function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return String(n); // "Infinity", "-Infinity", "NaN", as Java prints them
  const a = Math.abs(n);
  if (a >= 1e-3 && a < 1e7) return String(n);
  const [m = '', e = '0'] = n.toExponential().split('e');
  return `${m.includes('.') ? m : `${m}.0`}E${Number(e)}`;
}

/** The Java class a JSON value becomes under 'map', and how Java's toString prints it. */
function javaObject(value: unknown): { readonly cls: string; readonly text: string } {
  if (value === null) return { cls: 'null', text: 'null' };
  if (typeof value === 'string') return { cls: 'java.lang.String', text: value };
  if (typeof value === 'boolean') return { cls: 'java.lang.Boolean', text: String(value) };
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return { cls: 'java.lang.Double', text: javaDouble(value) };
    if (value >= INT_RANGE[0] && value <= INT_RANGE[1]) return { cls: 'java.lang.Integer', text: String(value) };
    // Jackson reads a whole number past 64 bits as a BigInteger, which neither INT nor LONG takes
    if (value < -(2 ** 63) || value >= 2 ** 63) return { cls: 'java.math.BigInteger', text: BigInt(value).toString() };
    return { cls: 'java.lang.Long', text: BigInt(value).toString() };
  }
  if (Array.isArray(value)) return { cls: 'java.util.ArrayList', text: `[${value.map((v) => javaObject(v).text).join(', ')}]` };
  const entries = Object.entries(value as object).map(([k, v]) => `${k}=${javaObject(v).text}`);
  return { cls: 'java.util.LinkedHashMap', text: `{${entries.join(', ')}}` };
}

/** ConfigException(name, value, message)'s text. */
export function invalidValue(name: string, value: string, message: string): string {
  return `ConfigException: Invalid value ${value} for configuration ${name}: ${message}`;
}

const TYPE_WORDS_KO: Record<JavaType, string> = {
  BOOLEAN: 'true 또는 false',
  INT: '32비트 정수(INT)',
  LONG: '64비트 정수(LONG)',
  SHORT: '16비트 정수(SHORT)',
  STRING: '문자열(STRING)',
  LIST: '쉼표로 구분한 목록(LIST)',
};

/** Java's Integer.parseInt / Long.parseLong / Short.parseShort on trimmed text: a sign and ASCII digits. */
function parseJavaWhole(text: string, range: readonly [number, number] | null): number | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const big = BigInt(text);
  const [lo, hi] = range ?? [-(2n ** 63n), 2n ** 63n - 1n];
  if (big < BigInt(lo) || big > BigInt(hi)) return null;
  return Number(big);
}

export type ParsedConfig = { readonly ok: true; readonly value: ConfigValue } | { readonly ok: false; readonly problem: ConfigProblem };

const SIMULATOR_ONLY_KO = '이 제한은 Kafka가 아니라 이 시뮬레이터의 것입니다.';

/**
 * Reads one value of a key as Kafka's ConfigDef would — `parseType`, then the key's validator — and
 * then against the simulator's own limits. Kafka's failures carry Kafka's exception text exactly
 * (ConfigException's "Invalid value V for configuration K: …"); the simulator's say that they are the
 * simulator's. Returns the value in effect (text such as "5" for an INT key becomes 5, as in Kafka).
 */
export function parseConfigValue(spec: ConfigKey, value: unknown, from: ConfigSource = 'map'): ParsedConfig {
  const name = spec.name;
  const fail = (problem: ConfigProblem): ParsedConfig => ({ ok: false, problem });
  const kafka = (shown: string, message: string, ko: string): ParsedConfig =>
    spec.simulatorOnly
      ? simulator(
          `${name} must be ${simulatorWant(spec)}, not ${jsonish(value)}`,
          `${name}의 값은 다음이어야 합니다: ${simulatorWantKo(spec)}.`,
        )
      : fail(kafkaProblem(name, invalidValue(name, shown, message), ko));
  const simulator = (message: string, ko: string): ParsedConfig => fail({ key: name, message, ko });
  const type = javaTypeOf(spec);
  // a setting of the simulator's own with listed values (transaction.version: 1 or 2, written as a number or its text)
  if (spec.simulatorOnly && spec.values) {
    const found = spec.values.find((x) => x === value || (typeof value === 'string' && String(x) === javaTrim(value)));
    return found !== undefined
      ? { ok: true, value: found }
      : simulator(
          `${name} must be ${simulatorWant(spec)}, not ${jsonish(value)}`,
          `${name}의 값은 다음이어야 합니다: ${simulatorWantKo(spec)}.`,
        );
  }

  // a properties file holds text: a number or a boolean is its text; nothing else can be written there
  let v: unknown = value;
  if (from === 'properties') {
    if (typeof v === 'number' || typeof v === 'boolean') v = String(v);
    else if (v !== null && typeof v !== 'string')
      return simulator(
        `${name} is a broker or topic setting, which Kafka reads as text: write a string, a number or true/false, not ${jsonish(value)}`,
        `${name}의 값은 Kafka가 텍스트로 읽는 브로커·토픽 설정입니다. 문자열, 숫자, true/false 가운데 하나로 쓰세요.`,
      );
  }
  if (v === null) {
    // parseType(null) is null: a key whose default is null takes it; a Range refuses it; others the simulator cannot run
    if (spec.default === null && type === 'STRING') return { ok: true, value: null };
    if (spec.min !== undefined || spec.max !== undefined)
      return kafka('null', 'Value must be non-null', `${name}의 값은 null일 수 없습니다.`);
    return simulator(
      `${name} cannot be null in this simulator: leave the key out to use Kafka's default`,
      `이 시뮬레이터에서 ${name}의 값은 null일 수 없습니다. Kafka의 기본값을 쓰려면 키를 빼세요.`,
    );
  }
  const obj = javaObject(v);
  const text = typeof v === 'string' ? javaTrim(v) : null;
  let parsed: ConfigValue;
  switch (type) {
    case 'BOOLEAN': {
      if (typeof v === 'boolean') parsed = v;
      else if (text !== null && /^(true|false)$/i.test(text)) parsed = text.toLowerCase() === 'true';
      else return kafka(obj.text, 'Expected value to be either true or false', `${name}의 값은 true 또는 false여야 합니다.`);
      break;
    }
    case 'INT':
    case 'SHORT':
    case 'LONG': {
      const range = type === 'INT' ? INT_RANGE : type === 'SHORT' ? SHORT_RANGE : null;
      if (text !== null) {
        const n = parseJavaWhole(text, range);
        if (n === null)
          return kafka(
            obj.text,
            `Not a number of type ${type}`,
            `${name}의 값을 ${TYPE_WORDS_KO[type]} 숫자로 읽을 수 없습니다(받은 값: "${text}").`,
          );
        parsed = n;
      } else {
        // parseType: INT takes an Integer, LONG an Integer or a Long, SHORT only a Short
        const accepted =
          type === 'INT'
            ? obj.cls === 'java.lang.Integer'
            : type === 'LONG'
              ? obj.cls === 'java.lang.Integer' || obj.cls === 'java.lang.Long'
              : false;
        if (!accepted) {
          const what = type === 'INT' ? 'a 32-bit integer' : type === 'LONG' ? 'a 64-bit integer (long)' : 'a 16-bit integer (short)';
          return kafka(
            obj.text,
            `Expected value to be ${what}, but it was a ${obj.cls}`,
            `${name}의 값은 ${TYPE_WORDS_KO[type]}여야 합니다(받은 값의 자바 타입: ${obj.cls}).`,
          );
        }
        parsed = v as number;
      }
      if (Math.abs(parsed) > Number.MAX_SAFE_INTEGER || (typeof v === 'number' && !Number.isSafeInteger(v)))
        return simulator(
          `${name}=${typeof v === 'string' ? text : obj.text} is more than this simulator holds exactly (at most ${Number.MAX_SAFE_INTEGER} either way, JavaScript’s largest exact whole number; Kafka’s LONG goes to 9223372036854775807). This is the simulator’s limit, not Kafka’s.`,
          `이 시뮬레이터는 ${name}에 절댓값 ${Number.MAX_SAFE_INTEGER} 이하의 정수만 정확히 담습니다(자바스크립트 숫자의 한계). ${SIMULATOR_ONLY_KO}`,
        );
      break;
    }
    case 'STRING': {
      if (text === null)
        return kafka(
          obj.text,
          `Expected value to be a string, but it was a ${obj.cls}`,
          `${name}의 값은 문자열이어야 합니다(받은 값의 자바 타입: ${obj.cls}).`,
        );
      parsed = text;
      break;
    }
    case 'LIST': {
      if (text === null) return kafka(obj.text, 'Expected a comma separated list.', `${name}의 값은 쉼표로 구분한 목록이어야 합니다.`);
      const items = text === '' ? [] : text.split(/\s*,\s*/);
      for (const item of items)
        if (!spec.values?.includes(item))
          return kafka(
            item,
            `String must be one of: ${spec.values?.join(', ')}`,
            `${name}의 항목은 ${spec.values?.join(', ')} 가운데 하나여야 합니다.`,
          );
      parsed = items.join(',');
      break;
    }
  }
  // the validator: ValidString.in, Range, NonEmptyString
  if (type === 'STRING' && spec.values && !spec.values.includes(parsed as string))
    return kafka(
      String(parsed),
      `String must be one of: ${spec.values.join(', ')}`,
      `${name}의 값은 ${spec.values.join(', ')} 가운데 하나여야 합니다.`,
    );
  if (type === 'STRING' && spec.nonEmpty && parsed === '')
    return kafka('', 'String must be non-empty', `${name}의 값은 빈 문자열일 수 없습니다.`);
  if (typeof parsed === 'number') {
    if (spec.min !== undefined && parsed < spec.min)
      return kafka(String(parsed), `Value must be at least ${spec.min}`, `${name}의 값이 Kafka가 받는 최솟값 ${spec.min}보다 작습니다.`);
    if (spec.max !== undefined && parsed > spec.max)
      return kafka(String(parsed), `Value must be no more than ${spec.max}`, `${name}의 값이 Kafka가 받는 최댓값 ${spec.max}보다 큽니다.`);
    const limit = spec.limit;
    const unit = limit?.unit ? ` ${limit.unit}` : '';
    const unitKo = limit?.unitKo ?? '';
    if (limit?.min !== undefined && parsed < limit.min)
      return simulator(
        `${name}=${parsed} is less than this simulator runs (at least ${limit.min}${unit}). This is the simulator’s limit, not Kafka’s.`,
        `이 시뮬레이터는 ${name}에 ${limit.min}${unitKo} 이상만 실행합니다. ${SIMULATOR_ONLY_KO}`,
      );
    if (limit?.max !== undefined && parsed > limit.max)
      return simulator(
        `${name}=${parsed} is more than this simulator runs (at most ${limit.max}${unit}). This is the simulator’s limit, not Kafka’s.`,
        `이 시뮬레이터는 ${name}에 ${limit.max}${unitKo} 이하만 실행합니다. ${SIMULATOR_ONLY_KO}`,
      );
  }
  if (type === 'STRING' && !spec.nonEmpty && parsed === '' && spec.type === 'nullable-string')
    return simulator(
      `${name} cannot be an empty string in this simulator: leave the key out (or write null) for none`,
      `이 시뮬레이터에서 ${name}의 값은 빈 문자열일 수 없습니다. 값이 없게 하려면 키를 빼거나 null을 쓰세요.`,
    );
  return { ok: true, value: parsed };
}

function jsonish(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

function simulatorWant(spec: ConfigKey): string {
  if (spec.values) return `one of ${spec.values.map((x) => JSON.stringify(x)).join(', ')}`;
  if (spec.type === 'boolean') return 'true or false';
  if (spec.type === 'int' || spec.type === 'long') return 'a whole number';
  return 'a string';
}

function simulatorWantKo(spec: ConfigKey): string {
  if (spec.values) return `${spec.values.map((x) => JSON.stringify(x)).join(', ')} 가운데 하나`;
  if (spec.type === 'boolean') return 'true 또는 false';
  if (spec.type === 'int' || spec.type === 'long') return '정수';
  return '문자열';
}

/** Checks one value against its key's type, Kafka's validator and the simulator's limits; returns the English sentence or null. */
export function checkConfigValue(spec: ConfigKey, value: unknown, from: ConfigSource = 'map'): string | null {
  const r = parseConfigValue(spec, value, from);
  return r.ok ? null : r.problem.message;
}

/** The simulator's sentence for a key it does not model. */
export function unknownKey(key: string, what: string, whatKo: string): ConfigProblem {
  return {
    key,
    message: `${key} is not a ${what} config the simulator knows`,
    ko: `이 시뮬레이터는 ${whatKo} 설정 ${josa(key, '을/를')} 알지 못합니다.`,
  };
}

export function defaultsOf(keys: readonly ConfigKey[]): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const k of keys) out[k.name] = k.default;
  return out;
}
