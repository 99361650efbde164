import { ForbiddenError } from '@academy/kit';

export const notAnEmployee = () => new ForbiddenError('Only employees have time records and their own incidents', 'NOT_AN_EMPLOYEE');
