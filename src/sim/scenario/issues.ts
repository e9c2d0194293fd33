/**
 * valibot's issues, said as sentences a person can act on, in English and Korean: where (the JSON
 * path), what was expected there (read from the schema, so a missing or unknown field names what the
 * scenario format allows) and what was found. valibot's own wording ("Invalid value: Expected
 * <=4294967295 but received 9007199254740992") never reaches the page.
 */
import type * as v from 'valibot';
import { ID_PATTERN, LIMITS, SCENARIO_ID_PATTERN, TOPIC_NAME_PATTERN } from './schema';

export interface Words {
  readonly en: string;
  readonly ko: string;
}

/** The parts of a valibot schema this module reads. */
interface Schema {
  readonly type: string;
  readonly entries?: Readonly<Record<string, Schema>>;
  readonly options?: readonly unknown[];
  readonly key?: unknown;
  readonly item?: Schema;
  readonly value?: Schema;
  readonly wrapped?: Schema;
  readonly literal?: unknown;
  readonly pipe?: readonly { readonly type: string; readonly requirement?: unknown }[];
}

type Key = string | number;

const own = (o: unknown, k: Key): unknown =>
  typeof o === 'object' && o !== null && Object.hasOwn(o, k) ? (o as Record<Key, unknown>)[k] : undefined;

function unwrap(s: Schema): { schema: Schema; nullable: boolean } {
  let schema = s;
  let nullable = false;
  while (schema.wrapped && (schema.type === 'optional' || schema.type === 'nullable' || schema.type === 'nullish')) {
    if (schema.type !== 'optional') nullable = true;
    schema = schema.wrapped;
  }
  return { schema, nullable };
}

/** The option of a variant that the input's discriminator picks, if any. */
function pick(s: Schema, input: unknown): Schema | null {
  if (s.type !== 'variant' || typeof s.key !== 'string') return s;
  const tag = own(input, s.key);
  for (const o of (s.options ?? []) as Schema[]) {
    const u = unwrap(o).schema;
    const found = u.type === 'variant' ? pick(u, input) : u;
    const d = found?.entries?.[s.key];
    if (d && unwrap(d).schema.literal === tag) return found;
  }
  return null;
}

/** The schema and the input at a path below `root`, as far as the schema can be followed. */
export function schemaAt(root: unknown, input: unknown, path: readonly Key[]): { schema: Schema; input: unknown } | null {
  let schema = root as Schema;
  let value = input;
  for (const key of path) {
    const s = pick(unwrap(schema).schema, value);
    if (!s) return null;
    let next: Schema | undefined;
    if ((s.type === 'strict_object' || s.type === 'object') && typeof key === 'string') next = s.entries?.[key];
    else if (s.type === 'array') next = s.item;
    else if (s.type === 'record') next = s.value;
    if (!next) return null;
    schema = next;
    value = own(value, key);
  }
  return { schema, input: value };
}

/** The field names an object at `path` may have (for an unknown field), or null when unknown. */
export function allowedFields(root: unknown, input: unknown, path: readonly Key[]): string[] | null {
  const at = schemaAt(root, input, path);
  if (!at) return null;
  const s = pick(unwrap(at.schema).schema, at.input);
  return s && (s.type === 'strict_object' || s.type === 'object') && s.entries ? Object.keys(s.entries) : null;
}

