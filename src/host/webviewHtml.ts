// The webview's HTML: a strict Content-Security-Policy (nothing but our own bundle and stylesheet, scripts
// only with this page's nonce), and no transcript data in the markup: everything arrives by postMessage and
// React renders it as text. The one datum it carries is what the view needs of the registries (a JSON block the
// browser never runs), the same for every page of this build. No editor API here, so the browser tests load
// exactly this page.
import { randomBytes } from 'node:crypto';
import { REGISTRY_DESCRIPTORS } from '../protocol/registryDescriptors';
import { VIEW_DESCRIPTORS_ELEMENT, type ViewDescriptors } from '../protocol/viewDescriptors';

export interface WebviewResources {
  /** The webview's `cspSource` (the origin our local resources are served from). */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce?: string;
  /** What the view needs of the registries; the registries' own unless a test gives others. */
  descriptors?: ViewDescriptors;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** JSON that cannot close its <script> element (nor open a comment in it). */
const scriptJson = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c');

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function webviewHtml(r: WebviewResources): string {
  const nonce = r.nonce ?? newNonce();
  // The toolkit (FAST) reads the nonce from the csp-nonce meta for the one <style> element it creates.
  // style-src allows the toolkit's constructed stylesheets and React's CSSOM style properties, which CSP does not
  // govern; inline <style> elements and style attributes in markup stay forbidden.
  const csp = [
    "default-src 'none'",
    `img-src ${r.cspSource} data:`,
    `style-src ${r.cspSource} 'nonce-${nonce}'`,
    `font-src ${r.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${attr(nonce)}">
<link rel="stylesheet" href="${attr(r.styleUri)}" nonce="${attr(nonce)}">
<title>Context Lens</title>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="${VIEW_DESCRIPTORS_ELEMENT}">${scriptJson(r.descriptors ?? REGISTRY_DESCRIPTORS)}</script>
<script nonce="${attr(nonce)}" src="${attr(r.scriptUri)}"></script>
</body>
</html>`;
}
