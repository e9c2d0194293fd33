/**
 * Hostile inputs for the scenario validator (and, once it lands, the link decoder): random bytes,
 * truncated JSON, wrong versions, huge numbers, deep nesting, oversized payloads, a wrong type at
 * every path of a valid scenario, other allowed values at every enum path, and prototype-pollution
 * keys. Each family is a fast-check arbitrary or a plain list, so the test and `npm run fuzz` can
 * draw as many as they like.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Path = readonly (string | number)[];

/** Every path to a value (objects' keys and arrays' indices), the root excluded. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value))
    value.forEach((v, i) => {
      out.push([...prefix, i], ...pathsOf(v, [...prefix, i]));
    });
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...pathsOf(v, [...prefix, k]));
  return out;
}

/** A deep copy with the value at `path` replaced. */
export function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i] as string] as Record<string | number, unknown>;
  node[path[path.length - 1] as string] = value;
  return copy;
}

/** Values of every JSON type and a few JavaScript-only ones, to put where something else belongs. */
export const WRONG_VALUES: readonly unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  'x',
  '<img src=x onerror=alert(1)>',
  'é'.repeat(300),
  true,
  false,
  [],
  [1, 'a', null],
  {},
  { op: 'send' },
];

/** Each path of a valid scenario with each wrong value. */
export function wrongTypeMutations(valid: unknown): unknown[] {
  const out: unknown[] = [];
  for (const path of pathsOf(valid)) for (const w of WRONG_VALUES) out.push(setAt(valid, path, w));
  return out;
}

/** Allowed-looking values for the discriminating fields: each client, sink and fault kind and op in turn. */
const ENUM_SWAPS: Readonly<Record<string, readonly string[]>> = {
  type: [
    'producer',
    'consumer',
    'streams',
    'database',
    'http-api',
    'outbox',
    'drop',
    'delay',
    'duplicate',
    'crash',
    'restart',
    'pause',
    'resume',
    'runCleaner',
  ],
  op: ['send', 'resend', 'flush', 'beginTransaction', 'commitTransaction', 'abortTransaction', 'restart', 'sleep'],
  mode: [
    'at-most-once',
    'at-least-once',
    'auto-commit',
    'commit-last-processed',
    'exactly-once',
    'consume-produce-no-transactions',
    'offsets-in-sink',
    'insert',
    'upsert',
    'inbox',
    'offsets-in-db',
    'plain',
    'idempotency-key',
    'lookup-before-retry',
  ],
  point: ['afterPoll', 'afterProcess', 'afterSideEffect', 'afterProduce', 'afterSendOffsets', 'beforeCommit', 'afterCommit'],
};

/** Each enum-like field of a valid scenario set to each other value its kind of field may hold. */
export function enumSwapMutations(valid: unknown): unknown[] {
  const out: unknown[] = [];
  for (const path of pathsOf(valid)) {
    const key = path[path.length - 1];
    const values = typeof key === 'string' ? ENUM_SWAPS[key] : undefined;
    if (values) for (const v of values) out.push(setAt(valid, path, v));
  }
  return out;
}

/** Every prefix of a JSON text, at `step` characters apart. */
export function truncations(text: string, step = 1): string[] {
  const out: string[] = [];
  for (let n = 0; n < text.length; n += step) out.push(text.slice(0, n));
  return out;
}

/** Arrays or objects nested `depth` levels deep, as JSON text. */
export function deepText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The same, as a value built without JSON.parse. */
export function deepValue(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v, topics: [v] };
  return v;
}

