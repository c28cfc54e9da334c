import { config } from '@n8n/node-cli/eslint';
import { globalIgnores } from 'eslint/config';

// The package's own rules, as n8n-node lint runs them; tools/ (the generator and the end-to-end run) and test/ are not part of the package.
export default [globalIgnores(['tools', 'test']), ...config];
