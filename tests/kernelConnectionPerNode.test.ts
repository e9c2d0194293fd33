/**
 * One connection per broker for a client that connects per node (ActorSpec.connectsByNode: Kafka's
 * producer). Its transaction and group coordinators are plain broker nodes to its NetworkClient
 * (TransactionManager: `new Node(coordinatorData.nodeId(), …)`; NetworkClient keys connections by
 * node id), so a request to `broker-0.txn-coordinator` travels on the producer's connection to
 * broker-0: in order with its Produce requests, read by the broker only after the request ahead of it
 * has been answered (SocketServer mutes the channel), and failed with them when that connection
 * times out. A client without the flag (the consumer: AbstractCoordinator's coordinator node is
 * `Integer.MAX_VALUE - nodeId`, "to allow separate connections for the coordinator") keeps one
 * connection per server actor.
 */
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { handle, type Out } from '../src/sim/actors/out';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../src/sim/kernel/effects';
import { type ActorSpec, type KernelOptions, Simulation } from '../src/sim/kernel/simulation';
import { kernelTestOptions } from './kernelTestOptions';

type Log = { events: string[] };
type Any = { type: string } & Record<string, unknown>;

const options = (o: Partial<KernelOptions> = {}): KernelOptions => kernelTestOptions(o);

/** A Produce to broker-0 at 0, an AddPartitionsToTxn to broker-0's transaction coordinator at 1 ms; logs what comes back and when. */
const producerLike = (timeoutMs: number) =>
  setup({ types: {} as { context: Log; events: Any } }).createMachine({
    context: { events: [] },
    on: {
      boot: {
        actions: handle((ctx: Log, _e: unknown, out: Out) => {
          out.send('broker-0', 'Produce', { correlationId: 0 }, { timeoutMs });
          out.timer('second', 'sendSecond', 1);
          return ctx;
        }),
      },
      sendSecond: {
        actions: handle((ctx: Log, _e: unknown, out: Out) => {
          out.send('broker-0.txn-coordinator', 'AddPartitionsToTxn', { correlationId: 1 }, { timeoutMs });
          return ctx;
        }),
      },
      ProduceResponse: {
        actions: handle((ctx: Log, e: RpcEvent<unknown> & { now: number }) => ({ events: [...ctx.events, `ProduceResponse at ${e.now}`] })),
      },
      AddPartitionsToTxnResponse: {
        actions: handle((ctx: Log, e: RpcEvent<unknown> & { now: number }) => ({
          events: [...ctx.events, `AddPartitionsToTxnResponse at ${e.now}`],
        })),
      },
      disconnected: {
        actions: handle((ctx: Log, e: DisconnectedEvent) => ({
          events: [...ctx.events, `disconnected ${e.rpc} to ${e.to} ${e.timedOut ? 'timed out' : e.reason} at ${e.now}`],
        })),
      },
    },
  });

type Pending = { from: string; envelopeId: number; correlationId: number };

/** A server that answers every request `delay` ms after it reads it (0: at once). */
const server = (rpc: string, response: string, delay: number) =>
  setup({ types: {} as { context: Record<string, never>; events: Any } }).createMachine({
    context: {},
    on: {
      [rpc]: {
        actions: handle((ctx: Record<string, never>, e: RpcEvent<unknown>, out: Out) => {
          const pending: Pending = {
            from: e.from,
            envelopeId: e.envelopeId,
            correlationId: (e.payload as { correlationId: number }).correlationId,
          };
          if (delay === 0) out.reply(pending, response as never, {});
          else out.timer(`answer:${e.envelopeId}`, 'answer', delay, pending);
          return ctx;
        }),
      },
      answer: {
        actions: handle((ctx: Record<string, never>, e: TimerEvent<Pending>, out: Out) => {
          out.reply(e.data, response as never, {});
          return ctx;
        }),
      },
    },
  });

function run(connectsByNode: boolean, produceDelay: number, timeoutMs = 30000) {
  const specs: ActorSpec[] = [
    { id: 'app.producer', kind: 'producer', logic: producerLike(timeoutMs) as AnyStateMachine, input: {}, boot: true, connectsByNode },
    { id: 'broker-0', kind: 'broker', logic: server('Produce', 'ProduceResponse', produceDelay) as AnyStateMachine, input: {} },
    {
      id: 'broker-0.txn-coordinator',
      kind: 'coordinator',
      logic: server('AddPartitionsToTxn', 'AddPartitionsToTxnResponse', 0) as AnyStateMachine,
      input: {},
    },
  ];
  const sim = Simulation.create(specs, options());
  sim.run();
  const log = (sim.actorSnapshots().get('app.producer')?.context as Log).events;
  return { sim, log };
}

describe('a producer keeps one connection per broker, its coordinators’ requests on it', () => {
  it('both requests travel on app.producer>broker-0', () => {
    const { sim } = run(true, 500);
    const requests = sim.envelopes.filter((e) => e.rpc === 'Produce' || e.rpc === 'AddPartitionsToTxn');
    expect(requests.map((e) => [e.rpc, e.to, e.connection])).toEqual([
      ['Produce', 'broker-0', 'app.producer>broker-0'],
      ['AddPartitionsToTxn', 'broker-0.txn-coordinator', 'app.producer>broker-0'],
    ]);
  });

  it('the coordinator’s request waits unread behind a Produce the broker holds (one request of a connection at a time)', () => {
    const { sim, log } = run(true, 500);
    // the Produce reaches broker-0 at 1 and is answered at 501; AddPartitionsToTxn arrives at 2 and is read only then
    const read = sim.steps.find((s) => s.actor === 'broker-0.txn-coordinator' && s.label.includes('AddPartitionsToTxn'));
    expect(read?.t).toBe(501);
    expect(log).toEqual(['ProduceResponse at 502', 'AddPartitionsToTxnResponse at 502']);
  });

  it('a client with a connection per server actor is answered by the coordinator at once (the consumer’s way)', () => {
    const { sim, log } = run(false, 500);
    const read = sim.steps.find((s) => s.actor === 'broker-0.txn-coordinator' && s.label.includes('AddPartitionsToTxn'));
    expect(read?.t).toBe(2);
    expect(log).toEqual(['AddPartitionsToTxnResponse at 3', 'ProduceResponse at 502']);
  });

  it('the Produce’s request timeout closes the connection: the coordinator’s request fails with it, naming the coordinator', () => {
    const { log } = run(true, 500, 100);
    expect(log).toEqual([
      'disconnected Produce to broker-0 timed out at 100',
      'disconnected AddPartitionsToTxn to broker-0.txn-coordinator timed out at 100',
    ]);
  });

  it('apart, the coordinator’s request is answered and only the Produce times out', () => {
    const { log } = run(false, 500, 100);
    expect(log).toEqual(['AddPartitionsToTxnResponse at 3', 'disconnected Produce to broker-0 timed out at 100']);
  });
});
