/**
 * The config editor: for a client (producer, consumer, the producer inside a consumer
 * application), the cluster or a topic, every key the simulator knows with Kafka's default, the
 * scenario's value, a field to change it, the documentation line (in the reader's language) and the
 * simulator's simplification. A change is checked by the engine's validator: Kafka's ConfigException
 * text for an invalid combination (nothing changes until it is fixed or discarded), Kafka's INFO/WARN
 * lines for a valid one — both in Kafka's English — and a valid change re-runs the scenario.
 *
 * Props: `clientId` or `sectionId` (optional) — what is shown first; the person can pick any other
 * section. Laid out as cards in one column so it fits a drawer on a wide screen and a phone alike.
 */
import { useId, useState } from 'react';
import { ErrorMessage } from '../../share/ErrorMessage';
import type { ConfigValue, Scenario } from '../../sim';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { ConfigField } from './ConfigField';
import { configDoc, simulationNote } from './configDoc';
import { type ConfigSection, checkDraft, configRows, configSections, type Draft, formatValue, notesByKey } from './configModel';
import { useConfigStrings } from './strings';
import './config.css';

export interface ConfigEditorProps {
  /** The client shown first ("client:<id>" section); `sectionId` names any section instead. */
  readonly clientId?: string;
  readonly sectionId?: string | null;
}

interface PendingDraft {
  /** The scenario the draft was made against: a draft for an older scenario is dropped. */
  readonly base: Scenario;
  readonly section: string;
  readonly values: Draft;
}

/**
 * One card per key, in one column that fits any width: the key and its field on top, then Kafka's
 * default, where the value comes from and what is in effect; Kafka's messages about the key always
 * shown; what the key does and the simulator's note on demand.
 */
