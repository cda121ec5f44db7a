#!/usr/bin/env node
// The published `storefront-certify` bin still points at dist/conformance/src/cli.js (package.json "bin",
// outside this branch's edits). The CLI itself is conformance/rest/cli.ts; this file only starts it.
import '../rest/cli.js';
