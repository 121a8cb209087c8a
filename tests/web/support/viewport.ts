// The window's width for a layout test: happy-dom evaluates media queries against its viewport, so a
// page rendered after atPhoneWidth() lays its lists out as a 390 px phone does (cards), and the
// media queries' listeners hear the change as a browser's do. Files share one document
// (fresh-document.ts): a test that narrows it widens it again (afterEach(atDesktopWidth)).
interface HappyDom {
  setViewport(viewport: { width: number; height: number }): void;
}
const happyDOM = () => (window as unknown as { happyDOM: HappyDom }).happyDOM;

/** An iPhone held upright: 390 x 844. */
export function atPhoneWidth(): void {
  happyDOM().setViewport({ width: 390, height: 844 });
}

/** happy-dom's default desktop window: 1024 x 768. */
export function atDesktopWidth(): void {
  happyDOM().setViewport({ width: 1024, height: 768 });
}
