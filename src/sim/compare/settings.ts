/**
 * The settings an A/B comparison can change, and a patch of them applied to a scenario: B is A with
 * some of these changed, so both runs share the seed, the topics, the scripts and the faults.
 * Settings: a producer's enable.idempotence and acks, a consumer's isolation.level and processing
 * mode, a Streams client's processing.guarantee, the cluster's transaction.version, a sink's mode.
 */
import { CLUSTER_CONFIG } from '../config/clusterConfig';
import type { ConfigKey, ConfigValue } from '../config/configSpec';
import { CONSUMER_CONFIG } from '../config/consumerConfig';
import { PRODUCER_CONFIG } from '../config/producerConfig';
import { STREAMS_CONFIG } from '../config/streamsConfig';
import { TOPIC_CONFIG } from '../config/topicConfig';
import { type ClientSpec, type FaultSpec, PROCESSING_MODES, type Scenario, type TopicSpec } from '../scenario/schema';

export type SettingName =
  | 'enable.idempotence'
  | 'acks'
  | 'isolation.level'
  | 'processing.mode'
  | 'processing.guarantee'
  | 'transaction.version'
  | 'sink.mode';

export type SettingValue = string | number | boolean;

/** One change: `target` is a client's or a sink's id, or "cluster". */
export interface SettingChange {
  readonly target: string;
  readonly setting: SettingName;
  readonly value: SettingValue;
}

export interface Setting {
  readonly target: string;
  readonly setting: SettingName;
  /** The value in the scenario (its default when it does not say). */
  readonly current: SettingValue;
  readonly options: readonly SettingValue[];
}

const SINK_MODES: Readonly<Record<string, readonly string[]>> = {
  database: ['insert', 'upsert', 'inbox', 'offsets-in-db', 'set', 'increment'],
  'http-api': ['plain', 'idempotency-key', 'lookup-before-retry'],
};

const opt = <T extends SettingValue>(v: unknown, fallback: T): SettingValue =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : fallback;

/** Every setting of the scenario an A/B comparison may change, in the scenario's order. */
export function settingsOf(s: Scenario): Setting[] {
  const out: Setting[] = [
    { target: 'cluster', setting: 'transaction.version', current: Number(opt(s.cluster?.['transaction.version'], 2)), options: [1, 2] },
  ];
  for (const c of s.clients) {
    const cfg = c.config ?? {};
    if (c.type === 'producer') {
      out.push(
        { target: c.id, setting: 'enable.idempotence', current: opt(cfg['enable.idempotence'], true), options: [true, false] },
        { target: c.id, setting: 'acks', current: String(opt(cfg.acks, 'all')), options: ['all', '1', '0'] },
      );
    } else if (c.type === 'consumer') {
      out.push(
        {
          target: c.id,
          setting: 'isolation.level',
          current: opt(cfg['isolation.level'], 'read_uncommitted'),
          options: ['read_uncommitted', 'read_committed'],
        },
        {
          target: c.id,
          setting: 'processing.mode',
          current: c.processing?.mode ?? (cfg['enable.auto.commit'] === false ? 'at-least-once' : 'auto-commit'),
          options: PROCESSING_MODES,
        },
      );
    } else if (c.type === 'streams') {
      out.push({
        target: c.id,
        setting: 'processing.guarantee',
        current: opt(cfg['processing.guarantee'], 'at_least_once'),
        options: ['at_least_once', 'exactly_once_v2'],
      });
    }
  }
  for (const k of s.sinks ?? []) {
    const modes = SINK_MODES[k.type];
    if (modes) out.push({ target: k.id, setting: 'sink.mode', current: k.mode ?? (modes[0] as string), options: modes });
  }
  return out;
}

