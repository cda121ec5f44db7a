// Recorded traffic judged offline (`certify --from-har <file>`, `certify --from-log <file.ndjson>`): each
// exchange of a HAR 1.2 file (the validating proxy's `--har`, `record`, a browser's export) or of an NDJSON
// access log (one exchange per line, the format below) goes through the traffic judge (judge.ts), the one
// the validating proxy uses, so the same traffic gives the same findings live and offline.
//
// The NDJSON line format (documented in docs/guides/certification.md, "Judge recorded traffic offline"):
//   {"time":"2026-11-26T10:00:00.000Z","method":"GET","url":"https://api.example.com/api/v1/my-store/storefront/common/countries",
//    "status":200,"request_headers":{"authorization":"Bearer ..."},"request_body":"...",
//    "response_headers":{"content-type":"application/json"},"response_body":"{...}","duration_ms":12.5}
// method, url (absolute) and status are required; response_body is the body as text with any content coding
// undone, or response_body_base64 the bytes as sent (the Content-Encoding of response_headers is undone
// here); without either the body was not logged and the exchange is not judged (advice). Header values are
// strings or lists of strings. Blank lines are skipped; any other line that is not such an object stops the
// run with its line number.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { RestCertificate } from '../../report/certificate.js';
import type { Har, HarEntry, HarNameValue } from '../har.js';
import { decodeBody } from '../http.js';
import { TrafficJudge, type ObservedExchange, type Violation } from './judge.js';

/** A file that cannot be judged: the message names the file, the place and the fix. */
export class TrafficFileError extends Error {}

/** HAR files are parsed whole: beyond this, an NDJSON log (one exchange a line, streamed) is the way. */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

export interface JudgeFileOptions {
  file: string;
  format: 'har' | 'log';
  storeId?: string;
  strict?: boolean;
  onViolation?(violation: Violation): void;
  onNote?(line: string): void;
}

export async function judgeTrafficFile(options: JudgeFileOptions): Promise<RestCertificate> {
  const shown = path.relative(process.cwd(), options.file) || options.file;
  const judge = new TrafficJudge({ source: options.format, file: shown, storeId: options.storeId, strict: options.strict });
  const origins = new Set<string>();
  const take = (exchange: ObservedExchange) => {
    if (origins.size < 5) origins.add(new URL(exchange.url).origin);
    const verdict = judge.judge(exchange);
    if (verdict.kind === 'no-operation') options.onNote?.(`${exchange.started?.toISOString() ?? '-'} ${verdict.method} ${verdict.path} ${verdict.status}: no operation of the contract has this path and method (not judged)`);
    for (const v of judge.violations(verdict, exchange.started)) options.onViolation?.(v);
  };
  if (options.format === 'har') for (const exchange of harExchanges(options.file, shown)) take(exchange);
  else for await (const exchange of logExchanges(options.file, shown)) take(exchange);
  return judge.certificate([...origins].join(', ') || shown, {});
}

/** The exchanges of a HAR 1.2 file, in its order. */
export function* harExchanges(file: string, shown = file): Generator<ObservedExchange> {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new TrafficFileError(`--from-har ${shown}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'}); pass a HAR file`);
  }
  if (size > MAX_HAR_BYTES) throw new TrafficFileError(`--from-har ${shown}: ${Math.round(size / 2 ** 20)} MiB is more than a HAR read whole can be (${MAX_HAR_BYTES / 2 ** 20} MiB); convert it to an NDJSON log and pass --from-log (docs/guides/certification.md shows the jq line)`);
  let har: Har;
  try {
    har = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TrafficFileError(`--from-har ${shown}: not JSON (${(error as Error).message.split('\n')[0]}); pass a HAR 1.2 file`);
  }
  if (!Array.isArray(har?.log?.entries)) throw new TrafficFileError(`--from-har ${shown}: not a HAR log (no log.entries list); pass a HAR 1.2 file`);
  for (const [index, entry] of har.log.entries.entries()) yield fromHarEntry(entry, `--from-har ${shown} entry ${index}`);
}

