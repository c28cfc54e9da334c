import { textCollectionHandler } from '../../shared/text-collection-store';
import { policies } from './collection';

export const handler = textCollectionHandler(policies, 'update');
