import { createWorkbench } from './workbench/index.js';
const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: false, webhooks: false });
console.log(`URL ${wb.url}`);
process.on('SIGTERM', async () => { await wb.close(); process.exit(0); });
