/**
 * The scenario the page opens with no link. A module of its own, so that the page's first stage
 * (src/shell/) names it without the presets.
 */
export const DEFAULT_PRESET_ID = 'opening-story';
