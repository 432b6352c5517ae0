import { badInputCase } from './badInputCase.js';
const t = Date.now();
badInputCase({ cliRuns: 30, operationsRuns: 100, webviewRuns: 300, seed: 7 }).then((r) => { console.log(JSON.stringify(r, null, 1), Date.now() - t); process.exit(0); }, (e) => { console.error(e); process.exit(1); });
