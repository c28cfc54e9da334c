import { textCollectionHandler } from '../../shared/text-collection-store';
import { faqs } from './collection';

export const handler = textCollectionHandler(faqs, 'delete');
