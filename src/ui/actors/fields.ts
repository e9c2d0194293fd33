/**
 * The fields that matter for each kind of actor, read from its XState context at the current step:
 * what a person needs to follow the run (producerId/epoch, sequences, transaction state, group
 * generation and members, positions, committed offsets, rows and charges), in Kafka's words.
 */
import {
  type BrokerContext,
  type ConsumerAppContext,
  type ConsumerContext,
  type DatabaseContext,
  fatalReason,
  type GroupCoordinatorContext,
  groupDigits,
  type HttpApiContext,
  keyOf,
  lastStableOffset,
  type MarkerBatch,
  type OutboxRelayContext,
  type ProducerAppContext,
  type ProducerContext,
  queueSize,
  type StreamThreadContext,
  storesByTask,
  type TxnCoordinatorContext,
  topicPartitionKey,
} from '../../sim/views';
import type { Language } from '../../store/simStore';
import { brokerReplicaFields, controllerFields, type ReplicationByKey } from './replicationFields';

export interface Field {
  readonly label: string;
  readonly value: string;
}

/** The role of an actor inside its process, from its id ("orders.producer" → producer). */
export function roleOf(actorId: string, processKind: string): string {
  const dot = actorId.lastIndexOf('.');
  if (dot >= 0) return actorId.slice(dot + 1);
  return processKind;
}

const ROLE_NAMES: Record<string, readonly [string, string]> = {
  app: ['application', '애플리케이션'],
  producer: ['KafkaProducer', 'KafkaProducer'],
  consumer: ['KafkaConsumer', 'KafkaConsumer'],
  restore: ['restore consumer', '복원 컨슈머'],
  relay: ['CDC relay', 'CDC 릴레이'],
};

/** What a process's actor is, by its role (`billing.app` → "application"), as the actors panel and the details name it. */
export function roleName(role: string, language: Language): string {
  const r = ROLE_NAMES[role];
  return r ? (language === 'ko' ? r[1] : r[0]) : role;
}

const L = (language: Language, en: string, ko: string) => (language === 'ko' ? ko : en);

type Note = (text: string) => string;
const entries = (o: Readonly<Record<string, number>>) =>
  Object.entries(o)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
const none = (language: Language) => L(language, 'none', '없음');
const orNone = (s: string, language: Language) => (s === '' ? none(language) : s);

function producerFields(c: ProducerContext, lang: Language, note: Note, state: string): Field[] {
  const out: Field[] = [];
  out.push({
    label: 'producerId / epoch',
    value: c.producerId < 0 ? L(lang, 'none yet', '아직 없음') : `${c.producerId} / ${c.producerEpoch}`,
  });
  if (c.transactional) out.push({ label: 'transactional.id', value: c.config['transactional.id'] ?? '' });
  else out.push({ label: 'enable.idempotence', value: String(c.idempotent) });
  out.push({ label: L(lang, 'next sequence', '다음 시퀀스'), value: orNone(entries(c.nextSequence), lang) });
  const inFlight = c.batches.filter((b) => b.inFlight);
  const waiting = c.batches.filter((b) => !b.inFlight);
  // a producer without idempotence sends its batches with no sequence (RecordBatch.NO_SEQUENCE, -1):
  // it read "orders-0 seq -1", and "seq -1–0" for two records
  const sequence = (b: (typeof c.batches)[number]) =>
    b.baseSequence < 0
      ? ` (${L(lang, 'no sequence', '시퀀스 없음')})`
      : ` seq ${b.baseSequence}${b.records.length > 1 ? `–${b.baseSequence + b.records.length - 1}` : ''}`;
  const batch = (b: (typeof c.batches)[number]) =>
    `${topicPartitionKey(b.topic, b.partition)}${sequence(b)}${b.attempts > 1 ? ` (${L(lang, 'attempt', '시도')} ${b.attempts})` : ''}`;
  out.push({ label: L(lang, 'batches in flight', '전송 중 배치'), value: inFlight.length ? inFlight.map(batch).join('; ') : '0' });
  if (waiting.length) out.push({ label: L(lang, 'batches waiting to retry', '재시도 대기 배치'), value: waiting.map(batch).join('; ') });
  // their records already failed, but the requests still hold their connection's slots (and, at
  // max.in.flight.requests.per.connection=1, their partitions) until they are answered
  if (c.expiredInFlight.length)
    out.push({
      label: L(lang, 'expired batches still in flight', '만료됐지만 전송 중인 배치'),
      value: c.expiredInFlight.map(batch).join('; '),
    });
  const buffered = Object.values(c.accumulating).reduce((n, q) => n + queueSize(q), 0);
  if (buffered) out.push({ label: L(lang, 'records in the accumulator', '누적 중 레코드'), value: String(buffered) });
  if (c.transactional) {
    const parts = [...c.txnPartitions, ...c.pendingPartitions.map((p) => `${p}?`)];
    out.push({ label: L(lang, 'partitions in the transaction', '트랜잭션 파티션'), value: orNone(parts.join(', '), lang) });
    if (c.pendingOffsets)
      out.push({
        label: L(lang, 'offsets for the transaction', '트랜잭션에 넣을 offset'),
        value: `${c.pendingOffsets.groupId}: ${c.pendingOffsets.offsets.map((o) => `${keyOf(o)}=${o.offset}`).join(', ')}`,
      });
  }
  if (c.lastError) out.push({ label: L(lang, 'last error', '마지막 오류'), value: c.lastError });
  // FATAL_ERROR says why: fenced, its transactional.id expired, an invalid transition … (producer/fatalReason.ts)
  if (state === 'FATAL_ERROR') out.push({ label: L(lang, 'why fatal', '치명적 오류의 이유'), value: note(fatalReason(c.lastError)) });
  return out;
}