/** A with the changes made (a new scenario; A is not touched). Unknown targets are reported. */
export function applySettings(a: Scenario, changes: readonly SettingChange[]): { scenario: Scenario; unknown: SettingChange[] } {
  const s = structuredClone(a) as Scenario;
  const unknown: SettingChange[] = [];
  for (const ch of changes) {
    if (ch.target === 'cluster' && ch.setting === 'transaction.version') {
      s.cluster = { ...(s.cluster ?? {}), 'transaction.version': Number(ch.value) };
      continue;
    }
    const client = s.clients.find((c) => c.id === ch.target);
    const sink = s.sinks?.find((k) => k.id === ch.target);
    if (client && ch.setting === 'processing.mode' && client.type === 'consumer') {
      // only the mode: enable.auto.commit stays as A has it (eos-auto-commit-rebalance shows why it matters)
      const { commitIntervalMs, ...rest } = client.processing ?? {};
      const mode = ch.value as (typeof PROCESSING_MODES)[number];
      // commitIntervalMs keeps a transaction open: it belongs to exactly-once only
      client.processing = { ...rest, mode, ...(mode === 'exactly-once' && commitIntervalMs !== undefined ? { commitIntervalMs } : {}) };
    } else if (client && ch.setting !== 'sink.mode' && ch.setting !== 'transaction.version') {
      client.config = { ...(client.config ?? {}), [ch.setting]: ch.setting === 'acks' && ch.value !== 'all' ? Number(ch.value) : ch.value };
    } else if (sink && ch.setting === 'sink.mode') {
      sink.mode = String(ch.value);
    } else unknown.push(ch);
  }
  return { scenario: s, unknown };
}

/** The changes that make B from A, for the settings both have (what a gallery pair differs in). */
export function settingsDiff(a: Scenario, b: Scenario): SettingChange[] {
  const inB = new Map(settingsOf(b).map((x) => [`${x.target}\u0000${x.setting}`, x.current]));
  return settingsOf(a).flatMap((x) => {
    const y = inB.get(`${x.target}\u0000${x.setting}`);
    return y !== undefined && y !== x.current ? [{ target: x.target, setting: x.setting, value: y }] : [];
  });
}

/** A value as a scenario holds it, or the default in force when it does not say. */
export interface ValueInForce {
  readonly value: ConfigValue;
  readonly isDefault: boolean;
}

/**
 * One difference between two scenarios of a gallery pair, as the comparison lists it: a setting of
 * the cluster, a topic, a client or a sink (A's value and B's, defaults named as such); the number
 * of records a producer sends; a client, topic or sink only one side has; the faults only one side
 * has.
 */
export type ScenarioDifference =
  | {
      readonly kind: 'setting';
      readonly target: string;
      readonly targetKind: 'cluster' | 'topic' | 'client' | 'sink';
      readonly setting: string;
      readonly a: ValueInForce;
      readonly b: ValueInForce;
    }
  | { readonly kind: 'sends'; readonly target: string; readonly a: number; readonly b: number }
  | { readonly kind: 'only'; readonly what: 'topic' | 'client' | 'sink'; readonly id: string; readonly side: 'a' | 'b' }
  | { readonly kind: 'faults'; readonly a: readonly FaultSpec[]; readonly b: readonly FaultSpec[] };

type Config = Readonly<Record<string, ConfigValue>> | undefined;
const defaults = (keys: readonly ConfigKey[]): ReadonlyMap<string, ConfigValue> => new Map(keys.map((k) => [k.name, k.default]));

function configDiff(
  target: string,
  targetKind: 'cluster' | 'topic' | 'client',
  a: Config,
  b: Config,
  known: ReadonlyMap<string, ConfigValue>,
): ScenarioDifference[] {
  const keys = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])];
  const inForce = (c: Config, k: string): ValueInForce =>
    c && k in c ? { value: c[k] as ConfigValue, isDefault: false } : { value: known.get(k) ?? null, isDefault: true };
  return keys.flatMap((setting) => {
    const x = inForce(a, setting);
    const y = inForce(b, setting);
    return String(x.value) === String(y.value) ? [] : [{ kind: 'setting' as const, target, targetKind, setting, a: x, b: y }];
  });
}

/** How many records a client's script sends (a send with count sends that many; a resend one more). */
export function recordsSent(c: ClientSpec): number {
  if (c.type !== 'producer') return 0;
  return c.script.reduce((n, op) => n + (op.op === 'send' ? (op.count ?? 1) : op.op === 'resend' ? 1 : 0), 0);
}

/** A fault without its note, as a key: two faults that do the same thing are the same fault. */
const faultKey = (f: FaultSpec) => JSON.stringify({ ...f, note: undefined });

/**
 * Every difference between A and B that can decide the outcome, in this order: the cluster's
 * settings, each topic's, each client's (its config, then the settings settingsOf knows that are
 * not config keys), each sink's, the records each producer sends, and the faults. Defaults count:
 * a key one side sets to its default is no difference.
 */
