// @vitest-environment happy-dom
/**
 * The operator tools’ options in the details panel (happy-dom): find-hanging over the partition, its
 * whole topic or its leader’s broker; kafka-transactions.sh list with a duration filter; and
 * describe-producers reading a chosen replica; kafka-consumer-groups.sh --describe of one group or
 * --all-groups — each printing what the engine prints for that command
 * line at that step, the command line saying so, in English and in Korean.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type SimView, stateAt } from '../../src/sim/run';
import { describeProducersAt, describeProducersText } from '../../src/sim/tools/describeProducers';
import { findHanging, findHangingAt, findHangingText } from '../../src/sim/tools/findHangingTransactions';
import { listTransactionsAt, listTransactionsText } from '../../src/sim/tools/listTransactions';
import { describeAllGroupsText } from '../../src/sim/tools/toolCommand';
import { txnCoordinators } from '../../src/sim/trace/coordinatorTxns';
import { simStore } from '../../src/store/simStore';
import { GroupDescribeSection } from '../../src/ui/details/GroupDescribeSection';
import { HangingTransactionsSection } from '../../src/ui/details/HangingTransactionsSection';
import { ProducerStateSection } from '../../src/ui/details/ProducerStateSection';
import { TransactionListSection } from '../../src/ui/details/TransactionListSection';
import { strings } from '../../src/ui/words';
import { pageInDom } from './pageInDom';

const page = pageInDom();

const viewAt = (id: string, at: (steps: number) => number): SimView => {
  const trace = runScenario(findPreset(id)?.scenario);
  return stateAt(trace, at(trace.steps.length));
};

const section = (testId: string) => {
  const el = page.host.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (!el) throw new Error(`no ${testId}`);
  return el;
};
/** The command line after the prompt, and what the tool printed under it. */
const terminal = (el: HTMLElement) => {
  const [prompt = '', ...rest] = (el.querySelector('pre')?.textContent ?? '').split('\n');
  return { command: prompt.replace(/^\$ /, ''), printed: rest.join('\n') };
};
const click = (el: Element | null | undefined) => {
  if (!el) throw new Error('nothing to click');
  act(() => (el as HTMLElement).click());
};
const type = (input: HTMLInputElement, value: string) => {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
};

describe('find-hanging’s scopes (hanging-transaction at its end)', () => {
  const view = viewAt('hanging-transaction', (n) => n);

  it('searches the partition, then its topic, then its leader’s broker, printing each as the engine does', () => {
    page.render(createElement(HangingTransactionsSection, { view, topic: 'orders', partition: 0 }));
    const el = section('find-hanging');
    expect(el.getAttribute('data-scope')).toBe('partition');
    expect(terminal(el)).toEqual({
      command:
        'kafka-transactions.sh --bootstrap-server broker-0:9092 find-hanging --topic orders --partition 0 --max-transaction-timeout 0',
      printed: findHangingText(findHangingAt(view, 'orders', 0, 0)),
    });
    const buttons = [...el.querySelectorAll('[data-testid="find-hanging-scope"] button')].map((b) => b.textContent);
    expect(buttons).toEqual(['--partition', '--topic', '--broker-id 0']);

    click(el.querySelector('[data-scope="topic"]'));
    expect(el.getAttribute('data-scope')).toBe('topic');
    expect(el.querySelector('[data-scope="topic"]')?.getAttribute('aria-pressed')).toBe('true');
    expect(terminal(el)).toEqual({
      command: 'kafka-transactions.sh --bootstrap-server broker-0:9092 find-hanging --topic orders --max-transaction-timeout 0',
      printed: findHangingText(findHanging(view, { topic: 'orders' }, 0)),
    });
    expect(el.querySelector('h4')?.textContent).toContain('Hanging transactions on the partitions of orders');
    expect(el.textContent).toContain('1 partition searched; 1 open transaction older than the bound; 1 hanging.');
    expect(el.textContent).toContain('With --topic alone the tool searches every partition of the topic');

    click(el.querySelector('[data-scope="broker"]'));
    const broker = findHanging(view, { brokerId: 0 }, 0);
    expect(terminal(el)).toEqual({
      command: 'kafka-transactions.sh --bootstrap-server broker-0:9092 find-hanging --broker-id 0 --max-transaction-timeout 0',
      printed: findHangingText(broker),
    });
    expect(el.getAttribute('data-partitions')).toBe(String(broker.kind === 'searched' ? broker.partitions : -1));
    expect(el.getAttribute('data-hanging')).toBe('1');

    act(() => simStore.getState().setLanguage('ko'));
    expect(el.querySelector('h4')?.textContent).toContain(strings('ko').hangingTitleBroker('broker-0'));
    expect(el.textContent).toContain(strings('ko').hangingBrokerNote);
  });

  it('offers no broker for a partition no broker leads (the model’s one-process __transaction_state)', () => {
    page.render(createElement(HangingTransactionsSection, { view, topic: '__transaction_state', partition: 0 }));
    const buttons = [...section('find-hanging').querySelectorAll('[data-testid="find-hanging-scope"] button')].map((b) => b.textContent);
    expect(buttons).toEqual(['--partition', '--topic']);
  });
});

