import { describe } from '@jest/globals';
import { describeProcessBasics } from '@academy/testing/service-basics';

// Its readiness (Redis and each service) is tested in gateway.test.ts and redis-faults.test.ts.
describe('gateway process', () => {
  describeProcessBasics({ name: 'gateway', main: 'apps/gateway/src/main.ts', invalidEnv: { PORT: 'not-a-port', REDIS_URL: 'nope' } });
});
