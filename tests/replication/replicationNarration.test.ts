/**
 * Narration of replication between brokers (`hw-behind-leo-slow-follower`, `min-insync-blocks-writes`):
 * a follower's Fetch and its answer are replication (what it copied, the leader's HW it learnt, its
 * log end offset), never a consumer's fetch with an isolation level, an LSO or an open transaction.
 */
import { describe, expect, it } from 'vitest';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import { narrate } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';

const traces = new Map<string, Trace>();
function trace(id: string): Trace {
  let t = traces.get(id);
  if (!t) {
    const p = findPreset(id);
    if (!p) throw new Error(`no preset ${id}`);
    t = runScenario(p.scenario);
    traces.set(id, t);
  }
  return t;
}

type Payload = Record<string, unknown>;
const payloadOf = (t: Trace, s: TraceStep): Payload =>
  s.envelope === null ? {} : ((t.envelopes.at(s.envelope)?.payload as Payload) ?? {});

/** The steps delivering `rpc` to `to` from `from` whose payload matches. */
function deliveries(t: Trace, rpc: string, to: string, from: string, pred: (p: Payload) => boolean = () => true): TraceStep[] {
  return t.steps.filter((s) => s.kind === 'deliver' && s.label === rpc && s.actor === to && s.from === from && pred(payloadOf(t, s)));
}

function only<T>(xs: readonly T[]): T {
  expect(xs.length).toBe(1);
  return xs[0] as T;
}

const PRESETS = ['hw-behind-leo-slow-follower', 'min-insync-blocks-writes'] as const;

describe("a follower's FetchResponse is narrated as replication", () => {
  it('hw-behind-leo-slow-follower: broker-1 copies offset 1 and learns HW 1 (step 148)', () => {
    const t = trace('hw-behind-leo-slow-follower');
    const s = only(
      deliveries(t, 'FetchResponse', 'broker-1', 'broker-0', (p) => Array.isArray(p.batches) && num(p.batches, 'baseOffset') === 1),
    );
    expect(s.i).toBe(147);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-1 copied 1 record of orders-0 from the leader broker-0 (offset 1): its log end offset is now 2; it learns the leader's high watermark, 1, and takes it as its own; it fetches again from offset 2.",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-1이 리더 broker-0에게서 orders-0의 레코드 1개(offset 1)를 복제했습니다. 이제 LEO(로그 끝 offset)는 2입니다. 리더의 HW(하이 워터마크) 1을 받아 자기 HW로 삼습니다. offset 2부터 다시 Fetch합니다.',
    );
  });

  it('min-insync-blocks-writes: broker-1 copies offset 1 (step 240)', () => {
    const t = trace('min-insync-blocks-writes');
    const s = only(
      deliveries(t, 'FetchResponse', 'broker-1', 'broker-0', (p) => Array.isArray(p.batches) && num(p.batches, 'baseOffset') === 1),
    );
    expect(s.i).toBe(239);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-1 copied 1 record of orders-0 from the leader broker-0 (offset 1): its log end offset is now 2; it learns the leader's high watermark, 1, and takes it as its own; it fetches again from offset 2.",
    );
  });

  for (const id of PRESETS)
    it(`${id}: no replica FetchResponse speaks of an LSO, read_committed or an open transaction`, () => {
      const t = trace(id);
      const steps = t.steps.filter((s) => s.kind === 'deliver' && s.label === 'FetchResponse' && s.actor.startsWith('broker-'));
      expect(steps.length).toBeGreaterThan(3);
      for (const s of steps) {
        expect(narrate(t, s.i, 'en'), `step ${s.i}`).not.toMatch(/LSO|read_committed|transaction/);
        expect(narrate(t, s.i, 'ko'), `step ${s.i}`).not.toMatch(/LSO|read_committed|트랜잭션/);
      }
    });
});

