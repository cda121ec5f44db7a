// One module's mutation result, summarised from StrykerJS's JSON report (the mutation-testing-report-schema)
// into what is committed in test/mutation/results/<module>.json and rendered into the README: the counts, the
// score, every surviving mutant, and every mutant marked equivalent in the code with its reason
// (`// Stryker disable next-line <Mutator>: <reason>`).
import { MUTATION_THRESHOLD, type MutationModule } from './modules.js';

export interface MutantLine {
  file: string;
  line: number;
  mutator: string;
  /** The mutated code, shortened to one line. */
  replacement: string;
}

export interface ModuleResult {
  module: string;
  title: string;
  /** When the run that wrote this ended (ISO). */
  date: string;
  /** `full` (every mutant tested) or `incremental` (results of unchanged code and tests reused). */
  run: 'full' | 'incremental';
  /** Whether the TypeScript checker dropped mutants that do not compile (committed results: true). */
  checker: boolean;
  counts: { mutants: number; killed: number; timeout: number; survived: number; noCoverage: number; compileError: number; runtimeError: number; ignored: number };
  /** Killed and timed-out mutants over all valid, not ignored ones (Stryker's "mutation score"), in percent with one decimal. */
  score: number;
  survivors: MutantLine[];
  /** Mutants shown equivalent (or not worth a test), each with the reason written beside the code. */
  equivalent: (MutantLine & { reason: string })[];
}

interface ReportMutant {
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  statusReason?: string;
  location: { start: { line: number; column: number } };
}

export interface StrykerReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

function oneLine(text: string | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

export function summarise(module: MutationModule, report: StrykerReport, run: ModuleResult['run'], checker: boolean, root: string): ModuleResult {
  const counts = { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, compileError: 0, runtimeError: 0, ignored: 0 };
  const survivors: MutantLine[] = [];
  const equivalent: ModuleResult['equivalent'] = [];
  const rootPrefix = root.endsWith('/') ? root : `${root}/`;
  for (const [absolute, file] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const relative = absolute.startsWith(rootPrefix) ? absolute.slice(rootPrefix.length) : absolute;
    for (const mutant of [...file.mutants].sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column)) {
      counts.mutants++;
      const line: MutantLine = { file: relative, line: mutant.location.start.line, mutator: mutant.mutatorName, replacement: oneLine(mutant.replacement) };
      switch (mutant.status) {
        case 'Killed': counts.killed++; break;
        case 'Timeout': counts.timeout++; break;
        case 'Survived': counts.survived++; survivors.push(line); break;
        case 'NoCoverage': counts.noCoverage++; survivors.push(line); break;
        case 'CompileError': counts.compileError++; break;
        case 'RuntimeError': counts.runtimeError++; break;
        case 'Ignored': counts.ignored++; equivalent.push({ ...line, reason: oneLine(mutant.statusReason) }); break;
        default: throw new Error(`mutation report: mutant at ${relative}:${line.line} has status ${mutant.status}, not a final one`);
      }
    }
  }
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  const score = valid === 0 ? 100 : Math.floor((detected / valid) * 1000) / 10;
  return { module: module.name, title: module.title, date: new Date().toISOString(), run, checker, counts, score, survivors, equivalent };
}

export function meetsThreshold(result: ModuleResult): boolean {
  return result.score >= MUTATION_THRESHOLD;
}
