/** Language (English / 한국어) and theme (system / light / dark), both kept in the store. */
import { type Language, simStore, type Theme } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { chooseLanguage } from '../chooseLanguage';
import { useStrings } from '../i18n';

const LANGUAGES: readonly { id: Language; label: string; lang: string }[] = [
  { id: 'en', label: 'English', lang: 'en' },
  { id: 'ko', label: '한국어', lang: 'ko' },
];

export function LanguageToggle() {
  const t = useStrings();
  const language = useSim((s) => s.language);
  return (
    <fieldset className="segmented" aria-label={t.language}>
      <legend className="visually-hidden">{t.language}</legend>
      {LANGUAGES.map((l) => (
        <button key={l.id} type="button" lang={l.lang} aria-pressed={language === l.id} onClick={() => chooseLanguage(l.id)}>
          {l.label}
        </button>
      ))}
    </fieldset>
  );
}

export function ThemeSelect() {
  const t = useStrings();
  const theme = useSim((s) => s.theme);
  return (
    <label className="inline-control">
      <span className="visually-hidden-phone">{t.theme}</span>
      <select value={theme} onChange={(e) => simStore.getState().setTheme(e.target.value as Theme)}>
        <option value="system">{t.themeSystem}</option>
        <option value="light">{t.themeLight}</option>
        <option value="dark">{t.themeDark}</option>
      </select>
    </label>
  );
}
