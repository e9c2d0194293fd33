// @vitest-environment happy-dom
/**
 * A scenario that cannot run, as a Korean reader sees it (happy-dom): each error names its path and
 * says what was expected in Korean; Kafka's own ConfigException texts stay English, and the page says so.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { ScenarioErrors } from '../../src/ui/layout/ScenarioErrors';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  act(() => simStore.getState().setLanguage('en'));
});

const lines = () => [...host.querySelectorAll('[data-testid="scenario-errors"] li')].map((li) => li.textContent ?? '');

describe("errors in the reader's language", () => {
  it('says what was expected, in English and in Korean', () => {
    const story = structuredClone(findPreset('opening-story')?.scenario) as Record<string, unknown>;
    act(() => simStore.getState().load({ ...story, seed: 9007199254740992, titel: 'x' }));
    act(() => root.render(createElement(ScenarioErrors)));
    expect(lines()).toContain('seed: 9007199254740992 is too large; the largest allowed value is 4294967295');
    act(() => simStore.getState().setLanguage('ko'));
    expect(lines()).toContain('seed: 9007199254740992: 너무 큽니다. 허용되는 가장 큰 값은 4294967295입니다');
    expect(lines().some((l) => l.startsWith('titel: 알 수 없는 필드 "titel": 여기에 쓸 수 있는 필드는 version, id, title'))).toBe(true);
    expect(host.textContent).not.toContain('Kafka가 내는 그대로 영어로');
  });

  it("keeps Kafka's ConfigException in English and says why", () => {
    const story = structuredClone(findPreset('opening-story')?.scenario) as { clients: { config?: Record<string, unknown> }[] };
    const first = story.clients[0];
    if (first) first.config = { 'enable.idempotence': true, acks: '1' };
    act(() => simStore.getState().setLanguage('ko'));
    act(() => simStore.getState().load(story));
    act(() => root.render(createElement(ScenarioErrors)));
    expect(lines().some((l) => l.includes('ConfigException: Must set acks to all'))).toBe(true);
    expect(host.textContent).toContain('Kafka 설정 오류(ConfigException 등)는 Kafka가 내는 그대로 영어로 보여 줍니다.');
  });
});
