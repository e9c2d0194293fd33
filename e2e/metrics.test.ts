/**
 * The metrics view in the page (details of a selected client), on lost-ack-idempotent: select the
 * producer, step past the retry, and see record-retry-total go from 0 to 1 — at the step the engine in
 * Node says. Also: Kafka's meaning beside each value, the group on hover, Korean words with Kafka's
 * names kept. And a broker's gauges on open-transaction-pins-lso: LastStableOffsetLag 3 while the
 * read_committed reader's records-lag reads 0, and what kafka-consumer-groups.sh --describe prints in
 * its three views (offsets, --members --verbose, --state), switched by click and by keyboard.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { brokerMetricsAt } from '../src/sim/metrics/brokerMetrics';
import { clientMetricsAt } from '../src/sim/metrics/clientMetrics';
import { findPreset } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import { allowList, englishWords, scenarioWords } from './korean-words';
import { appSession, axe, loadScenario, waitForStep } from './ui-helpers';

const preset = findPreset('lost-ack-idempotent');
if (!preset) throw new Error('lost-ack-idempotent is missing');
const trace = runScenario(preset.scenario);

const retriesAt = (step: number) =>
  clientMetricsAt(trace, stateAt(trace, step), 'orders-service')?.metrics.find((m) => m.name === 'record-retry-total')?.value ?? 0;

/** The first step at which the producer's record-retry-total is 1 (a counter only grows: binary search). */
function retryStep(): number {
  let lo = 0;
  let hi = trace.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (retriesAt(mid) >= 1) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const seek = async (page: Page, step: number) => {
  await page.evaluate((s) => window.__eosLab?.store.getState().seek(s), step);
  await waitForStep(page, step);
};
const metric = (page: Page, name: string) => page.locator(`[data-testid="client-metrics"] [data-metric="${name}"]`);

describe('metrics view (lost-ack-idempotent)', () => {
  const s = appSession();

  it("shows the producer's record-retry-total going from 0 to 1 at the retry", async () => {
    const page = s.page;
    await loadScenario(page, preset.scenario);
    const retried = retryStep();
    expect(retried).toBeGreaterThan(1);
    await seek(page, retried - 1);
    await page.locator('li[data-actor="orders-service.producer"] > button.actor-head').click();
    const section = page.getByTestId('client-metrics');
    await section.waitFor();
    expect(await section.getAttribute('data-client')).toBe('orders-service');
    await expect.poll(() => metric(page, 'record-retry-total').getAttribute('data-value')).toBe('0');
    expect(await metric(page, 'record-send-total').getAttribute('data-value')).toBe('1');

    await seek(page, retried);
    await expect.poll(() => metric(page, 'record-retry-total').getAttribute('data-value')).toBe('1');
    expect(await metric(page, 'record-error-total').getAttribute('data-value')).toBe('0');

    // Kafka's name in code style, its meaning beside the value, its group on hover
    const row = metric(page, 'record-retry-total');
    expect(await row.locator('dt code').innerText()).toBe('record-retry-total');
    expect(await row.locator('.metric-meaning').innerText()).toContain('retried record sends');
    expect(await row.getAttribute('title')).toBe('producer-metrics · record-retry-total');
    // the section passes axe with the rest of the page
    expect(await axe(page)).toEqual([]);

    await seek(page, trace.steps.length);
    await expect.poll(() => metric(page, 'record-send-total').getAttribute('data-value')).toBe('2');
    expect(s.errors).toEqual([]);
  });

  it("in Korean: the words change, Kafka's metric names do not", async () => {
    const page = s.page;
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    const row = metric(page, 'record-retry-total');
    await expect.poll(() => row.locator('.metric-meaning').innerText()).toContain('재시도');
    expect(await row.locator('dt code').innerText()).toBe('record-retry-total');
    expect(await page.getByTestId('client-metrics').locator('h4').innerText()).toContain('메트릭');
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('en'));
    expect(s.errors).toEqual([]);
  });

  it("a broker's gauges: the open transaction's wait is LastStableOffsetLag, not the read_committed reader's records-lag", async () => {
    const page = s.page;
    const pinned = findPreset('open-transaction-pins-lso');
    if (!pinned) throw new Error('open-transaction-pins-lso is missing');
    const run = runScenario(pinned.scenario);
    // the first step with three offsets behind the LSO and the read_committed reader's lag known
    let step = 0;
    for (; step < run.steps.length; step++) {
      const v = stateAt(run, step);
      const lso = brokerMetricsAt(run, v, 'broker-0')?.metrics.find((m) => m.name === 'LastStableOffsetLag')?.value;
      const lag = clientMetricsAt(run, v, 'committed-reader')?.metrics.find((m) => m.name === 'records-lag');
      if (lso === 3 && lag) break;
    }
    expect(step).toBeLessThan(run.steps.length);
    await loadScenario(page, pinned.scenario);
    await seek(page, step);
    await page.locator('li[data-actor="broker-0"] > button.actor-head').click();
    const broker = page.getByTestId('broker-metrics');
    await broker.waitFor();
    expect(await broker.getAttribute('data-broker')).toBe('broker-0');
    const lsoLag = broker.locator('[data-metric="LastStableOffsetLag"]');
    expect(await lsoLag.getAttribute('data-value')).toBe('3');
    expect(await lsoLag.getAttribute('data-partition')).toBe('events-0');
    expect(await lsoLag.getAttribute('title')).toBe('kafka.cluster:type=Partition · LastStableOffsetLag · events-0');
    expect(await broker.locator('[data-metric="UnderReplicatedPartitions"]').getAttribute('data-value')).toBe('0');
    expect(await broker.locator('p').first().innerText()).toContain('LastStableOffsetLag is where the wait shows');

    await page.locator('li[data-actor="committed-reader.consumer"] > button.actor-head').click();
    const lag = page.locator('[data-testid="client-metrics"] [data-metric="records-lag"]');
    await expect.poll(() => lag.getAttribute('data-value')).toBe('0');
    expect(await lag.locator('dt').innerText()).toContain('events-0');
    expect(await metric(page, 'records-consumed-total').getAttribute('data-value')).toBe('0');
    // what kafka-consumer-groups.sh --describe prints meanwhile: LOG-END-OFFSET is the high watermark
    const describe = page.getByTestId('group-describe');
    expect(await describe.getAttribute('data-group')).toBe('committed-reader');
    expect(await describe.getAttribute('data-kind')).toBe('described');
    const output = await describe.locator('pre').innerText();
    expect(output).toContain('--describe --group committed-reader');
    expect(output).toMatch(/GROUP +TOPIC +PARTITION +CURRENT-OFFSET +LOG-END-OFFSET +LAG/);
    expect(output).toMatch(/committed-reader +events +0 +- +3 +- /);
    expect(await describe.locator('p').innerText()).toContain('LOG-END-OFFSET is the high watermark');
    expect(await axe(page)).toEqual([]);

    // the tool's other views: --members --verbose (a click), then --state (by keyboard)
    const views = page.getByTestId('group-describe-view');
    expect(await views.locator('button[aria-pressed="true"]').getAttribute('data-view')).toBe('offsets');
    await views.locator('button[data-view="members"]').click();
    await expect.poll(() => describe.getAttribute('data-view')).toBe('members');
    expect(await views.locator('button[data-view="members"]').getAttribute('aria-pressed')).toBe('true');
    const members = await describe.locator('pre').innerText();
    expect(members).toContain('--describe --members --verbose --group committed-reader');
    expect(members).toMatch(/\nGROUP +CONSUMER-ID +HOST +CLIENT-ID +#PARTITIONS +ASSIGNMENT\n/);
    expect(members).toMatch(/\ncommitted-reader +committed-reader-\d+ +\/committed-reader +committed-reader\.consumer +1 +\(0\)/);
    expect(await describe.locator('p').innerText()).toContain('each member as the coordinator holds it');
    expect(await axe(page)).toEqual([]);

    await views.locator('button[data-view="state"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => describe.getAttribute('data-view')).toBe('state');
    const state = await describe.locator('pre').innerText();
    expect(state).toContain('--describe --state --group committed-reader');
    expect(state).toMatch(/\nGROUP +COORDINATOR \(ID\) +ASSIGNMENT-STRATEGY +STATE +#MEMBERS\n/);
    expect(state).toMatch(/\ncommitted-reader +group-coordinator:9092 {2}\(group-coordinator\) range +Stable +1/);
    expect(await describe.locator('p').innerText()).toContain('the protocol the members agreed on');
    // in Korean the words change, the tool's text does not
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    await expect.poll(() => describe.locator('p').innerText()).toContain('그룹 상태 보기');
    expect(await describe.locator('pre').innerText()).toBe(state);
    const allowed = allowList(scenarioWords(pinned.scenario));
    expect(englishWords(await describe.locator('p').innerText(), allowed)).toEqual([]);
    await views.locator('button[data-view="members"]').click();
    await expect.poll(() => describe.locator('p').innerText()).toContain('멤버 보기');
    expect(englishWords(await describe.locator('p').innerText(), allowed)).toEqual([]);
    expect(await describe.locator('pre').innerText()).toBe(members);
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('en'));
    expect(await axe(page)).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('a selected record: what its leader remembers of its producers (kafka-transactions.sh describe-producers)', async () => {
    const page = s.page;
    await loadScenario(page, preset.scenario);
    await seek(page, trace.steps.length);
    await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 100 }));
    const section = page.getByTestId('describe-producers');
    await section.waitFor();
    expect(await section.getAttribute('data-kind')).toBe('described');
    expect(await section.getAttribute('data-producers')).toBe('1');
    const output = await section.locator('pre').innerText();
    expect(output).toContain('describe-producers --topic orders --partition 0');
    expect(output).toMatch(
      /ProducerId\s+ProducerEpoch\s+LatestCoordinatorEpoch\s+LastSequence\s+LastTimestamp\s+CurrentTransactionStartOffset/,
    );
    // the retry after the lost ack was recognised: one producer, its last sequence still 0
    expect(output).toMatch(/\n\d+\s+0\s+-1\s+0\s+\d+\s+None/);
    expect(await section.locator('p').innerText()).toContain('all idempotence and transactions keep on the broker');
    expect(await axe(page)).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
