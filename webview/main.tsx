// Entry of the webview bundle (dist/webview.js).
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createHostLink } from './hostLink';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App host={createHostLink(acquireVsCodeApi(), window)} />);
