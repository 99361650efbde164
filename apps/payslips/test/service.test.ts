import { describeServiceBasics } from '@academy/testing/service-basics';
import { readConfig } from '../src/config.ts';
import { payslipsService } from '../src/service.ts';

describeServiceBasics({ definition: payslipsService, readConfig, main: 'apps/payslips/src/main.ts', readiness: ['broker', 'database', 'outbox'] });
