// A workbench child process for benchmarks that compare two builds of the same server side by side:
// `node --conditions=sfc-source --import tsx bench/lib/sandbox-server.ts <port> [--no-faults]` starts
// createWorkbench (sandbox and simulator, as `npm start` does, request log off) on 127.0.0.1:<port>;
// `--no-faults` builds it with fault injection off (`faults: false`: no registry, the pipeline's check
// skipped), the baseline of the faults suite; `--no-console` without the console (`console: false`: no
// request log kept), the baseline of the console suite's request-log row; `--no-answer-cache` with each
// world's answer cache off (every read built from the world), the mock suite's uncached list.
import { createWorkbench } from '../../workbench/index.js';

const [port, flag] = process.argv.slice(2);
await createWorkbench({ port: Number(port), host: '127.0.0.1', quiet: true, faults: flag === '--no-faults' ? false : undefined, console: flag === '--no-console' ? false : undefined, sandbox: flag === '--no-answer-cache' ? { answerCacheBytes: 0 } : undefined });
