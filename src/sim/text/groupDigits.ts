/**
 * A number with its thousands grouped — "12,345", "1,234.5" — as `toLocaleString('en')` and
 * `toLocaleString('ko')` write it (both group by three with "," and use "." for the fraction, at
 * most three fraction digits).
 *
 * Why not toLocaleString: the first Intl call in a page loads the locale's ICU data on the main
 * thread — 23 ms for 'en', about 50 ms for 'ko' in Chromium — which made the page's first render of
 * a run (and of the heavy link's message) a long task. Every count and time on screen goes through
 * here instead; tests/groupDigits.test.ts holds it equal to Intl's output.
 */
export function groupDigits(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n < 0 ? '-∞' : '∞';
  const negative = n < 0 || Object.is(n, -0);
  const fixed = Math.abs(n).toFixed(3);
  const dot = fixed.indexOf('.');
  const whole = fixed.slice(0, dot);
  const fraction = fixed.slice(dot + 1).replace(/0+$/, '');
  let grouped = '';
  for (let i = whole.length; i > 0; i -= 3) grouped = whole.slice(Math.max(0, i - 3), i) + (grouped ? `,${grouped}` : '');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
