/**
 * Turns untrusted input into a scenario or a list of errors — never an exception. Each error has the
 * JSON path it is about and a sentence a person can act on; Kafka's own configuration rules are
 * among them (explicit enable.idempotence=true with max.in.flight.requests.per.connection=6 is a
 * ConfigException in Kafka, so it is an error here).
 */
import * as v from 'valibot';
import { type ClusterConfig, resolveClusterConfig } from '../config/clusterConfig';
import type { ConfigProblem } from '../config/configSpec';
import { type ConsumerConfig, resolveConsumerConfig } from '../config/consumerConfig';
import { type ProducerConfig, resolveProducerConfig } from '../config/producerConfig';
import { resolveStreamsConfig, type StreamsConfig } from '../config/streamsConfig';
import { resolveTopicConfig, type TopicConfig } from '../config/topicConfig';
import { ALL_RPCS } from '../kernel/envelope';
import { CRASH_POINTS } from './crashPoints';
import { LIMITS, type Scenario, ScenarioSchema } from './schema';

export interface ScenarioError {
  /** Where, as a JSON path: clients[0].config["max.in.flight.requests.per.connection"]. */
  readonly path: string;
  readonly message: string;
}

export interface ConfigNote {
  readonly path: string;
  readonly message: string;
}

export interface ResolvedScenario {
  readonly scenario: Scenario;
  readonly cluster: ClusterConfig;
  readonly topics: Readonly<Record<string, TopicConfig>>;
  readonly producers: Readonly<Record<string, ProducerConfig>>;
  readonly consumers: Readonly<Record<string, ConsumerConfig>>;
  readonly streams: Readonly<Record<string, StreamsConfig>>;
  /** What Kafka would log about the configuration (e.g. idempotence switched off). */
  readonly notes: readonly ConfigNote[];
}

export type Validation = { ok: true; resolved: ResolvedScenario } | { ok: false; errors: ScenarioError[] };

export const RESERVED_IDS = ['txn-coordinator', 'group-coordinator'];

function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const k = item.key as string | number;
    out += typeof k === 'number' ? `[${k}]` : out === '' && /^[A-Za-z_$][\w$]*$/.test(k) ? k : keyPath('', k);
  }
  return out || '(scenario)';
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && issue.message.startsWith('Invalid key:')) {
    // an unknown field (strict objects), or a required one that is missing
    if (issue.expected === 'never') return `unknown field ${issue.received}: check its spelling against docs/scenario-format.md`;
    if (issue.received === 'undefined') return `missing: ${issue.expected} is required`;
  }
  if (issue.kind === 'schema' && issue.message.startsWith('Invalid type:')) {
    const expected = issue.expected === 'Object' ? 'an object' : issue.expected === 'Array' ? 'a list' : issue.expected;
    if (issue.received === 'undefined')
      return issue.type === 'variant' && expected !== 'an object' ? `missing: must be one of ${expected}` : `missing: expected ${expected}`;
    return issue.type === 'variant' ? `must be one of ${expected}, not ${issue.received}` : `expected ${expected}, got ${issue.received}`;
  }
  return issue.message;
}

function configErrors(problems: readonly ConfigProblem[], base: string, into: ScenarioError[]): void {
  for (const p of problems) into.push({ path: keyPath(base, p.key), message: p.message });
}

/** Lists over these limits are refused before their items are looked at (a huge input stays cheap). */
function oversized(input: unknown): ScenarioError[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  const o = input as Record<string, unknown>;
  const limits: [string, number][] = [
    ['clients', LIMITS.maxClients],
    ['topics', LIMITS.maxTopics],
    ['faults', LIMITS.maxFaults],
    ['sinks', LIMITS.maxClients],
  ];
  const errors: ScenarioError[] = [];
  for (const [key, max] of limits) {
    const list = o[key];
    if (Array.isArray(list) && list.length > max) errors.push({ path: key, message: `at most ${max} are allowed, not ${list.length}` });
  }
  const clients = Array.isArray(o.clients) ? o.clients : [];
  clients.slice(0, LIMITS.maxClients).forEach((c, i) => {
    const script = typeof c === 'object' && c !== null ? (c as { script?: unknown }).script : undefined;
    if (Array.isArray(script) && script.length > LIMITS.maxScriptOps)
      errors.push({ path: `clients[${i}].script`, message: `at most ${LIMITS.maxScriptOps} operations are allowed, not ${script.length}` });
  });
  return errors;
}

