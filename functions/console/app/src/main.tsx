/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The console runs in a browser: the DOM's types are referenced here, where its entry is, not in the server's config.
import { render } from 'preact';
import { App } from './app';
import { interceptLinks } from './router';

interceptLinks();
render(<App />, document.getElementById('app')!);
