/** The page header: EOS Lab, the scenario's title and question, what to expect, and the settings. */
import { ShareBar } from '../../share/ShareBar';
import { useStrings } from '../i18n';
import { useSim } from '../useSim';
import { LanguageToggle, ThemeSelect } from './SettingsControls';

export function Header({ onHelp }: { readonly onHelp: () => void }) {
  const t = useStrings();
  const scenario = useSim((s) => s.scenario);
  return (
    <header className="app-header">
      <div className="brand">
        <h1>EOS Lab</h1>
        <p className="tagline">{t.tagline}</p>
      </div>
      {scenario && (
        <div className="scenario-heading">
          <h2>{scenario.title ?? scenario.id ?? ''}</h2>
          {scenario.question && <p className="question">{scenario.question}</p>}
          {scenario.expected && (
            <details className="expected">
              <summary>{t.expected}</summary>
              <p>{scenario.expected}</p>
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
