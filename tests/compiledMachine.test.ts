/**
 * The compiled runner (src/sim/kernel/compiledMachine.ts) against XState's own interpreter on small
 * charts, one feature at a time: after every event both hold the same state value and context, and
 * emitted the same effects in the same order. Every handler below emits a point named after itself,
 * so the effects are the order in which entry, exit and transition actions ran.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor, not, or, setup, stateIn } from 'xstate';
import { handle } from '../src/sim/actors/out';
import { CompiledActor, compile } from '../src/sim/kernel/compiledMachine';
import type { Effect } from '../src/sim/kernel/effects';
import { stateValueToString } from '../src/sim/kernel/stateValue';
import { cases, PROPERTY_SEED } from './properties/modelProperty';

type Ctx = { n: number; log: string[] };
type E = { type: string; by?: number };

/** A handler that says it ran (a point effect) and counts. */
const say = (tag: string, raise?: string) =>
  handle((ctx: Ctx, ev: E, out) => {
    out.point(tag, { event: ev.type });
    if (raise) out.raise({ type: raise });
    return { ...ctx, n: ctx.n + (ev.by ?? 1), log: [...ctx.log, tag] };
  });

type Seen = { value: unknown; text: string; context: unknown; effects: Effect[] };

/** Sends each event to a started actor and records what it holds after the start and after each event. */
function drive(
  actor: { getSnapshot(): { value: unknown; context: unknown }; send(e: E): void },
  text: (value: unknown) => string,
  drain: () => Effect[],
  events: readonly E[],
): Seen[] {
  const seen: Seen[] = [];
  const look = () => {
    const s = actor.getSnapshot();
    seen.push({ value: s.value, text: text(s.value), context: s.context, effects: drain() });
  };
  look();
  for (const e of events) {
    actor.send(e);
    look();
  }
  return seen;
}

/** Collects effects and hands over those since the last call. */
function effectSink(): { push: (e: Effect) => void; drain: () => Effect[] } {
  let effects: Effect[] = [];
  return {
    push: (e) => effects.push(e),
    drain: () => {
      const out = effects;
      effects = [];
      return out;
    },
  };
}

function withXState(machine: AnyStateMachine, events: readonly E[], snapshot?: { value: unknown; context: unknown }): Seen[] {
  const sink = effectSink();
  const restored = snapshot && { ...snapshot, status: 'active', children: {}, historyValue: {} };
  // biome-ignore lint/suspicious/noExplicitAny: XState's restore takes its own snapshot type
  const a = createActor(machine, { input: {}, ...(restored ? { snapshot: restored as any } : {}) });
  a.on('*', (e) => sink.push(e as unknown as Effect));
  a.start();
  return drive(a, stateValueToString, sink.drain, events);
}

function compiled(machine: AnyStateMachine, events: readonly E[], snapshot?: { value: unknown; context: unknown }): Seen[] {
  const chart = compile(machine);
  if (!chart) throw new Error('not compiled');
  const sink = effectSink();
  const a = new CompiledActor(chart, snapshot, {}, sink.push);
  return drive(a, () => a.stateText(), sink.drain, events);
}

function same(machine: AnyStateMachine, events: readonly E[]): Seen[] {
  const x = withXState(machine, events);
  const c = compiled(machine, events);
  expect(c).toEqual(x);
  return c;
}

const points = (s: Seen) => s.effects.map((e) => (e.type === 'point' ? e.point : e.type));
const ctx0 = (): Ctx => ({ n: 0, log: [] });

