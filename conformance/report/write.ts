// Writes report.json, junit.xml and report.html of a certificate into a directory; returns their paths.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Certificate } from './certificate.js';
import { reportHtml } from './html.js';
import { junitXml } from './junit.js';

export function writeReports(cert: Certificate, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['report.json', `${JSON.stringify(cert, null, 2)}\n`],
    ['junit.xml', junitXml(cert)],
    ['report.html', reportHtml(cert)],
  ];
  return files.map(([name, text]) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  });
}