function producerAppFields(c: ProducerAppContext, lang: Language, note: Note): Field[] {
  const op = c.script[c.pc];
  const what = op
    ? op.op === 'send'
      ? `send(${op.topic}, ${op.key ?? 'null'})`
      : op.op === 'resend'
        ? `resend(${op.eventId})`
        : `${op.op}()`
    : L(lang, 'done', '완료');
  const out: Field[] = [
    { label: L(lang, 'script', '스크립트'), value: `${Math.min(c.pc + 1, c.script.length)}/${c.script.length}: ${what}` },
  ];
  if (c.transactional) out.push({ label: L(lang, 'in a transaction', '트랜잭션 중'), value: String(c.inTransaction) });
  if (c.stopped) out.push({ label: L(lang, 'stopped', '멈춤'), value: note(c.stopped) });
  return out;
}

function consumerFields(c: ConsumerContext, lang: Language): Field[] {
  const out: Field[] = [
    { label: 'group.id', value: c.config['group.id'] ?? L(lang, 'none (no commits)', '없음 (커밋 불가)') },
    { label: 'isolation.level', value: c.config['isolation.level'] },
  ];
  if (c.config['group.id'] !== null) {
    out.push({
      label: L(lang, 'member / generation', '멤버 / generation'),
      value: c.memberId ? `${c.memberId} / ${c.generationId}` : L(lang, 'not joined', '참여 전'),
    });
    out.push({ label: 'enable.auto.commit', value: String(c.config['enable.auto.commit']) });
  }
  out.push({
    label: L(lang, 'assignment', '할당'),
    value: orNone(c.assignment.map((tp) => keyOf(tp)).join(', '), lang),
  });
  out.push({ label: L(lang, 'positions', '위치(position)'), value: orNone(entries(c.positions), lang) });
  const buffered = Object.values(c.buffer).reduce((n, r) => n + r.length, 0);
  if (buffered) out.push({ label: L(lang, 'fetched, not yet polled', '가져왔지만 poll 전'), value: String(buffered) });
  return out;
}

const PLAN_EN: Record<string, string> = {
  process: 'processing a record',
  sideEffect: 'writing outside Kafka',
  produce: 'producing the result',
  beginTransaction: 'beginTransaction()',
  groupMetadata: 'consumer.groupMetadata()',
  sendOffsets: 'sendOffsetsToTransaction()',
  commitTransaction: 'commitTransaction()',
  flush: 'flush()',
  commitSync: 'commitSync()',
  point: 'between steps',
};
const PLAN_KO: Record<string, string> = {
  process: '레코드 처리 중',
  sideEffect: 'Kafka 밖에 쓰는 중',
  produce: '결과를 쓰는 중',
  beginTransaction: 'beginTransaction()',
  groupMetadata: 'consumer.groupMetadata()',
  sendOffsets: 'sendOffsetsToTransaction()',
  commitTransaction: 'commitTransaction()',
  flush: 'flush()',
  commitSync: 'commitSync()',
  point: '단계 사이',
};

