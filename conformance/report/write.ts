// Writes report.json, junit.xml and report.html of a certificate into a directory; returns their paths.
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Why `dir` cannot take the reports, checked before a run so a long certification is not wasted on a
 * folder it cannot write; undefined when it can. Creates nothing: looks at the folder or, when missing,
 * at its nearest existing ancestor.
 */
export function reportDirProblem(dir: string): string | undefined {
  let at = path.resolve(dir);
  while (!existsSync(at)) {
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  try {
    if (!statSync(at).isDirectory()) return `--report-dir ${dir}: ${at} is a file, not a folder; pass a folder`;
    accessSync(at, constants.W_OK | constants.X_OK);
  } catch (error) {
    return `--report-dir ${dir}: ${at} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'}); pass a folder you can write`;
  }
  return undefined;
}