describe("a follower's Fetch is narrated as a replica Fetch, without an isolation level", () => {
  it('hw-behind-leo-slow-follower: the leader answers broker-2 from offset 1 (step 256)', () => {
    const t = trace('hw-behind-leo-slow-follower');
    // the Fetch answered with offset 1 (an earlier one from offset 1 was held)
    const s = only(
      deliveries(t, 'Fetch', 'broker-0', 'broker-2', (p) => p.fetchOffset === 1).filter((x) =>
        x.sent.some((id) => t.envelopes.at(id)?.inReplyTo === x.envelope),
      ),
    );
    expect(s.i).toBe(255);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-0 answers the replica Fetch from broker-2 for orders-0 from offset 1 with 1 record at offset 1, read up to its log end offset; the fetch offset tells the leader that broker-2's log ends at offset 1.",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-0이 broker-2의 orders-0 복제 Fetch(offset 1부터)에 자기 LEO까지 읽어 응답합니다: 레코드 1개(offset 1). fetch offset으로 리더는 broker-2의 로그가 offset 1에서 끝남을 알게 됩니다.',
    );
  });

  it('min-insync-blocks-writes: a held replica Fetch waits replica.fetch.wait.max.ms, and its offset releases the acks=all write (steps 35, 241)', () => {
    const t = trace('min-insync-blocks-writes');
    const [s] = deliveries(t, 'Fetch', 'broker-0', 'broker-2', (p) => p.fetchOffset === 1);
    if (!s) throw new Error('no such step');
    expect(s.i).toBe(34);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-0 has nothing at or past offset 1 of orders-0 for the replica Fetch from broker-2, so it holds the Fetch up to 500 ms (replica.fetch.wait.max.ms); the fetch offset tells the leader that broker-2's log ends at offset 1; with that the high watermark moves up: the acks=all write of orders-service's producer waiting for it is answered.",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-0에는 broker-2의 복제 Fetch에 줄 orders-0의 offset 1 이후 데이터가 없어 Fetch를 최대 500 ms(replica.fetch.wait.max.ms) 동안 붙잡아 둡니다. fetch offset으로 리더는 broker-2의 로그가 offset 1에서 끝남을 알게 됩니다. 이로써 HW가 올라가 이를 기다리던 orders-service 프로듀서의 acks=all 쓰기가 응답을 받습니다.',
    );
    const [later] = deliveries(t, 'Fetch', 'broker-0', 'broker-1', (p) => p.fetchOffset === 2).filter((x) => x.sent.length > 0);
    if (!later) throw new Error('no such step');
    expect(later.i).toBe(240);
    expect(narrate(t, later.i, 'en')).toMatch(
      /^broker-0 has nothing at or past offset 2 of orders-0 for the replica Fetch from broker-1, so it holds the Fetch up to 500 ms \(replica\.fetch\.wait\.max\.ms\)/,
    );
  });

  for (const id of PRESETS)
    it(`${id}: no replica Fetch has empty parentheses, an isolation level or fetch.max.wait.ms`, () => {
      const t = trace(id);
      const steps = t.steps.filter((s) => s.kind === 'deliver' && s.label === 'Fetch' && s.from?.startsWith('broker-'));
      expect(steps.length).toBeGreaterThan(3);
      for (const s of steps)
        for (const lang of ['en', 'ko'] as const) {
          const text = narrate(t, s.i, lang);
          expect(text, `step ${s.i} ${lang}`).toMatch(/replica Fetch|복제 Fetch/);
          expect(text, `step ${s.i} ${lang}`).not.toMatch(/\(\)|, \)|read_(un)?committed|fetch\.max\.wait\.ms/);
        }
    });
});

describe('a replica Fetch answered with a diverging epoch', () => {
  it('acks-1-leader-failover-loss: the new leader tells the returning broker-0 where its log diverges, in Korean words', () => {
    const t = trace('acks-1-leader-failover-loss');
    const s = t.steps.find(
      (x) =>
        x.kind === 'deliver' &&
        x.label === 'Fetch' &&
        x.sent.some((id) => {
          const e = t.envelopes.at(id);
          return e?.rpc === 'FetchResponse' && e.inReplyTo === x.envelope && !!e.payload.divergingEpoch;
        }),
    );
    if (!s) throw new Error('no diverging answer');
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-1 answers the replica Fetch from broker-0 for orders-0 from offset 2 with a diverging epoch: broker-0's log does not match the leader's past offset 1 (leader epoch 0), so it must truncate.",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-1이 broker-0의 orders-0 복제 Fetch(offset 2부터)에 로그가 갈라지는 지점으로 응답합니다. broker-0의 로그는 offset 1(리더 epoch 0) 이후로 리더와 맞지 않아 잘라내야 합니다.',
    );
  });
});