function consumerAppFields(c: ConsumerAppContext, lang: Language, note: Note): Field[] {
  const step = c.plan[c.step];
  const doing = step
    ? `${(lang === 'ko' ? PLAN_KO : PLAN_EN)[step.kind] ?? step.kind}${'i' in step && c.batch[step.i] ? ` (offset ${c.batch[step.i]?.offset})` : ''}`
    : L(lang, 'polling', 'poll 중');
  const out: Field[] = [
    { label: L(lang, 'mode', '방식'), value: c.mode },
    { label: L(lang, 'doing', '하는 일'), value: doing },
    { label: L(lang, 'batch', '배치'), value: c.batch.length ? `${c.batch.length} (${c.batch.map((r) => r.offset).join(', ')})` : '0' },
  ];
  if (c.sink) out.push({ label: L(lang, 'writes to', '쓰는 곳'), value: `${c.sink.id} (${c.sink.mode})` });
  if (c.outputTopic) out.push({ label: L(lang, 'output topic', '출력 토픽'), value: c.outputTopic });
  if (c.stopped) out.push({ label: L(lang, 'stopped', '멈춤'), value: note(c.stopped) });
  return out;
}

function txnCoordinatorFields(c: TxnCoordinatorContext, lang: Language): Field[] {
  const out: Field[] = Object.values(c.txns)
    .sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : 1))
    .map((m) => ({
      label: m.transactionalId,
      value: `${m.state} · producerId ${m.producerId} epoch ${m.producerEpoch}${m.partitions.length ? ` · ${m.partitions.join(', ')}` : ''}`,
    }));
  const markers = Object.entries(c.markers).map(([id, w]) => `${id}: ${w.result} → ${w.remaining.join(', ')}`);
  if (markers.length) out.push({ label: L(lang, 'markers to write', '기록할 마커'), value: markers.join('; ') });
  out.push(...markerChannelFields(c, lang));
  if (out.length === 0) out.push({ label: 'transactional.id', value: none(lang) });
  return out;
}

/** One WriteTxnMarkers request of the channel: its correlation id and each transaction's marker in it. */
function markerBatchText(b: MarkerBatch): string {
  return `#${b.correlationId} (${b.markers.map((m) => `${m.transactionalId} ${m.result}: ${m.partitions.join(', ')}`).join('; ')})`;
}

/**
 * The marker channel per destination broker (TransactionMarkerChannelManager: one WriteTxnMarkers in
 * flight per broker, the requests generated behind it waiting), and a broker inside its reconnect
 * backoff — so a person sees markers wait for a broker, and several transactions share one request.
 */
function markerChannelFields(c: TxnCoordinatorContext, lang: Language): Field[] {
  const out: Field[] = [];
  for (const node of Object.keys(c.markerSends ?? {}).sort()) {
    const sends = c.markerSends?.[node as keyof typeof c.markerSends];
    if (!sends) continue;
    const parts: string[] = [];
    if (sends.inFlight) parts.push(`${L(lang, 'in flight', '전송 중')} ${markerBatchText(sends.inFlight)}`);
    if (sends.unsent.length) parts.push(`${L(lang, 'waiting', '대기')} ${sends.unsent.map(markerBatchText).join(', ')}`);
    const backoff = c.markerConnections?.[node];
    if (backoff?.blackedOut)
      parts.push(L(lang, `reconnect backoff ${backoff.reconnectBackoffMs} ms`, `재연결 대기 ${backoff.reconnectBackoffMs} ms`));
    if (parts.length) out.push({ label: `WriteTxnMarkers → ${node}`, value: parts.join(' · ') });
  }
  return out;
}

function groupCoordinatorFields(c: GroupCoordinatorContext, lang: Language): Field[] {
  const out: Field[] = [];
  for (const g of Object.values(c.groups).sort((a, b) => (a.groupId < b.groupId ? -1 : 1))) {
    out.push({
      label: `${L(lang, 'group', '그룹')} ${g.groupId}`,
      value: `${g.state} · generation ${g.generationId} · ${L(lang, 'members', '멤버')}: ${orNone(Object.keys(g.members).sort().join(', '), lang)}`,
    });
    out.push({ label: `${g.groupId} ${L(lang, 'committed', '커밋됨')}`, value: orNone(entries(g.committed), lang) });
    if (g.pending.length)
      out.push({
        label: `${g.groupId} ${L(lang, 'pending (in a transaction)', '보류(트랜잭션 중)')}`,
        value: g.pending.map((p) => `producerId ${p.producerId}: ${entries(p.offsets)}`).join('; '),
      });
  }
  if (out.length === 0) out.push({ label: L(lang, 'groups', '그룹'), value: none(lang) });
  return out;
}

