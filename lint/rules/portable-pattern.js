// A `pattern` must mean the same to every tool that reads this contract: ECMA-262 validators (Ajv, with
// or without the `u` flag), Java validators and generators (java.util.regex), and generators built on
// dk.brics.automaton (Specmatic, Generex, Schemathesis-like tools). Those three syntaxes agree only on a
// subset; outside it a pattern is refused by one tool (Specmatic 2.55 rejected the whole storefront
// document over a bare `"`) or silently read as another language (a generator then sends values the
// server refuses). The subset, and why each thing outside it is refused:
//
// - Anchored at both ends, `^` first and `$` last, and nowhere else. JSON Schema validators search for a
//   match, generators and Java's matches() build or test the whole value: anchored, all read one language.
//   automaton has no anchors at all (tools strip the outer pair only).
// - No shorthand classes `\d \D \s \S \w \W`: ECMA's `\s` admits Unicode spaces and U+FEFF, Java's is
//   ASCII, Specmatic substitutes its own set, raw automaton reads `\s` as `s`; `\w`/`\d` widen under
//   Java's UNICODE_CHARACTER_CLASS and ECMA's `ui` flags. Write the class: `[0-9]`, `[ \t\n\r]`.
// - No letter or digit escapes (`\t \n \r \f \v \xHH \uHHHH \cX \0`, backreferences `\1`, `\k<..>`,
//   `\p{..}`, `\b \B`): automaton reads `\t` as `t` and has no word boundaries, backreferences or Unicode
//   properties. Put the character itself in the pattern (a YAML double-quoted "\t" does that).
// - An escape only before a syntax character (`^ $ \ . * + ? ( ) [ ] { } | /`, and `-` in a class):
//   any other identity escape (`\@`, `\"`) is a syntax error for ECMA with the `u` flag (Ajv's default).
// - No bare `" @ # < > & ~` outside a class: automaton operators (quoted string, any string, empty
//   language, numeric interval, intersection, complement). Write `["]`, `[@]`, ...
// - No `.`: it excludes \n \r \u2028 \u2029 in ECMA, also \u0085 in Java, nothing in automaton. Write a class.
// - No `(?` groups (non-capturing, lookarounds, named groups, inline flags): automaton has only plain
//   groups and reads `(?:` as the characters `?:`. Plain `( )` groups mean the same everywhere.
// - Quantifiers `* + ? {n} {n,} {n,m}` only, never lazy (`*?`) or possessive (`*+`): automaton and
//   ECMA lack possessive ones, and laziness means nothing to a generator. `{` and `}` are quantifier
//   syntax only (`\{` for a brace; `{,m}` is an error in Java and a literal in ECMA).
// - No empty alternative (`(|a)`, `a||b`): automaton reads that `|` as a character.
// - In a class: no bare `[` (a nested class in Java), no `&&` (intersection in Java), not empty (`[]`,
//   `[^]` mean nothing or anything depending on the engine).
// - No character outside the Basic Multilingual Plane: without the `u` flag ECMA and automaton see two
//   UTF-16 units where Java sees one code point.
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);
const AUTOMATON_OPERATORS = new Set([...'"@#<>&~']);

