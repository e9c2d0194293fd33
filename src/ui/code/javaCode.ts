/**
 * The Java a reader would write to run a scenario's clients: the configuration as `props.put(…)`,
 * then the calls the run makes, named as the narration names them (initTransactions,
 * beginTransaction, send, flush, sendOffsetsToTransaction(…, consumer.groupMetadata()),
 * commitTransaction, poll, commitSync) — the seed articles' snippets, made from the scenario so an
 * edited scenario shows its own code. Plain text: the UI renders it as text. Comments follow the
 * reader's language; Java and Kafka's names stay as they are.
 */
import type { ClientSpec, ConsumerClientSpec, ProducerClientSpec, Scenario, SinkSpec, StreamsClientSpec } from '../../sim';
import type { Language } from '../../store/simStore';

export interface ClientCode {
  readonly client: string;
  readonly kind: ClientSpec['type'];
  readonly code: string;
}

type Say = (en: string, ko: string) => string;

const BOOTSTRAP = 'props.put("bootstrap.servers", "localhost:9092");';

const q = (s: string | null | undefined) => (s === null || s === undefined ? 'null' : JSON.stringify(s));

/** `props.put(…)` for each key a client sets, with StreamsConfig's constants where the articles use them. */
function propsLines(config: Readonly<Record<string, unknown>>, streams = false): string[] {
  return Object.entries(config).map(([k, v]) => {
    if (streams && k === 'processing.guarantee')
      return `props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, ${v === 'exactly_once_v2' ? 'StreamsConfig.EXACTLY_ONCE_V2' : 'StreamsConfig.AT_LEAST_ONCE'});`;
    if (streams && k === 'application.id') return `props.put(StreamsConfig.APPLICATION_ID_CONFIG, ${q(String(v))});`;
    if (streams && k === 'commit.interval.ms') return `props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, ${String(v)});`;
    return `props.put(${q(k)}, ${typeof v === 'string' ? q(v) : JSON.stringify(String(v))});`;
  });
}

type SendOp = { topic: string; key: string | null; value: string | null; partition?: number; headers?: Readonly<Record<string, string>> };

/** A ProducerRecord as Kafka's client builds it; headers through its (topic, partition, key, value, headers) constructor. */
function record(op: SendOp, eventId?: string): string {
  const headers = Object.entries(op.headers ?? {}).map(
    ([k, v]) => [k, k === 'event_id' && eventId !== undefined ? eventId : q(v)] as const,
  );
  if (headers.length === 0 && op.partition === undefined) return `new ProducerRecord<>(${q(op.topic)}, ${q(op.key)}, ${q(op.value)})`;
  const list = headers.map(([k, v]) => `new RecordHeader(${q(k)}, ${v}.getBytes(UTF_8))`).join(', ');
  return `new ProducerRecord<>(${q(op.topic)}, ${op.partition ?? 'null'}, ${q(op.key)}, ${q(op.value)}, List.of(${list}))`;
}

function producerCode(c: ProducerClientSpec, say: Say): string {
  const cfg = c.config ?? {};
  const transactional = typeof cfg['transactional.id'] === 'string';
  const out = [
    'Properties props = new Properties();',
    BOOTSTRAP,
    ...propsLines(cfg),
    'KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());',
  ];
  if (transactional)
    out.push(
      `producer.initTransactions(); ${say('// fences an older instance with the same transactional.id', '// 같은 transactional.id의 이전 인스턴스를 펜싱')}`,
    );
  let sends = 0;
  for (const op of c.script) {
    switch (op.op) {
      case 'send': {
        sends++;
        if (sends > 8) continue;
        const line = `producer.send(${record(op)});`;
        // "{i}" in a counted send is the loop variable
        out.push(op.count && op.count > 1 ? `for (int i = 0; i < ${op.count}; i++) ${line.replaceAll('{i}', '" + i + "')}` : line);
        break;
      }
      case 'resend': {
        // the application builds the same event again and calls send() once more
        const original = c.script.find((o) => o.op === 'send' && Object.values(o.headers ?? {}).includes(op.eventId));
        const again = original?.op === 'send' ? original : { topic: 'orders', key: null, value: null, headers: { event_id: op.eventId } };
        out.push(
          op.newEventId
            ? `producer.send(${record(again, 'UUID.randomUUID().toString()')}); ${say('// a business retry mints a new event_id', '// 비즈니스 재시도가 새 event_id를 만든다')}`
            : `producer.send(${record(again)}); ${say('// a new send(): a new sequence number', '// 새 send(): 새 시퀀스 번호')}`,
        );
        break;
      }
      case 'flush':
      case 'beginTransaction':
      case 'commitTransaction':
      case 'abortTransaction':
        out.push(`producer.${op.op}();`);
        break;
      case 'restart':
        out.push(
          op.closeTimeoutMs === undefined ? 'producer.close();' : `producer.close(Duration.ofMillis(${op.closeTimeoutMs}));`,
          'producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());',
          ...(transactional ? ['producer.initTransactions();'] : [say('// a new producerId', '// 새 producerId')]),
        );
        break;
      case 'sleep':
        out.push(`Thread.sleep(${op.ms});`);
        break;
    }
  }
  if (sends > 8) out.push(say(`// … ${sends - 8} more send() calls`, `// … send() ${sends - 8}번 더`));
  return out.join('\n');
}