/** Keys that pollute prototypes when code copies objects naively, placed everywhere a key can go. */
export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export function pollutionTexts(validText: string): string[] {
  const payload = '{"polluted":"yes","isAdmin":true}';
  const out: string[] = [];
  for (const key of POLLUTION_KEYS) {
    out.push(validText.replace(/^\{/, `{"${key}":${payload},`));
    // inside every object of the scenario
    out.push(validText.replaceAll('{"', `{"${key}":${payload},"`));
    // as a config key, a header name, a where-key
    out.push(validText.replace('"config":{', `"config":{"${key}":${payload},`));
    out.push(validText.replace('"headers":{', `"headers":{"${key}":"x",`));
    out.push(validText.replace('"topics":[{', `"topics":[{"${key}":${payload},`));
  }
  return out;
}

/** Random bytes, read as UTF-8 text. */
export const randomBytesText = fc.uint8Array({ minLength: 0, maxLength: 400 }).map((b) => new TextDecoder().decode(b));

/** Random JSON documents (any shape), as text. */
export const randomJsonText = fc.json({ maxDepth: 6 });

/** A valid scenario whose `version` is something else. */
export const wrongVersion = (valid: Record<string, unknown>) =>
  fc
    .oneof(fc.anything(), fc.integer(), fc.double(), fc.constantFrom(0, 2, '1', 1.0000001, -1, null))
    .map((version) => ({ ...valid, version }));

/** A valid scenario with one number replaced by a huge, negative, fractional or non-finite one. */
export function hugeNumberMutations(valid: unknown): unknown[] {
  const huge = [1e21, 2 ** 53, 2 ** 31, 4294967296, -1, -0, 0.5, 1e308, Number.POSITIVE_INFINITY, Number.NaN, Number.MAX_VALUE];
  const out: unknown[] = [];
  for (const path of pathsOf(valid)) {
    let node: unknown = valid;
    for (const k of path) node = (node as Record<string | number, unknown>)[k as string];
    if (typeof node === 'number') for (const h of huge) out.push(setAt(valid, path, h));
  }
  return out;
}

/** The text of a valid scenario with numbers written in forms JSON allows but a reader may not expect. */
export function hugeNumberTexts(validText: string): string[] {
  return ['1e400', '-1e400', '123456789012345678901234567890', '0.0000000000000000000001', '-0', '1E2'].map((n) =>
    validText.replace(/"seed":\d+/, `"seed":${n}`),
  );
}

/** A UTF-8 byte order mark in front of the text (Windows editors write one): it must be accepted like the text without it. */
export function bomTexts(validText: string): string[] {
  return [`\uFEFF${validText}`, `\uFEFF \n${validText}`];
}

/** Arrays and other non-objects where a whole scenario belongs: a list of scenarios, an empty list, a string, a number. */
export function notAnObjectTexts(validText: string): string[] {
  return [`[${validText}]`, `[${validText},${validText}]`, '[]', '"a scenario"', '42', 'null', 'true'];
}

/** Control characters a scenario's text can carry: C0, DEL, C1 (U+009B is a one-character CSI) and bidirectional controls. */
export const CONTROL_CHARACTERS: readonly string[] = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)),
  '\u061c',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];

/** A hostile piece of text: an escape sequence that would clear the screen and retitle a terminal. */
export const TERMINAL_ATTACK = '\u001b]0;pwned\u0007\u001b[2J\u009b2J\u202eevil';

/** Each string of a valid scenario with control characters inserted (as values, before JSON). */
export function controlCharacterMutations(valid: unknown): unknown[] {
  const out: unknown[] = [];
  for (const path of pathsOf(valid)) {
    let node: unknown = valid;
    for (const k of path) node = (node as Record<string | number, unknown>)[k as string];
    if (typeof node !== 'string') continue;
    out.push(setAt(valid, path, `${node}${TERMINAL_ATTACK}`));
    out.push(setAt(valid, path, CONTROL_CHARACTERS.join('')));
  }
  return out;
}

/** Valid JSON texts with raw (unescaped) control characters inside strings, which JSON forbids. */
export function rawControlTexts(validText: string): string[] {
  return CONTROL_CHARACTERS.slice(0, 32).map((c) => validText.replace('"version"', `"ver${c}sion"`));
}
