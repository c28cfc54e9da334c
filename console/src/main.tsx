import { render } from 'preact';
import { App } from './app';
import { interceptLinks } from './router';
import { CONSOLE_BASE } from './base';

interceptLinks();
render(<App />, document.getElementById('app')!);
// The installable app's worker: the shell kept for a page loaded without a network, and push notices shown. A browser
// without one (or refusing it) runs the console as a page.
if ('serviceWorker' in navigator) void navigator.serviceWorker.register(`${CONSOLE_BASE}/sw.js`).catch(() => undefined);
