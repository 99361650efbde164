import { describeServiceBasics } from '@academy/testing/service-basics';
import { readConfig } from '../src/config.ts';
import { notificationsService } from '../src/service.ts';

describeServiceBasics({ definition: notificationsService, readConfig, main: 'apps/notifications/src/main.ts', readiness: ['broker', 'cache', 'database', 'outbox'] });