describe("the controller's expiry of a broker session is KRaft broker fencing, not a group's session timeout", () => {
  const fencings = (t: Trace) => t.steps.filter((s) => s.kind === 'timer' && s.label === 'sessionExpired' && s.actor === 'controller');

  it('min-insync-blocks-writes: broker-2, then broker-1, leave the ISR of orders-0 (steps 174, 343)', () => {
    const t = trace('min-insync-blocks-writes');
    const [a, b] = fencings(t);
    if (!a || !b) throw new Error('no fencing');
    expect([a.i, b.i]).toEqual([173, 342]);
    expect(narrate(t, a.i, 'en')).toBe(
      'broker.session.timeout.ms (9000 ms) passed without a BrokerHeartbeat from broker-2: the controller fences it and removes it from the ISR of orders-0 (ISR now broker-0, broker-1).',
    );
    expect(narrate(t, a.i, 'ko')).toBe(
      'broker.session.timeout.ms(9000 ms) 동안 broker-2의 BrokerHeartbeat가 없어 컨트롤러가 이 브로커를 펜싱합니다. broker-2는 orders-0의 ISR에서 빠집니다. 이제 ISR은 broker-0, broker-1입니다.',
    );
    expect(narrate(t, b.i, 'en')).toBe(
      'broker.session.timeout.ms (9000 ms) passed without a BrokerHeartbeat from broker-1: the controller fences it and removes it from the ISR of orders-0 (ISR now broker-0).',
    );
    expect(narrate(t, b.i, 'ko')).toBe(
      'broker.session.timeout.ms(9000 ms) 동안 broker-1의 BrokerHeartbeat가 없어 컨트롤러가 이 브로커를 펜싱합니다. broker-1은 orders-0의 ISR에서 빠집니다. 이제 ISR은 broker-0입니다.',
    );
  });

  it('acks-1-leader-failover-loss: the fenced leader needs a successor, which the election fact then names', () => {
    const t = trace('acks-1-leader-failover-loss');
    const [s] = fencings(t);
    if (!s) throw new Error('no fencing');
    expect(narrate(t, s.i, 'en')).toBe(
      'broker.session.timeout.ms (9000 ms) passed without a BrokerHeartbeat from broker-0: the controller fences it; orders-0, which it led, needs a new leader; the controller makes broker-1 leader of orders-0 by an election from the ISR (leader epoch 1, ISR broker-1, broker-2).',
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker.session.timeout.ms(9000 ms) 동안 broker-0의 BrokerHeartbeat가 없어 컨트롤러가 이 브로커를 펜싱합니다. broker-0이 이끌던 orders-0에는 새 리더가 필요합니다. 컨트롤러가 ISR에서의 선출로 broker-1을 orders-0의 리더로 정했습니다(리더 epoch 1, ISR broker-1, broker-2).',
    );
  });

  for (const id of ['min-insync-blocks-writes', 'acks-1-leader-failover-loss', 'transaction-state-under-replicated'])
    it(`${id}: no broker fencing speaks of a group, a member or session.timeout.ms`, () => {
      const t = trace(id);
      expect(fencings(t).length).toBeGreaterThan(0);
      for (const s of fencings(t)) {
        expect(narrate(t, s.i, 'en'), `step ${s.i}`).not.toMatch(/group|member|(^|[^.])session\.timeout\.ms/);
        expect(narrate(t, s.i, 'ko'), `step ${s.i}`).not.toMatch(/그룹|멤버|(^|[^.])session\.timeout\.ms/);
      }
    });
});

describe("a broker's heartbeat goes to the controller, every broker.heartbeat.interval.ms", () => {
  it('min-insync-blocks-writes: broker-1 sends a BrokerHeartbeat (step 94)', () => {
    const t = trace('min-insync-blocks-writes');
    const s = t.steps.at(93);
    if (!s) throw new Error('no step 94');
    expect([s.kind, s.label, s.actor]).toEqual(['timer', 'heartbeatDue', 'broker-1']);
    expect(narrate(t, s.i, 'en')).toBe(
      'broker.heartbeat.interval.ms (2000 ms) passed: broker-1 sends a BrokerHeartbeat to the controller, which fences a broker it has not heard from for broker.session.timeout.ms (9000 ms).',
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker.heartbeat.interval.ms(2000 ms)가 지나 broker-1이 컨트롤러에 BrokerHeartbeat를 보냅니다. 컨트롤러는 broker.session.timeout.ms(9000 ms) 동안 BrokerHeartbeat가 없는 브로커를 펜싱합니다.',
    );
  });

  it("a consumer's heartbeat still goes to its group coordinator, in a sentence that parses", () => {
    const t = trace('hw-behind-leo-slow-follower');
    const s = t.steps.find((x) => x.kind === 'timer' && x.label === 'heartbeatDue' && x.actor === 'billing.consumer');
    if (!s) throw new Error('no consumer heartbeat');
    expect(narrate(t, s.i, 'en')).toBe("heartbeat.interval.ms passed: billing's consumer sends a Heartbeat to the group coordinator.");
    expect(narrate(t, s.i, 'ko')).toBe('heartbeat.interval.ms가 지나 billing 컨슈머가 그룹 코디네이터에 하트비트를 보냅니다.');
  });

  for (const id of PRESETS)
    it(`${id}: no broker's heartbeat goes to a group coordinator or reads "and sends"`, () => {
      const t = trace(id);
      const steps = t.steps.filter((x) => x.kind === 'timer' && x.label === 'heartbeatDue' && x.actor.startsWith('broker-'));
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) {
        expect(narrate(t, s.i, 'en'), `step ${s.i}`).toMatch(
          /^broker\.heartbeat\.interval\.ms \(\d+ ms\) passed: broker-\d sends a BrokerHeartbeat to the controller/,
        );
        expect(narrate(t, s.i, 'ko'), `step ${s.i}`).not.toMatch(/그룹 코디네이터/);
      }
    });
});

