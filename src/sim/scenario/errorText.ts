/**
 * A scenario error's or a link error's message in the reader's language. A module of its own, so that
 * the page's first stage (src/shell/) and the embed read it without the validator.
 */

/** The message in the reader's language (English when no Korean is written). */
export function errorText(e: { readonly message: string; readonly ko?: string | undefined }, language: 'en' | 'ko'): string {
  return language === 'ko' && e.ko ? e.ko : e.message;
}
