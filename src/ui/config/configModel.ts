/**
 * The config editor's model, without React: which configurations a scenario has (each client, the
 * producer inside a consume-transform-produce application, each Kafka Streams application, the
 * cluster, each topic), the value of
 * each key (typed in, set by the scenario, Kafka's default, and what is in effect), and what the
 * engine's validator says about a change.
 */
import {
  CLUSTER_CONFIG,
  CONSUMER_CONFIG,
  type ConfigKey,
  type ConfigTarget,
  type ConfigValue,
  configPath,
  explicitConfig,
  PRODUCER_CONFIG,
  type ResolvedScenario,
  type Scenario,
  type ScenarioError,
  STREAMS_CONFIG,
  setConfigValues,
  TOPIC_CONFIG,
  validateScenario,
} from '../../sim';

export type SectionKind = 'producer' | 'consumer' | 'app-producer' | 'streams' | 'cluster' | 'topic';

export interface ConfigSection {
  /** Stable name of the section, e.g. "client:orders-service". */
  readonly id: string;
  readonly kind: SectionKind;
  /** The client id or topic name ('' for the cluster). */
  readonly name: string;
  readonly target: ConfigTarget;
  readonly keys: readonly ConfigKey[];
  /** JSON path of the config object, as the validator names it. */
  readonly path: string;
}

/** Modes whose application owns a producer (its config is `processing.producerConfig`). */
const PRODUCING_MODES = ['exactly-once', 'consume-produce-no-transactions'];

export function configSections(s: Scenario): ConfigSection[] {
  const out: ConfigSection[] = [];
  const add = (id: string, kind: SectionKind, name: string, target: ConfigTarget, keys: readonly ConfigKey[]) => {
    const path = configPath(s, target);
    if (path) out.push({ id, kind, name, target, keys, path });
  };
  for (const c of s.clients) {
    if (c.type === 'producer') add(`client:${c.id}`, 'producer', c.id, { scope: 'client', client: c.id }, PRODUCER_CONFIG);
    if (c.type === 'consumer') {
      add(`client:${c.id}`, 'consumer', c.id, { scope: 'client', client: c.id }, CONSUMER_CONFIG);
      if (c.processing && PRODUCING_MODES.includes(c.processing.mode))
        add(`app-producer:${c.id}`, 'app-producer', c.id, { scope: 'app-producer', client: c.id }, PRODUCER_CONFIG);
    }
    // a Kafka Streams application: StreamsConfig (processing.guarantee, commit.interval.ms, application.id)
    if (c.type === 'streams') add(`client:${c.id}`, 'streams', c.id, { scope: 'client', client: c.id }, STREAMS_CONFIG);
  }
  add('cluster', 'cluster', '', { scope: 'cluster' }, CLUSTER_CONFIG);
  for (const t of s.topics) add(`topic:${t.name}`, 'topic', t.name, { scope: 'topic', topic: t.name }, TOPIC_CONFIG);
  return out;
}

/** The validator's path for one key of a config object (`clients[0].config["enable.idempotence"]`). */
export function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** What the engine resolved for a section (after Kafka's rules), key by key. */
export function effectiveConfig(section: ConfigSection, r: ResolvedScenario): Readonly<Record<string, unknown>> {
  const pick = (): object | undefined => {
    switch (section.kind) {
      case 'producer':
        return r.producers[section.name];
      case 'app-producer':
        return r.producers[`${section.name}.producer`];
      case 'consumer':
        return r.consumers[section.name];
      case 'streams':
        return r.streams[section.name];
      case 'cluster':
        return r.cluster;
      case 'topic':
        return r.topics[section.name];
    }
  };
  return { ...(pick() ?? {}) };
}

/** A value as the editor writes it (acks is resolved to -1/1/0; Kafka calls -1 "all"). */
export function formatValue(key: string, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (key === 'acks' && (v === -1 || v === '-1')) return 'all';
  return String(v);
}

/**
 * Turns what was typed into a config value: a whole number for int/long keys when it is one (any
 * other text is passed on, and the validator says what is wrong), an empty field means "use the
 * default", and an enum takes the listed value it names.
 */
export function parseConfigInput(spec: ConfigKey, raw: string | boolean): ConfigValue | undefined {
  if (typeof raw === 'boolean') return raw;
  const text = raw.trim();
  if (text === '') return undefined;
  switch (spec.type) {
    case 'int':
    case 'long':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'enum':
      return spec.values?.find((v) => String(v) === text) ?? text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

export type Draft = Readonly<Record<string, ConfigValue | undefined>>;

export interface DraftCheck {
  readonly scenario: Scenario;
  readonly ok: boolean;
  readonly resolved: ResolvedScenario | null;
  /** Errors about one key of this section (each in English, Korean, and Kafka's own text to quote). */
  readonly errorsByKey: Readonly<Record<string, readonly ScenarioError[]>>;
  /** Errors elsewhere that the change causes (a script op that needs transactional.id …). */
  readonly otherErrors: readonly ScenarioError[];
}

/** The scenario with the draft applied, and what the validator says about it. */
export function checkDraft(s: Scenario, section: ConfigSection, draft: Draft): DraftCheck {
  const scenario = setConfigValues(s, section.target, draft);
  const v = validateScenario(scenario);
  if (v.ok) return { scenario: v.resolved.scenario, ok: true, resolved: v.resolved, errorsByKey: {}, otherErrors: [] };
  const errorsByKey: Record<string, ScenarioError[]> = {};
  const otherErrors: ScenarioError[] = [];
  for (const e of v.errors) {
    const key = section.keys.find((k) => keyPath(section.path, k.name) === e.path)?.name;
    if (key) errorsByKey[key] = [...(errorsByKey[key] ?? []), e];
    else otherErrors.push(e);
  }
  return { scenario, ok: false, resolved: null, errorsByKey, otherErrors };
}

/** Notes (Kafka's INFO/WARN lines) the validator logged about one key of this section. */
export function notesByKey(section: ConfigSection, r: ResolvedScenario): Readonly<Record<string, readonly string[]>> {
  const out: Record<string, string[]> = {};
  for (const n of r.notes) {
    const key = section.keys.find((k) => keyPath(section.path, k.name) === n.path)?.name;
    if (key) out[key] = [...(out[key] ?? []), n.message];
  }
  return out;
}

/** One row of the editor: the key, the value shown in its field, and where that value comes from. */
export interface ConfigRowModel {
  readonly spec: ConfigKey;
  readonly shown: ConfigValue | undefined;
  readonly source: 'draft' | 'scenario' | 'default';
  readonly explicit: boolean;
  readonly effective: string;
}

export function configRows(s: Scenario, section: ConfigSection, r: ResolvedScenario, draft: Draft): ConfigRowModel[] {
  const explicit = explicitConfig(s, section.target);
  const effective = effectiveConfig(section, r);
  return section.keys.map((spec) => {
    const inDraft = Object.hasOwn(draft, spec.name);
    const isSet = Object.hasOwn(explicit, spec.name);
    const shown = inDraft ? draft[spec.name] : isSet ? explicit[spec.name] : spec.default;
    return {
      spec,
      shown: shown === undefined ? spec.default : shown,
      source: inDraft ? 'draft' : isSet ? 'scenario' : 'default',
      explicit: isSet,
      effective: formatValue(spec.name, effective[spec.name]),
    };
  });
}
