// issue 38: the rule model and the running of rules (conformance/rules/model.ts, run.ts), and which
// exchanges a REST rule is handed (observations/rest.ts): a finding's reported severity under the rule and
// --strict, a rule that crashes, the tally of a run (judged, skipped with the most frequent reasons, errors,
// warnings, findings in a stable order and bounded), the judgement of several parts of one observation.
import { describe, expect, it } from 'vitest';
import { advisory, combine, isSkipped, problem, skip, type Finding, type Judgement, type Rule } from '../../../conformance/rules/model.js';
import { judgesGenerated, judgesTraffic, type Exchange } from '../../../conformance/rules/observations/rest.js';
import { judge, runRules, RuleTally, severityOf } from '../../../conformance/rules/run.js';

/** A rule of the given severity that returns what it is given (a function of the observation). */
function rule(id: string, severity: 'error' | 'warning', check: (o: never) => Judgement = (o) => o as Judgement): Rule<never> {
  return severity === 'error'
    ? { id, target: 'rest', severity, source: { kind: 'stated', ref: 'section 2.1' }, summary: `${id} summary`, check }
    : { id, target: 'rest', severity, source: { kind: 'designed', ref: 'spec/x' }, summary: `${id} summary`, check };
}
const stated = rule('stated-rule', 'error');
const designed = rule('designed-rule', 'warning');
const err = problem('status', 'wrong status');
const warn = advisory('previous_page', 'advice');

describe('issue 38: the findings of a rule', () => {
  it('problem, advisory and skip make what they say', () => {
    expect(err).toEqual({ subject: 'status', severity: 'error', message: 'wrong status' });
    expect(warn).toEqual({ subject: 'previous_page', severity: 'warning', message: 'advice' });
    expect(skip('why')).toEqual({ skipped: 'why' });
    expect(isSkipped(skip('why'))).toBe(true);
    expect(isSkipped([])).toBe(false);
    expect(isSkipped([err])).toBe(false);
  });

  it.each<[string, Judgement[], Judgement]>([
    ['nothing: judged, nothing wrong', [], []],
    ['all parts judged, nothing wrong', [[], []], []],
    ['the findings of every part', [[err], skip('a'), [warn]], [err, warn]],
    ['a part not judged: skipped, not passed', [[], skip('no delivery'), skip('no probe'), skip('no delivery')], skip('no delivery; no probe')],
    ['every part skipped', [skip('a')], skip('a')],
  ])('combine: %s', (_, parts, want) => {
    expect(combine(parts)).toEqual(want);
  });
});

describe('issue 38: a finding\'s reported severity', () => {
  it.each<[string, Rule<never>, Finding, boolean, string]>([
    ['an error of a stated rule', stated, err, false, 'error'],
    ['advice in a stated rule stays advice', stated, warn, false, 'warning'],
    ['an error of a designed rule is advice', designed, err, false, 'warning'],
    ['advice of a designed rule', designed, warn, false, 'warning'],
    ['--strict: advice is an error', stated, warn, true, 'error'],
    ['--strict: a designed rule\'s advice is an error', designed, warn, true, 'error'],
  ])('%s', (_, r, finding, strict, want) => {
    expect(severityOf(r, finding, { strict })).toBe(want);
    expect(judge(r, [finding] as never, { strict })).toEqual([{ ...finding, severity: want }]);
  });

  it('judge: a skip passes through, the policy defaults to none, a crash is an error of the rule', () => {
    expect(judge(stated, skip('nothing here') as never)).toEqual({ skipped: 'nothing here' });
    expect(judge(designed, [err] as never)).toEqual([{ ...err, severity: 'warning' }]);
    const crashing = rule('crashing', 'warning', () => {
      throw new Error('boom');
    });
    expect(judge(crashing, undefined as never, { strict: false })).toEqual([{ subject: 'rule', severity: 'error', message: 'the rule crashed (a certifier bug): boom' }]);
  });
});