describe('brokers\' timers in plain words, never "timer X fired"', () => {
  const timer = (t: Trace, label: string, actor: string, pred: (s: TraceStep) => boolean = () => true): TraceStep => {
    const s = t.steps.find((x) => x.kind === 'timer' && x.label === label && x.actor === actor && pred(x));
    if (!s) throw new Error(`no ${label} timer of ${actor}`);
    return s;
  };
  const sends = (t: Trace, s: TraceStep, rpc: string) => s.sent.some((id) => t.envelopes.at(id)?.rpc === rpc);

  it("hw-behind-leo-slow-follower: the leader's ISR check finds broker-2 out of sync and asks to shrink the ISR (step 186)", () => {
    const t = trace('hw-behind-leo-slow-follower');
    const s = timer(t, 'isrExpiration', 'broker-0', (x) => sends(t, x, 'AlterPartition'));
    expect(s.i).toBe(185);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-0's ISR check (every replica.lag.time.max.ms / 2 = 1000 ms) finds broker-2, a follower of orders-0, out of sync — not caught up to the leader's log end offset for longer than replica.lag.time.max.ms (2000 ms) — so it asks the controller to shrink the ISR to broker-0, broker-1 (AlterPartition).",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-0의 ISR 점검(replica.lag.time.max.ms / 2 = 1000 ms마다): orders-0의 broker-2가 replica.lag.time.max.ms(2000 ms)보다 오래 리더의 LEO(로그 끝 offset)를 따라잡지 못했습니다. 그래서 컨트롤러에 ISR을 broker-0, broker-1로 줄여 달라고 요청합니다(AlterPartition).',
    );
    const quiet = timer(t, 'isrExpiration', 'broker-1');
    expect(narrate(t, quiet.i, 'en')).toBe(
      'broker-1 runs its ISR check (every replica.lag.time.max.ms / 2 = 1000 ms): no follower of a partition it leads has been out of sync for longer than replica.lag.time.max.ms (2000 ms), so it asks for no ISR change.',
    );
    expect(narrate(t, quiet.i, 'ko')).toBe(
      'broker-1이 ISR 점검(replica.lag.time.max.ms / 2 = 1000 ms마다)을 합니다. 이 브로커가 리더인 파티션에 replica.lag.time.max.ms(2000 ms)보다 오래 뒤처진 팔로워가 없어 ISR 변경을 요청하지 않습니다.',
    );
  });

  it('hw-behind-leo-slow-follower: a held replica Fetch is answered empty after replica.fetch.wait.max.ms', () => {
    const t = trace('hw-behind-leo-slow-follower');
    const s = timer(t, 'replicaFetchExpired', 'broker-0');
    expect(narrate(t, s.i, 'en')).toBe(
      'replica.fetch.wait.max.ms (500 ms) passed with nothing new for broker-1: broker-0 answers its held replica Fetch of orders-0 empty, with the high watermark 0.',
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'replica.fetch.wait.max.ms(500 ms) 동안 broker-1에게 줄 새 데이터가 없어 broker-0이 붙잡아 둔 orders-0 복제 Fetch에 빈 응답을 보냅니다(HW 0).',
    );
  });

  it('min-insync-blocks-writes: the acks=all Produce times out in the purgatory, REQUEST_TIMED_OUT, the batch kept', () => {
    const t = trace('min-insync-blocks-writes');
    const s = timer(t, 'produceTimeout', 'broker-0');
    expect(narrate(t, s.i, 'en')).toMatch(
      /^The acks=all Produce from orders-service's producer waited 30000 ms in broker-0's purgatory \(the request's timeout: the producer's request\.timeout\.ms\) without the high watermark reaching its records: broker-0 answers REQUEST_TIMED_OUT for orders-0; the batch stays in the log/,
    );
    expect(narrate(t, s.i, 'ko')).toMatch(
      /^orders-service 프로듀서의 acks=all Produce가 broker-0의 대기열에서 30000 ms\(요청의 타임아웃, 프로듀서의 request\.timeout\.ms\) 동안 HW가 레코드에 닿기를 기다렸지만 닿지 않았습니다\. broker-0이 orders-0에 대해 응답합니다: REQUEST_TIMED_OUT\. 배치는 로그에 남습니다\./,
    );
  });

  it('acks-1-leader-failover-loss: a follower retries its failed replica Fetch after replica.fetch.backoff.ms', () => {
    const t = trace('acks-1-leader-failover-loss');
    const s = timer(t, 'replicaFetchBackoff', 'broker-1', (x) => sends(t, x, 'Fetch'));
    expect(narrate(t, s.i, 'en')).toBe(
      "replica.fetch.backoff.ms passed after broker-1's failed replica Fetch: it fetches orders-0 from broker-0 again, from offset 1.",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      '복제 Fetch가 실패한 뒤 replica.fetch.backoff.ms가 지나 broker-1이 broker-0에게 orders-0을 offset 1부터 다시 Fetch합니다.',
    );
  });

  it('every timer a broker or the controller sets has a sentence of its own, also where a preset never fires it', () => {
    // the labels of every out.timer( in src/sim/broker, src/sim/controller and src/sim/replication
    const labels = [
      'fetchWaitExpired',
      'produceTimeout',
      'markersTimeout',
      'replicaFetchExpired',
      'isrExpiration',
      'replicaFetchBackoff',
      'heartbeatDue',
    ];
    const base = trace('min-insync-blocks-writes');
    for (const label of labels) {
      const steps = [...base.steps];
      steps[5] = {
        ...(steps[5] as TraceStep),
        kind: 'timer',
        label,
        actor: 'broker-0',
        from: null,
        envelope: null,
        facts: [],
        sent: [],
        detail: { id: 0, key: 'orders-0' },
      };
      const t = { ...base, steps } as Trace;
      for (const lang of ['en', 'ko'] as const) {
        const text = narrate(t, 5, lang);
        expect(text, `${label} ${lang}`).not.toMatch(/timer \w+ fired|타이머|undefined|NaN/);
        expect(text, `${label} ${lang}`).not.toContain(label);
      }
    }
    const steps = [...base.steps];
    steps[5] = {
      ...(steps[5] as TraceStep),
      kind: 'timer',
      label: 'sessionExpired',
      actor: 'controller',
      from: null,
      envelope: null,
      facts: [],
      sent: [],
      detail: { broker: 'broker-2' },
    };
    expect(narrate({ ...base, steps } as Trace, 5, 'en')).toBe(
      'broker.session.timeout.ms (9000 ms) passed without a BrokerHeartbeat from broker-2: the controller fences it; it was in no ISR, so no partition changes.',
    );
  });

  for (const id of [...PRESETS, 'acks-1-leader-failover-loss', 'transaction-state-under-replicated', 'unclean-election-loses-committed'])
    it(`${id}: no broker or controller timer is narrated by its internal name`, () => {
      const t = trace(id);
      const steps = t.steps.filter((x) => x.kind === 'timer' && (x.actor.startsWith('broker-') || x.actor === 'controller'));
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) {
        expect(narrate(t, s.i, 'en'), `step ${s.i} ${s.label}`).not.toMatch(/timer \w+ fired/);
        expect(narrate(t, s.i, 'ko'), `step ${s.i} ${s.label}`).not.toMatch(/타이머/);
      }
    });
});

