/**
 * `__proto__`, `constructor` and `prototype` as keys of untrusted JSON. JSON.parse makes them
 * ordinary own properties, but a schema library (valibot's `key in entries`, its records' key
 * filter) and any code that copies objects treat them as JavaScript's own, so they would be dropped
 * without a word — while every other unknown field is an error. They are refused, with the path of
 * each, before anything else reads the input. The walk is iterative (deep nesting cannot overflow
 * the stack) and stops after a few findings.
 */
import type { Words } from './issues';

export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export interface ReservedKeyError {
  readonly path: string;
  readonly en: string;
  readonly ko: string;
}

const SIMPLE = /^[A-Za-z_$][\w$]*$/;

/** A path as the validator writes it: clients[0].config["linger.ms"]. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (SIMPLE.test(key) && !RESERVED_KEYS.includes(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

function words(key: string): Words {
  return {
    en: `${JSON.stringify(key)} cannot be used as a field name or a key: __proto__, constructor and prototype are reserved by JavaScript and refused everywhere in a scenario`,
    ko: `${JSON.stringify(key)}: 필드 이름이나 키로 쓸 수 없는 이름입니다. __proto__, constructor, prototype은 JavaScript가 예약한 이름이라 시나리오 어디에서도 받지 않습니다`,
  };
}

/** Every reserved key in `value` (own properties, at any depth), at most `max` of them. */
export function reservedKeyErrors(value: unknown, base = '', max = 10): ReservedKeyError[] {
  const out: ReservedKeyError[] = [];
  const stack: [unknown, string][] = [[value, base]];
  const seen = new Set<object>();
  while (stack.length && out.length < max) {
    const [node, path] = stack.pop() as [unknown, string];
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], joinPath(path, i)]);
      continue;
    }
    const keys = Object.keys(node);
    for (const k of keys)
      if (RESERVED_KEYS.includes(k) && out.length < max) {
        const w = words(k);
        out.push({ path: joinPath(path, k), en: w.en, ko: w.ko });
      }
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      if (!RESERVED_KEYS.includes(k)) stack.push([(node as Record<string, unknown>)[k], joinPath(path, k)]);
    }
  }
  return out;
}
