import { yup } from '../../validate';
import { EVENT_TYPE_NAMES } from '../../../src/events/types';

export const listEventsQuery = yup.object({
  type: yup.string().oneOf([...EVENT_TYPE_NAMES], 'type must be an event type (see docs/events.md)'),
});
