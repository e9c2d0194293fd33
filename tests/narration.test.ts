/**
 * Narration: every step of every preset narrates to a real sentence in English and Korean, and the
 * sentences that carry the product's lessons say exactly what happened.
 */
import { describe, expect, it } from 'vitest';
import { ALL_RPCS, type EnvelopeRecord } from '../src/sim/kernel/envelope';
import type { TraceStep } from '../src/sim/kernel/simulation';
import { narrate, narrateEnd, narrateStart } from '../src/sim/narration';
import { josa } from '../src/sim/narration/language';
import { PRESETS } from '../src/sim/presets';
import { runScenario, type Trace } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

const BAD = /undefined|NaN|\[object|null null/;

/**
 * The RPCs narrated by the generic "X received <RPC> from Y" sentence when their step has no facts:
 * a client's metadata look-ups, and WriteTxnMarkers (whose markers its step's append facts tell).
 */
const GENERIC_RPCS: readonly string[] = ['Metadata', 'MetadataResponse', 'FindCoordinator', 'FindCoordinatorResponse', 'WriteTxnMarkers'];

function stepWith(trace: Trace, pred: (f: Fact, s: TraceStep) => boolean): TraceStep {
  const s = trace.steps.find((st) => (st.facts as Fact[]).some((f) => pred(f, st)));
  if (!s) throw new Error('no such step');
  return s;
}

const traces = new Map(PRESETS.map((p) => [p.id, runScenario(p.scenario)]));
const trace = (id: string): Trace => {
  const t = traces.get(id);
  if (!t) throw new Error(`no preset ${id}`);
  return t;
};

const lostAck = (idempotence: boolean) =>
  runScenario({
    version: 1,
    seed: 1,
    topics: [{ name: 'orders', partitions: 1, startOffset: 100 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { 'enable.idempotence': idempotence },
        script: [{ op: 'send', topic: 'orders', key: 'order-123', value: 'v', headers: { event_id: 'evt-789' } }],
      },
    ],
    faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1 }],
  });

describe('narration of every preset', () => {
  for (const p of PRESETS)
    it(`${p.id}: every step narrates to one clean sentence in both languages`, () => {
      const t = trace(p.id);
      expect(t.steps.length).toBeGreaterThan(0);
      for (const s of t.steps)
        for (const language of ['en', 'ko'] as const) {
          const text = narrate(t, s.i, language);
          expect(text.length, `step ${s.i} ${language}`).toBeGreaterThan(10);
          expect(text, `step ${s.i} ${language}: ${text}`).not.toMatch(BAD);
          expect(text.endsWith('.'), `step ${s.i} ${language}: ${text}`).toBe(true);
        }
    });
});

