// Redocly plugin with this contract's own rules. One rule a file in ./rules, documented in ./README.md.
import ResponseEnvelope from './rules/response-envelope.js';
import ResponseNamedExamples from './rules/response-named-examples.js';
import ContractSourceValue from './rules/contract-source-value.js';
import SchemaTitleMatchesFile from './rules/schema-title-matches-file.js';
import PortablePattern from './rules/portable-pattern.js';

export default function contractPlugin() {
  return {
    id: 'contract',
    rules: {
      oas3: {
        'response-envelope': ResponseEnvelope,
        'response-named-examples': ResponseNamedExamples,
        'contract-source-value': ContractSourceValue,
        'schema-title-matches-file': SchemaTitleMatchesFile,
        'portable-pattern': PortablePattern,
      },
    },
  };
}
