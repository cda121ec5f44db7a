// Preloaded (`node --require`) into the @asyncapi/cli process that runs @asyncapi/html-template.
//
// Why: the template server-renders <AsyncApiComponent> from @asyncapi/react-component with its own
// react-dom 18. The component package has no react of its own, so it resolves the hoisted root
// `react`, which in this install is 19 (pulled in by @asyncapi/studio). A React 19 element rendered
// by react-dom 18 fails with "Objects are not valid as a React child". Here every request that would
// load the root react/react-dom is sent to the template's own copies instead, so one React renders.
// When the root copy already is React 18 (the tree is pinned in package.json), this does nothing.
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '../..', 'node_modules');
const templateModules = path.join(root, '@asyncapi/html-template/node_modules');

function major(dir) {
  try {
    return Number(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version.split('.')[0]);
  } catch {
    return undefined;
  }
}

const rootMajor = major(path.join(root, 'react'));
const templateMajor = major(path.join(templateModules, 'react'));

if (rootMajor !== undefined && templateMajor !== undefined && rootMajor !== templateMajor) {
  const redirects = ['react', 'react-dom'].map((name) => ({
    from: path.join(root, name) + path.sep,
    to: path.join(templateModules, name) + path.sep,
  }));
  const original = Module._resolveFilename;
  Module._resolveFilename = function resolveFilename(request, parent, ...rest) {
    const resolved = original.call(this, request, parent, ...rest);
    for (const { from, to } of redirects) {
      if (resolved.startsWith(from)) {
        const candidate = to + resolved.slice(from.length);
        if (fs.existsSync(candidate)) return candidate;
      }
    }
    return resolved;
  };
}
