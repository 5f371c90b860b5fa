// A browser-like global scope for component tests (jsdom), enough for React and the toolkit's custom elements.
// Import it FIRST in a component test: the toolkit registers its elements when it is loaded.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', {
  pretendToBeVisual: true,
  url: 'http://localhost/',
});
const win = dom.window as unknown as Record<string, unknown> & Window;
// jsdom has no matchMedia; the toolkit asks it for forced colours once.
win.matchMedia = ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;
// jsdom lays nothing out: give every element the size of a webview pane, so that the virtual list has a
// viewport to fill.
const proto = (win.HTMLElement as unknown as typeof HTMLElement).prototype;
proto.getBoundingClientRect = () =>
  ({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    right: 800,
    bottom: 600,
    width: 800,
    height: 600,
    toJSON: () => ({}),
  }) as DOMRect;
Object.defineProperty(proto, 'clientWidth', { get: () => 800, configurable: true });
Object.defineProperty(proto, 'clientHeight', { get: () => 600, configurable: true });
const g = globalThis as Record<string, unknown>;
// Node has its own Event classes; the DOM's events must be jsdom's.
const FROM_DOM = new Set(['Event', 'EventTarget', 'CustomEvent', 'MessageEvent']);
for (const key of Object.getOwnPropertyNames(win)) {
  if (key in g && !FROM_DOM.has(key)) continue;
  try {
    g[key] = win[key];
  } catch {
    // read-only globals of Node stay as they are
  }
}
g.window = win;
g.document = win.document;
g.navigator = win.navigator;
g.IS_REACT_ACT_ENVIRONMENT = true;

export function resetRoot(): HTMLElement {
  document.body.innerHTML = '<div id="root"></div>';
  return document.getElementById('root')!;
}