const list = (items: readonly string[], or: string) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${or} ${items[items.length - 1]}`;

/** A schema in words: what a value there must be. */
export function describeSchema(s: Schema): Words {
  const { schema, nullable } = unwrap(s);
  const base = describeBase(schema);
  return nullable ? { en: `${base.en} or null`, ko: `${base.ko} 또는 null` } : base;
}

function requirementOf(s: Schema, type: string): unknown {
  return s.pipe?.find((p) => p.type === type)?.requirement;
}

function describeBase(s: Schema): Words {
  switch (s.type) {
    case 'string': {
      const max = requirementOf(s, 'max_length');
      return typeof max === 'number'
        ? { en: `text (at most ${max} characters)`, ko: `텍스트(최대 ${max}자)` }
        : { en: 'text', ko: '텍스트' };
    }
    case 'number': {
      const whole = s.pipe?.some((p) => p.type === 'integer');
      const min = requirementOf(s, 'min_value');
      const max = requirementOf(s, 'max_value');
      const what = whole ? { en: 'a whole number', ko: '정수' } : { en: 'a number', ko: '숫자' };
      if (typeof min === 'number' && typeof max === 'number')
        return { en: `${what.en} from ${min} to ${max}`, ko: `${min}부터 ${max}까지의 ${what.ko}` };
      if (typeof min === 'number') return { en: `${what.en} of at least ${min}`, ko: `${min} 이상의 ${what.ko}` };
      return what;
    }
    case 'boolean':
      return { en: 'true or false', ko: 'true 또는 false' };
    case 'null':
      return { en: 'null', ko: 'null' };
    case 'literal':
      return { en: JSON.stringify(s.literal), ko: JSON.stringify(s.literal) };
    case 'picklist': {
      const names = (s.options ?? []).map((o) => JSON.stringify(o));
      return { en: `one of ${list(names, 'or')}`, ko: `${list(names, '또는')} 중 하나` };
    }
    case 'array':
      return { en: 'a list [ … ]', ko: '목록 [ … ]' };
    case 'union': {
      // "true/false" reads better than "true or false" inside a list of alternatives
      const parts = (s.options ?? []).map((o) =>
        unwrap(o as Schema).schema.type === 'boolean' ? { en: 'true/false', ko: 'true/false' } : describeSchema(o as Schema),
      );
      return {
        en: list(
          parts.map((p) => p.en),
          'or',
        ),
        ko: list(
          parts.map((p) => p.ko),
          '또는',
        ),
      };
    }
    default:
      return { en: 'an object { … }', ko: '객체 { … }' };
  }
}

/** A value as it appears in a message: short, quoted when it is text. */
export function describeValue(value: unknown): Words {
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return { en: JSON.stringify(shown), ko: JSON.stringify(shown) };
  }
  if (value === undefined) return { en: 'nothing', ko: '없음' };
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return { en: String(value), ko: String(value) };
  if (Array.isArray(value)) return { en: 'a list', ko: '목록' };
  if (typeof value === 'object') return { en: 'an object', ko: '객체' };
  return { en: typeof value, ko: typeof value };
}

/** Custom pattern messages of the schema, by the pattern they describe. */
const PATTERNS: readonly [RegExp, Words][] = [
  [
    ID_PATTERN,
    {
      en: 'must be 1–32 characters: lower-case letters, digits and dashes, starting with a letter',
      ko: '1~32자의 영문 소문자, 숫자, 대시(-)여야 하고 영문자로 시작해야 합니다',
    },
  ],
  [
    SCENARIO_ID_PATTERN,
    {
      en: 'must be 1–64 characters: lower-case letters, digits and dashes, starting with a letter',
      ko: '1~64자의 영문 소문자, 숫자, 대시(-)여야 하고 영문자로 시작해야 합니다',
    },
  ],
  [
    TOPIC_NAME_PATTERN,
    { en: 'must use letters, digits, ".", "_" and "-" (1–100 characters)', ko: '영문자, 숫자, ".", "_", "-"만 쓸 수 있습니다(1~100자)' },
  ],
];

function unit(n: unknown): Words {
  return n === LIMITS.maxTimeMs ? { en: `${n} ms (a day)`, ko: `${n} ms(하루)` } : { en: String(n), ko: String(n) };
}

/** What valibot reported as expected ('("a" | "b")', 'string', 'Object') in words. */
function expectedWords(expected: string | null): Words {
  const parts = (expected ?? '')
    .replace(/^\((.*)\)$/, '$1')
    .split(' | ')
    .filter((p) => p.length > 0);
  const one = (p: string): Words => {
    if (p === 'string') return { en: 'text', ko: '텍스트' };
    if (p === 'number') return { en: 'a number', ko: '숫자' };
    if (p === 'boolean') return { en: 'true or false', ko: 'true 또는 false' };
    if (p === 'Array') return { en: 'a list [ … ]', ko: '목록 [ … ]' };
    if (p === 'Object') return { en: 'an object { … }', ko: '객체 { … }' };
    return { en: p, ko: p };
  };
  const words = parts.map(one);
  return {
    en: list(
      words.map((w) => w.en),
      'or',
    ),
    ko: list(
      words.map((w) => w.ko),
      '또는',
    ),
  };
}

/**
 * One issue in words. `root` and `input` are the schema and the whole input, to name the fields an
 * object allows and what a missing field must hold.
 */
export function describeIssue(issue: v.BaseIssue<unknown>, root: unknown, input: unknown): Words {
  const path = (issue.path ?? []).map((p) => p.key as Key);
  const got = describeValue(issue.input);
  if (issue.kind === 'schema' && issue.message.startsWith('Invalid key:')) {
    const name = String(path[path.length - 1] ?? issue.input);
    if (issue.expected === 'never') {
      const allowed = allowedFields(root, input, path.slice(0, -1));
      const names = allowed?.join(', ');
      return names
        ? {
            en: `unknown field ${JSON.stringify(name)}: the fields allowed here are ${names} (see docs/scenario-format.md)`,
            ko: `알 수 없는 필드 ${JSON.stringify(name)}: 여기에 쓸 수 있는 필드는 ${names}입니다(docs/scenario-format.md 참고)`,
          }
        : {
            en: `unknown field ${JSON.stringify(name)}: check its spelling against docs/scenario-format.md`,
            ko: `알 수 없는 필드 ${JSON.stringify(name)}: docs/scenario-format.md에서 철자를 확인하세요`,
          };
    }
    const at = schemaAt(root, input, path);
    const what = at ? describeSchema(at.schema) : null;
    return {
      en: `missing: ${JSON.stringify(name)} is required${what ? ` (${what.en})` : ''}`,
      ko: `없음: ${JSON.stringify(name)} 필드가 필요합니다${what ? `(${what.ko})` : ''}`,
    };
  }
  switch (issue.type) {
    case 'max_value': {
      const max = unit(issue.requirement);
      return {
        en: `${got.en} is too large; the largest allowed value is ${max.en}`,
        ko: `${got.ko}: 너무 큽니다. 허용되는 가장 큰 값은 ${max.ko}입니다`,
      };
    }
    case 'min_value':
      return {
        en: `${got.en} is too small; the smallest allowed value is ${String(issue.requirement)}`,
        ko: `${got.ko}: 너무 작습니다. 허용되는 가장 작은 값은 ${String(issue.requirement)}입니다`,
      };
    case 'integer':
      return {
        en: `${got.en} is not a whole number; a whole number is expected here`,
        ko: `${got.ko}: 정수가 아닙니다. 여기에는 정수가 와야 합니다`,
      };
    case 'max_length':
    case 'min_length': {
      const n = Number(issue.requirement);
      const size = typeof issue.input === 'string' || Array.isArray(issue.input) ? issue.input.length : Number(issue.received);
      if (typeof issue.input === 'string')
        return issue.type === 'max_length'
          ? { en: `must be at most ${n} characters, not ${size}`, ko: `최대 ${n}자까지 쓸 수 있습니다(지금 ${size}자)` }
          : { en: `must be at least ${n} characters, not ${size}`, ko: `최소 ${n}자여야 합니다(지금 ${size}자)` };
      return issue.type === 'max_length'
        ? { en: `at most ${n} entries are allowed, not ${size}`, ko: `항목은 최대 ${n}개까지 허용됩니다(지금 ${size}개)` }
        : {
            en: `must list at least ${n} ${n === 1 ? 'entry' : 'entries'}, not ${size}`,
            ko: `항목이 최소 ${n}개 있어야 합니다(지금 ${size}개)`,
          };
    }
    case 'regex': {
      const words = PATTERNS.find(([p]) => p === issue.requirement)?.[1] ?? {
        en: `must match ${String(issue.requirement)}`,
        ko: `${String(issue.requirement)} 형식이어야 합니다`,
      };
      return { en: `${words.en}, not ${got.en}`, ko: `${words.ko}(받은 값: ${got.ko})` };
    }
    case 'literal': {
      const want = expectedWords(issue.expected);
      if (issue.input === undefined) return { en: `missing: must be ${want.en}`, ko: `없음: ${want.ko} 값이 필요합니다` };
      return { en: `must be ${want.en}, not ${got.en}`, ko: `값은 ${want.ko}만 허용됩니다(받은 값: ${got.ko})` };
    }
    case 'picklist':
    case 'variant': {
      const want = expectedWords(issue.expected);
      if (issue.input === undefined) return { en: `missing: must be one of ${want.en}`, ko: `없음: ${want.ko} 중 하나가 필요합니다` };
      if (issue.type === 'variant' && issue.expected === 'Object')
        return { en: `expected an object { … }, not ${got.en}`, ko: `와야 할 것: 객체 { … } (받은 값: ${got.ko})` };
      return { en: `must be one of ${want.en}, not ${got.en}`, ko: `다음 중 하나여야 합니다: ${want.ko} (받은 값: ${got.ko})` };
    }
  }
  // a value of the wrong type (string, number, boolean, list, object, a union of them)
  const at = schemaAt(root, input, path);
  const want = at ? describeSchema(at.schema) : expectedWords(issue.expected);
  if (issue.input === undefined) return { en: `missing: expected ${want.en}`, ko: `없음: 필요한 것은 ${want.ko}입니다` };
  return { en: `expected ${want.en}, not ${got.en}`, ko: `와야 할 것: ${want.ko} (받은 값: ${got.ko})` };
}