describe('the KRaft requests and answers, each at its receiver, say what it does with them', () => {
  const first = (t: Trace, rpc: string, pred: (s: TraceStep) => boolean = () => true) => {
    const s = t.steps.find((x) => x.kind === 'deliver' && x.label === rpc && pred(x));
    if (!s) throw new Error(`no ${rpc}`);
    return s.i;
  };

  it('hw-behind-leo-slow-follower: a BrokerHeartbeat renews the broker’s session; its answer changes nothing at the broker', () => {
    const t = trace('hw-behind-leo-slow-follower');
    const hb = first(t, 'BrokerHeartbeat', (s) => s.from === 'broker-1');
    expect(narrate(t, hb, 'en')).toBe(
      'broker-1 renews its session with the controller (BrokerHeartbeat, broker epoch 0): the controller keeps it unfenced for another broker.session.timeout.ms (9000 ms).',
    );
    expect(narrate(t, hb, 'ko')).toBe(
      'broker-1이 컨트롤러와의 세션을 갱신합니다(BrokerHeartbeat, 브로커 epoch 0). 컨트롤러는 앞으로 broker.session.timeout.ms(9000 ms) 동안 이 브로커를 펜싱하지 않습니다.',
    );
    const answer = first(t, 'BrokerHeartbeatResponse', (s) => s.actor === 'broker-1');
    expect(narrate(t, answer, 'en')).toBe(
      "The controller answered broker-1's BrokerHeartbeat: not fenced; nothing changes for broker-1, which heartbeats every broker.heartbeat.interval.ms (2000 ms).",
    );
    expect(narrate(t, answer, 'ko')).toBe(
      '컨트롤러가 broker-1의 BrokerHeartbeat에 응답했습니다: 펜싱되지 않음. broker-1에게 달라지는 것은 없고, 하트비트는 broker.heartbeat.interval.ms(2000 ms)마다 계속 보냅니다.',
    );
  });

  it('hw-behind-leo-slow-follower: AlterPartition shrinks the ISR at the controller; its answer lets the leader’s HW move up', () => {
    const t = trace('hw-behind-leo-slow-follower');
    const alter = first(t, 'AlterPartition');
    expect(narrate(t, alter, 'en')).toBe(
      "The controller accepts broker-0's AlterPartition for orders-0: broker-2 leaves the ISR — the ISR is now broker-0, broker-1 at partition epoch 1 (leader epoch 0 unchanged); it answers broker-0 and sends the new partition record (PartitionChange) to every broker.",
    );
    expect(narrate(t, alter, 'ko')).toBe(
      '컨트롤러가 broker-0의 orders-0 AlterPartition을 받아들입니다. broker-2가 ISR에서 빠지고 ISR은 이제 파티션 epoch 1의 broker-0, broker-1입니다(리더 epoch 0은 그대로). broker-0에게 응답하고 새 파티션 레코드(PartitionChange)를 모든 브로커에 보냅니다.',
    );
    const answer = first(t, 'AlterPartitionResponse');
    expect(narrate(t, answer, 'en')).toBe(
      "broker-0 learns that the controller accepted its ISR change for orders-0: the ISR is broker-0, broker-1 at partition epoch 1; with that the high watermark moves up: the acks=all write of orders-service's producer waiting for it is answered, and the held Fetch of billing's consumer gets the records now below it.",
    );
    expect(narrate(t, answer, 'ko')).toBe(
      'broker-0은 컨트롤러가 orders-0의 ISR 변경을 받아들였음을 알게 됩니다. ISR은 파티션 epoch 1의 broker-0, broker-1입니다. 이로써 HW가 올라가 이를 기다리던 orders-service 프로듀서의 acks=all 쓰기가 응답을 받습니다. billing 컨슈머의 붙잡혀 있던 Fetch가 이제 HW 아래에 든 레코드를 받습니다.',
    );
    // the second AlterPartition puts broker-2 back
    const expand = first(t, 'AlterPartition', (s) => s.i > alter);
    expect(narrate(t, expand, 'en')).toContain('broker-2 joins the ISR — the ISR is now broker-0, broker-1, broker-2 at partition epoch 2');
  });

  it('hw-behind-leo-slow-follower: each broker applies the PartitionChange record as leader or follower; the controller hears it was received', () => {
    const t = trace('hw-behind-leo-slow-follower');
    const leader = first(t, 'PartitionChange', (s) => s.actor === 'broker-0');
    expect(narrate(t, leader, 'en')).toBe(
      "broker-0, the leader of orders-0, applies the controller's partition record of orders-0 (PartitionChange: leader broker-0, leader epoch 0, ISR broker-0, broker-1, partition epoch 1): it takes ISR broker-0, broker-1 as committed.",
    );
    expect(narrate(t, leader, 'ko')).toBe(
      'orders-0의 리더 broker-0이 컨트롤러의 orders-0 파티션 레코드(PartitionChange: 리더 broker-0, 리더 epoch 0, ISR broker-0, broker-1, 파티션 epoch 1)를 반영해 ISR broker-0, broker-1을 확정된 ISR로 삼습니다.',
    );
    const follower = first(t, 'PartitionChange', (s) => s.actor === 'broker-2');
    expect(narrate(t, follower, 'en')).toBe(
      "broker-2, a follower of broker-0, applies the controller's partition record of orders-0 (PartitionChange: leader broker-0, leader epoch 0, ISR broker-0, broker-1, partition epoch 1): it keeps fetching from broker-0.",
    );
    const ack = first(t, 'PartitionChangeResponse', (s) => s.from === 'broker-2');
    expect(narrate(t, ack, 'en')).toBe(
      'broker-2 acknowledged the partition record of orders-0 (partition epoch 1): the controller need not send it to broker-2 again.',
    );
    expect(narrate(t, ack, 'ko')).toBe(
      'broker-2가 orders-0의 파티션 레코드(파티션 epoch 1)를 받았다고 알렸습니다. 컨트롤러는 이 레코드를 broker-2에게 다시 보낼 필요가 없습니다.',
    );
  });

  it('unclean-election-loses-committed: a restarted broker registers, then the election it lets happen; the records that follow', () => {
    const t = trace('unclean-election-loses-committed');
    const register = first(t, 'BrokerHeartbeat', (s) => s.facts.length > 0);
    expect(narrate(t, register, 'en')).toMatch(
      /^The controller registers broker-1's new incarnation \(broker epoch 1, after its restart\) and unfences it \(BrokerHeartbeat\): partitions left without a leader elect one again, every broker gets the partition records \(PartitionChange\), and broker-1's session runs for broker\.session\.timeout\.ms \(9000 ms\) from now; with its answer broker-1 opens its listeners \(BrokerServer accepts connections only once unfenced\); the controller makes broker-1 leader of orders-0 by an unclean election/,
    );
    expect(narrate(t, register, 'ko')).toMatch(
      /^컨트롤러가 broker-1의 새 인스턴스\(브로커 epoch 1, 재시작 후\)를 등록하고 펜싱을 풉니다\(BrokerHeartbeat\)\. .* 컨트롤러가 언클린 선출로 broker-1을 orders-0의 리더로 정했습니다/,
    );
    const leads = first(t, 'PartitionChange', (s) => s.i > register && s.actor === 'broker-1');
    expect(narrate(t, leads, 'en')).toBe(
      "broker-1 applies the controller's partition record of orders-0 (PartitionChange: leader broker-1, leader epoch 2, ISR broker-1, partition epoch 3): it becomes the leader of orders-0 at leader epoch 2, and leader epoch 2 starts at its log end offset.",
    );
    const again = first(t, 'PartitionChange', (s) => s.i > leads && s.actor === 'broker-1');
    expect(narrate(t, again, 'en')).toBe(
      'broker-1 already has this partition record of orders-0 (partition epoch 3), so the partition is unchanged; the record only tells it which brokers are fenced now: broker-0.',
    );
    const noReplica = first(t, 'PartitionChange', (s) => s.actor === 'broker-2');
    expect(narrate(t, noReplica, 'en')).toMatch(
      /to its metadata: it holds no replica of orders-0, so only what it tells clients about orders-0 changes\.$/,
    );
    // broker-0 comes back: a new incarnation forgot its records, applies the current one and follows broker-1
    const back = first(t, 'PartitionChange', (s) => s.i > again && s.actor === 'broker-0');
    expect(narrate(t, back, 'en')).toMatch(/: it follows broker-1 at leader epoch 2 and fetches orders-0 from it, from offset 3\.$/);
    expect(narrate(t, back, 'ko')).toMatch(/ 리더 epoch 2의 broker-1을 따르며 orders-0을 offset 3부터 Fetch합니다\.$/);
  });

  const kraft = [
    'BrokerHeartbeat',
    'BrokerHeartbeatResponse',
    'AlterPartition',
    'AlterPartitionResponse',
    'PartitionChange',
    'PartitionChangeResponse',
  ];
  for (const id of [
    ...PRESETS,
    'acks-1-leader-failover-loss',
    'idempotence-survives-failover',
    'transaction-state-under-replicated',
    'unclean-election-loses-committed',
  ])
    it(`${id}: no KRaft request or answer is narrated by the generic "received …" sentence`, () => {
      const t = trace(id);
      const steps = t.steps.filter((s) => s.kind === 'deliver' && kraft.includes(s.label));
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) {
        expect(narrate(t, s.i, 'en'), `step ${s.i} ${s.label}`).not.toMatch(/ received \w+ from /);
        expect(narrate(t, s.i, 'ko'), `step ${s.i} ${s.label}`).not.toMatch(/에게서 \w+[을를] 받았습니다/);
      }
    });

  /** `base` with step `i` delivering an envelope of `rpc` with `payload`, having sent `replies` (rpc, payload, to). */
  function synthetic(base: Trace, i: number, rpc: string, payload: Payload, replies: [string, Payload, string][] = []): Trace {
    const s = base.steps.at(i) as TraceStep;
    const envelopes = [...base.envelopes];
    const env = { ...(envelopes[s.envelope as number] as EnvelopeRecord), rpc, payload } as EnvelopeRecord;
    envelopes[env.id] = env;
    const sent = replies.map(([r, p, to], k) => {
      const id = envelopes.length + k;
      return { ...env, id, rpc: r, payload: p, to, from: s.actor, inReplyTo: env.id } as EnvelopeRecord;
    });
    envelopes.push(...sent);
    const steps = [...base.steps];
    steps[i] = { ...s, label: rpc, facts: [], sent: sent.map((e) => e.id) };
    return { ...base, steps, envelopes } as Trace;
  }

  it('the refusals the presets never show: DUPLICATE_BROKER_REGISTRATION, an AlterPartition refused, an older partition record', () => {
    const base = trace('hw-behind-leo-slow-follower');
    const hb = first(base, 'BrokerHeartbeat', (s) => s.from === 'broker-1');
    const dup = synthetic(base, hb, 'BrokerHeartbeat', { brokerId: 'broker-1', brokerEpoch: 1 }, [
      ['BrokerHeartbeatResponse', { isFenced: true, error: 'DUPLICATE_BROKER_REGISTRATION' }, 'broker-1'],
    ]);
    expect(narrate(dup, hb, 'en')).toBe(
      "The controller refuses the registration of broker-1's new incarnation (BrokerHeartbeat, broker epoch 1) with DUPLICATE_BROKER_REGISTRATION: the session of the incarnation before it is still valid, and the new one may register only once the controller has fenced the old; broker-1 tries again at its next heartbeat, and until it is unfenced it accepts no connection (BrokerServer opens its listeners only then).",
    );
    expect(narrate(dup, hb, 'ko')).toContain('DUPLICATE_BROKER_REGISTRATION으로 거절합니다');
    const hbAnswer = first(base, 'BrokerHeartbeatResponse', (s) => s.actor === 'broker-1');
    const refused = synthetic(base, hbAnswer, 'BrokerHeartbeatResponse', { isFenced: true, error: 'DUPLICATE_BROKER_REGISTRATION' });
    expect(narrate(refused, hbAnswer, 'en')).toBe(
      "The controller refused broker-1's registration with DUPLICATE_BROKER_REGISTRATION: its previous incarnation is not fenced yet; broker-1 sends its next BrokerHeartbeat after broker.heartbeat.interval.ms (2000 ms).",
    );

    const alter = first(base, 'AlterPartition');
    const request = {
      topic: 'orders',
      partition: 0,
      leaderId: 'broker-0',
      leaderEpoch: 0,
      partitionEpoch: 0,
      newIsr: ['broker-0', 'broker-1'],
    };
    const ineligible = synthetic(base, alter, 'AlterPartition', request, [
      [
        'AlterPartitionResponse',
        {
          topic: 'orders',
          partition: 0,
          error: 'INELIGIBLE_REPLICA',
          leaderId: 'broker-0',
          leaderEpoch: 0,
          partitionEpoch: 0,
          isr: ['broker-0', 'broker-1', 'broker-2'],
        },
        'broker-0',
      ],
    ]);
    expect(narrate(ineligible, alter, 'en')).toBe(
      "The controller refuses broker-0's AlterPartition for orders-0 (ISR broker-0, broker-1, leader epoch 0, partition epoch 0) with INELIGIBLE_REPLICA: a broker of the requested ISR is fenced or not registered; the ISR stays broker-0, broker-1, broker-2.",
    );
    expect(narrate(ineligible, alter, 'ko')).toBe(
      '컨트롤러가 broker-0의 orders-0 AlterPartition(ISR broker-0, broker-1, 리더 epoch 0, 파티션 epoch 0)을 INELIGIBLE_REPLICA로 거절합니다(요청한 ISR에 펜싱됐거나 등록되지 않은 브로커가 있습니다). ISR은 broker-0, broker-1, broker-2 그대로입니다.',
    );
    const answer = first(base, 'AlterPartitionResponse');
    const stale = synthetic(base, answer, 'AlterPartitionResponse', {
      topic: 'orders',
      partition: 0,
      error: 'INVALID_UPDATE_VERSION',
      leaderId: 'broker-0',
      leaderEpoch: 0,
      partitionEpoch: 1,
      isr: ['broker-0', 'broker-1'],
    });
    expect(narrate(stale, answer, 'en')).toBe(
      "The controller refused broker-0's AlterPartition for orders-0 (ISR broker-0, broker-1) with INVALID_UPDATE_VERSION: the ISR changed since the leader asked: its partition epoch is stale; broker-0 keeps its proposal pending until a newer partition record (PartitionChange) replaces its state.",
    );
    expect(narrate(stale, answer, 'ko')).toContain('INVALID_UPDATE_VERSION으로 거절했습니다');
    const dropped = synthetic(base, answer, 'AlterPartitionResponse', {
      topic: 'orders',
      partition: 0,
      error: 'INELIGIBLE_REPLICA',
      isr: [],
    });
    expect(narrate(dropped, answer, 'en')).toMatch(/; broker-0 drops its proposal and keeps the ISR it had\.$/);

    // a partition record older than the one the broker applied (the first record it got has partition epoch 1)
    const later = first(base, 'PartitionChange', (s) => s.actor === 'broker-1' && s.i > alter + 10);
    const older = synthetic(base, later, 'PartitionChange', {
      topic: 'orders',
      partition: 0,
      leader: 'broker-0',
      leaderEpoch: 0,
      partitionEpoch: 0,
      replicas: ['broker-0', 'broker-1', 'broker-2'],
      isr: ['broker-0', 'broker-1', 'broker-2'],
      election: null,
    });
    expect(narrate(older, later, 'en')).toBe(
      'broker-1 ignores this partition record of orders-0 (partition epoch 0): it already applied a newer one (partition epoch 1).',
    );
    expect(narrate(older, later, 'ko')).toBe(
      'broker-1은 orders-0의 이 파티션 레코드(파티션 epoch 0)를 무시합니다. 이미 더 새로운 레코드(파티션 epoch 1)를 반영했습니다.',
    );
  });
});

