/** The page header: EOS Lab, the scenario's title and question, what to expect, and the settings. */
import { ShareBar } from '../../share/ShareBar';
import { useStrings } from '../i18n';
import { useScenarioTexts } from '../usePresetTexts';
import { useSim } from '../useSim';
import { LanguageToggle, ThemeSelect } from './SettingsControls';

export function Header({ onHelp }: { readonly onHelp: () => void }) {
  const t = useStrings();
  const scenario = useSim((s) => s.scenario);
  const language = useSim((s) => s.language);
  const texts = useScenarioTexts(scenario, language);
  return (
    <header className="app-header">
      <div className="brand">
        <h1>EOS Lab</h1>
        <p className="tagline">{t.tagline}</p>
      </div>
      {scenario && texts && (
        // a preset's words carry their language; a scenario's own words inherit the page's
        <div className="scenario-heading" lang={texts.language ?? undefined}>
          <h2>{texts.title ?? scenario.id ?? ''}</h2>
          {texts.question && <p className="question">{texts.question}</p>}
          {texts.expected && (
            <details className="expected">
              <summary>{t.expected}</summary>
              <p>{texts.expected}</p>
            </details>
          )}
        </div>
      )}
      <div className="settings">
        {/* [share-embed] Scenarios (the gallery), Share, Embed, Export/Import and the bad-link message */}
        <ShareBar />
        <LanguageToggle />
        <ThemeSelect />
        <button type="button" className="help-button" onClick={onHelp} aria-label={t.help} aria-keyshortcuts="?">
          ?
        </button>
      </div>
    </header>
  );
}
