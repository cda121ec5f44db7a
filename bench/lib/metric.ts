// One benchmark result: two sides measured in the same run, their ratio, and the target it must meet.
// Every suite in bench/suites returns these; bench/run.ts prints them and writes bench/results.json.

export interface Side {
  label: string;
  value: number;
}

export interface Target {
  /** `>=`: subject/baseline must be at least `ratio`; `<=`: at most. */
  op: '>=' | '<=';
  ratio: number;
}

export interface Metric {
  /** Stable id, e.g. `validator.listProducts.vs.jsonParse`. */
  id: string;
  description: string;
  unit: string;
  subject: Side;
  baseline: Side;
  ratio: number;
  target: Target;
  met: boolean;
  notes?: string;
  /** The suite that measured it (bench/suites/<suite>.ts), set by bench/run.ts. */
  suite?: string;
}

export function metric(input: Omit<Metric, 'ratio' | 'met'>): Metric {
  const ratio = input.subject.value / input.baseline.value;
  const met = input.target.op === '>=' ? ratio >= input.target.ratio : ratio <= input.target.ratio;
  return { ...input, ratio: Number(ratio.toFixed(4)), met };
}

export interface BenchSuite {
  name: string;
  run(): Promise<Metric[]>;
}
