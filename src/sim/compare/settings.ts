/**
 * The settings an A/B comparison can change, and a patch of them applied to a scenario: B is A with
 * some of these changed, so both runs share the seed, the topics, the scripts and the faults.
 * Settings: a producer's enable.idempotence and acks, a consumer's isolation.level and processing
 * mode, a Streams client's processing.guarantee, the cluster's transaction.version, a sink's mode.
 */
import { PROCESSING_MODES, type Scenario } from '../scenario/schema';

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
