// Writes report.json, junit.xml and report.html of a webhook certification; returns their paths.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WebhookCertificate } from './certificate.js';
import { webhookHtml, webhookJunit } from './rest-adapter.js';

export function writeWebhookReports(cert: WebhookCertificate, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['report.json', `${JSON.stringify(cert, null, 2)}\n`],
    ['junit.xml', webhookJunit(cert)],
    ['report.html', webhookHtml(cert)],
  ];
  return files.map(([name, text]) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  });
}
