/**
 * Failure injection in the browser: step to a ProduceResponse in flight, drop it by clicking, play
 * to the end and see what the lost ack did — nothing with idempotence, a duplicate record without.
 * The engine in Node computes the expected run; the page must show the same one.
 *
 * The page exposes its store as `window.__eosLab.store` (declared in src/main.tsx); these tests use
 * it only to move the playback position and switch the language, and click everything else.
 */

import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario, type Trace } from '../src/sim/run';
import {
  advancePastTimeout,
  injectEnvelopeFault,
  injectProcessFault,
  resendRecord,
  resetOffsetsNow,
  setConfigValues,
  startSecondInstance,
} from '../src/sim/scenario/edits';
import type { Scenario } from '../src/sim/scenario/schema';
import { ordersToBilling } from '../tests/fixtures/ordersToBilling';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { closeConfig, openConfig, verdictRows } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const opening = (): Scenario => {
  const p = findPreset('opening-story');
  if (!p) throw new Error('opening-story is missing');
  return p.scenario;
};

/** A transactional application: begin, send, commit 100 ms later, twice. */
const transactional = (): Scenario => ({
  version: 1,
  seed: 3,
  topics: [{ name: 'out' }],
  clients: [
    {
      id: 'app',
      type: 'producer',
      config: { 'transactional.id': 'tx-1', 'transaction.timeout.ms': 5000 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'out', key: 'a', value: '1', headers: { event_id: 'e1' } },
        { op: 'commitTransaction', delayMs: 100 },
        { op: 'beginTransaction', delayMs: 200 },
        { op: 'send', topic: 'out', key: 'b', value: '2' },
        { op: 'commitTransaction', delayMs: 100 },
      ],
    },
  ],
});

/** The first ProduceResponse and the step after which it is in flight. */
function firstAck(trace: Trace): { id: number; step: number } {
  const e = trace.envelopes.find((x) => x.rpc === 'ProduceResponse');
  if (!e) throw new Error('no ProduceResponse');
  return { id: e.id, step: e.sentStep + 1 };
}

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = watchErrors(page);
  await gotoWorkspace(page, inject('baseUrl'));
  await page.getByRole('heading', { name: /consumer got the order twice/ }).waitFor();
  return { page, errors };
}