export function scenarioDifferences(a: Scenario, b: Scenario): ScenarioDifference[] {
  const out: ScenarioDifference[] = [...configDiff('cluster', 'cluster', a.cluster, b.cluster, defaults(CLUSTER_CONFIG))];
  const topicDefaults = defaults(TOPIC_CONFIG);
  for (const t of a.topics) {
    const u = b.topics.find((x) => x.name === t.name);
    if (!u) {
      out.push({ kind: 'only', what: 'topic', id: t.name, side: 'a' });
      continue;
    }
    const shape = (x: TopicSpec) => ({
      partitions: x.partitions ?? 1,
      replicationFactor: x.replicationFactor ?? 1,
      ...(x.startOffset !== undefined ? { startOffset: x.startOffset } : {}),
      ...(x.leaders !== undefined ? { leaders: x.leaders.join(',') } : {}),
      ...(x.replicas !== undefined ? { replicas: x.replicas.map((r) => r.join(',')).join(' ') } : {}),
      ...x.config,
    });
    const shapeDefaults = new Map([...topicDefaults, ['partitions', 1], ['replicationFactor', 1], ['startOffset', 0]]);
    out.push(...configDiff(t.name, 'topic', shape(t), shape(u), shapeDefaults));
  }
  for (const u of b.topics) if (!a.topics.some((t) => t.name === u.name)) out.push({ kind: 'only', what: 'topic', id: u.name, side: 'b' });
  const settingsB = new Map(settingsOf(b).map((x) => [`${x.target}\u0000${x.setting}`, x.current]));
  const settingsA = settingsOf(a);
  for (const c of a.clients) {
    const d = b.clients.find((x) => x.id === c.id);
    if (!d) {
      out.push({ kind: 'only', what: 'client', id: c.id, side: 'a' });
      continue;
    }
    const known = defaults(c.type === 'producer' ? PRODUCER_CONFIG : c.type === 'consumer' ? CONSUMER_CONFIG : STREAMS_CONFIG);
    const config = configDiff(c.id, 'client', c.config, d.config, known);
    out.push(...config);
    // processing.mode and the like: settings of the comparison that are not config keys
    for (const s of settingsA) {
      if (s.target !== c.id || config.some((x) => x.kind === 'setting' && x.setting === s.setting)) continue;
      const y = settingsB.get(`${s.target}\u0000${s.setting}`);
      if (y !== undefined && String(y) !== String(s.current))
        out.push({
          kind: 'setting',
          target: c.id,
          targetKind: 'client',
          setting: s.setting,
          a: { value: s.current, isDefault: false },
          b: { value: y, isDefault: false },
        });
    }
  }
  for (const d of b.clients) if (!a.clients.some((c) => c.id === d.id)) out.push({ kind: 'only', what: 'client', id: d.id, side: 'b' });
  for (const k of a.sinks ?? []) {
    const l = b.sinks?.find((x) => x.id === k.id);
    if (!l) out.push({ kind: 'only', what: 'sink', id: k.id, side: 'a' });
    else {
      const x = settingsA.find((s) => s.target === k.id && s.setting === 'sink.mode');
      const y = settingsB.get(`${k.id}\u0000sink.mode`);
      if (x && y !== undefined && x.current !== y)
        out.push({
          kind: 'setting',
          target: k.id,
          targetKind: 'sink',
          setting: 'sink.mode',
          a: { value: x.current, isDefault: false },
          b: { value: y, isDefault: false },
        });
    }
  }
  for (const l of b.sinks ?? [])
    if (!(a.sinks ?? []).some((k) => k.id === l.id)) out.push({ kind: 'only', what: 'sink', id: l.id, side: 'b' });
  for (const c of a.clients) {
    const d = b.clients.find((x) => x.id === c.id);
    if (d && c.type === 'producer' && d.type === 'producer' && recordsSent(c) !== recordsSent(d))
      out.push({ kind: 'sends', target: c.id, a: recordsSent(c), b: recordsSent(d) });
  }
  const keysA = (a.faults ?? []).map(faultKey);
  const keysB = (b.faults ?? []).map(faultKey);
  const onlyA = (a.faults ?? []).filter((_, i) => !keysB.includes(keysA[i] as string));
  const onlyB = (b.faults ?? []).filter((_, i) => !keysA.includes(keysB[i] as string));
  if (onlyA.length > 0 || onlyB.length > 0) out.push({ kind: 'faults', a: onlyA, b: onlyB });
  return out;
}
