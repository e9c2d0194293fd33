/**
 * The server's side of a connection, as Kafka's SocketServer runs it: one request of a connection
 * at a time. A request read mutes its channel until its response is sent (Processor
 * .processCompletedReceives → selector.mute; processCompletedSends → tryUnmuteChannel); a request
 * with no response (acks=0, NoOpResponse) unmutes it at once; what arrives meanwhile waits unread,
 * in order. Tiny machines on the kernel, so the rule is seen on its own.
 */

import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { handle, type Out } from '../src/sim/actors/out';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../src/sim/kernel/effects';
import type { RpcName } from '../src/sim/kernel/envelope';
import type { KernelFault } from '../src/sim/kernel/faults';
import { type ActorSpec, type KernelOptions, Simulation } from '../src/sim/kernel/simulation';
import { kernelTestOptions } from './kernelTestOptions';

type Log = { events: string[] };
type Ev = { type: string } & Record<string, unknown>;
type Req = { n: number; rpc: 'Produce' | 'Fetch'; noResponse?: boolean; to?: string };

const options = (o: Partial<KernelOptions> = {}): KernelOptions => kernelTestOptions({ checkpointEvery: 4, ...o });

/** A client that sends `requests`, one per ms from t=0, each with `timeoutMs`, and logs what comes back (and when). */
const client = (requests: readonly Req[], timeoutMs: number) =>
  setup({ types: {} as { context: Log; events: Ev } }).createMachine({
    context: { events: [] },
    on: {
      boot: {
        actions: handle((ctx: Log, _e: unknown, out: Out) => {
          for (const [i, r] of requests.entries()) out.timer(`send:${r.n}`, 'sendOne', i, { ...r });
          return ctx;
        }),
      },
      sendOne: {
        actions: handle((ctx: Log, e: TimerEvent<Req>, out: Out) => {
          const r = e.data;
          // an acks=0 Produce: no response expected (Kafka's NoOpResponse)
          out.send(r.to ?? 'srv', r.rpc, r.noResponse ? { n: r.n, acks: 0 } : { n: r.n }, { timeoutMs, expectResponse: !r.noResponse });
          return ctx;
        }),
      },
      ProduceResponse: {
        actions: handle((ctx: Log, e: RpcEvent<{ n: number }> & { now: number }) => ({
          events: [...ctx.events, `answer ${e.payload.n} at ${e.now}`],
        })),
      },
      FetchResponse: {
        actions: handle((ctx: Log, e: RpcEvent<{ n: number }> & { now: number }) => ({
          events: [...ctx.events, `answer ${e.payload.n} at ${e.now}`],
        })),
      },
      disconnected: {
        actions: handle((ctx: Log, e: DisconnectedEvent) => ({
          events: [...ctx.events, `disconnected ${(e.payload as { n: number }).n} ${e.timedOut ? 'timed out' : e.reason}`],
        })),
      },
    },
  });

type Reads = { reads: string[] };

/** A server that logs each request it reads (and when) and answers it `delay` ms later (none for noResponse). */
const server = (delay: number) =>
  setup({ types: {} as { context: Reads; events: Ev } }).createMachine({
    context: { reads: [] },
    on: {
      '*': {
        actions: handle((ctx: Reads, e: Ev, out: Out) => {
          if (e.type === 'answer') {
            const d = e as unknown as TimerEvent<{ from: string; envelopeId: number; n: number; rpc: string }>;
            out.reply({ ...d.data, correlationId: d.data.n }, `${d.data.rpc}Response` as RpcName, { n: d.data.n });
            return ctx;
          }
          if (!('envelopeId' in e)) return ctx;
          const r = e as unknown as RpcEvent<{ n: number }> & { now: number };
          const answers = !(r.type === 'Produce' && r.payload.n >= 100);
          if (answers)
            out.timer(`answer:${r.envelopeId}`, 'answer', delay, { from: r.from, envelopeId: r.envelopeId, n: r.payload.n, rpc: r.type });
          return { reads: [...ctx.reads, `${r.type} ${r.payload.n} at ${r.now}`] };
        }),
      },
    },
  });

function run(requests: readonly Req[], o: { delay?: number; timeoutMs?: number; faults?: KernelFault[] } = {}) {
  const specs: ActorSpec[] = [
    { id: 'cli', kind: 'client', logic: client(requests, o.timeoutMs ?? 1000) as AnyStateMachine, input: {}, boot: true },
    { id: 'srv', kind: 'server', logic: server(o.delay ?? 10) as AnyStateMachine, input: {} },
  ];
  const sim = Simulation.create(specs, options({ faults: o.faults ?? [] }));
  sim.run();
  const reads = (sim.actorSnapshots().get('srv')?.context as Reads).reads;
  const log = (sim.actorSnapshots().get('cli')?.context as Log).events;
  return { sim, reads, log, specs };
}

