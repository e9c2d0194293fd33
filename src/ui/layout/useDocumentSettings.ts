import { useEffect } from 'react';
import { useSim } from '../../store/useSim';

/** Puts the theme and the language on <html>, where CSS and assistive technology read them. */
export function useDocumentSettings(): void {
  const theme = useSim((s) => s.theme);
  const language = useSim((s) => s.language);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
}
