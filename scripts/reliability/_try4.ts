import { restartCase } from './restartCase.js';
const t = Date.now();
restartCase(1).then((r) => { console.log(JSON.stringify(r, null, 1), Date.now() - t); process.exit(0); }, (e) => { console.error(e); process.exit(1); });
