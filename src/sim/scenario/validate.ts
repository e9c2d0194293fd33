/**
 * Turns untrusted input into a scenario or a list of errors — never an exception. Each error has the
 * JSON path it is about (or, for JSON that does not parse, its line and column) and a sentence a
 * person can act on that says what was expected there, in English and — except for Kafka's own
 * ConfigException texts, which Kafka prints in English — in Korean. Kafka's configuration rules are
 * among them (explicit enable.idempotence=true with max.in.flight.requests.per.connection=6 is a
 * ConfigException in Kafka, so it is an error here).
 *
 * Before the schema sees the input: lists over the limits are refused (a huge input stays cheap), a
 * scenario that is not a JSON object says so, and the keys __proto__, constructor and prototype are
 * refused wherever they are (reservedKeys.ts).
 */
import * as v from 'valibot';
import { type ClusterConfig, resolveClusterConfig } from '../config/clusterConfig';
import type { ConfigProblem } from '../config/configSpec';
import { type ConsumerConfig, resolveConsumerConfig } from '../config/consumerConfig';
import { type ProducerConfig, resolveProducerConfig } from '../config/producerConfig';
import { resolveStreamsConfig, type StreamsConfig } from '../config/streamsConfig';
import { resolveTopicConfig, type TopicConfig } from '../config/topicConfig';
import { ALL_RPCS } from '../kernel/envelope';
import { josa } from '../narration/language';
import { CRASH_POINTS } from './crashPoints';
import { describeIssue, describeValue } from './issues';
import { parseJsonText } from './jsonText';
import { assignmentProblems } from './replicaAssignment';
import { joinPath, reservedKeyErrors } from './reservedKeys';
import { LIMITS, type Scenario, ScenarioSchema, withoutPresetFields } from './schema';
import { abortTransactionErrors } from './validateAbortTransaction';
import { resetOffsetsErrors } from './validateResetOffsets';

export interface ScenarioError {
  /** Where, as a JSON path: clients[0].config["max.in.flight.requests.per.connection"]; "(scenario)" for the whole. */
  readonly path: string;
  /** In English. */
  readonly message: string;
  /** The same in Korean: a sentence saying what is wrong (with `quote`, Kafka's own text follows it untranslated). */
  readonly ko?: string;
  /** Kafka's own exception text, as its log prints it: shown in English, in code, after the Korean sentence. */
  readonly quote?: string;
  /** For JSON that does not parse: where the problem is, 1-based. */
  readonly line?: number;
  readonly column?: number;
}

export { errorParts, errorText } from './errorText';

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

export const RESERVED_IDS = ['txn-coordinator', 'group-coordinator', 'controller'];

function keyPath(base: string, key: string): string {
  return joinPath(base, key);
}

function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) out = joinPath(out, item.key as string | number);
  return out || '(scenario)';
}

/** Kafka's configuration messages stay in Kafka's English; in Korean a sentence says what is wrong and quotes them. */
function configErrors(problems: readonly ConfigProblem[], base: string, into: ScenarioError[]): void {
  for (const p of problems)
    into.push({
      path: keyPath(base, p.key),
      message: p.message,
      ...(p.ko === undefined ? {} : { ko: p.ko }),
      ...(p.quote === undefined ? {} : { quote: p.quote }),
    });
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
    if (Array.isArray(list) && list.length > max)
      errors.push({
        path: key,
        message: `at most ${max} are allowed, not ${list.length}`,
        ko: `최대 ${max}개까지 허용됩니다(지금 ${list.length}개)`,
      });
  }
  const clients = Array.isArray(o.clients) ? o.clients : [];
  clients.slice(0, LIMITS.maxClients).forEach((c, i) => {
    const script = typeof c === 'object' && c !== null ? (c as { script?: unknown }).script : undefined;
    if (Array.isArray(script) && script.length > LIMITS.maxScriptOps)
      errors.push({
        path: `clients[${i}].script`,
        message: `at most ${LIMITS.maxScriptOps} operations are allowed, not ${script.length}`,
        ko: `동작은 최대 ${LIMITS.maxScriptOps}개까지 허용됩니다(지금 ${script.length}개)`,
      });
  });
  return errors;
}

