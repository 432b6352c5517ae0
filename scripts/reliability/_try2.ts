import { concurrencyCase } from './concurrencyCase.js';
const t = Date.now();
concurrencyCase({ sessions: 16, callsPerSession: 60, seed: 7 }).then((r) => { console.log(JSON.stringify(r, null, 1), Date.now() - t); process.exit(0); }, (e) => { console.error(e); process.exit(1); });
