/**
 * The kernel with tiny machines: request timeouts as NetworkClient closes connections, the kernel's
 * assertions (finite, monotonic time; bounded steps at one instant), and timers held by a paused
 * process (a cancelled one never fires; the run's "something left to do" count stays right).
 */

import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { handle, type Out } from '../src/sim/actors/out';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../src/sim/kernel/effects';
import type { KernelFault } from '../src/sim/kernel/faults';
import { type ActorSpec, type KernelOptions, Simulation } from '../src/sim/kernel/simulation';
import { kernelTestOptions } from './kernelTestOptions';

type Log = { events: string[] };

const options = (o: Partial<KernelOptions> = {}): KernelOptions => kernelTestOptions(o);

/** A client that sends `count` requests (one every ms) with a 100 ms timeout and logs what comes back. */
const client = setup({ types: {} as { context: Log; events: { type: string } & Record<string, unknown> } }).createMachine({
  context: { events: [] },
  on: {
    boot: {
      actions: handle((ctx: Log, _e: unknown, out: Out) => {
        out.send('srv', 'Produce', { correlationId: 0 }, { timeoutMs: 100 });
        out.timer('second', 'sendSecond', 1);
        return ctx;
      }),
    },
    sendSecond: {
      actions: handle((ctx: Log, _e: unknown, out: Out) => {
        out.send('srv', 'Produce', { correlationId: 1 }, { timeoutMs: 100 });
        return ctx;
      }),
    },
    ProduceResponse: {
      actions: handle((ctx: Log, e: RpcEvent<{ correlationId: number }>) => ({
        events: [...ctx.events, `response ${e.payload.correlationId}`],
      })),
    },
    disconnected: {
      actions: handle((ctx: Log, e: DisconnectedEvent) => ({
        events: [
          ...ctx.events,
          `disconnected ${(e.payload as { correlationId: number }).correlationId} ${e.timedOut ? 'timed out' : e.reason}`,
        ],
      })),
    },
  },
});

/** A server that answers each Produce after `delay` ms. */
const server = (delay: number) =>
  setup({
    types: {} as {
      context: { pending: { from: string; envelopeId: number; correlationId: number }[] };
      events: { type: string } & Record<string, unknown>;
    },
  }).createMachine({
    context: { pending: [] },
    on: {
      Produce: {
        actions: handle(
          (
            ctx: { pending: { from: string; envelopeId: number; correlationId: number }[] },
            e: RpcEvent<{ correlationId: number }>,
            out: Out,
          ) => {
            out.timer(`answer:${e.envelopeId}`, 'answer', delay, {
              from: e.from,
              envelopeId: e.envelopeId,
              correlationId: e.payload.correlationId,
            });
            return ctx;
          },
        ),
      },
      answer: {
        actions: handle(
          (ctx: { pending: unknown[] }, e: TimerEvent<{ from: string; envelopeId: number; correlationId: number }>, out: Out) => {
            out.reply(e.data, 'ProduceResponse', {});
            return ctx;
          },
        ),
      },
    },
  });

function run(serverDelay: number, faults: KernelFault[] = [], o: Partial<KernelOptions> = {}) {
  const specs: ActorSpec[] = [
    { id: 'cli', kind: 'client', logic: client as AnyStateMachine, input: {}, boot: true },
    { id: 'srv', kind: 'server', logic: server(serverDelay) as AnyStateMachine, input: {} },
  ];
  const sim = Simulation.create(specs, options({ faults, ...o }));
  sim.run();
  const log = (sim.actorSnapshots().get('cli')?.context as Log).events;
  return { sim, log };
}