describe('issue 38: the tally of a run', () => {
  const results = (tally: RuleTally) => Object.fromEntries(tally.results().map((r) => [r.id, r]));

  it('a rule per result: passed, failed, warned, skipped, with what it judged and found', () => {
    const tally = new RuleTally([stated, designed, rule('warned', 'error'), rule('idle', 'error'), rule('skipping', 'error')]);
    tally.add('stated-rule', []);
    tally.add('stated-rule', [err, warn], 'b/2');
    tally.add('stated-rule', skip('not a list'), 'b/3');
    tally.add('designed-rule', []);
    tally.add('warned', [warn], 'x/1');
    tally.add('skipping', skip('no page'));
    const r = results(tally);
    expect(r['stated-rule']).toEqual({
      id: 'stated-rule',
      target: 'rest',
      severity: 'error',
      source: { kind: 'stated', ref: 'section 2.1' },
      summary: 'stated-rule summary',
      status: 'failed',
      judged: 2,
      errors: 1,
      warnings: 1,
      findings: [
        { subject: 'b/2: status', severity: 'error', message: 'wrong status' },
        { subject: 'b/2: previous_page', severity: 'warning', message: 'advice' },
      ],
    });
    expect(r['designed-rule']).toEqual({ id: 'designed-rule', target: 'rest', severity: 'warning', source: { kind: 'designed', ref: 'spec/x' }, summary: 'designed-rule summary', status: 'passed', judged: 1, errors: 0, warnings: 0, findings: [] });
    expect(r['warned']).toMatchObject({ status: 'warned', judged: 1, errors: 0, warnings: 1, findings: [{ subject: 'x/1: previous_page', severity: 'warning', message: 'advice' }] });
    expect(r['warned']).not.toHaveProperty('skipped');
    expect(r['idle']).toMatchObject({ status: 'skipped', judged: 0, skipped: 'nothing to judge', errors: 0, warnings: 0, findings: [] });
    expect(r['skipping']).toMatchObject({ status: 'skipped', judged: 0, skipped: 'no page' });
    expect(Object.keys(r['skipping'])).not.toContain('findingsNotListed');
  });

  it('a finding without a place keeps its subject', () => {
    const tally = new RuleTally([stated]);
    tally.add('stated-rule', [err]);
    expect(tally.results()[0].findings).toEqual([err]);
  });

  it('findings without a place come before those with one, whatever order they came in', () => {
    for (const order of [['s/1', undefined], [undefined, 's/1']]) {
      const tally = new RuleTally([stated]);
      for (const where of order) tally.add('stated-rule', [problem('x', String(where))], where);
      expect(tally.results()[0].findings.map((f) => f.subject)).toEqual(['x', 's/1: x']);
    }
  });

  it('an unknown rule is a certifier bug, said', () => {
    expect(() => new RuleTally([stated]).add('other', [])).toThrow(new Error('RuleTally: unknown rule other'));
  });

  it('--strict: every rule reports errors, a designed one too', () => {
    const tally = new RuleTally([stated, designed], { strict: true });
    expect(tally.results().map((r) => r.severity)).toEqual(['error', 'error']);
    expect(new RuleTally([stated, designed], { strict: false }).results().map((r) => r.severity)).toEqual(['error', 'warning']);
  });

  it('findings in the order of their places, numbers as numbers, whatever order they came in', () => {
    const tally = new RuleTally([stated]);
    for (const where of ['s/10', 's/2', 'r/1', 's/1']) tally.add('stated-rule', [problem('x', where)], where);
    expect(tally.results()[0].findings.map((f) => f.subject)).toEqual(['r/1: x', 's/1: x', 's/2: x', 's/10: x']);
  });

  it('a bounded list of findings: all counted, the rest said', () => {
    const tally = new RuleTally([stated, designed], {}, 2);
    for (let i = 1; i <= 4; i++) tally.add('stated-rule', [problem('x', `e${i}`), advisory('y', `w${i}`)], `s/${i}`);
    tally.add('designed-rule', [warn, warn], 's/1');
    const [r, d] = tally.results();
    expect(r).toMatchObject({ judged: 4, errors: 4, warnings: 4, findingsNotListed: 6 });
    expect(r.findings.map((f) => f.message)).toEqual(['e1', 'w1']);
    // Exactly at the bound: all listed, none said to be missing.
    expect(d).toMatchObject({ warnings: 2 });
    expect(d.findings).toHaveLength(2);
    expect(d).not.toHaveProperty('findingsNotListed');
  });

  it('why a rule judged nothing: the most frequent reasons first, then by name, three at most', () => {
    const tally = new RuleTally([stated]);
    const reasons = { 'b rare': 1, 'a rare': 1, common: 3, 'c second': 2, 'd rare': 1 };
    for (const [reason, n] of Object.entries(reasons)) for (let i = 0; i < n; i++) tally.add('stated-rule', skip(reason));
    expect(tally.results()[0]).toMatchObject({ status: 'skipped', skipped: 'common; c second; a rare; and 2 more reasons' });
    const three = new RuleTally([stated]);
    for (const reason of ['z', 'y', 'x']) three.add('stated-rule', skip(reason));
    expect(three.results()[0].skipped).toBe('x; y; z');
  });

  it('at most 100 kinds of reason are kept per rule; a kept one is still counted', () => {
    const tally = new RuleTally([stated]);
    for (let i = 0; i < 120; i++) tally.add('stated-rule', skip(`reason ${String(i).padStart(3, '0')}`));
    // A reason kept, counted again: now the most frequent. One not kept stays unknown however often it comes.
    for (let i = 0; i < 3; i++) tally.add('stated-rule', skip('reason 099'));
    for (let i = 0; i < 5; i++) tally.add('stated-rule', skip('reason 100'));
    expect(tally.results()[0].skipped).toBe('reason 099; reason 000; reason 001; and 97 more reasons');
  });

  it('a rule that judged something is not skipped, whatever else it skipped', () => {
    const tally = new RuleTally([stated]);
    tally.add('stated-rule', skip('why'));
    tally.add('stated-rule', []);
    expect(tally.results()[0]).toMatchObject({ status: 'passed', judged: 1 });
    expect(tally.results()[0]).not.toHaveProperty('skipped');
  });

  it('runRules: every rule of a set on one observation, under the policy', () => {
    const found = rule('found', 'error', () => [warn]);
    const skipping = rule('skips', 'error', () => skip('no delivery'));
    expect(runRules([found, skipping], undefined as never).map((r) => [r.id, r.status, r.severity, r.warnings, r.errors, r.skipped])).toEqual([
      ['found', 'warned', 'error', 1, 0, undefined],
      ['skips', 'skipped', 'error', 0, 0, 'no delivery'],
    ]);
    expect(runRules([found], undefined as never, { strict: true })[0]).toMatchObject({ status: 'failed', errors: 1, warnings: 0, findings: [{ severity: 'error' }] });
  });
});

describe('issue 38: which exchanges a REST rule is handed', () => {
  const restRule = (appliesTo?: 'replayed' | 'generated' | 'all'): Rule<Exchange> => ({ ...(stated as Rule<Exchange>), ...(appliesTo ? { appliesTo } : {}) });
  it.each([
    ['a rule that does not say: replayed only', undefined, false, false],
    ['replayed', 'replayed', false, false],
    ['generated', 'generated', true, false],
    ['all', 'all', true, true],
  ] as const)('%s', (_, appliesTo, generated, traffic) => {
    expect(judgesGenerated(restRule(appliesTo))).toBe(generated);
    expect(judgesTraffic(restRule(appliesTo))).toBe(traffic);
  });
});