describe('the sentences that teach', () => {
  it('a retried batch the broker recognises: appended nothing, answered with the original offset', () => {
    const t = lostAck(true);
    const s = stepWith(t, (f) => f.kind === 'duplicate');
    expect(narrate(t, s.i, 'en')).toBe(
      'broker-0 appended nothing to orders-0: seq 0 of producerId 1000 epoch 0 is a duplicate; it answered with the original offset 100.',
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-0은 orders-0에 아무것도 추가하지 않았습니다. producerId 1000, epoch 0의 seq 0은 중복이므로 원래 offset 100으로 응답했습니다.',
    );
  });

  it('the lost ack is narrated where the network drops it', () => {
    const t = lostAck(true);
    const s = stepWith(t, (f) => f.kind === 'append');
    expect(narrate(t, s.i, 'en')).toMatch(
      /appended a record for evt-789 to orders-0 at offset 100 .* loses ProduceResponse #\d+, the answer to Produce #\d+, on its way .* its connection stalls: orders-service's producer never learns what happened/,
    );
    // the one left not knowing is the producer that asked, in Korean too
    expect(narrate(t, s.i, 'ko')).toMatch(
      /Produce #\d+에 대한 응답 ProduceResponse #\d+(을|를) 도중에 잃고 .* orders-service 프로듀서는 무슨 일이 있었는지 모르다가/,
    );
  });

  it('without idempotence the retry is appended again, and narration says it is the same send()', () => {
    const t = lostAck(false);
    const appends = t.steps.filter((s) => (s.facts as Fact[]).some((f) => f.kind === 'append'));
    expect(appends).toHaveLength(2);
    const second = narrate(t, (appends[1] as TraceStep).i, 'en');
    expect(second).toContain('at offset 101 (no producerId: idempotence is off');
    expect(second).toContain('a retry of the same send() the broker already wrote at offset 100');
  });

  it('an application resend: a new record with a new sequence that only the event_id connects (opening-story)', () => {
    const t = trace('opening-story');
    const appends = t.steps.filter((s) => (s.facts as Fact[]).some((f) => f.kind === 'append'));
    expect(narrate(t, (appends[0] as TraceStep).i, 'en')).toBe(
      'broker-0 appended a record for evt-789 to orders-0 at offset 100 (producerId 1000, epoch 0, seq 0).',
    );
    const second = narrate(t, (appends[1] as TraceStep).i, 'en');
    expect(second).toContain('at offset 101 (producerId 1000, epoch 0, seq 1)');
    expect(second).toContain('evt-789 is already at offset 100 from an earlier send()');
    expect(narrate(t, (appends[1] as TraceStep).i, 'ko')).toContain('event_id만 알려 줍니다');
  });

  it('a COMMIT marker and an ABORT marker', () => {
    const c = trace('commit-two-partitions');
    const commit = stepWith(c, (f) => f.kind === 'append' && f.control === 'COMMIT' && !f.topic.startsWith('__'));
    const t = trace('abort-hidden-from-read-committed');
    const abort = stepWith(t, (f) => f.kind === 'append' && f.control === 'ABORT' && !f.topic.startsWith('__'));
    expect(narrate(c, commit.i, 'en')).toMatch(
      /^broker-\d wrote a COMMIT marker at \S+ offset \d+ for producerId \d+ epoch \d+: .*read_committed consumers may now read past them\.$/,
    );
    expect(narrate(t, abort.i, 'en')).toMatch(/wrote an ABORT marker at \S+ offset \d+ .*read_committed consumers will skip/);
    expect(narrate(t, abort.i, 'ko')).toMatch(/ABORT 마커를 기록했습니다/);
  });

  it('a fenced producer', () => {
    const t = trace('zombie-fencing');
    const fenced = stepWith(t, (f) => f.kind === 'clientError' && f.error === 'PRODUCER_FENCED');
    const en = narrate(t, fenced.i, 'en');
    expect(en).toMatch(
      /^instance-a got PRODUCER_FENCED during EndTxn\(\w+\): a newer instance with the same transactional.id has a higher epoch: this producer is fenced/,
    );
    expect(en).toContain('a fatal error');
    expect(narrate(t, fenced.i, 'ko')).toContain('펜싱됐습니다');
    const bump = stepWith(t, (f) => f.kind === 'txnState' && f.to === 'PrepareEpochFence');
    expect(narrate(t, bump.i, 'en')).toContain('from Ongoing to PrepareEpochFence');
  });

  it('the start and the end of a run have their own sentences', () => {
    const t = trace('opening-story');
    expect(narrateStart(t, 'en')).toBe(
      'Start of the run: Idempotence is on, yet the consumer got the order twice. Press play or step forward to watch it happen.',
    );
    expect(narrateEnd(t, 'en')).toBe(
      `End of the run after ${t.endTime.toLocaleString('en')} ms of virtual time: nothing is left to happen. The verdict says, layer by layer, what happened once, what happened more than once and what was lost.`,
    );
    expect(narrateEnd(t, 'ko')).toContain('실행이 끝났습니다');
    // a run that loses an event ends with the same sentence, which names losses too (transaction-timeout loses evt-1 and evt-2)
    expect(narrateEnd(trace('transaction-timeout'), 'ko')).toContain('무엇이 유실됐는지');
  });

  it('a run the kernel stopped as a livelock or on an impossible time says so, with what it saw', () => {
    const t = trace('opening-story');
    const livelock = { ...t, stopReason: 'livelock' as const, stopDetail: '20000 steps at 5 ms without virtual time advancing' };
    expect(narrateEnd(livelock, 'en')).toContain(
      'the run stopped (livelock: 20000 steps at 5 ms without virtual time advancing) — the model kept taking steps without time advancing',
    );
    expect(narrateEnd(livelock, 'ko')).toContain('livelock');
    const bad = { ...t, stopReason: 'invalid-time' as const, stopDetail: 'timer tick for a scheduled at NaN (now 5)' };
    expect(narrateEnd(bad, 'en')).toContain('invalid-time: timer tick for a scheduled at NaN');
  });

  it('an unknown step index narrates to an empty string', () => {
    expect(narrate(trace('opening-story'), 10_000, 'en')).toBe('');
  });
});

