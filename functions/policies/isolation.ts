import type { IsolationCases } from '../../shared/resource';
import { policies } from './collection';

/** How each policies route that takes an API key answers another organization (test/isolation.test.ts), as the CRUD definition derives it. */
export const isolationCases: IsolationCases = policies.isolationCases;
