/**
 * What B changes: every setting of A an A/B comparison may change, with a select for B's value. For a
 * gallery pair (B a scenario of its own) everything in which the two differ, read-only: the
 * cluster's, the topics' and the clients' settings, the records each producer sends, and the faults.
 */
import {
  describeFault,
  type FaultSpec,
  type Scenario,
  type ScenarioDifference,
  type Setting,
  type SettingChange,
  type SettingValue,
  scenarioDifferences,
  settingsOf,
  type ValueInForce,
} from '../../sim';
import type { Language } from '../../store/simStore';
import { panelStore } from '../panels';
import { useNarrator } from '../useNarrator';
import { compareStore } from './compareStore';
import type { CompareStrings } from './compareStrings';

const show = (v: SettingValue | null) => String(v);

/**
 * Where a setting belongs, as the comparison names it: the cluster in a word of the page's language
 * ("cluster", "클러스터"), a topic as that word and its name, a client or a sink by its id. Only the
 * settings themselves (config keys) are in code font; the names are the run's own (translate="no").
 */
function Where({
  kind,
  target,
  t,
}: {
  readonly kind: 'cluster' | 'topic' | 'client' | 'sink';
  readonly target: string;
  readonly t: CompareStrings;
}) {
  if (kind === 'cluster') return <span data-where="cluster">{t.cluster}</span>;
  const name = (
    <span className="compare-name" translate="no">
      {target}
    </span>
  );
  return kind === 'topic' ? (
    <span data-where="topic">
      {t.topicWord} {name}
    </span>
  ) : (
    name
  );
}

/** The same in words, for an accessible name. */
const whereText = (kind: 'cluster' | 'topic' | 'client' | 'sink', target: string, t: CompareStrings) =>
  kind === 'cluster' ? t.cluster : kind === 'topic' ? `${t.topicWord} ${target}` : target;

/** What a setting of the A/B table (settingsOf) belongs to: the cluster's transaction.version, else the client's or sink's. */
const settingKind = (s: Setting): 'cluster' | 'client' =>
  s.target === 'cluster' && s.setting === 'transaction.version' ? 'cluster' : 'client';

/** A gallery pair's differences, one item each (faults: the ones only one side has, described). */
export function PairDifferences({
  a,
  b,
  language,
  t,
}: {
  readonly a: Scenario;
  readonly b: Scenario;
  readonly language: Language;
  readonly t: CompareStrings;
}) {
  const narrator = useNarrator();
  // the fault itself, not its note: the note is the tooltip
  const label = (f: FaultSpec) => {
    const bare = { ...f, note: undefined };
    return narrator ? narrator.faultSpecLabel(bare, language) : describeFault(bare);
  };
  const note = (f: FaultSpec) => (f.note === undefined ? undefined : narrator ? narrator.faultSpecLabel(f, language) : f.note);
  const value = (v: ValueInForce) => (v.isDefault ? t.byDefault(show(v.value)) : show(v.value));
  const faults = (side: 'A' | 'B', list: readonly FaultSpec[]) => (
    <>
      {t.faultsOnlyIn(side)}{' '}
      {list.length === 0
        ? t.noFaults
        : list.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: faults have no id; their place is theirs
            <span key={i} title={note(f)}>
              {i > 0 && '; '}
              {label(f)}
            </span>
          ))}
    </>
  );
  const item = (d: ScenarioDifference, i: number) => {
    switch (d.kind) {
      case 'setting':
        return (
          <li key={i} className="differs">
            <Where kind={d.targetKind} target={d.target} t={t} /> <code>{d.setting}</code>: {value(d.a)} → {value(d.b)}
          </li>
        );
      case 'sends':
        return (
          <li key={i} className="differs">
            <Where kind="client" target={d.target} t={t} /> {t.recordsSent}: {d.a} → {d.b}
          </li>
        );
      case 'only':
        return (
          <li key={i} className="differs">
            {t.onlyIn(d.what, d.id, d.side === 'a' ? 'A' : 'B')}
          </li>
        );
      case 'faults':
        return (
          <li key={i} className="differs" data-testid="compare-faults">
            <div>{faults('A', d.a)}</div>
            <div>{faults('B', d.b)}</div>
          </li>
        );
    }
  };
  return <ul>{scenarioDifferences(a, b).map(item)}</ul>;
}