/** A scenario is one JSON object; anything else is said plainly (an array is not "unknown field 0"). */
function notAnObject(input: unknown): ScenarioError | null {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return null;
  const what = Array.isArray(input) ? { en: 'an array [ … ]', ko: '배열 [ … ]' } : describeValue(input);
  return {
    path: '(scenario)',
    message: `a scenario is a JSON object { "version": 1, … }, not ${what.en}${Array.isArray(input) ? ': put one scenario in the file, not a list of them' : ''}`,
    ko: `시나리오는 JSON 객체 { "version": 1, … }여야 합니다. 받은 것: ${what.ko}${Array.isArray(input) ? '. 파일에는 시나리오 목록이 아니라 시나리오 하나를 넣으세요' : ''}`,
  };
}

export function validateScenario(input: unknown): Validation {
  const shape = notAnObject(input);
  if (shape) return { ok: false, errors: [shape] };
  const tooBig = oversized(input);
  if (tooBig.length) return { ok: false, errors: tooBig };
  const reserved = reservedKeyErrors(input);
  if (reserved.length) return { ok: false, errors: reserved.map((r) => ({ path: r.path, message: r.en, ko: r.ko })) };
  const parsed = v.safeParse(ScenarioSchema, input, { abortPipeEarly: true });
  if (!parsed.success) {
    const seen = new Set<string>();
    const errors: ScenarioError[] = [];
    for (const issue of parsed.issues) {
      const words = describeIssue(issue, ScenarioSchema, input);
      const e = { path: issuePath(issue), message: words.en, ko: words.ko };
      const k = `${e.path}|${e.message}`;
      if (!seen.has(k)) errors.push(e);
      seen.add(k);
      if (errors.length >= 50) break;
    }
    return { ok: false, errors };
  }
  return checkMeaning(withoutPresetFields(parsed.output));
}