function fromHarEntry(entry: HarEntry, where: string): ObservedExchange {
  if (!isObject(entry)) throw new TrafficFileError(`${where}: not an object; each entry of log.entries is one exchange`);
  const request = entry.request;
  const response = entry.response;
  if (!isObject(request) || typeof request.method !== 'string' || typeof request.url !== 'string') throw new TrafficFileError(`${where}: no request method and url; remove the entry or fix the file`);
  if (!isObject(response) || !Number.isInteger(response.status)) throw new TrafficFileError(`${where}: no response status; remove the entry or fix the file`);
  absoluteUrl(request.url, `${where}: request.url`);
  // Every field read below is checked first: a wrongly typed one is a line naming the entry and the field.
  const step = optionalString(entry.comment, `${where}: "comment" (the step name)`);
  const post = request.postData === undefined || request.postData === null ? undefined : request.postData;
  if (post !== undefined && !isObject(post)) throw new TrafficFileError(`${where}: request.postData must be an object with the body in "text"`);
  const postText = optionalString(post?.text, `${where}: request.postData.text`);
  const content = response.content ?? { size: 0, mimeType: '' };
  if (!isObject(content)) throw new TrafficFileError(`${where}: response.content must be an object with the body in "text"`);
  let responseText = optionalString(content.text, `${where}: response.content.text`);
  const encoding = optionalString((content as { encoding?: unknown }).encoding, `${where}: response.content.encoding`);
  if (responseText !== undefined && encoding === 'base64') responseText = Buffer.from(responseText, 'base64').toString('utf8');
  const omitted = optionalString(content._omitted, `${where}: response.content._omitted`);
  // A browser may leave content out (`size` but no `text`); the proxy says why it did (`_omitted`).
  const bodyOmitted = responseText !== undefined ? undefined : (omitted ?? (content.size || response.bodySize > 0 ? 'the HAR entry holds no response body' : undefined));
  return {
    ...optionalStart(entry.startedDateTime),
    method: request.method.toUpperCase(),
    url: request.url,
    requestHeaders: nameValues(request.headers),
    // The recorded text as it is: a body the recorder truncated (`_truncated`) is not padded back to its
    // `bodySize`, which only a replay sends and which a file may claim at any size. The judge reads a
    // request body only for the secrets it names, and those are in what was recorded.
    ...(postText !== undefined ? { requestBody: postText } : {}),
    status: response.status,
    responseHeaders: nameValues(response.headers),
    ...(responseText !== undefined ? { responseText } : bodyOmitted !== undefined ? { bodyOmitted } : { responseText: '' }),
    durationMs: typeof entry.time === 'number' ? entry.time : 0,
    ...(step ? { step } : {}),
  };
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The exchanges of an NDJSON access log, line by line (the file is streamed, never read whole). */
export async function* logExchanges(file: string, shown = file): AsyncGenerator<ObservedExchange> {
  const stream = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error: NodeJS.ErrnoException) => reject(new TrafficFileError(`--from-log ${shown}: cannot read it (${error.code ?? error.message}); pass an NDJSON access log`)));
  });
  await opened;
  let n = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    n++;
    if (line.trim() === '') continue;
    yield fromLogLine(line, `--from-log ${shown} line ${n}`);
  }
}

function fromLogLine(line: string, where: string): ObservedExchange {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line);
  } catch (error) {
    throw new TrafficFileError(`${where}: not JSON (${(error as Error).message}); each line is one exchange as a JSON object`);
  }
  if (!record || typeof record !== 'object' || Array.isArray(record)) throw new TrafficFileError(`${where}: not a JSON object; each line is one exchange as a JSON object`);
  const { method, url, status } = record;
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) throw new TrafficFileError(`${where}: "method" must be an HTTP method such as "GET"`);
  if (typeof url !== 'string') throw new TrafficFileError(`${where}: "url" must be the request's absolute URL (https://api.example.com/api/v1/...)`);
  absoluteUrl(url, `${where}: "url"`);
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) throw new TrafficFileError(`${where}: "status" must be an integer from 100 to 599 (got ${JSON.stringify(status)?.slice(0, 40)})`);
  const requestHeaders = logHeaders(record.request_headers, `${where}: "request_headers"`);
  const responseHeaders = logHeaders(record.response_headers, `${where}: "response_headers"`);
  const text = optionalString(record.response_body, `${where}: "response_body"`);
  const base64 = optionalString(record.response_body_base64, `${where}: "response_body_base64"`);
  const requestBody = optionalString(record.request_body, `${where}: "request_body"`);
  const step = optionalString(record.step, `${where}: "step"`);
  let body: Pick<ObservedExchange, 'responseText' | 'bodyOmitted'>;
  if (text !== undefined) body = { responseText: text };
  else if (base64 !== undefined) {
    const encoding = responseHeaders.filter((h) => h.name.toLowerCase() === 'content-encoding').map((h) => h.value).join(', ');
    const decoded = decodeBody(Buffer.from(base64, 'base64'), encoding || undefined);
    body = decoded.error ? { bodyOmitted: decoded.error } : { responseText: decoded.bytes.toString('utf8') };
  } else body = { bodyOmitted: 'the log line holds no response body' };
  const duration = record.duration_ms;
  if (duration !== undefined && (typeof duration !== 'number' || !(duration >= 0))) throw new TrafficFileError(`${where}: "duration_ms" must be a number of milliseconds`);
  return {
    ...optionalStart(record.time),
    method: method.toUpperCase(),
    url,
    requestHeaders,
    ...(requestBody !== undefined ? { requestBody } : {}),
    status: status as number,
    responseHeaders,
    ...body,
    durationMs: (duration as number | undefined) ?? 0,
    ...(step ? { step } : {}),
  };
}

function logHeaders(value: unknown, where: string): HarNameValue[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) throw new TrafficFileError(`${where} must be an object of header name -> value (a string, or a list of strings)`);
  const out: HarNameValue[] = [];
  for (const [name, v] of Object.entries(value)) {
    for (const one of Array.isArray(v) ? v : [v]) {
      if (typeof one !== 'string') throw new TrafficFileError(`${where}: header ${name.slice(0, 60)} must be a string or a list of strings`);
      out.push({ name, value: one });
    }
  }
  return out;
}

function optionalString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TrafficFileError(`${where} must be a string (got ${Array.isArray(value) ? 'a list' : typeof value}); write it as one or leave it out`);
  return value;
}

function nameValues(list: unknown): HarNameValue[] {
  return Array.isArray(list) ? list.filter((h): h is HarNameValue => typeof h?.name === 'string' && typeof h?.value === 'string') : [];
}

function absoluteUrl(value: string, where: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TrafficFileError(`${where} ${JSON.stringify(value.slice(0, 80))} is not an absolute URL; write it with its scheme and host`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TrafficFileError(`${where} must be http or https, not ${url.protocol}`);
}

function optionalStart(value: unknown): Pick<ObservedExchange, 'started'> {
  const started = validDate(value);
  return started ? { started } : {};
}

/** The time a record gives, if it gives a readable one. */
function validDate(value: unknown): Date | undefined {
  const date = typeof value === 'string' ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}
