import { describe, expect, it } from 'vitest';
import { touchAxis, wheelPan, zoomFilter } from './panZoom';

const wheel = (o: Partial<WheelEvent>) => ({ ctrlKey: false, metaKey: false, shiftKey: false, deltaX: 0, deltaY: 0, ...o });

describe('zoomFilter: what d3-zoom takes', () => {
  it('takes a wheel only with ctrl or ⌘ (a trackpad pinch sends ctrl + wheel)', () => {
    expect(zoomFilter({ type: 'wheel', ctrlKey: false, metaKey: false, button: 0 })).toBe(false);
    expect(zoomFilter({ type: 'wheel', ctrlKey: true, metaKey: false, button: 0 })).toBe(true);
    expect(zoomFilter({ type: 'wheel', ctrlKey: false, metaKey: true, button: 0 })).toBe(true);
  });

  it('takes a press of the main button only (drag pans)', () => {
    expect(zoomFilter({ type: 'mousedown', ctrlKey: false, metaKey: false, button: 0 })).toBe(true);
    expect(zoomFilter({ type: 'mousedown', ctrlKey: false, metaKey: false, button: 2 })).toBe(false);
    expect(zoomFilter({ type: 'touchstart', ctrlKey: false, metaKey: false, button: 0 })).toBe(true);
  });
});

describe('wheelPan: how far a wheel pans', () => {
  it('leaves a vertical wheel to the page', () => {
    expect(wheelPan(wheel({ deltaY: 40 }))).toBe(0);
    expect(wheelPan(wheel({ deltaX: 10, deltaY: 40 }))).toBe(0);
  });

  it('pans by a mostly horizontal wheel', () => {
    expect(wheelPan(wheel({ deltaX: 30, deltaY: 5 }))).toBe(30);
    expect(wheelPan(wheel({ deltaX: -12 }))).toBe(-12);
  });

  it('turns shift + vertical wheel into a pan (and takes deltaX when deltaY is 0)', () => {
    expect(wheelPan(wheel({ shiftKey: true, deltaY: 40 }))).toBe(40);
    expect(wheelPan(wheel({ shiftKey: true, deltaX: 25 }))).toBe(25);
  });

  it('does not pan when ctrl or ⌘ is held (that wheel zooms)', () => {
    expect(wheelPan(wheel({ ctrlKey: true, deltaX: 30 }))).toBe(0);
    expect(wheelPan(wheel({ metaKey: true, shiftKey: true, deltaY: 30 }))).toBe(0);
  });
});

describe('touchAxis: which way a finger goes', () => {
  it('has no direction until the finger has moved 8 px', () => {
    expect(touchAxis(0, 0)).toBe(null);
    expect(touchAxis(3, -5)).toBe(null);
  });

  it("up or down is the page's (it scrolls), sideways the view's (it pans)", () => {
    expect(touchAxis(2, -20)).toBe('y');
    expect(touchAxis(-4, 9)).toBe('y');
    expect(touchAxis(20, 3)).toBe('x');
    expect(touchAxis(-9, 6)).toBe('x');
  });
});