/** Facts of every kind, put on a step of a real trace, narrate without holes. */
describe('every fact kind, RPC and step kind', () => {
  const base = trace('opening-story');
  const withStep = (patch: Partial<TraceStep>): { t: Trace; i: number } => {
    const steps = [...base.steps];
    steps[5] = { ...(steps[5] as TraceStep), ...patch };
    return { t: { ...base, steps }, i: 5 };
  };
  const FACTS: Fact[] = [
    {
      kind: 'append',
      topic: 'orders',
      partition: 0,
      baseOffset: 7,
      lastOffset: 8,
      producerId: 9,
      producerEpoch: 1,
      baseSequence: 3,
      lastSequence: 4,
      transactional: true,
      control: null,
      eventIds: ['e1', null],
      origins: [null, null],
    },
    { kind: 'duplicate', topic: 'orders', partition: 0, producerId: 9, producerEpoch: 1, baseSequence: 3, lastSequence: 4, baseOffset: 7 },
    {
      kind: 'rejected',
      topic: 'orders',
      partition: 0,
      producerId: 9,
      producerEpoch: 1,
      baseSequence: 6,
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
      reason: 'gap',
    },
    {
      kind: 'clientError',
      client: 'orders-service',
      error: 'TimeoutException',
      during: 'delivery.timeout.ms passed for 1 record(s) of orders-0',
      fatal: false,
    },
    { kind: 'config', client: 'orders-service', level: 'warn', message: 'idempotence disabled' },
    { kind: 'producerId', client: 'orders-service', producerId: 1001, producerEpoch: 0, transactionalId: null },
    { kind: 'sendResult', client: 'orders-service', ref: 3, topic: 'orders', partition: 0, offset: 12, error: null, eventId: 'e2' },
    {
      kind: 'delivered',
      consumer: 'billing',
      groupId: 'billing',
      isolationLevel: 'read_committed',
      topic: 'orders',
      partition: 0,
      offset: 4,
      key: 'k',
      value: 'v',
      headers: {},
    },
    { kind: 'skipped', consumer: 'billing', topic: 'orders', partition: 0, baseOffset: 5, lastOffset: 6, reason: 'aborted' },
    { kind: 'processed', app: 'billing', topic: 'orders', partition: 0, offset: 4, eventId: null, key: 'k' },
    {
      kind: 'sideEffect',
      sink: 'db',
      effect: 'upsert (row existed)',
      eventId: 'e1',
      app: 'billing',
      applied: false,
      note: 'row e1 updated',
    },
    { kind: 'sideEffect', sink: 'db', effect: 'inbox conflict', eventId: 'e1', app: 'billing', applied: false, note: '' },
    { kind: 'sideEffect', sink: 'api', effect: 'idempotent replay', eventId: 'e1', app: 'billing', applied: false, note: '' },
    { kind: 'sideEffect', sink: 'kv', effect: 'SET (same value)', eventId: 'e1', app: 'billing', applied: false, note: 'SET post-7 2' },
    { kind: 'sideEffect', sink: 'kv', effect: 'INCR', eventId: 'e1', app: 'billing', applied: true, note: 'INCR post-7: 2 → 3' },
    { kind: 'txnState', transactionalId: 'tx', producerId: 9, producerEpoch: 2, from: 'Ongoing', to: 'PrepareAbort' },
    {
      kind: 'offsetsCommitted',
      groupId: 'billing',
      generationId: 2,
      offsets: [{ topic: 'orders', partition: 0, offset: 9 }],
      transactional: true,
    },
    {
      kind: 'rebalance',
      groupId: 'billing',
      generationId: 3,
      members: [],
      reason: 'member billing-0 sent no heartbeat for session.timeout.ms=45000',
    },
    { kind: 'cleaned', topic: 'orders', partition: 0, removed: 2, cleanedUpTo: 9 },
    {
      kind: 'note',
      actor: 'txn-coordinator',
      text: 'transaction of tx has been open 61000 ms, more than transaction.timeout.ms=60000: fencing epoch 2 and aborting',
    },
  ];
  const kinds = new Set(FACTS.map((f) => f.kind));
  it('the list covers every fact kind', () => {
    expect([...kinds].sort()).toEqual(
      [
        'append',
        'cleaned',
        'clientError',
        'config',
        'delivered',
        'duplicate',
        'note',
        'offsetsCommitted',
        'processed',
        'producerId',
        'rebalance',
        'rejected',
        'sendResult',
        'sideEffect',
        'skipped',
        'txnState',
      ].sort(),
    );
  });
  for (const f of FACTS)
    it(`fact ${f.kind}${f.kind === 'sideEffect' ? ` (${f.effect})` : ''}`, () => {
      const { t, i } = withStep({ facts: [f] });
      for (const language of ['en', 'ko'] as const) {
        const text = narrate(t, i, language);
        expect(text).not.toMatch(BAD);
        expect(text.length).toBeGreaterThan(20);
      }
    });
  it('a cleaning that removed transaction markers says so, in English and Korean', () => {
    const f: Fact = { kind: 'cleaned', topic: 'orders', partition: 0, removed: 1, cleanedUpTo: 9, markers: 2 };
    const { t, i } = withStep({ facts: [f] });
    expect(narrate(t, i, 'en')).toContain('so are 2 transaction markers whose transaction left no record (after delete.retention.ms)');
    expect(narrate(t, i, 'ko')).toContain('레코드가 하나도 남지 않은 트랜잭션의 마커 2개도');
  });
  it('a cleaning says which records went for what: older values, aborted transactions, expired tombstones', () => {
    const f: Fact = { kind: 'cleaned', topic: 'state', partition: 0, removed: 4, cleanedUpTo: 9, aborted: 2, tombstones: 1 };
    const { t, i } = withStep({ facts: [f] });
    const en = narrate(t, i, 'en');
    expect(en).toContain('1 older record with a newer value for the same key');
    expect(en).toContain('so are 2 records of aborted transactions (never readable)');
    expect(en).toContain('so is 1 tombstone past delete.retention.ms');
    const ko = narrate(t, i, 'ko');
    expect(ko).toContain('이전 레코드 1개가 사라졌');
    expect(ko).toContain('취소된 트랜잭션의 레코드(읽을 수 없던 것) 2개도 사라졌');
    expect(ko).toContain('delete.retention.ms가 지난 툼스톤 1개도 사라졌');
  });
  it('Korean notes and reasons are translated', () => {
    const { t, i } = withStep({ facts: [FACTS[FACTS.length - 1] as Fact, FACTS.find((f) => f.kind === 'rebalance') as Fact] });
    const ko = narrate(t, i, 'ko');
    expect(ko).toContain('transaction.timeout.ms=60000을 넘었습니다');
    expect(ko).toContain('하트비트를 보내지 않았습니다');
  });

  it("the syllabus presets' notes are translated into Korean", () => {
    const KO: readonly [string, string][] = [
      [
        "the application's business retry builds event evt-789 again with a new event_id 036d7bee-289a-47fd-8b97-6fddbda20242: the same payload, an id nobody has seen",
        '새 event_id 036d7bee-289a-47fd-8b97-6fddbda20242로 다시 만듭니다',
      ],
      [
        'the inbox row (evt-1, billing) written at 4002 ms was deleted after the inbox retention of 300000 ms: the duplicate is not recognised',
        'inbox 보존 기간 300,000 ms가 지나 삭제됐습니다',
      ],
      [
        'Idempotency-Key evt-1 was stored at 4002 ms and expired after 300000 ms: the API no longer recognises it',
        '300,000 ms가 지나 만료됐습니다',
      ],
      ['out of order: order_id order-2 seq 2 (evt-202, orders-by-event-1) arrived after seq 3', 'seq 3보다 늦게 도착했습니다'],
      [
        'onPartitionsRevoked: generation 1 ended while the transaction was open; the application aborts it so that the new owner processes its records from the committed offsets',
        '트랜잭션을 취소합니다',
      ],
      [
        'task for page-views-0 newly assigned to this instance: it is created and its store restored from the changelog before it processes',
        'changelog에서 상태 저장소를 복원합니다',
      ],
      [
        'tasks for page-views-0, page-views-1 newly assigned to this instance: they are created and their stores restored from the changelog before they process',
        'page-views-0, page-views-1의 태스크가 이 인스턴스에 새로 할당됐습니다',
      ],
    ];
    for (const [en, ko] of KO) {
      const note: Fact = { kind: 'note', actor: 'x.app', text: en };
      const { t, i } = withStep({ facts: [note] });
      expect(narrate(t, i, 'ko')).toContain(ko);
    }
  });

  it('every RPC, delivered without facts', () => {
    for (const rpc of ALL_RPCS) {
      const env = { ...(base.envelopes.at(0) as EnvelopeRecord), rpc, payload: {} };
      const envelopes = [...base.envelopes];
      envelopes[0] = env;
      const steps = [...base.steps];
      steps[5] = {
        ...(steps[5] as TraceStep),
        kind: 'deliver',
        label: rpc,
        envelope: 0,
        facts: [],
        faults: [],
        sent: [],
        from: 'broker-0',
      };
      const t = { ...base, steps, envelopes };
      for (const language of ['en', 'ko'] as const) {
        const text = narrate(t, 5, language);
        expect(text, `${rpc} ${language}`).not.toMatch(/undefined|NaN|\[object/);
        expect(text.length, rpc).toBeGreaterThan(15);
        // a sentence of its own, not "X received <RPC> from Y" — but for the metadata look-ups
        if (!GENERIC_RPCS.includes(rpc))
          expect(text, `${rpc} ${language}`).not.toMatch(language === 'en' ? /received \w+ from/ : /에게서 \w+[을를] 받았습니다/);
      }
    }
  });

  it('every step kind, timers and calls, and faults', () => {
    const cases: Partial<TraceStep>[] = [
      { kind: 'boot', label: 'boot', actor: 'billing.consumer' },
      { kind: 'fault', label: 'crash', actor: 'billing', faults: ['crash billing at afterProcess'] },
      { kind: 'fault', label: 'restart', actor: 'broker-0', faults: ['restart broker-0 at 10 ms'] },
      { kind: 'fault', label: 'pause', actor: 'billing', faults: ['pause billing at 5 ms for 100 ms'] },
      { kind: 'fault', label: 'resume', actor: 'billing', faults: ['resume billing'] },
      { kind: 'fault', label: 'runCleaner', actor: 'broker-0', faults: ['run the log cleaner at 5 ms'], facts: [] },
      {
        kind: 'lost',
        label: 'Produce',
        actor: 'broker-0',
        from: 'orders-service.producer',
        envelope: 3,
        faults: ['Produce #3 lost: broker-0 is down'],
      },
      { kind: 'disconnected', label: 'disconnected', actor: 'orders-service.producer', from: 'broker-0', envelope: 3, faults: [] },
      // an idle connection's close, told to a client that keeps connection states (no envelope)
      {
        kind: 'disconnected',
        label: 'connectionClosed',
        actor: 'orders-service.producer',
        from: 'broker-0',
        envelope: null,
        detail: { reason: 'peer-down' },
        faults: [],
      },
      ...(['timeout', 'reset', 'peer-down', 'refused'] as const).map((reason) => ({
        kind: 'disconnected' as const,
        label: 'disconnected',
        actor: 'orders-service.producer',
        from: 'broker-0',
        envelope: 3,
        detail: { reason },
        faults: [],
      })),
      ...[
        'runNext',
        'lingerExpired',
        'retryBackoffExpired',
        'reconnectBackoffExpired',
        'dbTimeout',
        'offsetsQueryRetry',
        'readPosition',
        'txnRetryBackoffExpired',
        'fetchWaitExpired',
        'heartbeatDue',
        'rejoinBackoff',
        'fetchRetry',
        'offsetsRetry',
        'sessionExpired',
        'joinPhaseCheck',
        'txnTimeoutCheck',
        'markerRetry',
        'loaded',
        'continue',
        'httpTimeout',
        'somethingNew',
      ].map((label) => ({ kind: 'timer' as const, label, actor: 'billing.app', detail: {} })),
      ...[
        'send',
        'reply',
        'poll',
        'commitSync',
        'initTransactions',
        'beginTransaction',
        'sendOffsetsToTransaction',
        'commitTransaction',
        'abortTransaction',
        'flush',
        'close',
        'seekToCommitted',
        'seek',
        'useExternalOffsets',
        'restart',
        'somethingNew',
      ].map((label) => ({
        kind: 'call' as const,
        label,
        actor: 'billing.consumer',
        from: 'billing.app',
        detail: { call: 'commitSync', ok: false, error: 'CommitFailedException', offsets: [] },
      })),
      {
        kind: 'deliver',
        label: 'Produce',
        faults: ['ProduceResponse #4 dropped (drop the 1st ProduceResponse)', 'crash billing at afterProduce'],
      },
    ];
    for (const c of cases) {
      const { t, i } = withStep({ facts: [], faults: [], sent: [], ...c });
      for (const language of ['en', 'ko'] as const) {
        const text = narrate(t, i, language);
        expect(text, `${c.kind} ${c.label} ${language}`).not.toMatch(BAD);
        expect(text.length, `${c.kind} ${c.label}`).toBeGreaterThan(10);
      }
    }
  });
});

describe('Korean particles', () => {
  it('follow the final sound of the word, Latin terms included', () => {
    expect(josa('broker-0', '은/는')).toBe('broker-0은');
    expect(josa('seq 2', '은/는')).toBe('seq 2는');
    expect(josa('billing', '이/가')).toBe('billing이');
    expect(josa('orders-service', '이/가')).toBe('orders-service가');
    expect(josa('offset 100', '으로/로')).toBe('offset 100으로');
    expect(josa('generation 1', '으로/로')).toBe('generation 1로');
    expect(josa('트랜잭션', '을/를')).toBe('트랜잭션을');
    expect(josa('프로듀서', '을/를')).toBe('프로듀서를');
  });
});

describe('Korean particles after English words read as Korean loanwords', () => {
  it('a short vowel before a stop reads with a final consonant', () => {
    expect(josa('app', '은/는')).toBe('app은');
    expect(josa('topic', '이/가')).toBe('topic이');
    expect(josa('commit', '을/를')).toBe('commit을');
    expect(josa('heartbeat', '을/를')).toBe('heartbeat를');
    expect(josa('sink', '은/는')).toBe('sink는');
  });
});

describe('a Produce request with several partitions (one per broker, as Kafka sends it)', () => {
  const t = runScenario({
    version: 1,
    seed: 1,
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      {
        id: 'svc',
        type: 'producer',
        config: { 'linger.ms': 5, 'transactional.id': 'tx' },
        script: [
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', key: null, value: 'a', partition: 0 },
          { op: 'send', topic: 'orders', key: null, value: 'b', partition: 1 },
          { op: 'commitTransaction' },
        ],
      },
    ],
  });

  it('the leader holding it for verification names every partition it carries, in English and Korean', () => {
    const s = t.steps.find((x) => x.label === 'Produce') as TraceStep;
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-0 holds the Produce from svc's producer for orders-0 and orders-1 and first asks the transaction coordinator whether its partitions are in the transaction (KIP-890 verification).",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-0은 svc 프로듀서의 orders-0, orders-1 Produce를 잠시 두고, 먼저 그 파티션들이 트랜잭션에 속하는지 트랜잭션 코디네이터에 확인합니다(KIP-890 검증).',
    );
  });

  it('its one answer acknowledges both sends', () => {
    const answers = t.steps.filter((x) => x.label === 'ProduceResponse');
    expect(answers).toHaveLength(1);
    expect(narrate(t, (answers[0] as TraceStep).i, 'en')).toBe(
      "svc's send() of 2 records is acknowledged: orders-0 offset 0, orders-1 offset 0.",
    );
  });
});
