// Entry of dist/webview/issuePanel.js (esbuild: platform browser, format esm). The stylesheet import makes esbuild
// emit dist/webview/issuePanel.css next to it (with the codicon font beside it, for the toolbar's icons).
import '@vscode/codicons/dist/codicon.css';
import './issuePanel.css';
import { useJitlessValidation } from '../../src/protocol/webview.js';
import { registerUiKit } from '../shared/ui.js';
import { acquireApi } from '../shared/vscodeApi.js';
import { IssuePanelApp } from './app.js';

useJitlessValidation();
registerUiKit();
new IssuePanelApp(document, acquireApi()).start(window);