describe("a follower's truncation says its offsets as they are", () => {
  const truncation = (id: string) => {
    const t = trace(id);
    const s = t.steps.find((x) => x.facts.some((f) => (f as { kind: string }).kind === 'truncated'));
    if (!s) throw new Error(`no truncation in ${id}`);
    return { t, i: s.i };
  };

  it('acks-1-leader-failover-loss: one record, at one offset ("at offset 1", not "offsets 1–1")', () => {
    const { t, i } = truncation('acks-1-leader-failover-loss');
    expect(narrate(t, i, 'en')).toBe(
      'broker-0 truncated its copy of orders-0 to offset 1 to follow leader epoch 1: 1 record at offset 1 is gone from it.',
    );
    expect(narrate(t, i, 'ko')).toBe(
      'broker-0이 리더 epoch 1을 따르려고 orders-0 사본을 offset 1까지 잘라냈습니다. offset 1의 레코드 1개가 사라졌습니다.',
    );
  });

  it('unclean-election-loses-committed: two records, at a range of offsets', () => {
    const { t, i } = truncation('unclean-election-loses-committed');
    expect(narrate(t, i, 'en')).toBe(
      'broker-0 truncated its copy of orders-0 to offset 1 to follow leader epoch 2: 2 records at offsets 1–2 are gone from it.',
    );
    expect(narrate(t, i, 'ko')).toBe(
      'broker-0이 리더 epoch 2를 따르려고 orders-0 사본을 offset 1까지 잘라냈습니다. offset 1–2의 레코드 2개가 사라졌습니다.',
    );
  });
});

function num(batches: unknown, field: string): number {
  const first = (batches as Payload[])[0];
  return first ? Number(first[field]) : -1;
}
