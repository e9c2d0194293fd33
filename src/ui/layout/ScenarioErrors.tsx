/**
 * A scenario that failed validation: every error with its JSON path (or its line and column, for
 * JSON that does not parse) in the page's language, and a way back to the default scenario.
 */
import { useId } from 'react';
import { ErrorMessage } from '../../share/ErrorMessage';
import { loadDefault } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';

export function ScenarioErrors() {
  const titleId = useId();
  const t = useStrings();
  const errors = useSim((s) => s.errors);
  const language = useSim((s) => s.language);
  if (!errors) return null;
  return (
    <section role="alert" className="scenario-errors" aria-labelledby={titleId} data-testid="scenario-errors">
      <h2 id={titleId}>{t.cannotRun}</h2>
      <p>{t.cannotRunHint}</p>
      {t.kafkaMessagesInEnglish && errors.some((e) => !e.ko || e.quote) && <p className="muted">{t.kafkaMessagesInEnglish}</p>}
      <ul>
        {errors.map((e) => (
          <li key={`${e.path}:${e.message}`}>
            <code>{e.path}</code>: <ErrorMessage error={e} language={language} />
          </li>
        ))}
      </ul>
      <button type="button" className="primary" onClick={() => loadDefault()}>
        {t.openDefault}
      </button>
    </section>
  );
}
