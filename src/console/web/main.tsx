/** The console's entry (bundled by scripts/build-console.js into dist/console/app.js and app.css). */
import { render } from 'preact';
import { App } from './app';
import './app.css';

const root = document.getElementById('app');
if (root) render(<App />, root);