function checkMeaning(s: Scenario): Validation {
  const errors: ScenarioError[] = [];
  const add = (path: string, message: string, ko: string) => errors.push({ path, message, ko });
  const notes: ConfigNote[] = [];
  const cluster = resolveClusterConfig(s.cluster ?? {});
  configErrors(cluster.errors, 'cluster', errors);

  const topics: Record<string, TopicConfig> = {};
  s.topics.forEach((t, i) => {
    if (topics[t.name]) add(`topics[${i}].name`, `topic ${t.name} is defined twice`, `토픽 ${josa(t.name, '이/가')} 두 번 정의됐습니다`);
    if (t.name.startsWith('__'))
      add(`topics[${i}].name`, "names starting with __ are Kafka's internal topics", '__로 시작하는 이름은 Kafka 내부 토픽용입니다');
    const r = resolveTopicConfig(t.config ?? {}, cluster.config['min.insync.replicas']);
    for (const a of assignmentProblems(t, i, cluster.config.brokers)) add(a.path, a.en, a.ko);
    configErrors(r.errors, `topics[${i}].config`, errors);
    topics[t.name] = r.config;
    if (t.leaders) {
      if (t.leaders.length !== (t.partitions ?? 1))
        add(
          `topics[${i}].leaders`,
          `must list one leader per partition (${t.partitions ?? 1})`,
          `파티션마다 리더를 하나씩 적어야 합니다(파티션 ${t.partitions ?? 1}개)`,
        );
      t.leaders.forEach((b, j) => {
        if (b >= cluster.config.brokers)
          add(
            `topics[${i}].leaders[${j}]`,
            `broker ${b} does not exist (the cluster has ${cluster.config.brokers})`,
            `브로커 ${josa(String(b), '은/는')} 없습니다(클러스터의 브로커는 ${cluster.config.brokers}개)`,
          );
      });
    }
  });

  const ids = new Set<string>();
  const processIds = new Set<string>(RESERVED_IDS);
  for (let b = 0; b < cluster.config.brokers; b++) processIds.add(`broker-${b}`);
  const claim = (id: string, path: string) => {
    if (ids.has(id) || processIds.has(id))
      add(
        path,
        `id ${id} is already used (by a client, a sink, a broker or a coordinator)`,
        `id ${josa(id, '은/는')} 이미 쓰이고 있습니다(클라이언트, 싱크, 브로커, 코디네이터 중 하나)`,
      );
    ids.add(id);
    processIds.add(id);
  };
  const sinks = new Map<string, NonNullable<Scenario['sinks']>[number]>();
  (s.sinks ?? []).forEach((k, i) => {
    claim(k.id, `sinks[${i}].id`);
    sinks.set(k.id, k);
    const modes: Record<string, string[]> = {
      database: ['insert', 'upsert', 'inbox', 'offsets-in-db', 'outbox', 'set', 'increment'],
      'http-api': ['plain', 'idempotency-key', 'lookup-before-retry'],
      outbox: [],
    };
    const allowed = modes[k.type] ?? [];
    if (k.mode !== undefined && allowed.length && !allowed.includes(k.mode))
      add(
        `sinks[${i}].mode`,
        `a ${k.type} sink's mode must be one of ${allowed.join(', ')}, not ${JSON.stringify(k.mode)}`,
        `${k.type} 싱크의 mode는 ${allowed.join(', ')} 중 하나여야 합니다(받은 값: ${JSON.stringify(k.mode)})`,
      );
    if (
      k.retentionMs !== undefined &&
      !((k.type === 'database' && k.mode === 'inbox') || (k.type === 'http-api' && k.mode === 'idempotency-key'))
    )
      add(
        `sinks[${i}].retentionMs`,
        'retentionMs is how long a database inbox keeps its rows or an API its idempotency keys: only for mode inbox or idempotency-key',
        'retentionMs는 database Inbox가 행을, API가 멱등성 키를 보관하는 기간입니다. mode가 inbox나 idempotency-key일 때만 씁니다',
      );
    if (k.type === 'outbox') {
      if (!k.topic || !topics[k.topic])
        add(
          `sinks[${i}].topic`,
          'an outbox needs the topic its relay publishes to, defined under topics',
          'outbox에는 릴레이가 발행할 토픽이 필요하고, 그 토픽은 topics에 정의돼 있어야 합니다',
        );
      claim(`${k.id}-relay`, `sinks[${i}].id`);
    }
  });

  const topicRef = (name: string, path: string) => {
    if (!topics[name]) add(path, `topic ${name} is not defined under topics`, `토픽 ${josa(name, '이/가')} topics에 정의돼 있지 않습니다`);
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
          // a partition beyond the topic's count is no error here: send() waits for it in
          // waitOnMetadata until max.block.ms, then fails with TimeoutException (producer/waitOnMetadata.ts)
          records += op.count ?? 1;
          const e = op.headers?.event_id;
          if (e?.includes('{i}') && (op.count ?? 1) > 1) {
            const escaped = e.split('{i}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
            templates.push({ pattern: new RegExp(`^${escaped.join('(\\d+)')}$`), count: op.count ?? 1 });
          } else if (e) eventIds.add(e.replaceAll('{i}', '0'));
        }
        if (op.op === 'resend' && !sentEarlier(op.eventId))
          add(
            `${path}.eventId`,
            `no earlier send in this script has the header event_id=${op.eventId}`,
            `이 스크립트의 앞선 send 중 event_id=${op.eventId} 헤더를 가진 것이 없습니다`,
          );
        const txnOp = op.op === 'beginTransaction' || op.op === 'commitTransaction' || op.op === 'abortTransaction';
        if (txnOp && r.config['transactional.id'] === null)
          add(
            `${path}.op`,
            `${op.op} needs a transactional.id in this producer's config`,
            `${op.op}에는 이 프로듀서 설정의 transactional.id가 필요합니다`,
          );
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
          add(
            `clients[${i}].config["group.id"]`,
            `processing mode ${p.mode} commits offsets, so it needs a group.id`,
            `처리 모드 ${josa(p.mode, '은/는')} offset을 커밋하므로 group.id가 필요합니다`,
          );
        if (p.sink !== undefined && !sinks.has(p.sink))
          add(
            `clients[${i}].processing.sink`,
            `sink ${p.sink} is not defined under sinks`,
            `싱크 ${josa(String(p.sink), '이/가')} sinks에 정의돼 있지 않습니다`,
          );
        const produces = p.mode === 'exactly-once' || p.mode === 'consume-produce-no-transactions';
        if (produces && !p.outputTopic)
          add(
            `clients[${i}].processing.outputTopic`,
            `mode ${p.mode} produces its results: name the output topic`,
            `모드 ${josa(p.mode, '은/는')} 결과를 발행합니다. 출력 토픽(outputTopic)을 적으세요`,
          );
        if (p.outputTopic) topicRef(p.outputTopic, `clients[${i}].processing.outputTopic`);
        if (p.commitIntervalMs !== undefined && p.mode !== 'exactly-once')
          add(
            `clients[${i}].processing.commitIntervalMs`,
            'commitIntervalMs keeps a transaction open across polls: only for mode exactly-once',
            'commitIntervalMs는 트랜잭션을 여러 poll에 걸쳐 열어 둡니다. 모드가 exactly-once일 때만 씁니다',
          );
        if (p.mode === 'offsets-in-sink' && (p.sink === undefined || sinks.get(p.sink)?.mode !== 'offsets-in-db'))
          add(
            `clients[${i}].processing.sink`,
            'offsets-in-sink needs a database sink with mode offsets-in-db',
            'offsets-in-sink에는 mode가 offsets-in-db인 database 싱크가 필요합니다',
          );
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
    add(
      'clients',
      `the scripts send ${records} records; the simulator runs at most ${LIMITS.maxRecords}`,
      `스크립트가 레코드 ${records}개를 보냅니다. 시뮬레이터는 최대 ${LIMITS.maxRecords}개까지 실행합니다`,
    );

  const notAProcess = (path: string, target: string) =>
    add(
      path,
      `${target} is not a client, sink, broker or coordinator of this scenario`,
      `${josa(target, '은/는')} 이 시나리오의 클라이언트, 싱크, 브로커, 코디네이터가 아닙니다`,
    );
  (s.faults ?? []).forEach((f, i) => {
    const path = `faults[${i}]`;
    if (f.type === 'drop' || f.type === 'delay' || f.type === 'duplicate' || f.type === 'reset') {
      if (!(ALL_RPCS as readonly string[]).includes(f.rpc))
        add(
          `${path}.rpc`,
          `${f.rpc} is not an RPC the simulator sends (e.g. Produce, ProduceResponse, EndTxn, WriteTxnMarkers, Fetch, HttpResponse)`,
          `${josa(f.rpc, '은/는')} 시뮬레이터가 보내는 RPC가 아닙니다(예: Produce, ProduceResponse, EndTxn, WriteTxnMarkers, Fetch, HttpResponse)`,
        );
      for (const side of ['from', 'to'] as const) {
        const target = f[side];
        if (target !== undefined && !processIds.has(target.split('.')[0] as string)) notAProcess(`${path}.${side}`, target);
      }
      if (f.type === 'delay' && f.delayMs === undefined)
        add(`${path}.delayMs`, 'a delay needs delayMs (how long, in ms)', 'delay에는 delayMs(지연 시간, ms)가 필요합니다');
      return;
    }
    if (f.type === 'runCleaner') {
      if (f.topic !== undefined) {
        topicRef(f.topic, `${path}.topic`);
        if (topics[f.topic] && topics[f.topic]?.['cleanup.policy'] === 'delete')
          add(
            `${path}.topic`,
            `topic ${f.topic} has cleanup.policy=delete: the cleaner only compacts topics with cleanup.policy=compact`,
            `토픽 ${josa(f.topic, '은/는')} cleanup.policy=delete입니다. 클리너는 cleanup.policy=compact인 토픽만 컴팩션합니다`,
          );
      }
      return;
    }
    if (f.type === 'resetOffsets') {
      resetOffsetsErrors(f, path, { clients: s.clients, topics: s.topics, consumers, streams, cluster: cluster.config }, add);
      return;
    }
    if (f.type === 'abortTransaction') {
      abortTransactionErrors(f, path, s.topics, add);
      return;
    }
    if (f.type === 'controlledShutdown') {
      if (!/^broker-\d+$/.test(f.target) || !processIds.has(f.target))
        add(
          `${path}.target`,
          `${f.target} is not a broker of this scenario: a controlled shutdown stops a broker`,
          `${josa(f.target, '은/는')} 이 시나리오의 브로커가 아닙니다. 제어된 종료는 브로커를 멈춥니다`,
        );
      return;
    }
    if (f.type === 'slowReplication') {
      if (!/^broker-\d+$/.test(f.target) || !processIds.has(f.target))
        add(
          `${path}.target`,
          `${f.target} is not a broker of this scenario: a slow replication link slows a follower broker's replica fetches`,
          `${josa(f.target, '은/는')} 이 시나리오의 브로커가 아닙니다. 느린 복제 링크는 팔로워 브로커의 복제 Fetch를 늦춥니다`,
        );
      return;
    }
    if (!processIds.has(f.target)) notAProcess(`${path}.target`, f.target);
    if (f.point !== undefined) {
      if (f.type !== 'crash' && f.type !== 'pause')
        add(
          `${path}.point`,
          'only a crash or a pause can happen at a point of the application loop',
          '애플리케이션 루프의 지점(point)에서는 crash나 pause만 일어날 수 있습니다',
        );
      if (f.type === 'pause' && f.durationMs === undefined)
        add(`${path}.durationMs`, 'a pause at a point needs durationMs', '지점(point)에서의 pause에는 durationMs가 필요합니다');
      if (!(CRASH_POINTS as readonly string[]).includes(f.point))
        add(`${path}.point`, `point must be one of ${CRASH_POINTS.join(', ')}`, `point는 ${CRASH_POINTS.join(', ')} 중 하나여야 합니다`);
      if (f.at !== undefined) add(`${path}.at`, 'give either at (a time) or point, not both', 'at(시각)과 point 중 하나만 적으세요');
    } else if (f.at === undefined)
      add(
        `${path}.at`,
        `a ${f.type} needs a time (at) or, for a crash, a point`,
        `${f.type}에는 시각(at)이 필요합니다. crash라면 지점(point)도 됩니다`,
      );
  });

  if (errors.length) return { ok: false, errors };
  return { ok: true, resolved: { scenario: s, cluster: cluster.config, topics, producers, consumers, streams, notes } };
}

/** Parses JSON text (a leading byte order mark is fine), then validates it; bad JSON is one error with its line and column. */
export function parseScenarioJson(text: string): Validation {
  if (text.length > 1_000_000)
    return {
      ok: false,
      errors: [
        {
          path: '(scenario)',
          message: `the scenario is ${text.length} characters; at most 1,000,000 are accepted`,
          ko: `시나리오가 ${text.length}자입니다. 최대 1,000,000자까지 받습니다`,
        },
      ],
    };
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const p = parsed.problem;
    return { ok: false, errors: [{ path: '(scenario)', message: p.en, ko: p.ko, line: p.line, column: p.column }] };
  }
  return validateScenario(parsed.value);
}