export function ConfigEditor({ clientId, sectionId }: ConfigEditorProps) {
  const t = useConfigStrings();
  const language = useSim((s) => s.language);
  const scenario = useSim((s) => s.scenario);
  const trace = useSim((s) => s.trace);
  const status = useSim((s) => s.status);
  const [picked, setPicked] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [pending, setPending] = useState<PendingDraft | null>(null);
  // the confirmation belongs to the scenario the change made; any later change replaces it
  const [applied, setApplied] = useState<{ step: number; scenario: Scenario | null } | null>(null);
  const pickId = useId();
  if (!scenario || !trace) return null;
  const sections = configSections(scenario);
  const section =
    sections.find((x) => x.id === picked) ??
    sections.find((x) => x.id === sectionId) ??
    sections.find((x) => x.id === `client:${clientId}`) ??
    (sections[0] as ConfigSection);
  const draft = pending && pending.base === scenario && pending.section === section.id ? pending.values : {};
  const check = Object.keys(draft).length ? checkDraft(scenario, section, draft) : null;

  const commit = (key: string, value: ConfigValue | undefined) => {
    const next = { ...draft, [key]: value };
    const result = checkDraft(scenario, section, next);
    if (result.ok) {
      setPending(null);
      const step = simStore.getState().step;
      simStore.getState().fork(() => result.scenario);
      setApplied({ step, scenario: simStore.getState().scenario });
    } else {
      setPending({ base: scenario, section: section.id, values: next });
      setApplied(null);
    }
  };

  const rows = configRows(scenario, section, trace.resolved, draft);
  const notes = notesByKey(section, trace.resolved);
  const query = filter.trim().toLowerCase();
  const shown = query ? rows.filter((r) => r.spec.name.toLowerCase().includes(query)) : rows;
  return (
    <div className="config-editor" data-testid="config-editor">
      <p className="hint">{t.intro}</p>
      {t.messagesInEnglish && <p className="hint">{t.messagesInEnglish}</p>}
      <div className="config-pickers">
        <label htmlFor={pickId}>{t.pick}</label>
        <select id={pickId} value={section.id} onChange={(e) => setPicked(e.currentTarget.value)} data-testid="config-section">
          {sections.map((x) => (
            <option key={x.id} value={x.id}>
              {t.section(x.kind, x.name)}
            </option>
          ))}
        </select>
        <label htmlFor={`${pickId}-filter`}>{t.filter}</label>
        <input
          id={`${pickId}-filter`}
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          placeholder="linger.ms"
          data-testid="config-filter"
        />
      </div>
      <p aria-live="polite" className="inject-status" data-testid="config-status">
        {/* once the new run is on screen: one shorter than the step the page was on lands on its last step */}
        {applied && applied.scenario === scenario && status === 'ready'
          ? applied.step > trace.steps.length
            ? t.appliedAtEnd(trace.steps.length)
            : t.applied(applied.step)
          : ''}
      </p>
      {check && !check.ok && (
        <div role="alert" className="config-invalid" data-testid="config-errors">
          <p>{t.invalid}</p>
          <ul>
            {Object.entries(check.errorsByKey).map(([key, errors]) =>
              errors.map((e) => (
                <li key={`${key}:${e.message}`}>
                  <code>{key}</code>: <ErrorMessage error={e} language={language} />
                </li>
              )),
            )}
          </ul>
          {check.otherErrors.length > 0 && (
            <>
              <p>{t.otherErrors}</p>
              <ul>
                {check.otherErrors.map((e) => (
                  <li key={`${e.path}:${e.message}`}>
                    <code>{e.path}</code>: <ErrorMessage error={e} language={language} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" onClick={() => setPending(null)}>
            {t.discard}
          </button>
        </div>
      )}
      <h3 className="config-section-title">{t.section(section.kind, section.name)}</h3>
      <ul className="config-cards" data-testid="config-table" aria-label={t.section(section.kind, section.name)}>
        {shown.map((row) => {
          const key = row.spec.name;
          const fieldId = `${pickId}-${key}`;
          const aboutId = `${fieldId}-about`;
          const errors = check?.errorsByKey[key] ?? [];
          const value = formatValue(key, row.shown);
          const source = row.source === 'default' ? t.isDefault : row.source === 'scenario' ? t.setHere : t.notApplied;
          return (
            <li
              key={`${section.id}:${key}`}
              data-key={key}
              data-source={row.source}
              className={`config-card${errors.length ? ' invalid' : ''}${row.source === 'default' ? '' : ' set'}`}
            >
              <div className="config-card-head">
                <label htmlFor={fieldId}>
                  <code>{key}</code>
                </label>
                <ConfigField
                  key={`${section.id}:${key}:${value}:${row.source}`}
                  id={fieldId}
                  spec={row.spec}
                  value={row.shown}
                  invalid={errors.length > 0}
                  describedBy={aboutId}
                  onCommit={(v) => commit(key, v)}
                />
              </div>
              <p className="config-meta">
                <span>
                  {t.kafkaDefault}: <code>{formatValue(key, row.spec.default)}</code>
                </span>{' '}
                · <span className="config-source">{source}</span>
                {!check && row.effective !== value && <span className="effective"> · {t.inEffect(row.effective)}</span>}
                {row.explicit && (
                  <>
                    {' '}
                    <button type="button" className="link" onClick={() => commit(key, undefined)} aria-label={t.resetLabel(key)}>
                      {t.reset}
                    </button>
                  </>
                )}
              </p>
              {errors.map((e) => (
                <p key={e.message} className="config-error" lang={language === 'ko' && e.ko ? 'ko' : 'en'}>
                  <ErrorMessage error={e} language={language} />
                </p>
              ))}
              {(notes[key] ?? []).map((n) => (
                <p key={n} className="config-note" lang="en">
                  {n}
                </p>
              ))}
              <details className="config-about">
                <summary>{t.about}</summary>
                <div id={aboutId}>
                  <p>{configDoc(section.kind, row.spec, language)}</p>
                  {row.spec.simulation && (
                    <p className="muted">{t.simulation(simulationNote(row.spec, language) ?? row.spec.simulation)}</p>
                  )}
                </div>
              </details>
            </li>
          );
        })}
        {shown.length === 0 && <li className="hint">{t.noMatch}</li>}
      </ul>
    </div>
  );
}