/** What processing a record does to the sink, in the client code a reader would write. */
function sinkLines(sink: SinkSpec | undefined, say: Say): string[] {
  if (!sink) return ['process(record);'];
  const mode = sink.mode ?? (sink.type === 'database' ? 'insert' : sink.type === 'http-api' ? 'plain' : 'outbox');
  switch (mode) {
    case 'insert':
      return ['db.execute("INSERT INTO orders (event_id, payload) VALUES (?, ?)", eventId, record.value());'];
    case 'upsert':
      return [
        'db.execute("INSERT INTO orders (event_id, payload) VALUES (?, ?) " +',
        '    "ON CONFLICT (event_id) DO UPDATE SET payload = EXCLUDED.payload", eventId, record.value());',
      ];
    case 'inbox':
      return [
        `try (Transaction tx = db.begin()) { ${say('// one database transaction', '// DB 트랜잭션 하나')}`,
        `  tx.execute("INSERT INTO inbox (event_id, consumer) VALUES (?, ?)", eventId, CONSUMER); ${say('// UNIQUE (event_id, consumer)', '// UNIQUE (event_id, consumer)')}`,
        '  tx.execute("INSERT INTO ledger (event_id, payload) VALUES (?, ?)", eventId, record.value());',
        '  tx.commit();',
        `} catch (UniqueViolation e) { ${say('/* already processed: nothing written */', '/* 이미 처리함: 아무것도 쓰지 않음 */')} }`,
        ...(sink.retentionMs !== undefined
          ? [
              say(
                `// a cleanup job deletes inbox rows older than ${sink.retentionMs} ms`,
                `// 정리 작업이 ${sink.retentionMs} ms보다 오래된 Inbox 행을 지운다`,
              ),
            ]
          : []),
      ];
    case 'offsets-in-db':
      return [
        'try (Transaction tx = db.begin()) {',
        '  tx.execute("INSERT INTO orders (event_id, payload) VALUES (?, ?)", eventId, record.value());',
        '  tx.execute("UPDATE consumer_offsets SET next_offset = ? WHERE tp = ?", record.offset() + 1, tp(record));',
        '  tx.commit();',
        '}',
      ];
    case 'set':
      return [`redis.set(record.key(), record.value()); ${say('// SET key value: an absolute value', '// SET key value: 절댓값')}`];
    case 'increment':
      return [`redis.incr(record.key()); ${say('// INCR key: +1 for every call', '// INCR key: 호출마다 +1')}`];
    case 'plain':
      return ['paymentApi.post("/payments", eventId, record.value());'];
    case 'idempotency-key':
      return [
        `paymentApi.post("/payments", eventId, record.value(), Map.of("Idempotency-Key", eventId));${
          sink.retentionMs !== undefined ? ` ${say(`// keys kept ${sink.retentionMs} ms`, `// 키 보존 ${sink.retentionMs} ms`)}` : ''
        }`,
      ];
    case 'lookup-before-retry':
      return [
        'try { paymentApi.post("/payments", eventId, record.value()); }',
        'catch (TimeoutException unknown) {',
        `  if (paymentApi.get("/payments?event_id=" + eventId).status() == 404) ${say('// ask before retrying', '// 재시도 전에 조회')}`,
        '    paymentApi.post("/payments", eventId, record.value());',
        '}',
      ];
    default:
      return [
        'try (Transaction tx = db.begin()) {',
        '  tx.execute("INSERT INTO orders …");',
        `  tx.execute("INSERT INTO outbox (event_id, payload) VALUES (?, ?)", eventId, record.value()); ${say('// CDC publishes it', '// CDC가 발행')}`,
        '  tx.commit();',
        '}',
      ];
  }
}