describe('kernel: request timeouts (NetworkClient)', () => {
  it('an answer in time completes the request, and its timeout never fires', () => {
    const { sim, log } = run(10);
    expect(log).toEqual(['response 0', 'response 1']);
    expect(sim.steps.filter((s) => s.kind === 'disconnected')).toEqual([]);
  });

  it('no answer within the timeout: the connection is closed and every request on it fails, oldest first, as REQUEST_TIMED_OUT', () => {
    const { sim, log } = run(500);
    expect(log).toEqual(['disconnected 0 timed out', 'disconnected 1 timed out']);
    const closes = sim.steps.filter((s) => s.kind === 'disconnected');
    // the first request's deadline (sent at 0, timeout 100) closes the connection for both
    expect(closes.map((s) => [s.t, s.detail?.reason, s.detail?.generation])).toEqual([
      [100, 'timeout', 0],
      [100, 'timeout', 0],
    ]);
    // the server's late answers travel on a closed generation: they are never delivered
    const answers = sim.envelopes.filter((e) => e.rpc === 'ProduceResponse');
    expect(answers.map((e) => e.fate)).toEqual(['lost', 'lost']);
    expect(answers[0]?.fault).toMatch(/closed before it was sent/);
  });

  it('a dropped request stalls the connection: the next one is lost behind it and both time out together', () => {
    const drop: KernelFault = {
      kind: 'envelope',
      id: 0,
      match: { rpc: 'Produce' },
      nth: 1,
      count: 1,
      action: 'drop',
      delayMs: 0,
      label: 'drop',
    };
    const { sim, log } = run(10, [drop]);
    expect(log).toEqual(['disconnected 0 timed out', 'disconnected 1 timed out']);
    const second = sim.envelopes.at(1);
    expect(second).toMatchObject({ rpc: 'Produce', fate: 'lost', fault: expect.stringMatching(/stalled behind Produce #0/) });
    expect(sim.steps.find((s) => s.kind === 'lost')?.faults[0]).toMatch(/Produce #1 lost: stalled behind Produce #0/);
  });

  it('a reset fault breaks the connection at once: its requests fail with NETWORK_EXCEPTION, not a timeout', () => {
    const reset: KernelFault = {
      kind: 'envelope',
      id: 0,
      match: { rpc: 'Produce' },
      nth: 2,
      count: 1,
      action: 'reset',
      delayMs: 0,
      label: 'reset',
    };
    const { sim, log } = run(10, [reset]);
    expect(log).toEqual(['disconnected 0 reset', 'disconnected 1 reset']);
    expect(sim.steps.filter((s) => s.kind === 'disconnected').map((s) => s.t)).toEqual([1, 1]);
  });

  it('a request without a timeout is refused: every request must end in an answer or a disconnect', () => {
    const bad = setup({}).createMachine({
      on: {
        boot: {
          actions: handle((c: unknown, _e: unknown, out: Out) => {
            out.send('srv', 'Produce', {}, { timeoutMs: Number.NaN });
            return c;
          }),
        },
      },
    });
    const sim = Simulation.create(
      [
        { id: 'cli', kind: 'client', logic: bad as AnyStateMachine, input: {}, boot: true },
        { id: 'srv', kind: 'server', logic: server(1) as AnyStateMachine, input: {} },
      ],
      options(),
    );
    expect(() => sim.run()).toThrow(/without a request timeout/);
  });
});

function tick(c: unknown, out: Out, delay: number): unknown {
  out.timer('t', 'tick', delay);
  return c;
}

/** An actor that arms one timer at boot and re-arms on every firing, with the given delay. */
const ticker = (delay: number) =>
  setup({}).createMachine({
    on: {
      boot: { actions: handle((c: unknown, _e: unknown, out: Out) => tick(c, out, delay)) },
      tick: { actions: handle((c: unknown, _e: unknown, out: Out) => tick(c, out, delay)) },
    },
  });

describe('kernel assertions', () => {
  it('a time that is not a finite number stops the run with a named reason, not an exception', () => {
    const sim = Simulation.create([{ id: 'a', kind: 'x', logic: ticker(Number.NaN) as AnyStateMachine, input: {}, boot: true }], options());
    sim.run();
    expect(sim.stopReason).toBe('invalid-time');
    expect(sim.stopDetail).toMatch(/timer tick for a scheduled at NaN/);
    expect(sim.steps.every((s) => Number.isFinite(s.t))).toBe(true);
  });

  it('unbounded steps at one instant stop the run as a livelock', () => {
    const sim = Simulation.create(
      [{ id: 'a', kind: 'x', logic: ticker(0) as AnyStateMachine, input: {}, boot: true }],
      options({ maxStepsPerInstant: 50 }),
    );
    sim.run();
    expect(sim.stopReason).toBe('livelock');
    expect(sim.stopDetail).toMatch(/50 steps at 0 ms/);
    expect(sim.steps).toHaveLength(50);
  });

  it('time never goes backwards and advancing time resets the count', () => {
    const sim = Simulation.create(
      [{ id: 'a', kind: 'x', logic: ticker(1) as AnyStateMachine, input: {}, boot: true }],
      options({ maxStepsPerInstant: 3, maxTimeMs: 200 }),
    );
    sim.run();
    expect(sim.stopReason).toBe('max-time');
    for (let i = 1; i < sim.steps.length; i++)
      expect((sim.steps.at(i) as { t: number }).t).toBeGreaterThanOrEqual((sim.steps.at(i - 1) as { t: number }).t);
  });
});

describe('kernel: a paused process holds its timers', () => {
  /** Arms 'a' at 10 and 'b' at 15; when 'a' fires it cancels 'b'. */
  const canceller = setup({ types: {} as { context: Log; events: { type: string } & Record<string, unknown> } }).createMachine({
    context: { events: [] },
    on: {
      boot: {
        actions: handle((ctx: Log, _e: unknown, out: Out) => {
          out.timer('a', 'fireA', 10);
          out.timer('b', 'fireB', 15);
          return ctx;
        }),
      },
      fireA: {
        actions: handle((ctx: Log, _e: unknown, out: Out) => {
          out.cancel('b');
          return { events: [...ctx.events, 'a'] };
        }),
      },
      fireB: { actions: handle((ctx: Log) => ({ events: [...ctx.events, 'b'] })) },
    },
  });

  it('a timer cancelled after the resume, that came due during the pause, never fires, and the run still ends quiescent', () => {
    const faults: KernelFault[] = [
      { kind: 'timed', id: 0, at: 5, process: 'p', action: { type: 'pause' }, label: 'pause' },
      { kind: 'timed', id: 1, at: 30, process: 'p', action: { type: 'resume' }, label: 'resume' },
    ];
    const sim = Simulation.create(
      [{ id: 'p.app', kind: 'x', logic: canceller as AnyStateMachine, input: {}, boot: true }],
      options({ faults }),
    );
    sim.run();
    expect((sim.actorSnapshots().get('p.app')?.context as Log).events).toEqual(['a']);
    expect(sim.stopReason).toBe('empty');
    expect(sim.foregroundCount).toBe(0);
  });

  it('while work is left, the run is not quiescent, however pauses came and went', () => {
    // after the pause, a timer far away is the only work left: the run must wait for it
    const late = setup({}).createMachine({
      on: {
        boot: {
          actions: handle((c: unknown, _e: unknown, out: Out) => {
            out.timer('a', 'fireA', 10);
            out.timer('b', 'fireB', 15);
            return c;
          }),
        },
        fireA: {
          actions: handle((c: unknown, _e: unknown, out: Out) => {
            out.cancel('b');
            out.timer('far', 'far', 100000);
            return c;
          }),
        },
        far: { actions: handle((c: unknown) => c) },
      },
    });
    const faults: KernelFault[] = [
      { kind: 'timed', id: 0, at: 5, process: 'p', action: { type: 'pause' }, label: 'pause' },
      { kind: 'timed', id: 1, at: 30, process: 'p', action: { type: 'resume' }, label: 'resume' },
    ];
    const sim = Simulation.create([{ id: 'p.app', kind: 'x', logic: late as AnyStateMachine, input: {}, boot: true }], options({ faults }));
    sim.run();
    expect(sim.steps.at(-1)?.label).toBe('far');
    expect(sim.now).toBe(100030);
  });
});

describe('kernel: a process that is up but not listening (ActorSpec.refusesConnections)', () => {
  /** srv speaks for its process's listeners: it refuses every Produce when `closed`. */
  function runClosed(closed: boolean) {
    const specs: ActorSpec[] = [
      { id: 'cli', kind: 'client', logic: client as AnyStateMachine, input: {}, boot: true },
      {
        id: 'srv',
        kind: 'server',
        logic: server(10) as AnyStateMachine,
        input: {},
        refusesConnections: (_ctx, rpc) => (closed && rpc === 'Produce' ? 'not started yet' : null),
      },
    ];
    const sim = Simulation.create(specs, options());
    sim.run();
    return { sim, log: (sim.actorSnapshots().get('cli')?.context as Log).events };
  }

  it('refuses a request as a process that is down would: never read, the connection refused, each request a disconnect', () => {
    const { sim, log } = runClosed(true);
    expect(log).toEqual(['disconnected 0 refused', 'disconnected 1 refused']);
    const lost = sim.steps.filter((s) => s.actor === 'srv' && s.kind === 'lost');
    expect(lost[0]?.faults[0]).toBe('Produce #0 lost: srv is not accepting connections: not started yet');
    expect(sim.steps.some((s) => s.actor === 'srv' && s.kind === 'deliver')).toBe(false);
  });

  it('serves as usual when the listener actor gives no reason', () => {
    expect(runClosed(false).log).toEqual(['response 0', 'response 1']);
  });
});
