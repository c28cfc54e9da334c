// Loaded into n8n-node lint's ESLint (package.json's lint script): typescript-eslint's helpers are hoisted to the
// repository's node_modules, where `typescript` is the API's TypeScript 7, whose JavaScript API they cannot read. Every
// `require('typescript')` made while linting gets this package's TypeScript 5.9 instead, as a package of its own would.
const Module = require('node:module');
const path = require('node:path');

const typescript5 = require.resolve('typescript', { paths: [path.join(__dirname, '..')] });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'typescript' ? typescript5 : resolve.call(this, request, ...rest);
};
