// `node --import` this after tsx: every module the process loads is appended to $SFC_LOAD_LOG, so a
// test can see which files a client really imported.
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url, { data: { log: process.env.SFC_LOAD_LOG } });
