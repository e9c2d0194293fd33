/**
 * What a person sees instead of a blank page when the link they opened cannot be read. Opened over a
 * run (a link pasted into the address bar, Back to a bad entry), the error replaces the run — App and
 * the header hide it, so no run on screen passes for the one the link named — and offers the way back
 * to it by its title.
 */
import { errorText } from '../sim';
import { simStore } from '../store/simStore';
import { useSim } from '../store/useSim';
import { openDefault } from './hashSync';
import { LanguageNotSupportedNote } from './LanguageNote';
import { PathErrors } from './PathErrors';
import { shareStore, useShare } from './shareState';
import { shareText } from './strings';

/** The run that was on screen when the bad link came (the header names it in the page's language). */
export interface PreviousRun {
  readonly title: string;
  /** The title's own language, when it is a preset's words. */
  readonly language: string | null;
}

export function LinkErrorPanel({ previous = null }: { readonly previous?: PreviousRun | null }) {
  const language = useSim((s) => s.language);
  return (
    <>
      <LanguageNotSupportedNote language={language} />
      <LinkNotes previous={previous} />
    </>
  );
}

function LinkNotes({ previous }: { readonly previous: PreviousRun | null }) {
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
      {previous && <p data-testid="link-error-run-hidden">{t.runHidden}</p>}
      <div className="eos-actions">
        {previous && (
          // the error goes; hashSync writes that run's link back into the address
          <button
            type="button"
            className="eos-primary"
            data-testid="link-error-back"
            onClick={() => shareStore.getState().setLinkError(null)}
          >
            {t.backToRun} <span lang={previous.language ?? undefined}>{previous.title}</span>
          </button>
        )}
        <button type="button" className={previous ? undefined : 'eos-primary'} onClick={() => openDefault(simStore)}>
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
