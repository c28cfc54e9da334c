import { render } from 'preact';
import { App } from './app';
import { interceptLinks } from './router';

interceptLinks();
render(<App />, document.getElementById('app')!);
