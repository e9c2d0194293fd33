// @vitest-environment happy-dom
/**
 * The Inject panel's message heading says a message's fault in the page's language: in Korean a
 * dropped ProduceResponse read "· drop the 1st ProduceResponse from broker-0 to … (injected at step
 * 24)", the trace's English label, while the timeline beside it said it in Korean.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { envelopeFaultText } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { EnvelopeActions } from '../../src/ui/inject/EnvelopeActions';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe("the Inject panel's message", () => {
  it('says its fault in Korean on a Korean page, in English on an English one', async () => {
    const preset = findPreset('lost-ack-no-idempotence');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    await page.settle(30);
    const trace = simStore.getState().trace;
    const env = trace?.envelopes.find((e) => e.fault);
    if (!trace || !env?.fault) throw new Error('no envelope with a fault');
    act(() => simStore.getState().seek(env.sentStep + 1));
    const route = () => page.host.querySelector('[data-testid="envelope-actions"] p')?.textContent ?? '';
    page.render(createElement(EnvelopeActions, { envelopeId: env.id }));
    await page.settle();
    expect(route()).toContain(`· ${env.fault}`);
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    const korean = envelopeFaultText(trace, env.fault, 'ko');
    expect(korean).not.toBe(env.fault);
    expect(route()).toContain(`· ${korean}`);
    expect(route()).not.toContain(env.fault);
  });
});