/**
 * Why B has no transactional.id select, for each producer client of A: a transactional.id is the
 * application's choice, not a setting alone — it makes the producer idempotent with acks=all, and
 * KafkaProducer refuses every send() outside a transaction (TransactionManager.maybeAddPartition's
 * IllegalStateException), so a script that begins none would only fail, and a script that does cannot
 * run without one. The change belongs in Configuration; a button there closes A/B and opens the
 * client's section. (A consumer application's transactions are processing.mode exactly-once, a B
 * select of its own.)
 */
export function TransactionalIdNote({ a, t }: { readonly a: Scenario; readonly t: CompareStrings }) {
  const producers = a.clients.filter((c) => c.type === 'producer');
  if (producers.length === 0) return null;
  const open = (id: string) => {
    compareStore.getState().close();
    panelStore.getState().openConfig(`client:${id}`);
  };
  return (
    <details className="compare-txn-id" data-testid="compare-txn-id">
      <summary>{t.txnIdTitle}</summary>
      {producers.map((c) => {
        const txnId = c.config?.['transactional.id'];
        const begins = c.script.some((op) => op.op === 'beginTransaction');
        const why = typeof txnId === 'string' ? (begins ? t.txnIdUsed(c.id, txnId) : t.txnIdIdle(c.id, txnId)) : t.txnIdUnused(c.id);
        return (
          <p key={c.id} data-client={c.id}>
            {why}{' '}
            <button type="button" onClick={() => open(c.id)} data-testid={`compare-config-${c.id}`}>
              {t.txnIdOpen(c.id)}
            </button>
          </p>
        );
      })}
      <p className="muted">{t.txnIdHow}</p>
    </details>
  );
}

export function CompareSettings({
  a,
  b,
  changes,
  onChange,
  language,
  t,
}: {
  readonly a: Scenario;
  readonly b: Scenario;
  readonly changes: readonly SettingChange[] | null;
  readonly onChange: (changes: SettingChange[]) => void;
  readonly language: Language;
  readonly t: CompareStrings;
}) {
  if (changes === null) {
    return (
      <section className="compare-settings" data-testid="compare-settings">
        <p>{t.pairNote}</p>
        <PairDifferences a={a} b={b} language={language} t={t} />
        {a.seed !== b.seed && <p className="muted">{t.seedsDiffer(a.seed, b.seed)}</p>}
      </section>
    );
  }
  const settings = settingsOf(a);
  const bValue = (target: string, setting: string, current: SettingValue) =>
    changes.find((c) => c.target === target && c.setting === setting)?.value ?? current;
  const set = (target: string, setting: SettingChange['setting'], current: SettingValue, raw: string, options: readonly SettingValue[]) => {
    const value = options.find((o) => String(o) === raw) ?? raw;
    const rest = changes.filter((c) => !(c.target === target && c.setting === setting));
    onChange(value === current ? rest : [...rest, { target, setting, value }]);
  };
  return (
    <section className="compare-settings" data-testid="compare-settings">
      <h3>{t.settingsTitle}</h3>
      <p className="muted">{t.settingsHelp}</p>
      {changes.length === 0 && <p>{t.sameSettings}</p>}
      <table>
        <thead className="visually-hidden-phone">
          <tr>
            <th scope="col">{t.target}</th>
            <th scope="col">{t.setting}</th>
            <th scope="col">{t.valueA}</th>
            <th scope="col">{t.valueB}</th>
          </tr>
        </thead>
        <tbody>
          {settings.map((s) => {
            const v = bValue(s.target, s.setting, s.current);
            const id = `${s.target}:${s.setting}`;
            return (
              <tr key={id} className={v !== s.current ? 'differs' : undefined}>
                <td className="compare-where">
                  <Where kind={settingKind(s)} target={s.target} t={t} />
                </td>
                <td className="compare-setting">
                  <code>{s.setting}</code>
                </td>
                {/* "A:" and "B:" name the columns where a phone shows each row as a card (styles.css) */}
                <td className="compare-side">
                  <span className="compare-side-name">{t.valueA}: </span>
                  {show(s.current)}
                </td>
                <td className="compare-side">
                  <span className="compare-side-name">{t.valueB}: </span>
                  <select
                    aria-label={`B: ${whereText(settingKind(s), s.target, t)} ${s.setting}`}
                    data-testid={`setting-${id}`}
                    value={show(v)}
                    onChange={(e) => set(s.target, s.setting, s.current, e.currentTarget.value, s.options)}
                  >
                    {s.options.map((o) => (
                      <option key={show(o)} value={show(o)}>
                        {show(o)}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <TransactionalIdNote a={a} t={t} />
    </section>
  );
}
