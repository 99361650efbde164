import { describeServiceBasics } from '@academy/testing/service-basics';
import { readConfig } from '../src/config.ts';
import { incidentsService } from '../src/service.ts';

describeServiceBasics({ definition: incidentsService, readConfig, main: 'apps/incidents/src/main.ts', readiness: ['broker', 'cache', 'database', 'outbox'] });
