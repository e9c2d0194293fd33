// @vitest-environment happy-dom
/**
 * A scenario that cannot run, as a Korean reader sees it (happy-dom): each error names its path and
 * says what was expected in Korean; Kafka's own ConfigException texts are quoted in English after a
 * Korean sentence (in code, translate="no"), and the page says so.
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

  it("quotes Kafka's ConfigException in English after a Korean sentence, and says why", () => {
    const story = structuredClone(findPreset('opening-story')?.scenario) as { clients: { config?: Record<string, unknown> }[] };
    const first = story.clients[0];
    // ProducerConfig.postProcessAndValidateIdempotenceConfigs, and ConfigDef.Range.ensureValid for retries
    if (first) first.config = { 'enable.idempotence': true, acks: '1', 'batch.size': -5 };
    act(() => simStore.getState().setLanguage('ko'));
    act(() => simStore.getState().load(story));
    act(() => root.render(createElement(ScenarioErrors)));
    expect(lines()).toContain(
      'clients[0].config["batch.size"]: batch.size의 값이 Kafka가 받는 최솟값 0보다 작습니다. ConfigException: Invalid value -5 for configuration batch.size: Value must be at least 0',
    );
    expect(lines()).toContain(
      'clients[0].config.acks: enable.idempotence=true를 명시한 멱등 프로듀서에서는 acks가 all이어야 합니다. ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
    );
    const quotes = [...host.querySelectorAll('[data-testid="kafka-quote"]')];
    expect(quotes.map((q) => [q.tagName, q.getAttribute('translate'), q.getAttribute('lang')])).toEqual([
      ['CODE', 'no', 'en'],
      ['CODE', 'no', 'en'],
    ]);
    expect(host.textContent).toContain('Kafka 설정 오류(ConfigException 등)는 Kafka가 내는 그대로 영어로 보여 줍니다.');
    act(() => simStore.getState().setLanguage('en'));
    expect(lines()).toContain(
      'clients[0].config["batch.size"]: ConfigException: Invalid value -5 for configuration batch.size: Value must be at least 0',
    );
    expect(host.querySelectorAll('[data-testid="kafka-quote"]')).toHaveLength(0);
  });
});