/** axe-core's violations inside the injection panel. */
async function panelViolations(page: Page): Promise<string[]> {
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run({ include: [['section[aria-label="Inject a failure"]']] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

const seek = (page: Page, step: number) => page.evaluate((s) => window.__eosLab?.store.getState().seek(s), step);
const traceHash = (page: Page) => page.getByTestId('trace-hash').getAttribute('data-trace-hash');
const lane = (page: Page, records: number) => page.getByRole('img', { name: new RegExp(`^orders-0: ${records} records`) });

async function dropFirstAck(page: Page, trace: Trace): Promise<void> {
  const ack = firstAck(trace);
  await seek(page, ack.step);
  const panel = page.getByRole('region', { name: 'Inject a failure' });
  await panel.getByRole('button', { name: new RegExp(`#${ack.id} ProduceResponse`) }).click();
  await panel.getByRole('button', { name: 'Drop', exact: true }).click();
  await expect
    .poll(() => panel.getByTestId('inject-status').innerText())
    .toContain('drop the 1st ProduceResponse from broker-0 to orders-service');
  await expect.poll(() => page.getByTestId('step-counter').innerText()).toContain(`step ${ack.step} /`);
}

describe('failure injection', () => {
  it('drops an in-flight ProduceResponse: with idempotence the retry appends nothing', async () => {
    const { page, errors } = await open();
    const before = runScenario(opening());
    await dropFirstAck(page, before);
    const ack = firstAck(before);
    const edited = injectEnvelopeFault(opening(), { trace: before, step: ack.step, envelopeId: ack.id, action: { type: 'drop' } });
    if (!edited.ok) throw new Error(edited.reason);
    await expect.poll(() => traceHash(page)).toBe(runScenario(edited.scenario).traceHash);
    await seek(page, Number.MAX_SAFE_INTEGER);
    await lane(page, 2).waitFor();
    await expect.poll(() => page.getByTestId('scenario-faults').innerText()).toContain('drop the 1st ProduceResponse');
    // away from the step it was made at, the confirmation no longer says "you are still at step N"
    const status = page.getByRole('region', { name: 'Inject a failure' }).getByTestId('inject-status');
    await expect.poll(() => status.innerText()).toContain(`Injected at step ${ack.step}: drop the 1st ProduceResponse`);
    expect(await status.innerText()).not.toContain('still at step');
    // the step is named once, not again at the end of the note
    expect(await status.innerText()).not.toContain('(injected at step');
    await screenshot(page, 'inject-drop-ack-idempotent');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('resets the connection of an in-flight Produce: the page runs what the engine runs', async () => {
    const { page, errors } = await open();
    const before = runScenario(opening());
    const produce = before.envelopes.find((x) => x.rpc === 'Produce');
    if (!produce) throw new Error('no Produce');
    const step = produce.sentStep + 1;
    await seek(page, step);
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    await panel.getByRole('button', { name: new RegExp(`#${produce.id} Produce\\b`) }).click();
    await panel.getByRole('button', { name: 'Reset the connection', exact: true }).click();
    await expect.poll(() => panel.getByTestId('inject-status').innerText()).toContain('reset the connection of the 1st Produce');
    const edited = injectEnvelopeFault(opening(), { trace: before, step, envelopeId: produce.id, action: { type: 'reset' } });
    if (!edited.ok) throw new Error(edited.reason);
    await expect.poll(() => traceHash(page)).toBe(runScenario(edited.scenario).traceHash);
    await seek(page, Number.MAX_SAFE_INTEGER);
    await lane(page, 2).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('without idempotence the same lost ack leaves a duplicate record in the log', async () => {
    const { page, errors } = await open();
    const config = await openConfig(page);
    await config.getByRole('checkbox', { name: 'enable.idempotence' }).uncheck();
    await expect.poll(() => config.getByTestId('config-status').innerText()).toContain('Applied');
    await closeConfig(page);
    const plain = setConfigValues(opening(), { scope: 'client', client: 'orders-service' }, { 'enable.idempotence': false });
    const before = runScenario(plain);
    await expect.poll(() => traceHash(page)).toBe(before.traceHash);
    await dropFirstAck(page, before);
    await seek(page, Number.MAX_SAFE_INTEGER);
    await lane(page, 3).waitFor();
    await screenshot(page, 'inject-drop-ack-no-idempotence');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('explains why a delivered envelope cannot be dropped, and crashes a process by clicking', async () => {
    const { page, errors } = await open();
    const trace = runScenario(opening());
    const ack = firstAck(trace);
    await seek(page, ack.step);
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    await panel.getByRole('button', { name: new RegExp(`#${ack.id} ProduceResponse`) }).click();
    await seek(page, ack.step + 5);
    await expect.poll(() => panel.getByTestId('not-in-flight').innerText()).toContain('already delivered');
    await expect(panel.getByRole('button', { name: 'Drop', exact: true }).count()).resolves.toBe(0);

    await panel.getByLabel('Process').selectOption('billing');
    await panel.getByRole('button', { name: 'Crash', exact: true }).click();
    await expect.poll(() => panel.getByTestId('inject-status').innerText()).toContain('crash billing');
    await expect.poll(() => page.getByTestId('scenario-faults').innerText()).toContain('crash billing');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('speaks Korean and has no accessibility violations in the panels', async () => {
    const { page, errors } = await open();
    const trace = runScenario(opening());
    const ack = firstAck(trace);
    await seek(page, ack.step);
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    await panel.getByRole('button', { name: new RegExp(`#${ack.id} ProduceResponse`) }).click();
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    // the region is named in the page's language too
    const panelKo = page.getByRole('region', { name: '장애 주입' });
    await panelKo.getByRole('heading', { name: '장애 주입' }).waitFor();
    await panelKo.getByRole('button', { name: '버리기', exact: true }).waitFor();
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('en'));
    await panel.getByLabel('Process').selectOption('orders-service');
    await panel.getByRole('button', { name: 'Crash', exact: true }).waitFor();
    expect(await panelViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('offers a broker its own actions (crash / restart broker, slow replication link) with labelled fields and no axe violations', async () => {
    const { page, errors } = await open();
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    // the opening story's only broker: no follower, no replica fetch to slow
    await panel.getByLabel('Process').selectOption('broker-0');
    await panel.getByRole('button', { name: 'Crash broker', exact: true }).waitFor();
    await expect(panel.getByRole('button', { name: 'Slow replication link', exact: true }).count()).resolves.toBe(0);
    // a broker of a cluster of three has them all
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=acks-1-leader-failover-loss`);
    await page.reload();
    await page.getByTestId('verdict').waitFor();
    await panel.getByLabel('Process').selectOption('broker-1');
    for (const name of ['Crash broker', 'Restart broker', 'Slow replication link'])
      await panel.getByRole('button', { name, exact: true }).waitFor();
    await expect(panel.getByRole('button', { name: 'Crash', exact: true }).count()).resolves.toBe(0);
    await expect(panel.getByLabel('Delay each fetch by').inputValue()).resolves.toBe('2000');
    await expect(panel.getByLabel('for', { exact: true }).inputValue()).resolves.toBe('30000');
    await panel.getByLabel('until the end of the run').check();
    await expect(panel.getByLabel('for', { exact: true }).isDisabled()).resolves.toBe(true);
    expect(await panelViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("resends the selected record's event: a third record with the same event_id", async () => {
    const { page, errors } = await open();
    const trace = runScenario(opening());
    const end = trace.steps.length;
    await seek(page, end);
    await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 100 }));
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    await panel.getByRole('button', { name: 'Resend the same event' }).click();
    await expect.poll(() => panel.getByTestId('inject-status').innerText()).toContain('sends event evt-789 again');
    const expected = resendRecord(opening(), { trace, step: end, topic: 'orders', partition: 0, offset: 100 });
    if (!expected.ok) throw new Error(expected.reason);
    await expect.poll(() => traceHash(page)).toBe(runScenario(expected.scenario).traceHash);
    await seek(page, Number.MAX_SAFE_INTEGER);
    await lane(page, 3).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('starts a second instance with the same transactional.id, and advances past transaction.timeout.ms', async () => {
    const { page, errors } = await open();
    const s = transactional();
    const trace = runScenario(s);
    const step = trace.steps.findIndex((x) => x.t >= 50);
    const panel = page.getByRole('region', { name: 'Inject a failure' });

    await page.evaluate((scenario) => window.__eosLab?.store.getState().load(scenario), s);
    await seek(page, step);
    await panel.getByLabel('Process').selectOption('app');
    await panel.getByRole('button', { name: 'Start a second instance with the same transactional.id' }).click();
    await expect.poll(() => panel.getByTestId('inject-status').innerText()).toContain('start app-2, a second instance of app');
    const second = startSecondInstance(s, { trace, step, client: 'app' });
    if (!second.ok) throw new Error(second.reason);
    await expect.poll(() => traceHash(page)).toBe(runScenario(second.scenario).traceHash);
    const config = await openConfig(page);
    await expect.poll(() => config.getByTestId('config-section').innerText()).toContain('app-2 (producer)');
    await closeConfig(page);

    await page.evaluate((scenario) => window.__eosLab?.store.getState().load(scenario), s);
    await seek(page, step);
    await panel.getByLabel('Process').selectOption('app');
    await panel.getByText('Pauses app for 16000 ms').waitFor();
    await panel.getByRole('button', { name: 'Advance past transaction.timeout.ms' }).click();
    await expect.poll(() => panel.getByTestId('inject-status').innerText()).toContain('advance past transaction.timeout.ms for app');
    const timedOut = advancePastTimeout(s, { trace, step, client: 'app', timeout: 'transaction.timeout.ms' });
    if (!timedOut.ok) throw new Error(timedOut.reason);
    await expect.poll(() => traceHash(page)).toBe(runScenario(timedOut.scenario).traceHash);
    await screenshot(page, 'inject-advance-past-transaction-timeout');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an operator resets a stopped group to the earliest offset from the panel: the restarted consumer processes every order again', async () => {
    const { page, errors } = await open();
    // billing processes three orders and is then stopped (no restart): its session expires, the group is Empty
    const s = ordersToBilling([{ type: 'crash', target: 'billing', at: 5000 }]);
    const trace = runScenario(s);
    const end = trace.steps.length;
    await page.evaluate((scenario) => window.__eosLab?.store.getState().load(scenario), s);
    await seek(page, end);
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    const reset = panel.getByTestId('offset-reset-actions');
    await reset.getByLabel('Group').selectOption('billing');
    await reset.getByLabel('Reset').selectOption('earliest');
    await reset.getByRole('button', { name: 'Run kafka-consumer-groups --reset-offsets now' }).click();
    await expect
      .poll(() => panel.getByTestId('inject-status').innerText())
      .toContain('reset the offsets of group billing on orders to earliest');
    const afterReset = resetOffsetsNow(s, { trace, step: end, group: 'billing', topic: 'orders', to: 'earliest' });
    if (!afterReset.ok) throw new Error(afterReset.reason);
    await expect.poll(() => traceHash(page)).toBe(runScenario(afterReset.scenario).traceHash);

    // the reset's own step says what the tool did
    const resetTrace = runScenario(afterReset.scenario);
    const resetStep = resetTrace.steps.findIndex((x) => x.label === 'resetOffsets') + 1;
    await seek(page, resetStep);
    await expect.poll(() => page.getByTestId('narration').innerText()).toContain('it now starts at orders-0=0');

    // restart billing after the reset: it joins, fetches offset 0 and processes every order again
    await panel.getByLabel('Process').selectOption('billing');
    await panel.getByRole('button', { name: 'Restart', exact: true }).click();
    const restarted = injectProcessFault(afterReset.scenario, {
      trace: resetTrace,
      step: resetStep,
      process: 'billing',
      action: { type: 'restart' },
    });
    if (!restarted.ok) throw new Error(restarted.reason);
    const final = runScenario(restarted.scenario);
    await expect.poll(() => traceHash(page)).toBe(final.traceHash);
    await seek(page, final.steps.length);
    await expect
      .poll(async () => (await verdictRows(page)).find((r) => r.layer === 'processing' && r.subject === 'billing')?.status)
      .toBe('more-than-once');
    await screenshot(page, 'inject-offset-reset');
    expect(errors).toEqual([]);
    await page.close();
  });
});
