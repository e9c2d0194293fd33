// @vitest-environment happy-dom
/**
 * The topic section of Details offers kafka-topics.sh's partition reports on a cluster of several
 * brokers: each button runs the report the command line shows and prints what the tool prints
 * (describeTopicsAt, the same function `npm run sim -- --tool` uses), in English and Korean; a report
 * that finds nothing says the tool prints nothing.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { describeTopicsAt, describeTopicsText, type TopicReport } from '../../src/sim/tools/describeTopic';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const section = () => page.host.querySelector<HTMLElement>('[data-testid="describe-topic"]');
const printed = () => {
  const lines = (section()?.querySelector('pre.tool-output')?.textContent ?? '').split('\n');
  return { command: lines[0] ?? '', text: lines.slice(1).join('\n') };
};
const press = (report: string) =>
  act(() => section()?.querySelector<HTMLButtonElement>(`[data-testid="describe-topic-report"] [data-report="${report}"]`)?.click());

describe('kafka-topics.sh reports in the topic section', () => {
  const preset = findPreset('min-insync-blocks-writes');
  if (!preset) throw new Error('no preset');
  const run = runScenario(preset.scenario);
  const found = (step: number, report: TopicReport) => {
    const r = describeTopicsAt(stateAt(run, step), run.scenario, { topic: 'orders', reports: [report] });
    return r.kind === 'described' ? r.topics.reduce((n, t) => n + t.partitions.length, 0) : 0;
  };
  // the first step at which a replica is out of the ISR
  const step = [...Array(run.steps.length + 1).keys()].find((i) => found(i, 'under-replicated-partitions') > 0) ?? -1;

  it('prints each report as the tool would, and says when a report finds nothing', async () => {
    expect(step).toBeGreaterThan(0);
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    act(() => simStore.getState().seek(step));
    act(() => simStore.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 0 }));
    await page.settle();
    expect(section()?.dataset.report).toBe('none');
    for (const report of ['under-replicated-partitions', 'at-min-isr-partitions', 'unavailable-partitions'] as const) {
      press(report);
      expect(section()?.dataset.report).toBe(report);
      const out = printed();
      expect(out.command).toBe(`$ kafka-topics.sh --bootstrap-server broker-0:9092 --describe --topic orders --${report}`);
      expect(out.text).toBe(describeTopicsText(describeTopicsAt(stateAt(run, step), run.scenario, { topic: 'orders', reports: [report] })));
      const note = page.host.querySelector('[data-testid="describe-topic-report-note"]')?.textContent ?? '';
      expect(note.startsWith(`--${report}`)).toBe(true);
      expect(note.includes('the tool prints nothing')).toBe(found(step, report) === 0);
    }
    // an ISR of two replicas: under-replicated and at min ISR, still available
    expect(found(step, 'under-replicated-partitions')).toBe(1);
    expect(found(step, 'unavailable-partitions')).toBe(0);
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    const ko = page.host.querySelector('[data-testid="describe-topic-report-note"]')?.textContent ?? '';
    expect(ko).toContain('도구가 아무것도 출력하지 않습니다');
    press('none');
    expect(printed().command).toBe('$ kafka-topics.sh --bootstrap-server broker-0:9092 --describe --topic orders');
  });
});