export function validateScenario(input: unknown): Validation {
  const tooBig = oversized(input);
  if (tooBig.length) return { ok: false, errors: tooBig };
  const parsed = v.safeParse(ScenarioSchema, input, { abortPipeEarly: true });
  if (!parsed.success) {
    const seen = new Set<string>();
    const errors: ScenarioError[] = [];
    for (const issue of parsed.issues) {
      const e = { path: issuePath(issue), message: describeIssue(issue) };
      const k = `${e.path}|${e.message}`;
      if (!seen.has(k)) errors.push(e);
      seen.add(k);
      if (errors.length >= 50) break;
    }
    return { ok: false, errors };
  }
  return checkMeaning(parsed.output);
}

function checkMeaning(s: Scenario): Validation {
  const errors: ScenarioError[] = [];
  const notes: ConfigNote[] = [];
  const cluster = resolveClusterConfig(s.cluster ?? {});
  configErrors(cluster.errors, 'cluster', errors);

  const topics: Record<string, TopicConfig> = {};
  const partitions: Record<string, number> = {};
  s.topics.forEach((t, i) => {
    if (topics[t.name]) errors.push({ path: `topics[${i}].name`, message: `topic ${t.name} is defined twice` });
    if (t.name.startsWith('__')) errors.push({ path: `topics[${i}].name`, message: "names starting with __ are Kafka's internal topics" });
    const r = resolveTopicConfig(t.config ?? {});
    configErrors(r.errors, `topics[${i}].config`, errors);
    topics[t.name] = r.config;
    partitions[t.name] = t.partitions ?? 1;
    if (t.leaders) {
      if (t.leaders.length !== (t.partitions ?? 1))
        errors.push({ path: `topics[${i}].leaders`, message: `must list one leader per partition (${t.partitions ?? 1})` });
      t.leaders.forEach((b, j) => {
        if (b >= cluster.config.brokers)
          errors.push({
            path: `topics[${i}].leaders[${j}]`,
            message: `broker ${b} does not exist (the cluster has ${cluster.config.brokers})`,
          });
      });
    }
  });

  const ids = new Set<string>();
  const processIds = new Set<string>(RESERVED_IDS);
  for (let b = 0; b < cluster.config.brokers; b++) processIds.add(`broker-${b}`);
  const claim = (id: string, path: string) => {
    if (ids.has(id) || processIds.has(id))
      errors.push({ path, message: `id ${id} is already used (by a client, a sink, a broker or a coordinator)` });
    ids.add(id);
    processIds.add(id);
  };
  const sinks = new Map<string, NonNullable<Scenario['sinks']>[number]>();
  (s.sinks ?? []).forEach((k, i) => {
    claim(k.id, `sinks[${i}].id`);
    sinks.set(k.id, k);
    const modes: Record<string, string[]> = {
      database: ['insert', 'upsert', 'inbox', 'offsets-in-db', 'outbox'],
      'http-api': ['plain', 'idempotency-key', 'lookup-before-retry'],
      outbox: [],
    };
    const allowed = modes[k.type] ?? [];
    if (k.mode !== undefined && allowed.length && !allowed.includes(k.mode))
      errors.push({ path: `sinks[${i}].mode`, message: `a ${k.type} sink's mode must be one of ${allowed.join(', ')}` });
    if (k.type === 'outbox') {
      if (!k.topic || !topics[k.topic])
        errors.push({ path: `sinks[${i}].topic`, message: 'an outbox needs the topic its relay publishes to, defined under topics' });
      claim(`${k.id}-relay`, `sinks[${i}].id`);
    }
  });

  const topicRef = (name: string, path: string) => {
    if (!topics[name]) errors.push({ path, message: `topic ${name} is not defined under topics` });
  };
  const producers: Record<string, ProducerConfig> = {};
  const consumers: Record<string, ConsumerConfig> = {};
  const streams: Record<string, StreamsConfig> = {};
  let records = 0;
  s.clients.forEach((c, i) => {
    claim(c.id, `clients[${i}].id`);
    if (c.type === 'producer') {
      const r = resolveProducerConfig(c.config ?? {});
      configErrors(r.errors, `clients[${i}].config`, errors);
      for (const n of r.notes) notes.push({ path: keyPath(`clients[${i}].config`, n.key), message: n.message });
      producers[c.id] = r.config;
      const eventIds = new Set<string>();
      // event_ids of `count` sends with "{i}" in them, as (pattern, count)
      const templates: { pattern: RegExp; count: number }[] = [];
      const sentEarlier = (id: string) =>
        eventIds.has(id) ||
        templates.some((t) => {
          const m = t.pattern.exec(id);
          return m !== null && Number(m[1]) < t.count;
        });
      c.script.forEach((op, j) => {
        const path = `clients[${i}].script[${j}]`;
        if (op.op === 'send') {
          topicRef(op.topic, `${path}.topic`);
          if (op.partition !== undefined && op.partition >= (partitions[op.topic] ?? 1))
            errors.push({ path: `${path}.partition`, message: `topic ${op.topic} has ${partitions[op.topic] ?? 1} partition(s)` });
          records += op.count ?? 1;
          const e = op.headers?.event_id;
          if (e?.includes('{i}') && (op.count ?? 1) > 1) {
            const escaped = e.split('{i}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
            templates.push({ pattern: new RegExp(`^${escaped.join('(\\d+)')}$`), count: op.count ?? 1 });
          } else if (e) eventIds.add(e.replaceAll('{i}', '0'));
        }
        if (op.op === 'resend' && !sentEarlier(op.eventId))
          errors.push({ path: `${path}.eventId`, message: `no earlier send in this script has the header event_id=${op.eventId}` });
        const txnOp = op.op === 'beginTransaction' || op.op === 'commitTransaction' || op.op === 'abortTransaction';
        if (txnOp && r.config['transactional.id'] === null)
          errors.push({ path: `${path}.op`, message: `${op.op} needs a transactional.id in this producer's config` });
      });
    } else if (c.type === 'consumer') {
      const r = resolveConsumerConfig(c.config ?? {});
      configErrors(r.errors, `clients[${i}].config`, errors);
      consumers[c.id] = r.config;
      c.topics.forEach((t, j) => {
        topicRef(t, `clients[${i}].topics[${j}]`);
      });
      const p = c.processing;
      if (p) {
        const needsGroup = p.mode !== 'offsets-in-sink';
        if (needsGroup && r.config['group.id'] === null)
          errors.push({
            path: `clients[${i}].config["group.id"]`,
            message: `processing mode ${p.mode} commits offsets, so it needs a group.id`,
          });
        if (p.sink !== undefined && !sinks.has(p.sink))
          errors.push({ path: `clients[${i}].processing.sink`, message: `sink ${p.sink} is not defined under sinks` });
        const produces = p.mode === 'exactly-once' || p.mode === 'consume-produce-no-transactions';
        if (produces && !p.outputTopic)
          errors.push({
            path: `clients[${i}].processing.outputTopic`,
            message: `mode ${p.mode} produces its results: name the output topic`,
          });
        if (p.outputTopic) topicRef(p.outputTopic, `clients[${i}].processing.outputTopic`);
        if (p.mode === 'offsets-in-sink' && (p.sink === undefined || sinks.get(p.sink)?.mode !== 'offsets-in-db'))
          errors.push({ path: `clients[${i}].processing.sink`, message: 'offsets-in-sink needs a database sink with mode offsets-in-db' });
        if (produces) {
          const pc = { ...(p.producerConfig ?? {}) };
          if (p.mode === 'exactly-once' && !('transactional.id' in pc)) pc['transactional.id'] = `${c.id}-txn`;
          const pr = resolveProducerConfig(pc);
          configErrors(pr.errors, `clients[${i}].processing.producerConfig`, errors);
          producers[`${c.id}.producer`] = pr.config;
        }
      }
    } else {
      topicRef(c.inputTopic, `clients[${i}].inputTopic`);
      topicRef(c.outputTopic, `clients[${i}].outputTopic`);
      const r = resolveStreamsConfig(c.id, c.config ?? {});
      configErrors(r.errors, `clients[${i}].config`, errors);
      streams[c.id] = r.config;
    }
  });
  if (records > LIMITS.maxRecords)
    errors.push({ path: 'clients', message: `the scripts send ${records} records; the simulator runs at most ${LIMITS.maxRecords}` });

  (s.faults ?? []).forEach((f, i) => {
    const path = `faults[${i}]`;
    if (f.type === 'drop' || f.type === 'delay' || f.type === 'duplicate' || f.type === 'reset') {
      if (!(ALL_RPCS as readonly string[]).includes(f.rpc))
        errors.push({
          path: `${path}.rpc`,
          message: `${f.rpc} is not an RPC the simulator sends (e.g. Produce, ProduceResponse, EndTxn, WriteTxnMarkers, Fetch, HttpResponse)`,
        });
      for (const side of ['from', 'to'] as const) {
        const target = f[side];
        if (target !== undefined && !processIds.has(target.split('.')[0] as string))
          errors.push({ path: `${path}.${side}`, message: `${target} is not a client, sink, broker or coordinator of this scenario` });
      }
      if (f.type === 'delay' && f.delayMs === undefined) errors.push({ path: `${path}.delayMs`, message: 'a delay needs delayMs' });
      return;
    }
    if (f.type === 'runCleaner') {
      if (f.topic !== undefined) {
        topicRef(f.topic, `${path}.topic`);
        if (topics[f.topic] && topics[f.topic]?.['cleanup.policy'] === 'delete')
          errors.push({
            path: `${path}.topic`,
            message: `topic ${f.topic} has cleanup.policy=delete: the cleaner only compacts topics with cleanup.policy=compact`,
          });
      }
      return;
    }
    if (!processIds.has(f.target))
      errors.push({ path: `${path}.target`, message: `${f.target} is not a client, sink, broker or coordinator of this scenario` });
    if (f.point !== undefined) {
      if (f.type !== 'crash' && f.type !== 'pause')
        errors.push({ path: `${path}.point`, message: 'only a crash or a pause can happen at a point of the application loop' });
      if (f.type === 'pause' && f.durationMs === undefined)
        errors.push({ path: `${path}.durationMs`, message: 'a pause at a point needs durationMs' });
      if (!(CRASH_POINTS as readonly string[]).includes(f.point))
        errors.push({ path: `${path}.point`, message: `point must be one of ${CRASH_POINTS.join(', ')}` });
      if (f.at !== undefined) errors.push({ path: `${path}.at`, message: 'give either at (a time) or point, not both' });
    } else if (f.at === undefined) errors.push({ path: `${path}.at`, message: `a ${f.type} needs a time (at) or, for a crash, a point` });
  });

  if (errors.length) return { ok: false, errors };
  return { ok: true, resolved: { scenario: s, cluster: cluster.config, topics, producers, consumers, streams, notes } };
}

/** Parses JSON text, then validates it; bad JSON is one error with its position. */
export function parseScenarioJson(text: string): Validation {
  if (text.length > 1_000_000)
    return {
      ok: false,
      errors: [{ path: '(scenario)', message: `the scenario is ${text.length} characters; at most 1,000,000 are accepted` }],
    };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ path: '(scenario)', message: `not valid JSON: ${(e as Error).message}` }] };
  }
  return validateScenario(data);
}
