// @vitest-environment happy-dom
/**
 * The message view's tooltip reads payloads through `EnvelopePayloads` (its model carries none). In
 * the embed (the engine's worker sends the diagram and answers one envelope's payload when asked) it
 * says the payload is on its way, asks for it once, and shows it when it comes; on the page it reads
 * the trace's at once. And the embed's payload cache: one ask per envelope, a bounded memory.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { payloadCache } from '../../src/embed/payloadCache';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { EnvelopePayload } from '../../src/store/engine/protocol';
import { tracePayloadsOf } from '../../src/ui/timeline/envelopePayloads';
import { MscController } from '../../src/ui/timeline/MscController';
import { buildMscModel, type MscModel, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { stubCanvas, stubResizeObserver } from '../fixtures/canvasStubs';

let reportResize: () => void = () => undefined;
beforeEach(() => {
  reportResize = stubResizeObserver();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const trace = runScenario(findPreset('lost-ack-idempotent')?.scenario);
const model = buildMscModel(trace);
const step = trace.steps.length;
const produce = model.envelopes.find((e) => e.rpc === 'Produce');
if (!produce) throw new Error('no Produce');

/** A controller hovering the first Produce at the run's end; its tooltip. */
function hoverProduce(m: MscModel) {
  const root = document.createElement('div');
  Object.defineProperty(root, 'clientWidth', { get: () => 600 });
  const tooltip = document.createElement('div');
  const c = new MscController(
    {
      root,
      plot: root,
      staticCanvas: stubCanvas(),
      overlayCanvas: stubCanvas(),
      tooltip,
      live: document.createElement('p'),
      axis: document.createElementNS('http://www.w3.org/2000/svg', 'svg'),
    },
    () => undefined,
  );
  const shown = visibleEnvelopes(m, step, false);
  c.setData({ model: m, shown, mode: 'step', step, now: trace.endTime });
  reportResize();
  const j = [...shown].findIndex((i) => m.envelopes[i]?.id === produce?.id);
  expect(j).toBeGreaterThanOrEqual(0);
  (c as unknown as { hover: number }).hover = j;
  return { c, tooltip };
}

const deferred = () => {
  let resolve: (p: EnvelopePayload | null) => void = () => undefined;
  const promise = new Promise<EnvelopePayload | null>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("the message view's payloads", () => {
  const batch = 'batch(producerId=';

  it('the model carries no payloads: a structured clone of it (the embed’s worker sends one) has none to lose', () => {
    expect(model.envelopes.some((e) => 'payload' in e)).toBe(false);
    expect(structuredClone(model.envelopes[0])).toEqual(model.envelopes[0]);
  });

  it('on the page: the tooltip shows the payload read from the trace', () => {
    const { c, tooltip } = hoverProduce(model);
    c.setPayloads(tracePayloadsOf(trace));
    c.renderNow();
    expect(tooltip.hidden).toBe(false);
    expect(tooltip.textContent).toContain(batch);
    c.destroy();
  });

  it('in the embed: the tooltip says the payload is coming, asks for it once, and shows it when it comes', async () => {
    const { c, tooltip } = hoverProduce(model);
    const answer = deferred();
    const read = vi.fn((_id: number) => answer.promise);
    c.setPayloads(payloadCache(read));
    c.renderNow();
    expect(tooltip.textContent).toContain('reading…');
    expect(tooltip.textContent).not.toContain(batch);
    c.renderNow();
    expect(read).toHaveBeenCalledTimes(1);
    expect(read).toHaveBeenCalledWith(produce.id);
    answer.resolve(trace.envelopes.at(produce.id)?.payload ?? null);
    await answer.promise;
    await Promise.resolve();
    c.renderNow();
    expect(tooltip.textContent).not.toContain('reading…');
    expect(tooltip.textContent).toContain(batch);
    expect(read).toHaveBeenCalledTimes(1);
    c.destroy();
  });

  it('the cache tells its listeners when a payload comes, and keeps the last few', async () => {
    const read = vi.fn(async (id: number): Promise<EnvelopePayload | null> => (id === 99 ? null : { id }));
    const cache = payloadCache(read, 2);
    const heard = vi.fn();
    const stop = cache.subscribe(heard);
    for (const id of [1, 2, 3]) expect(cache.get(id)).toBeUndefined();
    expect(cache.get(1)).toBeUndefined(); // asked already: not again
    await new Promise((r) => setTimeout(r, 0));
    expect(read).toHaveBeenCalledTimes(3);
    expect(heard).toHaveBeenCalledTimes(3);
    expect(cache.get(3)).toEqual({ id: 3 });
    expect(cache.get(2)).toEqual({ id: 2 });
    expect(cache.get(1)).toBeUndefined(); // the oldest was let go: asked for again
    expect(read).toHaveBeenCalledTimes(4);
    // no such envelope (or another run in the worker by now): an empty payload, not a new ask each time
    cache.get(99);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.get(99)).toEqual({});
    stop();
    cache.get(5);
    await new Promise((r) => setTimeout(r, 0));
    expect(heard).toHaveBeenCalledTimes(5);
  });
});
