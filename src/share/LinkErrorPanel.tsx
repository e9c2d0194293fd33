/** What a person sees instead of a blank page when the link they opened cannot be read. */
import { errorText } from '../sim';
import { simStore } from '../store/simStore';
import { useSim } from '../store/useSim';
import { openDefault } from './hashSync';
import { LanguageNotSupportedNote } from './LanguageNote';
import { PathErrors } from './PathErrors';
import { shareStore, useShare } from './shareState';
import { shareText } from './strings';

export function LinkErrorPanel() {
  const language = useSim((s) => s.language);
  return (
    <>
      <LanguageNotSupportedNote language={language} />
      <LinkNotes />
    </>
  );
}

function LinkNotes() {
  const error = useShare((s) => s.linkError);
  const migratedFrom = useShare((s) => s.migratedFrom);
  const stepPastEnd = useShare((s) => s.stepPastEnd);
  const stepNotAStep = useShare((s) => s.stepNotAStep);
  const language = useSim((s) => s.language);
  const t = shareText(language);
  if (migratedFrom !== null && !error)
    return (
      <output className="eos-link-note">
        {t.migrated(migratedFrom)}{' '}
        <button type="button" className="eos-link-button" onClick={() => shareStore.getState().setMigratedFrom(null)}>
          {t.dismiss}
        </button>
      </output>
    );
  if (stepPastEnd !== null && !error)
    return (
      <output className="eos-link-note" data-testid="step-past-end">
        {t.stepPastEnd(stepPastEnd.asked, stepPastEnd.steps)}{' '}
        <button type="button" className="eos-link-button" onClick={() => shareStore.getState().setStepPastEnd(null)}>
          {t.dismiss}
        </button>
      </output>
    );
  if (stepNotAStep !== null && !error)
    return (
      <output className="eos-link-note" data-testid="step-not-a-step">
        {t.stepNotAStep(stepNotAStep.asked, stepNotAStep.opened)}{' '}
        <button type="button" className="eos-link-button" onClick={() => shareStore.getState().setStepNotAStep(null)}>
          {t.dismiss}
        </button>
      </output>
    );
  if (!error) return null;
  return (
    <section role="alert" className="eos-link-error" data-testid="link-error" data-kind={error.kind}>
      <h2>{t.linkErrorTitle}</h2>
      <p className="eos-link-error-kind">{t.kind[error.kind]}</p>
      <p data-testid="link-error-message">{errorText(error, language)}</p>
      {error.details && error.details.length > 0 && <PathErrors details={error.details} language={language} />}
      <div className="eos-actions">
        <button type="button" className="eos-primary" onClick={() => openDefault(simStore)}>
          {t.openDefault}
        </button>
        <button
          type="button"
          onClick={() => {
            openDefault(simStore);
            shareStore.getState().open('gallery');
          }}
        >
          {t.browse}
        </button>
      </div>
    </section>
  );
}
