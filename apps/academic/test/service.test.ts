import { describeServiceBasics } from '@academy/testing/service-basics';
import { readConfig } from '../src/config.ts';
import { academicService } from '../src/service.ts';

describeServiceBasics({ definition: academicService, readConfig, main: 'apps/academic/src/main.ts', readiness: ['broker', 'database', 'outbox'] });
