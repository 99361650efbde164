import { describeServiceBasics } from '@academy/testing/service-basics';
import { readConfig } from '../src/config.ts';
import { hoursBankService } from '../src/service.ts';

describeServiceBasics({ definition: hoursBankService, readConfig, main: 'apps/hours-bank/src/main.ts', readiness: ['broker', 'database', 'outbox'] });