function consumerCode(c: ConsumerClientSpec, sinks: readonly SinkSpec[], say: Say): string {
  const cfg = c.config ?? {};
  const p = c.processing;
  const mode = p?.mode ?? (cfg['enable.auto.commit'] === false ? 'at-least-once' : 'auto-commit');
  const sink = sinks.find((k) => k.id === p?.sink);
  const topics = c.topics.map(q).join(', ');
  const out = [
    'Properties props = new Properties();',
    BOOTSTRAP,
    ...propsLines(cfg),
    'KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());',
    `consumer.subscribe(List.of(${topics}));`,
  ];
  const each = (indent: string, body: string[]) => [
    `${indent}for (ConsumerRecord<String, String> record : records) {`,
    ...(sink ? [`${indent}  String eventId = new String(record.headers().lastHeader("event_id").value(), UTF_8);`] : []),
    ...body.map((l) => `${indent}  ${l}`),
    `${indent}}`,
  ];
  const poll = '  ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));';
  switch (mode) {
    case 'exactly-once': {
      const pc = p?.producerConfig ?? {};
      const tid = typeof pc['transactional.id'] === 'string' ? pc['transactional.id'] : `${c.id}-txn`;
      out.push(
        say('// the producer, not the consumer, runs the transaction', '// 트랜잭션을 수행하는 것은 컨슈머가 아니라 프로듀서'),
        'Properties producerProps = new Properties();',
        BOOTSTRAP.replace('props.put', 'producerProps.put'),
        `producerProps.put("transactional.id", ${q(String(tid))});`,
        ...propsLines(Object.fromEntries(Object.entries(pc).filter(([k]) => k !== 'transactional.id'))).map((l) =>
          l.replace('props.put', 'producerProps.put'),
        ),
        'KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer());',
        'producer.initTransactions();',
        'while (true) {',
        poll,
        '  producer.beginTransaction();',
        ...each('  ', [
          ...(sink ? sinkLines(sink, say) : []),
          `producer.send(new ProducerRecord<>(${q(p?.outputTopic)}, record.key(), transform(record.value())));`,
        ]),
        ...(p?.commitIntervalMs !== undefined
          ? [
              say(
                `  // the transaction stays open across polls until ${p.commitIntervalMs} ms have passed`,
                `  // ${p.commitIntervalMs} ms가 지날 때까지 트랜잭션을 여러 poll에 걸쳐 열어 둔다`,
              ),
              say(
                '  // a poll() that rebalances revokes its partitions: the ConsumerRebalanceListener aborts the open transaction',
                '  // 리밸런스가 일어난 poll()은 파티션을 회수한다: ConsumerRebalanceListener가 열린 트랜잭션을 취소한다',
              ),
            ]
          : []),
        `  producer.sendOffsetsToTransaction(nextOffsets(records), consumer.groupMetadata()); ${say('// next offsets, not the last ones', '// 마지막이 아니라 다음 offset')}`,
        '  producer.commitTransaction();',
        '}',
        say(
          '// on an abortable error: producer.abortTransaction(), then seek back to the committed offsets',
          '// 취소 가능한 오류에서는 producer.abortTransaction() 뒤 커밋된 offset으로 되돌아간다',
        ),
      );
      if (cfg['enable.auto.commit'] !== false)
        out.push(
          say(
            '// enable.auto.commit is still true: poll() and onJoinPrepare also commit positions outside the transaction',
            '// enable.auto.commit이 여전히 true: poll()과 onJoinPrepare도 트랜잭션 밖에서 위치를 커밋한다',
          ),
        );
      return out.join('\n');
    }
    case 'consume-produce-no-transactions':
      out.push(
        'while (true) {',
        poll,
        ...each('  ', [`producer.send(new ProducerRecord<>(${q(p?.outputTopic)}, record.key(), transform(record.value())));`]),
        '  producer.flush();',
        `  consumer.commitSync(); ${say('// separate from the output: a crash in between writes it again', '// 출력과 분리: 그 사이 중단되면 다시 쓴다')}`,
        '}',
      );
      return out.join('\n');
    case 'at-most-once':
      out.push(
        'while (true) {',
        poll,
        `  consumer.commitSync(); ${say('// commit first', '// 먼저 커밋')}`,
        ...each('  ', sinkLines(sink, say)),
        '}',
      );
      return out.join('\n');
    case 'commit-last-processed':
      out.push(
        'while (true) {',
        poll,
        ...each('  ', sinkLines(sink, say)),
        `  consumer.commitSync(lastProcessedOffsets(records)); ${say('// the pitfall: last + 1 is the next to read', '// 함정: 다음에 읽을 위치는 last + 1')}`,
        '}',
      );
      return out.join('\n');
    case 'auto-commit':
      out.push(
        'while (true) {',
        `${poll} ${say('// also auto-commits every auto.commit.interval.ms', '// auto.commit.interval.ms마다 자동 커밋도 한다')}`,
        ...each('  ', sinkLines(sink, say)),
        '}',
      );
      return out.join('\n');
    case 'offsets-in-sink':
      out.push(
        say(
          '// onPartitionsAssigned: consumer.seek(tp, offsetStoredInDb(tp))',
          '// onPartitionsAssigned: consumer.seek(tp, DB에 저장된 offset)',
        ),
        'while (true) {',
        poll,
        ...each('  ', sinkLines(sink, say)),
        '}',
      );
      return out.join('\n');
    default:
      out.push(
        'while (true) {',
        poll,
        ...each('  ', [
          ...sinkLines(sink, say),
          ...(p?.checkOrder ? [say(`// check the seq of each ${p.checkOrder}`, `// ${p.checkOrder}마다 seq 순서를 확인`)] : []),
        ]),
        `  consumer.commitSync(); ${say('// after processing: at least once', '// 처리 뒤: 최소 한 번')}`,
        '}',
      );
      return out.join('\n');
  }
}

