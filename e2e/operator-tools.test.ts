/**
 * An operator's tools in the details panel. kafka-topics.sh --describe on min-insync-blocks-writes: a
 * record's topic with its ISR shrunk to the leader, as the engine in Node prints it at that step.
 * kafka-transactions.sh find-hanging, describe and list on hanging-transaction: the
 * record that pins the Last Stable Offset shows one hanging transaction (its coordinator moved on and
 * lists no partition), the producer shows its coordinator's state, the coordinator lists it — each the
 * text the engine in Node prints at that step; find-hanging over the leader's broker and list with a
 * duration filter too. Axe on each; Korean keeps the tool's text as it is.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import { describeTopicAt, describeTopicText } from '../src/sim/tools/describeTopic';
import { describeTransactionAt, describeTransactionText } from '../src/sim/tools/describeTransaction';
import { findHanging, findHangingAt, findHangingText } from '../src/sim/tools/findHangingTransactions';
import { listTransactionsAt, listTransactionsText } from '../src/sim/tools/listTransactions';
import { appSession, axe, loadScenario, waitForStep } from './ui-helpers';

const preset = findPreset('hanging-transaction');
if (!preset) throw new Error('hanging-transaction is missing');
const trace = runScenario(preset.scenario);
const end = trace.steps.length;
const view = stateAt(trace, end);
const hanging = findHangingAt(view, 'orders', 0, 0);
if (hanging.kind !== 'searched' || hanging.hanging.length !== 1) throw new Error('the preset should end with one hanging transaction');
const startOffset = hanging.hanging[0]?.producer.currentTransactionStartOffset ?? -1;

/** The terminal block's text without the prompt line. */
const printed = async (section: import('playwright-core').Locator) =>
  (await section.locator('pre').innerText()).split('\n').slice(1).join('\n');

describe('kafka-transactions.sh in the details panel (hanging-transaction)', () => {
  const s = appSession();

  it('a record of the hanging transaction: find-hanging prints it; the producer: describe; the coordinator: list', async () => {
    const page = s.page;
    await loadScenario(page, preset.scenario);
    await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), end);
    await waitForStep(page, end);
    await page.evaluate(
      (offset) => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset }),
      startOffset,
    );
    const hangingSection = page.getByTestId('find-hanging');
    await hangingSection.waitFor();
    expect(await hangingSection.getAttribute('data-kind')).toBe('searched');
    expect(await hangingSection.getAttribute('data-hanging')).toBe('1');
    expect(await hangingSection.locator('pre').innerText()).toContain(
      'find-hanging --topic orders --partition 0 --max-transaction-timeout 0',
    );
    // innerText keeps the tool's tabs and padding
    expect(await printed(hangingSection)).toBe(findHangingText(hanging));
    expect(await hangingSection.innerText()).toContain('1 open transaction older than the bound; 1 hanging.');
    expect(await axe(page)).toEqual([]);
    // the tool's other scopes: the whole topic, the leader's broker
    await hangingSection.locator('[data-scope="broker"]').click();
    expect(await hangingSection.getAttribute('data-scope')).toBe('broker');
    expect(await hangingSection.locator('pre').innerText()).toContain('find-hanging --broker-id 0 --max-transaction-timeout 0');
    expect(await printed(hangingSection)).toBe(findHangingText(findHanging(view, { brokerId: 0 }, 0)));
    expect(await axe(page)).toEqual([]);
    await hangingSection.locator('[data-scope="partition"]').click();

    await page.locator('li[data-actor="orders-service.producer"] > button.actor-head').click();
    const describeSection = page.getByTestId('describe-transaction');
    await describeSection.waitFor();
    const described = describeTransactionAt(view, 'orders-service-1');
    expect(described.kind).toBe('described');
    expect(await describeSection.getAttribute('data-state')).toBe(described.kind === 'described' ? described.description.state : '');
    expect(await printed(describeSection)).toBe(describeTransactionText(described));
    expect(await axe(page)).toEqual([]);

    await page.locator('li[data-actor="txn-coordinator"] > button.actor-head').click();
    const listSection = page.getByTestId('list-transactions');
    await listSection.waitFor();
    expect(await listSection.getAttribute('data-transactions')).toBe('1');
    expect(await printed(listSection)).toBe(listTransactionsText(listTransactionsAt(view)));
    expect(await axe(page)).toEqual([]);
    // a duration filter longer than the run lists only ids that never began a transaction: none here
    await listSection.getByTestId('list-transactions-duration').fill(String(view.time + 1));
    expect(await listSection.getAttribute('data-duration-filter')).toBe(String(view.time + 1));
    expect(await printed(listSection)).toBe(listTransactionsText(listTransactionsAt(view, view.time + 1)));
    expect(await axe(page)).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('a record’s topic: kafka-topics.sh --describe with the ISR the controller holds (min-insync-blocks-writes)', async () => {
    const page = s.page;
    const minIsr = findPreset('min-insync-blocks-writes');
    if (!minIsr) throw new Error('min-insync-blocks-writes is missing');
    const run = runScenario(minIsr.scenario);
    const last = run.steps.length;
    await loadScenario(page, minIsr.scenario);
    await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), last);
    await waitForStep(page, last);
    await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 0 }));
    const section = page.getByTestId('describe-topic');
    await section.waitFor();
    expect(await section.getAttribute('data-partitions')).toBe('1');
    const text = await printed(section);
    expect(text).toBe(describeTopicText(describeTopicAt(stateAt(run, last), run.scenario, 'orders')));
    expect(text).toContain('Leader: 0\tReplicas: 0,1,2\tIsr: 0\t');
    expect(await axe(page)).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