describe('kafka-transactions.sh list --duration-filter (open-transaction-pins-lso, mid-run)', () => {
  const view = viewAt('open-transaction-pins-lso', (n) => Math.round(n * 0.5));
  const open = txnCoordinators(view)
    .flatMap((c) => c.txns)
    .find((m) => m.state === 'Ongoing');
  if (!open) throw new Error('no open transaction');
  const age = view.time - open.txnStartTimestamp;

  it('lists the open transaction while the filter is under its age, not at it; empty lists all', () => {
    // the section's `id` is the selected actor's (not a DOM id)
    const selected = { view, id: 'txn-coordinator' };
    page.render(createElement(TransactionListSection, selected));
    const el = section('list-transactions');
    const input = el.querySelector<HTMLInputElement>('[data-testid="list-transactions-duration"]');
    if (!input) throw new Error('no input');
    expect(terminal(el)).toEqual({
      command: 'kafka-transactions.sh --bootstrap-server broker-0:9092 list',
      printed: listTransactionsText(listTransactionsAt(view)),
    });
    expect(el.hasAttribute('data-duration-filter')).toBe(false);

    type(input, String(age - 1));
    expect(terminal(el)).toEqual({
      command: `kafka-transactions.sh --bootstrap-server broker-0:9092 list --duration-filter ${age - 1}`,
      printed: listTransactionsText(listTransactionsAt(view, age - 1)),
    });
    expect(terminal(el).printed).toContain(open.transactionalId);
    expect(el.textContent).toContain(`With --duration-filter ${age - 1} the coordinators list only`);

    type(input, String(age));
    expect(el.getAttribute('data-duration-filter')).toBe(String(age));
    expect(terminal(el).printed).not.toContain(open.transactionalId);
    expect(el.getAttribute('data-transactions')).toBe('0');

    act(() => simStore.getState().setLanguage('ko'));
    expect(el.textContent).toContain(strings('ko').txnListDurationNote(age));

    // not a number: no filter, as the tool would refuse it
    type(input, 'soon');
    expect(terminal(el).command).toBe('kafka-transactions.sh --bootstrap-server broker-0:9092 list');
    expect(terminal(el).printed).toContain(open.transactionalId);
  });
});

describe('describe-producers --broker-id (hw-behind-leo-slow-follower, a follower behind)', () => {
  const view = viewAt('hw-behind-leo-slow-follower', () => 147);

  it('reads the leader, then a follower’s own replica', () => {
    page.render(createElement(ProducerStateSection, { view, topic: 'orders', partition: 0 }));
    const el = section('describe-producers');
    const buttons = [...el.querySelectorAll('[data-testid="describe-producers-replica"] button')].map((b) => b.getAttribute('data-broker'));
    expect(buttons).toEqual(['leader', '0', '1', '2']);
    expect(terminal(el).printed).toBe(describeProducersText(describeProducersAt(view, 'orders', 0)));

    click(el.querySelector('[data-broker="1"]'));
    expect(el.getAttribute('data-broker')).toBe('1');
    expect(terminal(el)).toEqual({
      command: 'kafka-transactions.sh --bootstrap-server broker-0:9092 describe-producers --topic orders --partition 0 --broker-id 1',
      printed: describeProducersText(describeProducersAt(view, 'orders', 0, 1)),
    });
    // the follower has not fetched the leader's last batch: its text differs
    expect(terminal(el).printed).not.toBe(describeProducersText(describeProducersAt(view, 'orders', 0)));
    expect(el.querySelector('h4')?.textContent).toContain('What the replica of orders-0 on broker-1 remembers of its producers');

    click(el.querySelector('[data-broker="leader"]'));
    expect(el.hasAttribute('data-broker')).toBe(false);
  });

  it('offers no choice for a partition with one replica', () => {
    const one = viewAt('hanging-transaction', (n) => n);
    page.render(createElement(ProducerStateSection, { view: one, topic: 'orders', partition: 0 }));
    expect(section('describe-producers').querySelector('[data-testid="describe-producers-replica"]')).toBeNull();
  });
});

describe('kafka-consumer-groups.sh --describe --all-groups (ctp-exactly-once-crash at its end)', () => {
  const trace = runScenario(findPreset('ctp-exactly-once-crash')?.scenario);
  const view = stateAt(trace, trace.steps.length);

  it('switches from the client’s group to every group, in each view', () => {
    const selected = { trace, view, id: 'auditor.consumer' };
    page.render(createElement(GroupDescribeSection, selected));
    const el = section('group-describe');
    expect(el.getAttribute('data-scope')).toBe('group');
    expect(terminal(el).command).toBe('kafka-consumer-groups.sh --bootstrap-server broker-0:9092 --describe --group auditor');

    click(el.querySelector('[data-testid="group-describe-scope"] [data-scope="all-groups"]'));
    expect(el.getAttribute('data-scope')).toBe('all-groups');
    expect(terminal(el)).toEqual({
      command: 'kafka-consumer-groups.sh --bootstrap-server broker-0:9092 --describe --all-groups',
      printed: describeAllGroupsText(view, 'offsets', false),
    });
    // every group of the run, in id order
    const groups = [...terminal(el).printed.matchAll(/^(auditor|enricher|raw-reader) /gm)].map((m) => m[1]);
    expect([...new Set(groups)]).toEqual(['auditor', 'enricher', 'raw-reader']);

    click(el.querySelector('[data-view="state"]'));
    expect(terminal(el)).toEqual({
      command: 'kafka-consumer-groups.sh --bootstrap-server broker-0:9092 --describe --state --all-groups',
      printed: describeAllGroupsText(view, 'state', false),
    });
    expect(el.textContent).toContain('With --all-groups the tool lists every group');
    act(() => simStore.getState().setLanguage('ko'));
    expect(el.textContent).toContain(strings('ko').describeAllGroupsNote);

    click(el.querySelector('[data-scope="group"]'));
    expect(terminal(el).command).toBe('kafka-consumer-groups.sh --bootstrap-server broker-0:9092 --describe --state --group auditor');
  });
});