function streamsCode(c: StreamsClientSpec, say: Say): string {
  const cfg: Readonly<Record<string, unknown>> = { 'application.id': c.id, ...(c.config ?? {}) };
  const out = [
    'Properties props = new Properties();',
    'props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");',
    ...propsLines(cfg, true),
    'props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);',
    'props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);',
  ];
  if (cfg['processing.guarantee'] === undefined)
    out.push(say('// processing.guarantee is at_least_once unless you set it', '// processing.guarantee를 정하지 않으면 at_least_once'));
  out.push(
    'StreamsBuilder builder = new StreamsBuilder();',
    `builder.<String, String>stream(${q(c.inputTopic)})`,
    c.groupBy === 'value' ? '    .groupBy((key, value) -> value)' : '    .groupByKey()',
    `    .count(Materialized.as("count-store")) ${say('// a state store with its changelog topic', '// changelog 토픽이 있는 상태 저장소')}`,
    '    .toStream()',
    `    .to(${q(c.outputTopic)}, Produced.with(Serdes.String(), Serdes.Long()));`,
    'new KafkaStreams(builder.build(), props).start();',
  );
  return out.join('\n');
}

/** The code of every client of a scenario, in the reader's language (comments only). */
export function javaCode(scenario: Scenario, language: Language): ClientCode[] {
  const say: Say = (en, ko) => (language === 'ko' ? ko : en);
  const sinks = scenario.sinks ?? [];
  return scenario.clients.map((c) => ({
    client: c.id,
    kind: c.type,
    code: c.type === 'producer' ? producerCode(c, say) : c.type === 'consumer' ? consumerCode(c, sinks, say) : streamsCode(c, say),
  }));
}