describe('compiled runner = XState, feature by feature', () => {
  it('nested states: exits innermost first, entries outermost first, transition actions between', () => {
    const m = setup({}).createMachine({
      context: ctx0,
      initial: 'a',
      entry: say('root.entry'),
      states: {
        a: {
          initial: 'a1',
          entry: say('a.entry'),
          exit: say('a.exit'),
          states: {
            a1: {
              initial: 'x',
              entry: say('a1.entry'),
              exit: say('a1.exit'),
              states: { x: { entry: say('x.entry'), exit: say('x.exit'), on: { go: { target: '#m.b.b1.y', actions: say('go') } } } },
            },
          },
        },
        b: {
          initial: 'b1',
          entry: say('b.entry'),
          exit: say('b.exit'),
          states: {
            b1: {
              initial: 'z',
              entry: say('b1.entry'),
              exit: say('b1.exit'),
              states: { z: { entry: say('z.entry') }, y: { entry: say('y.entry'), exit: say('y.exit') } },
            },
          },
        },
      },
      id: 'm',
    });
    const seen = same(m, [{ type: 'go' }]);
    expect(points(seen[0] as Seen)).toEqual(['root.entry', 'a.entry', 'a1.entry', 'x.entry']);
    expect(points(seen[1] as Seen)).toEqual(['x.exit', 'a1.exit', 'a.exit', 'go', 'b.entry', 'b1.entry', 'y.entry']);
    expect(seen[1]?.text).toBe('b.b1.y');
  });

  it('parallel regions: both regions take the event in document order; exits last region first', () => {
    const m = setup({}).createMachine({
      context: ctx0,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          exit: say('p.exit'),
          on: { leave: { target: 'done', actions: say('leave') } },
          states: {
            r1: {
              initial: 'a',
              states: {
                a: { exit: say('r1.a.exit'), on: { go: { target: 'b', actions: say('r1.go') } } },
                b: { entry: say('r1.b.entry') },
              },
            },
            r2: {
              initial: 'c',
              states: {
                c: { exit: say('r2.c.exit'), on: { go: { target: 'd', actions: say('r2.go') } } },
                d: { entry: say('r2.d.entry'), exit: say('r2.d.exit') },
              },
            },
          },
        },
        done: { entry: say('done.entry') },
      },
    });
    const seen = same(m, [{ type: 'go' }, { type: 'leave' }]);
    expect(points(seen[1] as Seen)).toEqual(['r2.c.exit', 'r1.a.exit', 'r1.go', 'r2.go', 'r1.b.entry', 'r2.d.entry']);
    expect(seen[1]?.text).toBe('p.r1.b|p.r2.d');
    expect(points(seen[2] as Seen)).toEqual(['r2.d.exit', 'p.exit', 'leave', 'done.entry']);
  });

  it('eventless chains: taken while they change the state or the context, guards read the context so far', () => {
    const m = setup({ guards: { small: ({ context }: { context: Ctx }) => context.n < 3 } }).createMachine({
      context: ctx0,
      initial: 'idle',
      states: {
        idle: { on: { start: { target: 'a', actions: say('start') } } },
        a: {
          always: [
            { guard: 'small', target: 'b', actions: say('a→b') },
            { target: 'end', actions: say('a→end') },
          ],
        },
        b: { always: { target: 'a', actions: say('b→a') } },
        end: { always: { guard: ({ context }: { context: Ctx }) => context.n < 10, actions: say('bump', undefined) } },
      },
    });
    const seen = same(m, [{ type: 'start' }]);
    expect(seen[1]?.text).toBe('end');
    expect(points(seen[1] as Seen).slice(0, 4)).toEqual(['start', 'a→b', 'b→a', 'a→end']);
  });

  it('guards: the first enabled transition of the deepest state wins, else its parent’s', () => {
    const m = setup({ types: {} as { context: Ctx; events: E } }).createMachine({
      context: ctx0,
      initial: 'outer',
      on: { ev: { actions: say('root.ev') } },
      states: {
        outer: {
          initial: 'inner',
          on: { ev: [{ guard: ({ context }) => context.n >= 2, actions: say('outer.ev') }] },
          states: {
            inner: {
              on: {
                ev: [
                  { guard: ({ context }) => context.n === 0, actions: say('inner.first') },
                  { guard: ({ context }) => context.n === 0, actions: say('inner.second') },
                  { guard: ({ event }) => event.by === 5, actions: say('inner.by5') },
                ],
              },
            },
          },
        },
      },
    });
    const seen = same(m, [{ type: 'ev' }, { type: 'ev' }, { type: 'ev', by: 5 }, { type: 'ev' }]);
    expect(seen.slice(1).map(points)).toEqual([['inner.first'], ['root.ev'], ['inner.by5'], ['outer.ev']]);
  });

  it('internal, re-entering and targetless transitions; raised events after the microstep', () => {
    const m = setup({}).createMachine({
      context: ctx0,
      initial: 's',
      states: {
        s: {
          initial: 'one',
          entry: say('s.entry'),
          exit: say('s.exit'),
          on: {
            inner: { target: '.two', actions: say('inner') },
            again: { target: 's', reenter: true, actions: say('again') },
            self: { target: 's', actions: say('self') },
            stay: { actions: say('stay', 'raised') },
            raised: { target: '.one', actions: say('on-raised') },
          },
          states: { one: { entry: say('one.entry'), exit: say('one.exit') }, two: { entry: say('two.entry'), exit: say('two.exit') } },
        },
      },
    });
    const seen = same(m, [{ type: 'inner' }, { type: 'again' }, { type: 'inner' }, { type: 'self' }, { type: 'inner' }, { type: 'stay' }]);
    expect(points(seen[2] as Seen)).toEqual(['two.exit', 's.exit', 'again', 's.entry', 'one.entry']);
    expect(points(seen[4] as Seen)).toEqual(['two.exit', 'self', 'one.entry']);
    expect(points(seen[6] as Seen)).toEqual(['stay', 'two.exit', 'on-raised', 'one.entry']);
  });

  it('stateIn, not and or guards: a region follows the other', () => {
    const m = setup({
      guards: {
        onA: stateIn({ p: { left: 'a' } }),
        onB: stateIn('#m.p.left.b'),
        either: or(['onA', 'onB']),
        neither: not('either'),
      },
    }).createMachine({
      id: 'm',
      context: ctx0,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            left: { initial: 'off', states: { off: { on: { a: 'a', b: 'b' } }, a: { on: { off: 'off' } }, b: { on: { off: 'off' } } } },
            right: {
              initial: 'stopped',
              states: {
                stopped: { always: { guard: 'either', target: 'running', actions: say('start') } },
                running: { always: { guard: 'neither', target: 'stopped', actions: say('stop') } },
              },
            },
          },
        },
      },
    });
    const seen = same(m, [{ type: 'a' }, { type: 'off' }, { type: 'b' }, { type: 'off' }]);
    expect(seen.map((s) => s.text)).toEqual([
      'p.left.off|p.right.stopped',
      'p.left.a|p.right.running',
      'p.left.off|p.right.stopped',
      'p.left.b|p.right.running',
      'p.left.off|p.right.stopped',
    ]);
  });

  it('conflicting transitions of two regions: the first region’s wins when both leave the parallel state', () => {
    const m = setup({}).createMachine({
      context: ctx0,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            r1: { initial: 'a', states: { a: { on: { go: { target: '#m.x', actions: say('r1.go') } } } } },
            r2: { initial: 'c', states: { c: { on: { go: { target: '#m.y', actions: say('r2.go') } } } } },
          },
        },
        x: { entry: say('x.entry') },
        y: { entry: say('y.entry') },
      },
      id: 'm',
    });
    const seen = same(m, [{ type: 'go' }]);
    expect(seen[1]?.text).toBe('x');
  });

  it('eventless transitions of two regions run in configuration order, which a same-set re-entry does not change', () => {
    type Flags = Ctx & { armed: boolean; done: string[] };
    const mark = (tag: string) =>
      handle((ctx: Flags, _ev: E, out) => {
        out.point(tag);
        return { ...ctx, done: [...ctx.done, tag] };
      });
    const ready =
      (tag: string) =>
      ({ context }: { context: Flags }) =>
        context.armed && !context.done.includes(tag);
    const m = setup({ types: {} as { context: Flags; events: E } }).createMachine({
      context: { ...ctx0(), armed: false, done: [] } as Flags,
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          on: { arm: { actions: handle((ctx: Flags) => ({ ...ctx, armed: true })) } },
          states: {
            r1: {
              initial: 'a',
              states: { a: { on: { again: { target: 'a', reenter: true } }, always: { guard: ready('r1'), actions: mark('r1') } } },
            },
            r2: { initial: 'c', states: { c: { always: { guard: ready('r2'), actions: mark('r2') } } } },
          },
        },
      },
    });
    const seen = same(m, [{ type: 'again' }, { type: 'arm' }]);
    expect(points(seen[2] as Seen)).toEqual(['r1', 'r2']);
  });

  it('a checkpoint’s { value, context } restores the same configuration: the runs go on alike', () => {
    const m = parallelChart();
    const events: E[] = [{ type: 'join' }, { type: 'synced' }, { type: 'tick' }];
    const mid = withXState(m, events).at(-1) as Seen;
    const more: E[] = [{ type: 'rebalance' }, { type: 'tick' }, { type: 'join' }];
    const snap = { value: mid.value, context: mid.context };
    expect(compiled(m, more, snap)).toEqual(withXState(m, more, snap));
  });

  it('random events on a chart with parallel regions, nesting, eventless and raised events: always the same', () => {
    const m = parallelChart();
    const types = ['join', 'synced', 'tick', 'rebalance', 'crash', 'restart', 'fetched', 'close'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.constantFrom(...types), by: fc.integer({ min: 0, max: 3 }) }), { maxLength: 40 }),
        (events) => {
          expect(compiled(m, events)).toEqual(withXState(m, events));
        },
      ),
      { numRuns: cases(200), seed: PROPERTY_SEED + 131 },
    );
  });

  it('what the compiled runner does not do is refused (the kernel runs those with XState)', () => {
    const history = setup({}).createMachine({ initial: 'a', states: { a: { initial: 'x', states: { x: {}, h: { type: 'history' } } } } });
    const final = setup({}).createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: { type: 'final' } } });
    const delayed = setup({}).createMachine({ initial: 'a', states: { a: { after: { 100: 'b' } }, b: {} } });
    const plainAction = setup({}).createMachine({ initial: 'a', states: { a: { entry: () => {} } } });
    const wildcard = setup({}).createMachine({ initial: 'a', states: { a: { on: { '*': 'b' } }, b: {} } });
    for (const m of [history, final, delayed, plainAction, wildcard]) expect(compile(m)).toBeNull();
  });
});