/** At most this many producers a partition's row names (the rest are counted). */
const PRODUCERS_SHOWN = 3;

/**
 * What the partition remembers of its producers — all idempotence knows on the broker side:
 * producerId, epoch, the last sequence and an open transaction's first offset (ProducerStateEntry).
 */
function producerState(log: BrokerContext['partitions'][string], lang: Language): string {
  const shown = [...log.producers.values()].slice(0, PRODUCERS_SHOWN).map((e) => {
    const last = e.batches.at(-1);
    const seq = last ? ` · ${L(lang, 'last seq', '마지막 seq')} ${last.lastSeq}` : '';
    const txn = e.currentTxnFirstOffset !== null ? ` · ${L(lang, 'transaction from', '트랜잭션 시작')} ${e.currentTxnFirstOffset}` : '';
    return `${e.producerId} e${e.producerEpoch}${seq}${txn}`;
  });
  const more = log.producers.size - shown.length;
  return more > 0 ? `${shown.join('; ')}; +${more}` : shown.join('; ');
}

/** Transaction verifications the partition holds (VerificationStateEntry): whose, which epoch, the lowest sequence, since when. */
function verificationState(log: BrokerContext['partitions'][string], lang: Language): string {
  const shown = [...log.verificationStates.entries()]
    .slice(0, PRODUCERS_SHOWN)
    .map(
      ([producerId, v]) =>
        `${producerId} e${v.epoch} · ${L(lang, 'lowest seq', '최저 seq')} ${v.lowestSequence} · ${L(lang, `since ${groupDigits(v.timestamp)} ms`, `${groupDigits(v.timestamp)} ms부터`)}`,
    );
  const more = log.verificationStates.size - shown.length;
  return more > 0 ? `${shown.join('; ')}; +${more}` : shown.join('; ');
}

function brokerFields(c: BrokerContext, lang: Language): Field[] {
  const logs = Object.values(c.partitions).sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  const out: Field[] = logs.flatMap((log) => [
    {
      label: keyOf(log),
      value: `LEO ${log.logEndOffset} · HW ${log.highWatermark} · LSO ${lastStableOffset(log)}`,
    },
    ...(log.producers.size > 0 ? [{ label: `${keyOf(log)} ${L(lang, 'producers', '프로듀서')}`, value: producerState(log, lang) }] : []),
    ...(log.verificationStates.size > 0
      ? [{ label: `${keyOf(log)} ${L(lang, 'verifying', '검증 중')}`, value: verificationState(log, lang) }]
      : []),
  ]);
  if (c.parked.length) out.push({ label: L(lang, 'fetches held', '대기 중 Fetch'), value: String(c.parked.length) });
  if (out.length === 0) out.push({ label: L(lang, 'leads', '리더 파티션'), value: none(lang) });
  return out;
}

function databaseFields(c: DatabaseContext, lang: Language): Field[] {
  const out: Field[] = [
    { label: L(lang, 'mode', '방식'), value: c.mode },
    {
      label: L(lang, 'rows', '행'),
      value: c.rows.length
        ? `${c.rows.length} (${c.rows.map((r) => `${r.primaryKey}${r.writes > 1 ? ` ×${r.writes}` : ''}`).join(', ')})`
        : '0',
    },
  ];
  if (c.mode === 'inbox') out.push({ label: 'inbox', value: orNone(c.inbox.map((r) => r.key.replace('|', ', ')).join('; '), lang) });
  if (c.mode === 'set' || c.mode === 'increment')
    out.push({
      label: L(lang, 'counters', '카운터'),
      value: orNone(
        Object.entries(c.counters)
          .map(([k, v]) => `${k} = ${v}`)
          .join('; '),
        lang,
      ),
    });
  if (c.mode === 'offsets-in-db') out.push({ label: L(lang, 'stored offsets', '저장된 offset'), value: orNone(entries(c.offsets), lang) });
  if (c.outbox.length) out.push({ label: 'outbox', value: String(c.outbox.length) });
  return out;
}

function httpApiFields(c: HttpApiContext, lang: Language): Field[] {
  const byEvent = new Map<string, number>();
  for (const ch of c.charges) byEvent.set(ch.eventId ?? '?', (byEvent.get(ch.eventId ?? '?') ?? 0) + 1);
  return [
    { label: L(lang, 'mode', '방식'), value: c.mode },
    {
      label: L(lang, 'charges', '결제'),
      value: c.charges.length ? `${c.charges.length} (${[...byEvent].map(([e, n]) => (n > 1 ? `${e} ×${n}` : e)).join(', ')})` : '0',
    },
  ];
}

