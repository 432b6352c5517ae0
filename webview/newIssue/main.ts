// Entry of dist/webview/newIssue.js (esbuild: platform browser, format esm); the stylesheet import makes esbuild
// emit dist/webview/newIssue.css next to it.
import './newIssue.css';
import { useJitlessValidation } from '../../src/protocol/webview.js';
import { acquireApi } from '../shared/vscodeApi.js';
import { NewIssueFormApp } from './formApp.js';

useJitlessValidation();
new NewIssueFormApp(document, acquireApi()).start(window);
