// The other Node built-ins the storefront path imports, in the sandbox's browser build. Nothing on that
// path calls them in the page (no data directory, no fixture files, no Prism); they exist so the modules
// load, and each one that is called anyway says where it was called. The engine imports neither node:http
// nor node:fs itself: transports and the docs' files are adapters (workbench/adapters/), left out of the
// page. scripts/build-msw-browser.ts maps `node:fs`, `node:fs/promises`, `node:net`, `node:module` and
// `node:url` here.
const refuse = (name: string) => (): never => {
  throw new Error(`${name}: not available in the sandbox's browser build (no file system, sockets or Prism in a page); the Node handlers of storefront-contract-tools/msw have it`);
};

// node:fs, node:fs/promises
export const existsSync = refuse('fs.existsSync');
export const readFileSync = refuse('fs.readFileSync');
export const readdirSync = refuse('fs.readdirSync');
export const mkdirSync = refuse('fs.mkdirSync');
export const openSync = refuse('fs.openSync');
export const closeSync = refuse('fs.closeSync');
export const readSync = refuse('fs.readSync');
export const writeSync = refuse('fs.writeSync');
export const fstatSync = refuse('fs.fstatSync');
export const fsyncSync = refuse('fs.fsyncSync');
export const ftruncateSync = refuse('fs.ftruncateSync');
export const chmodSync = refuse('fs.chmodSync');
export const renameSync = refuse('fs.renameSync');
export const unlinkSync = refuse('fs.unlinkSync');
export const createReadStream = refuse('fs.createReadStream');
export const stat = refuse('fs.stat');
export const readFile = refuse('fs.readFile');

// node:net
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** As Node's: 4, 6 or 0 (the IPv6 test is by shape: hex groups and colons, one `::` at most). */
export function isIP(input: string): 0 | 4 | 6 {
  if (IPV4.test(input)) return 4;
  const [address] = input.split('%');
  if (/^[0-9a-f:.]+$/i.test(address) && address.includes(':') && (address.match(/::/g) ?? []).length <= 1) {
    try {
      new URL(`http://[${input}]/`);
      return 6;
    } catch {
      return 0;
    }
  }
  return 0;
}

// node:module (Prism is loaded with createRequire: in the page it never is)
export function createRequire(): (id: string) => never {
  return (id: string) => refuse(`require("${id}")`)();
}

// node:url (the contract model names files by file: URL; in the page they are the embedded names)
export function pathToFileURL(file: string): URL {
  return new URL(`file://${file.split('/').map(encodeURIComponent).join('/')}`);
}
export function fileURLToPath(url: string | URL): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'file:') throw new TypeError(`fileURLToPath: ${parsed.href} is not a file: URL`);
  return decodeURIComponent(parsed.pathname);
}

export default { existsSync, readFileSync, isIP, createRequire, pathToFileURL, fileURLToPath };
