import { describe, expect, it } from 'vitest';
import { viewKeyAction, ZOOM_STEP } from './viewKeys';

describe('viewKeyAction: the keys both timeline views share', () => {
  it('Enter and space select the focused mark; Escape clears the selection', () => {
    expect(viewKeyAction('Enter')).toEqual({ kind: 'select' });
    expect(viewKeyAction(' ')).toEqual({ kind: 'select' });
    expect(viewKeyAction('Escape')).toEqual({ kind: 'deselect' });
  });

  it('+ and = zoom in, - and _ zoom out by the same step, 0 fits', () => {
    expect(ZOOM_STEP).toBe(1.6);
    expect(viewKeyAction('+')).toEqual({ kind: 'zoom', factor: 1.6 });
    expect(viewKeyAction('=')).toEqual({ kind: 'zoom', factor: 1.6 });
    expect(viewKeyAction('-')).toEqual({ kind: 'zoom', factor: 1 / 1.6 });
    expect(viewKeyAction('_')).toEqual({ kind: 'zoom', factor: 1 / 1.6 });
    expect(viewKeyAction('0')).toEqual({ kind: 'fit' });
  });

  it('leaves every other key to the view (arrows, Home, End) or the page', () => {
    for (const key of ['ArrowLeft', 'ArrowDown', 'Home', 'End', 'PageUp', 'a', 'Tab']) expect(viewKeyAction(key)).toBeNull();
  });
});
