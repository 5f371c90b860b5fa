// Entry of the webview bundle (dist/webview.js).
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { readDescriptors } from './descriptors';
import { createHostLink } from './hostLink';

const root = document.getElementById('root');
const descriptors = readDescriptors(document);
if (root && descriptors.ok)
  createRoot(root).render(<App host={createHostLink(acquireVsCodeApi(), window, descriptors.value)} />);
else if (root) {
  console.error(`Context Lens: ${descriptors.ok ? '' : descriptors.error}`);
  root.textContent = `Context Lens cannot start: ${descriptors.ok ? '' : descriptors.error}`;
}