/** The reasons `pattern` is outside the portable subset; empty when it is inside. */
export function portablePatternProblems(pattern) {
  const problems = [];
  const add = (message) => problems.includes(message) || problems.push(message);
  const escape = (c, inClass) => {
    if (/[dDsSwW]/.test(c)) return `\\${c} (shorthand class: engines disagree on its members; write the class, e.g. [0-9] or [ \\t\\n\\r])`;
    if (c === 'b' || c === 'B') return `\\${c} (word boundary: dk.brics.automaton has none)`;
    if (/[0-9]/.test(c)) return `\\${c} (backreference or octal escape: dk.brics.automaton has none)`;
    if (/[A-Za-z]/.test(c)) return `\\${c} (letter escape: dk.brics.automaton reads it as the letter; put the character itself in the pattern)`;
    if (SYNTAX.has(c) || (inClass && c === '-')) return undefined;
    return `\\${c} (identity escape: a syntax error for ECMA with the u flag; write [${c}])`;
  };
  if (!pattern.startsWith('^')) add('not anchored at the start (begin with ^)');
  const endsAnchored = pattern.endsWith('$') && !/(^|[^\\])(\\\\)*\\\$$/.test(pattern);
  if (!endsAnchored) add('not anchored at the end (end with $)');
  let quantifiable = false; // the previous token can take a quantifier
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const code = pattern.codePointAt(i);
    if (code > 0xffff) {
      add('a character outside the Basic Multilingual Plane (read as two UTF-16 units without the u flag)');
      i++;
      continue;
    }
    if (c === '\\') {
      const problem = escape(pattern[i + 1] ?? '', false);
      if (problem) add(problem);
      i++;
      quantifiable = true;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') add('an empty class [] or [^] (engines disagree on what it matches)');
      for (; j < pattern.length && pattern[j] !== ']'; j++) {
        if (pattern[j] === '\\') {
          const problem = escape(pattern[j + 1] ?? '', true);
          if (problem) add(problem);
          j++;
        } else if (pattern[j] === '[') add('a bare [ inside a class (a nested class in Java; write \\[)');
        else if (pattern[j] === '&' && pattern[j + 1] === '&') add('&& inside a class (intersection in Java)');
        else if (pattern.codePointAt(j) > 0xffff) add('a character outside the Basic Multilingual Plane (read as two UTF-16 units without the u flag)');
      }
      if (j >= pattern.length) add('an unclosed [');
      i = j;
      quantifiable = true;
      continue;
    }
    if (c === '^') {
      if (i !== 0) add('^ other than at the start');
      quantifiable = false;
      continue;
    }
    if (c === '$') {
      if (i !== pattern.length - 1) add('$ other than at the end');
      quantifiable = false;
      continue;
    }
    if (c === '(') {
      if (pattern[i + 1] === '?') {
        add('a (? group (non-capturing, lookaround, named or flags: dk.brics.automaton has plain groups only)');
        i++;
      }
      if (pattern[i + 1] === '|') add('an empty alternative (dk.brics.automaton reads that | as a character)');
      quantifiable = false;
      continue;
    }
    if (c === '|') {
      const next = pattern[i + 1];
      if (i === 0 || pattern[i - 1] === '^' || next === '|' || next === ')' || next === '$' || next === undefined) add('an empty alternative (dk.brics.automaton reads that | as a character)');
      quantifiable = false;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      if (c === '{') {
        const m = /^\{[0-9]+(,[0-9]*)?\}/.exec(pattern.slice(i));
        if (!m) {
          add('a { that is not a quantifier {n}, {n,} or {n,m} (write \\{ for a brace)');
          quantifiable = true;
          continue;
        }
        i += m[0].length - 1;
      }
      if (!quantifiable) add(`a quantifier with nothing to repeat at ${i}`);
      if (pattern[i + 1] === '?' || pattern[i + 1] === '+') {
        add('a lazy or possessive quantifier (*? +? ?? {n}? or *+ ...: not portable, and meaningless to a generator)');
        i++;
      }
      quantifiable = false;
      continue;
    }
    if (c === '}' || c === ']') add(`a bare ${c} (write \\${c})`);
    else if (c === '.') add('. (its line terminators differ between ECMA, Java and dk.brics.automaton; write a class)');
    else if (AUTOMATON_OPERATORS.has(c)) add(`a bare ${c} (an operator of dk.brics.automaton; write [${c}])`);
    quantifiable = true;
  }
  return problems;
}

export default function PortablePattern() {
  const report = (ctx, location, pattern, problems) =>
    ctx.report({
      message: `pattern ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern)} is outside the portable subset (ECMA-262, Java and dk.brics.automaton read it differently): ${problems.join('; ')}.`,
      location,
    });
  return {
    Schema: {
      enter(schema, ctx) {
        if (typeof schema.pattern === 'string') {
          const problems = portablePatternProblems(schema.pattern);
          if (problems.length) report(ctx, ctx.location.child('pattern'), schema.pattern, problems);
        }
        if (schema.patternProperties && typeof schema.patternProperties === 'object') {
          for (const key of Object.keys(schema.patternProperties)) {
            const problems = portablePatternProblems(key);
            if (problems.length) report(ctx, ctx.location.child(['patternProperties', key]).key(), key, problems);
          }
        }
      },
    },
  };
}
