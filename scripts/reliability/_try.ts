import { crashCase } from './crashCase.js';
const t=Date.now();
crashCase({ points: 9, supervisorKills: 0, seed: 1, budgetMs: 600000 }).then((r) => { console.log(JSON.stringify(r, null, 1), Date.now()-t); process.exit(0); }, (e) => { console.error(e); process.exit(1); });