describe('server reads: one request per connection at a time (SocketServer mute)', () => {
  it('the second request is read only once the first has been answered, and the answers come in order', () => {
    const { reads, log } = run([
      { n: 1, rpc: 'Produce' },
      { n: 2, rpc: 'Produce' },
      { n: 3, rpc: 'Produce' },
    ]);
    // sent at 0, 1, 2; arriving at 1, 2, 3; each answered 10 ms after it is read
    expect(reads).toEqual(['Produce 1 at 1', 'Produce 2 at 11', 'Produce 3 at 21']);
    expect(log).toEqual(['answer 1 at 12', 'answer 2 at 22', 'answer 3 at 32']);
  });

  it('a request that gets no response (acks=0) does not hold the next one', () => {
    const { reads } = run([
      { n: 100, rpc: 'Produce', noResponse: true },
      { n: 2, rpc: 'Produce' },
    ]);
    expect(reads).toEqual(['Produce 100 at 1', 'Produce 2 at 2']);
  });

  it('each connection is muted on its own: another client is read at once', () => {
    const specs: ActorSpec[] = [
      { id: 'a', kind: 'client', logic: client([{ n: 1, rpc: 'Produce' }], 1000) as AnyStateMachine, input: {}, boot: true },
      { id: 'b', kind: 'client', logic: client([{ n: 2, rpc: 'Produce' }], 1000) as AnyStateMachine, input: {}, boot: true },
      { id: 'srv', kind: 'server', logic: server(10) as AnyStateMachine, input: {} },
    ];
    const sim = Simulation.create(specs, options());
    sim.run();
    expect((sim.actorSnapshots().get('srv')?.context as Reads).reads).toEqual(['Produce 1 at 1', 'Produce 2 at 1']);
  });

  it("Fetch requests neither wait nor hold (simplified: a follower's go per partition, and a consumer's share its connection with its group requests)", () => {
    const { reads } = run([
      { n: 1, rpc: 'Fetch' },
      { n: 2, rpc: 'Fetch' },
    ]);
    expect(reads).toEqual(['Fetch 1 at 1', 'Fetch 2 at 2']);
  });

  it('a duplicated request: the copy is read after the original has been answered', () => {
    const faults: KernelFault[] = [
      {
        kind: 'envelope',
        id: 1,
        match: { rpc: 'Produce' },
        nth: 1,
        count: 1,
        action: 'duplicate',
        delayMs: 0,
        label: 'dup',
      } as KernelFault,
    ];
    const { reads } = run([{ n: 1, rpc: 'Produce' }], { faults });
    expect(reads).toEqual(['Produce 1 at 1', 'Produce 1 at 11']);
  });

  it('the client gives up on the connection (request timeout): the server still reads what reached it, one request at a time', () => {
    const { reads, log } = run(
      [
        { n: 1, rpc: 'Produce' },
        { n: 2, rpc: 'Produce' },
      ],
      { delay: 500, timeoutMs: 100 },
    );
    expect(log).toEqual(['disconnected 1 timed out', 'disconnected 2 timed out']);
    // the first request's timeout (sent at 0) closes the connection at 100; the server answers the
    // first at 501 (lost: the generation is closed) and only then reads the second
    expect(reads).toEqual(['Produce 1 at 1', 'Produce 2 at 501']);
  });

  it('the server goes down while a request waits unread: it is lost, and the client sees the connection break', () => {
    const faults: KernelFault[] = [
      { kind: 'timed', id: 1, at: 5, action: { type: 'crash' }, process: 'srv', label: 'crash srv' } as KernelFault,
    ];
    const { sim, reads, log } = run(
      [
        { n: 1, rpc: 'Produce' },
        { n: 2, rpc: 'Produce' },
      ],
      { faults },
    );
    expect(reads).toEqual(['Produce 1 at 1']);
    expect(log).toEqual(['disconnected 1 peer-down', 'disconnected 2 peer-down']);
    const produces = [...Array(sim.envelopes.length).keys()].map((i) => sim.envelopes.at(i)).filter((e) => e?.rpc === 'Produce');
    // the second Produce (sent at 1) arrived and waited unread: it never reached the server
    expect(produces.map((e) => [e?.sentAt, e?.fate])).toEqual([
      [0, 'delivered'],
      [1, 'lost'],
    ]);
  });

  it('a run restored from a checkpoint taken while a request waits unread goes on exactly as the run did', () => {
    const requests: Req[] = [1, 2, 3, 4].map((n) => ({ n, rpc: 'Produce' }));
    const { sim, specs } = run(requests);
    const whole = sim.traceHash;
    // checkpoints every 4 steps: one of them holds requests waiting unread
    const held = sim.checkpoints.find((cp) =>
      (cp.network as unknown as readonly [string, { readings: readonly { unread: readonly unknown[] }[] }][]).some(([, c]) =>
        c.readings.some((r) => r.unread.length > 0),
      ),
    );
    expect(held).toBeDefined();
    const again = Simulation.restore(specs, options(), held as NonNullable<typeof held>);
    again.run();
    expect(again.traceHash).toBe(whole);
    expect((again.actorSnapshots().get('srv')?.context as Reads).reads).toEqual([
      'Produce 1 at 1',
      'Produce 2 at 11',
      'Produce 3 at 21',
      'Produce 4 at 31',
    ]);
  });
});
