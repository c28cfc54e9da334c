import type { IsolationCases } from '../../shared/resource';
import { faqs } from './collection';

/** How each faqs route that takes an API key answers another organization (test/isolation.test.ts), as the CRUD definition derives it. */
export const isolationCases: IsolationCases = faqs.isolationCases;