/** A consumer-like chart: membership and fetching regions, the fetching one following the membership through stateIn. */
function parallelChart() {
  const big = ({ context }: { context: Ctx }) => context.n % 3 === 0;
  return setup({
    types: {} as { context: Ctx; events: E },
    guards: { member: stateIn({ running: { membership: 'stable' } }), notMember: not('member'), big },
  }).createMachine({
    id: 'c',
    context: ctx0,
    initial: 'created',
    on: { crash: { target: '.down', actions: say('crash') }, tick: { actions: say('root.tick') } },
    states: {
      created: { on: { join: { target: 'running', actions: say('boot') } } },
      running: {
        type: 'parallel',
        entry: say('running.entry'),
        exit: say('running.exit'),
        on: { close: { target: 'closed', actions: say('close') } },
        states: {
          membership: {
            initial: 'unjoined',
            states: {
              unjoined: { always: { target: 'joining', actions: say('send-join') } },
              joining: { on: { synced: { target: 'stable', actions: say('synced') }, join: { actions: say('rejoin') } } },
              stable: {
                entry: say('stable.entry'),
                exit: say('stable.exit'),
                on: {
                  rebalance: { target: 'joining', actions: say('rebalance') },
                  tick: [{ guard: 'big', actions: say('stable.tick', 'fetched') }, { actions: say('stable.tick2') }],
                },
              },
            },
          },
          fetching: {
            initial: 'stopped',
            states: {
              stopped: { always: { guard: 'member', target: 'assigned', actions: say('assign') } },
              assigned: {
                initial: 'idle',
                always: { guard: 'notMember', target: 'stopped', actions: say('unassign') },
                on: { fetched: { actions: say('fetched') }, tick: { target: '.inFlight', actions: say('fetch') } },
                states: { idle: { entry: say('idle.entry') }, inFlight: { on: { fetched: { target: 'idle', actions: say('done') } } } },
              },
            },
          },
        },
      },
      closed: {},
      down: { entry: say('down.entry'), on: { restart: 'running' } },
    },
  });
}
