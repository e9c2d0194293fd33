/**
 * The exported figure's colours: the timeline's palette (timeline.css, styles.css) written out for
 * light and dark, with the colour mixes the page computes in CSS resolved to plain hex, so a figure
 * is the same file wherever it is made. Fonts: Arial-metric first (the figure measures text with
 * Arial's widths), then Korean fonts for Hangul.
 */
import type { Palette } from '../../timeline/palette';

export type FigureTheme = 'light' | 'dark';

export const FIGURE_FONT =
  "'Liberation Sans', Arial, Helvetica, 'Noto Sans KR', 'Apple SD Gothic Neo', NanumGothic, 'Malgun Gothic', sans-serif";

const shared = {
  plain: '#8fb3d9',
  committed: '#5aa469',
  open: '#e6c15a',
  aborted: '#d1605e',
  font: FIGURE_FONT,
};

export const FIGURE_PALETTES: Readonly<Record<FigureTheme, Palette>> = {
  light: {
    ...shared,
    bg: '#ffffff',
    fg: '#1b1f24',
    muted: '#57606a',
    // var(--muted) 35% over the background, and the other mixes of timeline.css
    grid: '#c4c7cb',
    leo: '#57606a',
    hw: '#1b1f24',
    lso: '#7a4bd1',
    position: '#1f6fd1',
    groupOffset: '#b4531f',
    arrow: '#54575b',
    background: '#a3a8ad',
    fault: '#c62f2c',
    focus: '#1f6fd1',
    selection: '#d6247f',
    hover: '#1b1f24',
    now: '#7a4bd1',
  },
  dark: {
    ...shared,
    bg: '#14171b',
    fg: '#e6e9ed',
    muted: '#a3adb8',
    grid: '#464c52',
    leo: '#a3adb8',
    hw: '#e6e9ed',
    lso: '#b08cff',
    position: '#6aa8ff',
    groupOffset: '#f09a5c',
    arrow: '#b2b5b9',
    background: '#636971',
    fault: '#ff6b67',
    focus: '#6aa8ff',
    selection: '#ff5cae',
    hover: '#e6e9ed',
    now: '#b08cff',
  },
};