/** Each task's store: "0_0: a=2 · 0_2: k=1" (one store per task, so a key may be in two). */
function taskStores(c: StreamThreadContext): string {
  return Object.entries(storesByTask(c))
    .map(([task, s]) => `${task}: ${entries(s) || '–'}`)
    .join(' · ');
}

function streamThreadFields(c: StreamThreadContext, lang: Language, note: Note): Field[] {
  const out: Field[] = [
    { label: 'processing.guarantee', value: c.guarantee },
    { label: L(lang, 'state stores (task: count per key)', '상태 저장소 (태스크: 키별 개수)'), value: orNone(taskStores(c), lang) },
    { label: 'changelog', value: c.changelogTopic },
    { label: L(lang, 'processed since last commit', '마지막 커밋 이후 처리'), value: String(c.uncommitted) },
    { label: L(lang, 'positions', '위치(position)'), value: orNone(entries(c.positions), lang) },
  ];
  if (c.restoreEnd)
    out.push({
      label: L(lang, 'restoring to', '복원 목표'),
      value: `${entries(c.restoreEnd)} (${c.restoredRecords} ${L(lang, 'read', '읽음')})`,
    });
  if (c.updating.length > 0)
    out.push({
      label: L(lang, 'state updater restoring (paused)', '상태 업데이터 복원 중 (일시 정지)'),
      value: c.updating.join(', '),
    });
  if (c.repartitionTopic) out.push({ label: 'repartition', value: c.repartitionTopic });
  if (c.stopped) out.push({ label: L(lang, 'stopped', '멈춤'), value: note(c.stopped) });
  return out;
}

function outboxRelayFields(c: OutboxRelayContext, lang: Language): Field[] {
  return [
    { label: L(lang, 'publishes to', '발행 토픽'), value: c.topic },
    { label: L(lang, 'recorded position (next row id)', '기록된 위치 (다음 행 id)'), value: String(c.position) },
    { label: L(lang, 'rows being published', '발행 중인 행'), value: c.pending.length ? `${c.index}/${c.pending.length}` : '0' },
  ];
}

/** Each actor kind's fields, from its machine's context (the context's type is the kind's own). */
type FieldsOf = (context: never, language: Language, note: Note, state: string) => Field[];
const FIELDS_BY_KIND = new Map<string, FieldsOf>([
  ['producer', producerFields],
  ['producer-app', producerAppFields],
  ['consumer', consumerFields],
  ['consumer-app', consumerAppFields],
  ['txn-coordinator', txnCoordinatorFields],
  ['group-coordinator', groupCoordinatorFields],
  ['broker', brokerFields],
  ['database', databaseFields],
  ['http-api', httpApiFields],
  ['streams-thread', streamThreadFields],
  ['outbox-relay', outboxRelayFields],
]);

/** What the replication fields read besides the actor's own context: its id and the view's replicated partitions. */
export interface ReplicationContext {
  readonly actorId: string;
  readonly partitions: ReplicationByKey;
}

/** The KRaft controller's ActorSpec kind (present only when some partition has more than one replica). */
export const CONTROLLER_KIND = 'controller';

/**
 * The fields for one actor. `kind` is the ActorSpec kind (broker, producer, producer-app, consumer,
 * consumer-app, txn-coordinator, group-coordinator, controller, database, http-api …); unknown kinds
 * show none. `note` translates the engine's notes (the narration module's translateNote, once it has
 * loaded). `replication`: a broker's replicas and the controller's partitions, when the run has any.
 * `state`: the actor's state (a producer in FATAL_ERROR says why).
 */
export function actorFields(
  kind: string,
  context: unknown,
  language: Language,
  note: Note = (t) => t,
  replication?: ReplicationContext,
  state = '',
): Field[] {
  if (context === null || typeof context !== 'object') return [];
  if (kind === CONTROLLER_KIND) return controllerFields(context, replication?.partitions ?? new Map(), language);
  const own = FIELDS_BY_KIND.get(kind)?.(context as never, language, note, state) ?? [];
  if (kind === 'broker' && replication && replication.partitions.size > 0)
    return [...brokerReplicaFields(replication.actorId, replication.partitions, language), ...own];
  return own;
}
